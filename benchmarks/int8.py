"""The three vision models quantised to int8 by onnxruntime, against the float ones.

Usage: python benchmarks/int8.py [--photos DIR] [--out DIR] [--sets NAME...] [--rigs N]
       [--frames F] [--repeat N] [--json OUT]
Each model (tile classifier, photo detector, table detector) is quantised two ways into
``--out``: dynamic (weights int8, activations quantised on the fly) and static (QDQ, weights
per channel, activations calibrated on the very inputs tablekit feeds the model: the photo
path on the held-out photos' first few and the table path on simulated frames, seeds 500
up, never those measured). Printed: ms per model run (median of ``--repeat``, one thread) on
those inputs (the classifier on a batch of 64 crops, the photo detector per photo, the table
detector per view), then F1 with one model at a time swapped for its int8 version: the photo
sets (``benchmarks/vision_accuracy.py``'s measure) and the simulated table
(``benchmarks/vision_sim.py``'s rectified path, ``--rigs`` x ``--frames``).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from tablekit.vision.onnx_model import CLASSIFIER_PATH, DETECTOR_PATH, load_model  # noqa: E402
from tablekit.vision.reader import TileReader  # noqa: E402
from tablekit.vision.table_reader import TABLE_DETECTOR_PATH, TableModels  # noqa: E402
from training.evaluate import evaluate  # noqa: E402
from training.photo_sets import EVAL_SETS  # noqa: E402

MODELS = {"classifier": CLASSIFIER_PATH, "photo detector": DETECTOR_PATH,
          "table detector": TABLE_DETECTOR_PATH}
CALIBRATION_RUNS = 24
"""Inputs per model kept for static calibration."""


class Recording:
    """A model that keeps the batches it is given (up to ``limit``) and runs them."""

    def __init__(self, model, limit: int = CALIBRATION_RUNS) -> None:
        self.model, self.limit, self.batches = model, limit, []
        self.input_shape, self.input_name = model.input_shape, model.input_name

    def run(self, batch: np.ndarray) -> dict[str, np.ndarray]:
        if len(self.batches) < self.limit:
            self.batches.append(batch.copy())
        return self.model.run(batch)


def sim_frames(rigs: int, frames: int, first_seed: int):
    """(frame, profile, art) of ``rigs`` calibrated rigs playing the held-out logs."""
    from vision_sim import held_out_logs

    from tablekit.sim.script import Script
    from tablekit.sim.source import SimulatedCamera
    from tablekit.vision.calibration import CalibrationError, calibrate

    logs = held_out_logs()
    for seed in range(first_seed, first_seed + rigs):
        camera = SimulatedCamera(Script.from_log(logs[seed % len(logs)]), seed=seed)
        try:
            profile = calibrate([camera.render_moment(i, 1.0).image for i in (0, 1)])
        except CalibrationError:
            continue
        rng = np.random.default_rng(seed)
        count = len(camera.script.moments)
        for _ in range(frames):
            frame = camera.render_moment(int(rng.integers(count)), float(rng.uniform(0, 1)))
            yield frame, profile, camera.rig.look.art


def model_inputs(photos: list[np.ndarray], rigs: int) -> dict[str, list[np.ndarray]]:
    """What tablekit feeds each model: the photo path on ``photos``, the table path on
    ``rigs`` simulated rigs (seeds 500 up)."""
    from tablekit.vision.table_reader import read_frame

    reader = TileReader.load()
    photo = dataclasses.replace(reader, detector=Recording(reader.detector),
                                classifier=Recording(reader.classifier))
    for image in photos:
        photo.read(image)
    models = TableModels.load()
    table = dataclasses.replace(models, detector=Recording(models.detector),
                                classifier=Recording(models.classifier))
    for frame, profile, _ in sim_frames(rigs, 2, 500):
        read_frame(frame.image, profile, table)
    crops = np.concatenate(photo.classifier.batches + table.classifier.batches)
    return {"classifier": [crops[i: i + 64] for i in range(0, len(crops) - 63, 64)],
            "photo detector": photo.detector.batches, "table detector": table.detector.batches}


def quantised(path: Path, inputs: list[np.ndarray], out: Path) -> dict[str, Path]:
    """The dynamic and the static int8 versions of ``path`` (written to ``out`` once)."""
    from onnxruntime.quantization import (
        CalibrationDataReader,
        QuantFormat,
        QuantType,
        quantize_dynamic,
        quantize_static,
    )

    name = load_model(path).input_name
    done = {kind: out / f"{path.stem}.{kind}.onnx" for kind in ("dynamic", "static")}

    class Reader(CalibrationDataReader):
        def __init__(self) -> None:
            self.left = iter(inputs)

        def get_next(self):
            batch = next(self.left, None)
            return None if batch is None else {name: batch}

    if not done["dynamic"].is_file():
        quantize_dynamic(path, done["dynamic"], weight_type=QuantType.QInt8)
    if not done["static"].is_file():
        quantize_static(path, done["static"], Reader(), quant_format=QuantFormat.QDQ,
                        per_channel=True, activation_type=QuantType.QUInt8,
                        weight_type=QuantType.QInt8)
    return done


def ms_per_run(path: Path, inputs: list[np.ndarray], repeat: int) -> float:
    """Median ms of one run over the inputs (one thread), each input ``repeat`` times."""
    model = load_model(path, 1)
    times = []
    for batch in inputs[:8]:
        model.run(batch)
        for _ in range(repeat):
            start = time.perf_counter()
            model.run(batch)
            times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def photo_f1(photos: dict, swap: dict[str, Path]) -> dict[str, float]:
    """F1 per photo set with the photo path's models swapped as given."""
    reader = TileReader.load(**swap)
    return {name: round(evaluate(reader.read, subset).summary()["f1"], 4)
            for name, subset in photos.items()}


