"""Time per 1280x720 frame of about 60 tiles, tablekit against mahjong-detector, one thread.

Usage: python benchmarks/vision_speed.py [--photos DIR] [--repeat N] [--threads N] [--json OUT]
The frame is two held-out hust-riichi valid photos side by side (picked so their labelled tiles
add up to 60, or as close as the set allows) on a 1280x720 canvas; its truth comes with it, so
each reader's F1 on the frame is printed beside its median time (model loading excluded).
"""

from __future__ import annotations

import argparse
import itertools
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import cv2  # noqa: E402
import numpy as np  # noqa: E402
from vision_accuracy import readers  # noqa: E402

from tablekit.vision.datasets import LabelledImage  # noqa: E402
from training.evaluate import score_image  # noqa: E402
from training.photo_sets import EVAL_SETS  # noqa: E402


def frame_of_60(photos: Path) -> tuple[LabelledImage, np.ndarray]:
    """A 1280x720 frame of two held-out photos and its labels (boxes normalised to it)."""
    images = [im for im in EVAL_SETS["hust-valid"](photos) if len(im.codes)]
    left, right = min(itertools.combinations(images, 2),
                      key=lambda pair: (abs(len(pair[0].codes) + len(pair[1].codes) - 60),
                                        str(pair[0].path)))
    frame = np.full((720, 1280, 3), 0, np.uint8)
    boxes, codes = [], []
    for i, image in enumerate((left, right)):
        bgr = cv2.resize(cv2.imread(str(image.path)), (640, 640))
        frame[40:680, 640 * i: 640 * (i + 1)] = bgr
        frame[:40, 640 * i: 640 * (i + 1)] = bgr[:1]
        frame[680:, 640 * i: 640 * (i + 1)] = bgr[-1:]
        px = image.pixel_boxes(640, 640) + np.array([640 * i, 40, 640 * i, 40], np.float32)
        boxes.append(px / np.array([1280, 720, 1280, 720], np.float32))
        codes += image.codes
    label = LabelledImage(Path("frame_1280x720"), "hust-riichi/valid", "frame",
                          np.concatenate(boxes), tuple(codes))
    return label, frame


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--photos", type=Path, default=ROOT.parent / "shared/data/photos")
    parser.add_argument("--repeat", type=int, default=30)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--save", type=Path, default=None, help="write the frame here")
    parser.add_argument("--json", type=Path, default=None, help="also write the figures here")
    args = parser.parse_args()
    label, frame = frame_of_60(args.photos)
    if args.save:
        cv2.imwrite(str(args.save), frame)
    figures = {"tiles": len(label.codes), "frame": "1280x720", "threads": args.threads}
    found = readers(args.threads)
    for ways, sure, name in ((4, None, "four ways"), (2, None, "both ways up"),
                             (1, None, "upright only")):
        found[f"tablekit {name}"] = readers(args.threads, peer=False, ways=ways,
                                            sure=sure)["tablekit"]
    found["tablekit, boxes as found"] = readers(args.threads, peer=False,
                                                refine=False)["tablekit"]
    times: dict[str, list[float]] = {name: [] for name in found}
    for _ in range(args.repeat):  # the readers in turn, so a busy machine slows them alike
        for name, read in found.items():
            start = time.perf_counter()
            read(frame)
            times[name].append((time.perf_counter() - start) * 1000)
    for name, read in found.items():
        count, _, _ = score_image(read, label, frame)
        figures[name] = {"ms_median": round(statistics.median(times[name]), 1),
                         "ms_min": round(min(times[name]), 1), "f1": round(count.f1, 4),
                         "found": count.tp + count.fp}
        print(f"{name:21} {figures[name]['ms_median']:7.1f} ms median, "
              f"{figures[name]['ms_min']:7.1f} min ({args.repeat} runs, {args.threads} thread) "
              f"F1 {count.f1:.3f} on {len(label.codes)} tiles", flush=True)
    if "mahjong-detector" in figures:
        ratio = figures["mahjong-detector"]["ms_median"] / figures["tablekit"]["ms_median"]
        figures["speedup"] = round(ratio, 2)
        print(f"tablekit is {ratio:.1f}x faster")
    print(json.dumps(figures))
    if args.json:
        args.json.write_text(json.dumps(figures, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
