"""Training tablekit's vision models: one package beside the runtime, never in its wheel.

One entry point, ``python -m training COMMAND`` (:mod:`training.__main__`), from the repository
root with the ``train`` extra installed (``pip install -e '.[train]'``):

- ``pack``: the photo pack (training photos, boxes, tile art) in one portable file;
- ``photo``: the photo detector from scratch and the first (photo-only) classifier;
- ``tune-detector``: an exported photo detector trained further;
- ``table``: sim rigs rendered, the table detector from scratch, the classifier fine-tuned;
- ``retrain``: all three models in one run (``pack`` when absent, ``table`` and
  ``tune-detector``'s steps), checked with tablekit's readers;
- ``refiner``: the box refiner (``box_refiner.onnx``), trained on the CPU;
- ``photo-classifier``: the photo path's classifier (``photo_classifier.onnx``), the shipped
  classifier fine-tuned on the CPU on photos' faces at any slant;
- ``red-fives``: the red-five check (``red_fives.json``) fitted on simulated rigs;
- ``card``: the model card's figures and commands from the logs (``card-draft.md``).

Every command that trains a network takes ``--device cpu|cuda``. The commands that made the
shipped models are in ``tablekit/models/README.md``. Modules:

- :mod:`training.nets`, :mod:`training.from_onnx`: the networks in torch, and an exported
  one read back to train on;
- :mod:`training.photo_sets`: which labelled photos train and which are held out;
- :mod:`training.photo_data`, :mod:`training.photo_batches`: the photo pack and its batches;
- :mod:`training.sim_data`, :mod:`training.sim_batches`: the simulated table's views and
  patches, and their batches;
- :mod:`training.photo`, :mod:`training.table`, :mod:`training.retrain`,
  :mod:`training.red_fives`, :mod:`training.refiner`, :mod:`training.photo_classifier`: the
  runs;
- :mod:`training.cpu_runs`: the options and log the CPU-only runs share;
- :mod:`training.evaluate`: a reader scored on labelled photos (the benchmarks' figures);
- :mod:`training.face_cut`: printed faces cut from labelled photos (the ``photo-*`` art sets
  of ``tools/make_photo_art.py``);
- :mod:`training.card`: the model card's draft.

tablekit never imports this package (an import-linter contract); torch is imported only by the
modules that train.
"""
