"""How well busy boxes follow the players' arms over whole stretches of play, with the
felt memory (``tablekit.vision.busy.FeltMemory``, as the camera pipeline keeps it) and
without it (each frame alone).

Usage: python benchmarks/busy_arms.py [LOG] [--seeds 0,8,14] [--frames 1200]

Each seed draws a simulated table (felt, art, lamp, glare, camera) playing LOG (default:
the committed fixture game) at 4 frames a second. For every frame the simulator's truth
says whether an arm is over the table and where its hand is: an arm counts as caught when
its hand lies within 60 mm of a busy box; a frame without arms counts as falsely busy
when it has any busy box. Prints one line per seed and a JSON summary.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

FIXTURE = ROOT / "tablekit" / "data" / "tenhou-python-bot-28.xml"


def measure(log: Path, seed: int, frames: int) -> dict[str, dict[str, int]]:
    """Arm frames, arms caught, bare frames and falsely busy ones, with and without memory."""
    from tablekit.formats.tenhou import import_file
    from tablekit.sim.script import Script
    from tablekit.sim.source import SimulatedCamera
    from tablekit.vision.pipeline import CameraPipeline

    camera = SimulatedCamera(Script.from_game(import_file(log)), seed=seed, fps=4)
    pipelines = {"memory": CameraPipeline.open(),
                 "each frame alone": CameraPipeline.open(felt_memory=False)}
    counts = {name: {"arms": 0, "caught": 0, "bare": 0, "falsely_busy": 0}
              for name in pipelines}
    for _ in range(frames):
        frame = camera.read()
        if frame is None:
            break
        for name, pipeline in pipelines.items():
            reading = pipeline.read(frame.image, frame.timestamp)
            if not reading.calibrated:
                continue
            tally = counts[name]
            if frame.truth.arms:
                tally["arms"] += 1
                hand = tuple(frame.truth.arms[0]["target"])
                tally["caught"] += reading.in_busy(hand, margin=60.0)
            else:
                tally["bare"] += 1
                tally["falsely_busy"] += bool(reading.busy)
    return counts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("log", nargs="?", type=Path, default=FIXTURE)
    parser.add_argument("--seeds", default="0,8,14")
    parser.add_argument("--frames", type=int, default=1200)
    args = parser.parse_args()
    total: dict[str, dict[str, int]] = {}
    for seed in (int(s) for s in args.seeds.split(",")):
        counts = measure(args.log, seed, args.frames)
        for name, tally in counts.items():
            print(f"seed {seed} {name}: arms caught {tally['caught']}/{tally['arms']}, "
                  f"bare frames busy {tally['falsely_busy']}/{tally['bare']}")
            into = total.setdefault(name, dict.fromkeys(tally, 0))
            for key, value in tally.items():
                into[key] += value
    print(json.dumps({"log": args.log.name, "seeds": args.seeds, "frames": args.frames,
                      **total}))


if __name__ == "__main__":
    main()
