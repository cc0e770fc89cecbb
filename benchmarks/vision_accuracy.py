"""Tile-reading accuracy of tablekit and of mahjong-detector on held-out real photos.

Usage: python benchmarks/vision_accuracy.py [--photos DIR] [--threads N] [--json OUT]
       [--detector ONNX] [--classifier ONNX] [--sets NAME...] [--no-peer] [--ways 1|2|4]
       [--sure SCORE|all]
For each held-out set (training.photo_sets.EVAL_SETS) and each reader: F1 at IoU 0.5 with
the class right, precision, recall, mean ms per photo, the share of reads scoring under 0.8
(``unsure``: :mod:`tablekit.vision.familiar`'s measure of an unknown set) and the commonest
confusions, on the same decoded images in the same run. Photos whose labels are impossible
for one set (five or more of one kind: the 'unseen-table' group has a few labelled all '1p')
are scored apart.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import cv2  # noqa: E402

from tablekit.vision.classify import WAYS  # noqa: E402
from tablekit.vision.metrics import Count  # noqa: E402
from tablekit.vision.reader import SURE, TileReader  # noqa: E402
from training.evaluate import evaluate, plausible  # noqa: E402
from training.photo_sets import EVAL_SETS  # noqa: E402


def readers(threads: int, classifier: Path | None = None, peer: bool = True,
            detector: Path | None = None, ways: int = 4, sure: float | None = SURE,
            refine: bool = True) -> dict:
    options = {key: path for key, path in (("classifier", classifier), ("detector", detector))
               if path}
    reader = TileReader.load(threads=threads, **options,
                             **({} if refine else {"refiner": None}))
    found = {"tablekit": dataclasses.replace(reader, ways=ways, sure=sure).read}
    if not peer:
        return found
    try:
        from vision_peer import load_peer

        found["mahjong-detector"] = load_peer(threads)
    except ImportError as error:
        print(f"mahjong-detector not installed ({error}); tablekit alone", file=sys.stderr)
    return found


def class_accuracy(count: Count) -> float:
    """Of the tiles found where they lie, the share named right."""
    return count.tp / max(count.tp + len(count.confusions), 1)


def photo_sets(found_readers: dict, sets: list[str], photos_dir: Path) -> dict:
    """Each set's (and its plausible labels') summary per reader, by "SET / READER",
    each printed as it comes."""
    figures: dict = {}
    for name in sets:
        photos = [(image, cv2.imread(str(image.path))) for image in EVAL_SETS[name](photos_dir)]
        parts = {"": photos, " (plausible labels)": [p for p in photos if plausible(p[0].codes)]}
        for suffix, subset in parts.items():
            if suffix and len(subset) == len(photos):
                continue
            for reader_name, read in found_readers.items():
                result = evaluate(read, subset)
                summary = result.summary()
                summary["class_accuracy"] = round(class_accuracy(result.count), 4)
                figures[f"{name}{suffix} / {reader_name}"] = summary
                print(f"{name}{suffix:20} {reader_name:17} photos {summary['photos']:3} "
                      f"F1 {summary['f1']:.3f} P {summary['precision']:.3f} "
                      f"R {summary['recall']:.3f} {summary['ms_mean']:6.1f} ms/photo  "
                      f"unsure {summary['unsure']:.1%}  "
                      f"{', '.join(summary['confusions'][:5])}", flush=True)
    return figures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--photos", type=Path, default=ROOT.parent / "shared/data/photos")
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--json", type=Path, default=None, help="also write the figures here")
    parser.add_argument("--classifier", type=Path, default=None,
                        help="another classifier ONNX for tablekit (default tablekit/models/)")
    parser.add_argument("--detector", type=Path, default=None,
                        help="another photo detector ONNX for tablekit (default tablekit/models/)")
    parser.add_argument("--sets", nargs="*", default=list(EVAL_SETS), choices=list(EVAL_SETS))
    parser.add_argument("--no-peer", action="store_true", help="leave out mahjong-detector")
    parser.add_argument("--no-refiner", action="store_true",
                        help="name the detector's boxes as found (no box_refiner.onnx)")
    parser.add_argument("--ways", type=int, default=4, choices=WAYS,
                        help="read each face 1 way (as cut), 2 (and half a turn) or 4 (and a "
                             "quarter turned, both ways up; the reader's default)")
    parser.add_argument("--sure", type=lambda v: None if v == "all" else float(v), default=SURE,
                        help=f"read again --ways ways only the faces read once under this score "
                             f"(default {SURE}; 'all': read every face --ways ways)")
    args = parser.parse_args()
    found_readers = readers(args.threads, args.classifier, not args.no_peer, args.detector,
                            args.ways, args.sure, not args.no_refiner)
    figures = photo_sets(found_readers, args.sets, args.photos)
    if args.json:
        args.json.write_text(json.dumps(figures, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
