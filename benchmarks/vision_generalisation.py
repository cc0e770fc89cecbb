"""The generalisation table: how well the models read tile sets they were trained on against
sets they never saw, on the simulated table and on real photos.

Usage: python benchmarks/vision_generalisation.py [--arts NAME ...] [--rigs N] [--frames F]
       [--no-table] [--no-photos] [--json OUT] [--markdown]
For every art set found (tablekit.sim.art: ``--arts`` to choose), rigs 0..N-1 with that art
playing the held-out logs, each calibrated and read on F random moments by the rectified path
(benchmarks/vision_sim.py's rigs and scoring): F1 and class accuracy (of the tiles found
where they lie, the share named right). For every real photo set
(benchmarks/vision_accuracy.py's held-out sets, tablekit's reader): the same two figures.
Each row says whether training saw the set (TRAINED_ART, TRAINED_PHOTOS).

"Enrolled from the table" (unless ``--no-table``): each rig's own table enrolls its set
first, from the four photos of the spread (``tablekit enroll --from-table``,
:func:`tablekit.sim.spread_scene.enroll_from_spread`, on a copy of the rig), and the same
moments are read again with that set. "Located": the share of the counted tiles a reading
lies on (IoU >= 0.5), whatever it named them.
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
from tablekit.sim.script import Script  # noqa: E402
from tablekit.sim.source import SimulatedCamera  # noqa: E402
from tablekit.sim.spread_scene import enroll_from_spread  # noqa: E402
from tablekit.vision.metrics import Count  # noqa: E402
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


def located(count: Count) -> float:
    """Of the counted tiles, the share a reading lies on, whatever it named them."""
    return (count.tp + len(count.confusions)) / max(count.tp + count.fn, 1)


def table_enrolled(seed: int, logs: list[Path], art: str, folder: Path
                   ) -> tuple[TableModels, float]:
    """The models with the set of rig ``seed``'s table enrolled from its spread (on a copy
    of the rig, so the moments read stay the same), and the enrollment's seconds."""
    camera = SimulatedCamera(Script.from_log(logs[seed % len(logs)]), seed=seed, art=art)
    made = enroll_from_spread(camera, folder, seed)
    return TableModels.load(threads=1, tileset=folder), made.seconds


def art_rows(arts: list[str], rigs: int, frames: int, models: TableModels,
             table: bool = True) -> list[dict]:
    """One row per art set: F1, class accuracy and located of the rectified path on its
    rigs, unenrolled and (``table``) enrolled from each rig's table."""
    import tempfile

    logs, rows = held_out_logs(), []
    for art in arts:
        tally, enrolled, start, calibrated, seconds = Tally(), Tally(), time.perf_counter(), 0, []
        for seed in range(rigs):
            calibrated += play_rig(seed, logs, frames, models, {}, tally, art=art)
            if table:
                with tempfile.TemporaryDirectory() as scratch:
                    own, took = table_enrolled(seed, logs, art, Path(scratch) / "set")
                    seconds.append(took)
                    play_rig(seed, logs, frames, own, {}, enrolled, art=art)
        count = tally.counts[READER]
        row = {"set": art, "kind": "art", "seen": TRAINED_ART.get(art, "never seen"),
               "use": load_art(art).use, "rigs": calibrated, "frames": len(tally.ms[READER]),
               "tiles": count.tp + count.fn, "f1": round(count.f1, 4),
               "class_accuracy": round(class_accuracy(count), 4),
               "located": round(located(count), 4),
               "confusions": [f"{t}->{p} x{n}" for (t, p), n in count.top_confusions(5)]}
        line = (f"{art:20} F1 {row['f1']:.3f} class {row['class_accuracy']:.3f} located "
                f"{row['located']:.3f}")
        if table:
            mine = enrolled.counts[READER]
            row["table"] = {"f1": round(mine.f1, 4),
                            "class_accuracy": round(class_accuracy(mine), 4),
                            "located": round(located(mine), 4),
                            "enroll_seconds": [round(s, 1) for s in seconds],
                            "confusions": [f"{t}->{p} x{n}"
                                           for (t, p), n in mine.top_confusions(5)]}
            line += (f" | enrolled from the table: F1 {mine.f1:.3f} class "
                     f"{row['table']['class_accuracy']:.3f} located "
                     f"{row['table']['located']:.3f} ({', '.join(row['table']['confusions'])})")
        rows.append(row)
        print(f"{line} on {row['tiles']} tiles, {row['frames']} frames "
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
    lines = ["| set | what | training saw it | F1 | class accuracy | located | enrolled from "
             "the table: F1 | class accuracy | located | tiles |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    for row in rows:
        what = (f"art, {row['rigs']} rigs x {row['frames'] // max(row['rigs'], 1)} frames"
                if row["kind"] == "art" else f"real photos ({row['photos']})")
        table = row.get("table")
        mine = (f"{table['f1']:.3f} | {table['class_accuracy']:.3f} | {table['located']:.3f}"
                if table else "- | - | -")
        where = f"{row['located']:.3f}" if "located" in row else "-"
        lines.append(f"| {row['set']} | {what} | {row['seen']} | {row['f1']:.3f} | "
                     f"{row['class_accuracy']:.3f} | {where} | {mine} | {row['tiles']} |")
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--arts", nargs="*", default=None, metavar="NAME",
                        help="art sets (default: every set found)")
    parser.add_argument("--rigs", type=int, default=3)
    parser.add_argument("--frames", type=int, default=2)
    parser.add_argument("--photos", type=Path, default=ROOT.parent / "shared/data/photos")
    parser.add_argument("--no-photos", action="store_true")
    parser.add_argument("--no-table", action="store_true",
                        help="leave out the column enrolled from the table")
    parser.add_argument("--json", type=Path, default=None)
    parser.add_argument("--markdown", action="store_true", help="print the model card's table")
    args = parser.parse_args()
    arts = args.arts or list(available_art())
    rows = art_rows(arts, args.rigs, args.frames, TableModels.load(threads=1),
                    table=not args.no_table)
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
