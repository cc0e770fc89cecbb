"""Enrollment from one recorded game against enrollment from the mat, on a never-trained art.

Usage: python benchmarks/enroll_recording.py [--art kde-default] [--hands 2] [--seed 0]
       [--frames 8] [--record DIR] [--json OUT]
The first held-out log is played on the simulated table with the art set ``--art`` (never in
the classifier's training) by the unenrolled vision reader and recorded, its first
``--hands`` hands, 0 for the whole game (``tablekit simulate LOG --art ART --reader vision
--hands N --record DIR``; its wins confirmed as the simulated person does); ``--record DIR``
names a recording made so before, or where to keep the new one.
Then the reader is enrolled from that recording (``tablekit enroll --from-recording DIR``) and, as
``benchmarks/enroll_sim.py`` does, from one photo of the mat on the same table, and from the
recording on top of the mat's set (``tablekit enroll --from-recording DIR --on SET``). The
NEXT game (the second held-out log, same art, same table: the rig of ``--seed``) is read at
``--frames`` random moments by the trained classifier, the mat-enrolled one, the
recording-enrolled one and the one enrolled from both: F1 as ``benchmarks/vision_sim.py``
counts it (red fives as plain fives), and class accuracy (matched faces named right).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import numpy as np  # noqa: E402
from enroll_sim import enroll_rig, read_moments, table_rows  # noqa: E402
from vision_sim import held_out_logs  # noqa: E402

from tablekit.cli import main as tablekit  # noqa: E402
from tablekit.commands.simulate import hand_count  # noqa: E402
from tablekit.sim.script import Script  # noqa: E402
from tablekit.sim.source import SimulatedCamera  # noqa: E402
from tablekit.vision.calibration import calibrate  # noqa: E402
from tablekit.vision.metrics import Count  # noqa: E402
from tablekit.vision.onnx_model import load_model  # noqa: E402
from tablekit.vision.table_reader import TableModels  # noqa: E402
from tablekit.vision.tileset import TileSet  # noqa: E402


def record(log: Path, art: str, hands: int, seed: int, folder: Path) -> float:
    """Record ``log``'s first ``hands`` hands (0: the whole game) read by the unenrolled
    reader (CPU seconds)."""
    cpu = time.process_time()
    only = ["--hands", str(hands)] if hands > 0 else []
    tablekit(["simulate", str(log), "--art", art, "--reader", "vision", *only,
              "--seed", str(seed), "--record", str(folder)])
    return time.process_time() - cpu


def class_accuracy(count: Count) -> float:
    """Matched faces named right (a confusion is a matched face named wrong)."""
    confused = sum(n for _, n in count.top_confusions(10**6))
    return count.tp / max(count.tp + confused, 1)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--art", default="kde-default")
    parser.add_argument("--hands", type=hand_count, default=2, help="0: every hand")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--frames", type=int, default=8)
    parser.add_argument("--record", type=Path, default=None, metavar="DIR")
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args()
    logs = held_out_logs()
    if len(logs) < 2:
        print("enroll_recording: wants two held-out logs (/work/shared/data absent?)")
        return 2
    base = TableModels.load()
    with tempfile.TemporaryDirectory() as scratch_name:
        scratch = Path(scratch_name)
        folder = args.record or scratch / "recording"
        cpu_record = 0.0
        if not (folder / "recording.json").is_file():
            cpu_record = record(logs[0], args.art, args.hands, args.seed, folder)
        cpu = time.process_time()
        if tablekit(["enroll", "--from-recording", str(folder), "--out", str(scratch / "rec")]):
            return 1
        cpu_enroll = time.process_time() - cpu
        from_recording = TileSet.load(scratch / "rec")
        camera = SimulatedCamera(Script.from_log(logs[1]), seed=args.seed, art=args.art)
        profile = calibrate([camera.render_moment(0, 1.0).image,
                             camera.render_moment(1, 1.0).image])
        mat, _ = enroll_rig(camera, args.seed, scratch, profile)
        readers = {"trained": base,
                   "recording": dataclasses.replace(
                       base, classifier=load_model(from_recording.classifier))}
        if mat is not None:
            readers["mat"] = dataclasses.replace(base, classifier=load_model(mat.classifier))
            both = scratch / "rec-on-mat"
            if tablekit(["enroll", "--from-recording", str(folder), "--on", str(mat.folder),
                         "--out", str(both)]):
                return 1
            readers["mat+recording"] = dataclasses.replace(
                base, classifier=load_model(TileSet.load(both).classifier))
        else:
            print("the mat was not read on this table: no mat figure")
        counts: dict[tuple[str, str], Count] = defaultdict(Count)
        reds: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0])
        read_moments(camera, profile, readers, args.frames,
                     np.random.default_rng(1000 + args.seed), args.art, counts, reds)
        rows = table_rows(counts, reds)
        for row, count in zip(rows, (counts[(r["art"], r["classifier"])] for r in rows),
                              strict=True):
            row["class_accuracy"] = round(class_accuracy(count), 4)
            print(f"{row['classifier']:13} class accuracy {row['class_accuracy']:.3f}")
        print(f"recorded {logs[0].name} (first {args.hands} hands) in {cpu_record:.0f} s CPU, "
              f"enrolled from it in {cpu_enroll:.0f} s CPU; read {logs[1].name}, "
              f"{args.frames} moments, rig {args.seed}")
        if args.json:
            args.json.write_text(json.dumps({
                "art": args.art, "hands": args.hands, "seed": args.seed, "frames": args.frames,
                "recorded": logs[0].name, "read": logs[1].name, "rows": rows,
                "faces": from_recording.info.get("recorded_faces"),
                "record_cpu_s": round(cpu_record, 1), "enroll_cpu_s": round(cpu_enroll, 1)},
                indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
