"""Enrollment from labelled photos, measured on the unseen-table group (never trained on).

Usage: python benchmarks/enroll_accuracy.py [--photos DIR] [--counts 1 3 5] [--draws N]
       [--methods nearest head] [--tests plausible all] [--json OUT]
For each count k: k of the group's plausible-label photos are enrolled with
``tablekit enroll --from-labels`` (a folder of links in the shared format), the rest of the
group is the test (plausible-label photos, and all of them). The k photos are chosen
``coverage`` (each next photo shows the most kinds not yet shown: a club photographs its
whole set) and ``random`` (``--draws`` seeded draws), and enrolled by each of ``--methods``
(``tablekit enroll --method``: nearest faces, or the head refitted). Prints F1, precision,
recall, class accuracy among matched tiles (IoU >= 0.5) and the CPU seconds of the
enrollment, against the unenrolled reader on the same test photos.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from tablekit.cli import main as tablekit  # noqa: E402
from tablekit.vision.datasets import LabelledImage  # noqa: E402
from tablekit.vision.reader import TileReader  # noqa: E402
from tablekit.vision.tileset import TileSet  # noqa: E402
from training.evaluate import evaluate, plausible  # noqa: E402
from training.photo_sets import CHINESE, EVAL_SETS  # noqa: E402


def coverage_order(images: list[LabelledImage], count: int) -> list[int]:
    """Indices of ``count`` photos, each next one showing the most kinds not yet shown."""
    chosen: list[int] = []
    shown: set[str | None] = set()
    for _ in range(count):
        best = max((i for i in range(len(images)) if i not in chosen),
                   key=lambda i: (len(set(images[i].codes) - shown), -i))
        chosen.append(best)
        shown |= set(images[best].codes)
    return chosen


def link_folder(images: list[LabelledImage], photos: Path, folder: Path) -> Path:
    """A folder in the shared format (images/, labels/, class_map.json) of links."""
    (folder / "images").mkdir(parents=True)
    (folder / "labels").mkdir()
    (folder / "class_map.json").symlink_to(photos / CHINESE / "class_map.json")
    for image in images:
        (folder / "images" / image.path.name).symlink_to(image.path)
        label = image.path.parent.parent / "labels" / f"{image.path.stem}.txt"
        (folder / "labels" / label.name).symlink_to(label)
    return folder


def figures(result) -> dict:  # type: ignore[no-untyped-def]
    summary = result.summary()
    matched = result.count.tp + len(result.count.confusions)
    summary["class_accuracy"] = round(result.count.tp / max(matched, 1), 4)
    del summary["confusions"]
    summary["confusions"] = [f"{t}->{p} x{n}" for (t, p), n in result.count.top_confusions(5)]
    return summary


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--photos", type=Path, default=ROOT.parent / "shared/data/photos")
    parser.add_argument("--counts", type=int, nargs="+", default=[1, 3, 5])
    parser.add_argument("--draws", type=int, default=2, help="random draws per count")
    parser.add_argument("--methods", nargs="+", choices=("nearest", "head"),
                        default=["nearest", "head"])
    parser.add_argument("--tests", nargs="+", choices=("plausible", "all"),
                        default=["plausible", "all"])
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args()
    group = EVAL_SETS["unseen-table"](args.photos)
    decoded = {image.path: cv2.imread(str(image.path)) for image in group}
    good = [image for image in group if plausible(image.codes)]
    base = TileReader.load()
    rows = []
    for count in args.counts:
        picks = [("coverage", coverage_order(good, count))]
        picks += [(f"random {seed}", list(np.random.default_rng(seed).permutation(len(good))
                                          [:count])) for seed in range(args.draws)]
        for how, chosen in picks:
            enrolled = [good[i] for i in chosen]
            tests = {"plausible": [i for i in good if i not in enrolled],
                     "all": [i for i in group if i not in enrolled]}
            pairs = {part: [(image, decoded[image.path]) for image in tests[part]]
                     for part in args.tests}
            before = {part: figures(evaluate(base.read, pairs[part])) for part in args.tests}
            for method in args.methods:
                with tempfile.TemporaryDirectory() as scratch:
                    folder = link_folder(enrolled, args.photos, Path(scratch) / "labelled")
                    out = Path(scratch) / "set"
                    cpu = time.process_time()
                    if tablekit(["enroll", "--from-labels", str(folder), "--out", str(out),
                                 "--method", method]):
                        return 1
                    cpu = time.process_time() - cpu
                    tileset = TileSet.load(out)
                    reader = TileReader(base.detector, tileset.load_classifier(),
                                        overlap=tileset.overlap, refiner=base.refiner)
                    for part in args.tests:
                        row = {"photos_enrolled": count, "chosen": how, "method": method,
                               "test": part, "enroll_cpu_s": round(cpu, 1),
                               "overlap": tileset.overlap,
                               "enrolled": figures(evaluate(reader.read, pairs[part])),
                               "unenrolled": before[part]}
                        rows.append(row)
                        new, old = row["enrolled"], row["unenrolled"]
                        print(f"k={count} {how:9} {method:7} test {part:9} "
                              f"({new['photos']:2} photos) F1 {old['f1']:.3f} -> "
                              f"{new['f1']:.3f}  P {new['precision']:.3f} "
                              f"R {new['recall']:.3f}  class acc {old['class_accuracy']:.3f} "
                              f"-> {new['class_accuracy']:.3f}  enroll {cpu:.1f} s CPU  "
                              f"overlap {tileset.overlap:g}  "
                              f"{', '.join(new['confusions'][:3])}", flush=True)
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