def sim_f1(rigs: int, frames: int, swap: dict[str, Path]) -> float:
    """The rectified path's F1 on ``vision_sim``'s rigs with its models swapped as given."""
    from vision_sim import run

    models = TableModels.load(**swap)
    options = argparse.Namespace(rigs=rigs, frames=frames, threads=1, rectified_only=True)
    tally, _, _ = run(options, models)
    return round(tally.counts["tablekit rectified"].f1, 4)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--photos", type=Path, default=ROOT.parent / "shared/data/photos")
    parser.add_argument("--out", type=Path, default=Path(tempfile.gettempdir()) / "tablekit-int8",
                        help="where the int8 models are written")
    parser.add_argument("--sets", nargs="*", default=list(EVAL_SETS), choices=list(EVAL_SETS))
    parser.add_argument("--rigs", type=int, default=4, help="simulated rigs for the table F1")
    parser.add_argument("--frames", type=int, default=3)
    parser.add_argument("--repeat", type=int, default=10)
    parser.add_argument("--json", type=Path, default=None, help="also write the figures here")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    photos = {name: [(im, cv2.imread(str(im.path))) for im in EVAL_SETS[name](args.photos)]
              for name in args.sets}
    first = [image for subset in photos.values() for _, image in subset[:4]]
    inputs = model_inputs(first, 3)
    base_photo = photo_f1(photos, {})
    base_sim = sim_f1(args.rigs, args.frames, {})
    figures: dict = {"float": {"photo_f1": base_photo, "sim_f1": base_sim}}
    print(f"float models: photo F1 {base_photo}, simulated table F1 {base_sim}", flush=True)
    for key, path in MODELS.items():
        versions = {"float": path, **quantised(path, inputs[key], args.out)}
        for kind, version in versions.items():
            row: dict = {"ms": round(ms_per_run(version, inputs[key], args.repeat), 2)}
            swap = {"classifier" if key == "classifier" else "detector": version}
            if kind != "float" and key != "table detector":
                row["photo_f1"] = photo_f1(photos, swap)
                row["photo_drop"] = max(round(base_photo[n] - row["photo_f1"][n], 4)
                                        for n in photos)
            if kind != "float" and key != "photo detector":
                row["sim_f1"] = sim_f1(args.rigs, args.frames, swap)
                row["sim_drop"] = round(base_sim - row["sim_f1"], 4)
            figures[f"{key} {kind}"] = row
            print(f"{key:15} {kind:8} {row['ms']:7.2f} ms/run  "
                  f"{json.dumps({k: v for k, v in row.items() if k != 'ms'})}", flush=True)
    if args.json:
        args.json.write_text(json.dumps(figures, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
