"""Reading tiles from camera frames: find each tile, then name its face.

The pipeline is stages of plain functions (STYLE.md lesson 14):

* :mod:`tablekit.vision.detect` finds tile boxes (a small CenterNet-style ONNX model),
* :mod:`tablekit.vision.classify` names each face (a small CNN, 39 classes),
* :mod:`tablekit.vision.postprocess` holds the numpy steps both share (peaks, NMS, scaling),
* :mod:`tablekit.vision.reader` ties them together: ``TileReader.read(image)``.

Nothing here imports torch; training lives in ``tools/train_vision.py``.
"""
