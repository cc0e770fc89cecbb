"""The generalisation table: how well the models read tile sets they were trained on against
sets they never saw, on the simulated table and on real photos.

Usage: python benchmarks/vision_generalisation.py [--arts NAME ...] [--rigs N] [--frames F]
       [--no-photos] [--json OUT] [--markdown]
For every art set found (tablekit.sim.art: ``--arts`` to choose), rigs 0..N-1 with that art
playing the held-out logs, each calibrated and read on F random moments by the rectified path
(benchmarks/vision_sim.py's rigs and scoring): F1 and class accuracy (of the tiles found
where they lie, the share named right). For every real photo set
(benchmarks/vision_accuracy.py's held-out sets, tablekit's reader): the same two figures.
Each row says whether training saw the set (TRAINED_ART, TRAINED_PHOTOS).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from vision_accuracy import class_accuracy, photo_sets, readers  # noqa: E402
from vision_sim import Tally, held_out_logs, play_rig  # noqa: E402

from tablekit.sim.art import available_art, load_art  # noqa: E402
from tablekit.vision.table_reader import TableModels  # noqa: E402
from training.photo_sets import EVAL_SETS  # noqa: E402

READER = "tablekit rectified"
TRAINED_ART = {
    "fallback": "trained", "fluffystuff": "trained", "fluffystuff-black": "trained",
    "lietxia": "trained",
    "hongkong": "never on the table (its faces were among the photo classifier's art renders)",
    "photo-hust": "never on the table (its photos trained the photo detector and classifier)",
    "photo-unseen-table": "never seen (faces of the held-out unseen-table photos)"}
"""What the models as they are saw of each art set: the simulated rigs of their training drew
the first four (training/sim_data.py, tablekit/models/README.md); the photo-* sets are
real faces (tools/make_photo_art.py); any other is never-seen."""
TRAINED_PHOTOS = {"hust-valid": "trained set, unseen photos", "chinese-test":
                  "trained set, its test split", "unseen-table": "never seen"}


def art_rows(arts: list[str], rigs: int, frames: int, models: TableModels) -> list[dict]:
    """One row per art set: F1 and class accuracy of the rectified path on its rigs."""
    logs, rows = held_out_logs(), []
    for art in arts:
        tally, start, calibrated = Tally(), time.perf_counter(), 0
        for seed in range(rigs):
            calibrated += play_rig(seed, logs, frames, models, {}, tally, art=art)
        count = tally.counts[READER]
        row = {"set": art, "kind": "art", "seen": TRAINED_ART.get(art, "never seen"),
               "use": load_art(art).use, "rigs": calibrated, "frames": len(tally.ms[READER]),
               "tiles": count.tp + count.fn, "f1": round(count.f1, 4),
               "class_accuracy": round(class_accuracy(count), 4),
               "confusions": [f"{t}->{p} x{n}" for (t, p), n in count.top_confusions(5)]}
        rows.append(row)
        print(f"{art:20} F1 {row['f1']:.3f} class {row['class_accuracy']:.3f} on "
              f"{row['tiles']} tiles, {row['frames']} frames "
              f"({time.perf_counter() - start:.0f} s) {', '.join(row['confusions'])}",
              flush=True)
    return rows


def photo_rows(photos: Path) -> list[dict]:
    """One row per real photo set (and its plausible labels), tablekit's photo reader."""
    figures = photo_sets(readers(1, peer=False), list(EVAL_SETS), photos)
    rows = []
    for key, summary in figures.items():
        name = key.split(" / ")[0]
        rows.append({"set": name, "kind": "photos",
                     "seen": TRAINED_PHOTOS.get(name.split(" ")[0], "never seen"),
                     "photos": summary["photos"], "tiles": summary["tp"] + summary["fn"],
                     "f1": summary["f1"], "class_accuracy": summary["class_accuracy"]})
    return rows


def markdown(rows: list[dict]) -> str:
    """The table for the model card."""
    lines = ["| set | what | training saw it | F1 | class accuracy | tiles |",
             "|---|---|---|---|---|---|"]
    for row in rows:
        what = (f"art, {row['rigs']} rigs x {row['frames'] // max(row['rigs'], 1)} frames"
                if row["kind"] == "art" else f"real photos ({row['photos']})")
        lines.append(f"| {row['set']} | {what} | {row['seen']} | {row['f1']:.3f} | "
                     f"{row['class_accuracy']:.3f} | {row['tiles']} |")
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--arts", nargs="*", default=None, metavar="NAME",
                        help="art sets (default: every set found)")
    parser.add_argument("--rigs", type=int, default=3)
    parser.add_argument("--frames", type=int, default=2)
    parser.add_argument("--photos", type=Path, default=ROOT.parent / "shared/data/photos")
    parser.add_argument("--no-photos", action="store_true")
    parser.add_argument("--json", type=Path, default=None)
    parser.add_argument("--markdown", action="store_true", help="print the model card's table")
    args = parser.parse_args()
    arts = args.arts or list(available_art())
    rows = art_rows(arts, args.rigs, args.frames, TableModels.load(threads=1))
    if not args.no_photos and args.photos.is_dir():
        rows += photo_rows(args.photos)
    figures = {"rigs": args.rigs, "frames_per_rig": args.frames, "rows": rows}
    print(json.dumps(figures))
    if args.markdown:
        print(markdown(rows))
    if args.json:
        args.json.write_text(json.dumps(figures, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
