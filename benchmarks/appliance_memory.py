"""Peak memory and time per frame of the appliance's side of a real game: the camera pipeline
(calibration, detector, classifier), the tracker, the flow with its journal, the buttons
(gpiozero MockFactory) and the scoreboard drawn headless on every change: the app's own loop
(:class:`tablekit.app.loop.App`), as ``tablekit run`` steps it.

Usage: python benchmarks/appliance_memory.py [LOG] [--hands N] [--seed S] [--json OUT]

The frames are rendered first, in this process (the simulated table is not part of the
appliance), and kept as JPEG; then a fresh process plays them again with the script's
presses (``simulate_game(frames_in=...)``, a PNG display) and reports its own peak resident memory
(``ru_maxrss``) and milliseconds per frame. LOG defaults to the committed fixture game.
The issue's budget is 300 MB.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

FIXTURE = ROOT / "tablekit" / "data" / "tenhou-python-bot-28.xml"
BUDGET_MB = 300


def render(log: Path, folder: Path, hands: int, seed: int) -> int:
    """Render the first ``hands`` hands of ``log`` into ``folder``; the number of frames."""
    from tablekit.sim.simulate import Hooks, simulate_game

    report = simulate_game(log, seed=seed, max_hands=hands, hooks=Hooks(frames_out=folder))
    return report.frames


def replay(log: Path, folder: Path, hands: int, screens: Path) -> dict:
    """The appliance's side of the game on the kept frames (run in a fresh process)."""
    from tablekit.display.backends import PngDisplay
    from tablekit.sim.simulate import simulate_game
    from tablekit.vision.pipeline import CameraPipeline

    display = PngDisplay(screens, numbered=False)
    started = time.perf_counter()
    report = simulate_game(log, CameraPipeline.open(), max_hands=hands, frames_in=folder,
                           display=display)
    seconds = time.perf_counter() - started
    return {**report.summary(), "screens_drawn": display.shown,
            "ms_per_frame_all": round(1000 * seconds / max(report.frames, 1), 2)}


def main(argv: list[str] | None = None) -> int:
    from tablekit.commands.simulate import hand_count

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("log", type=Path, nargs="?", default=FIXTURE)
    parser.add_argument("--hands", type=hand_count, default=2, help="0: every hand")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", type=Path, default=None)
    parser.add_argument("--replay", type=Path, default=None, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.replay is not None:  # the fresh process
        print(json.dumps(replay(args.log, args.replay, args.hands, args.replay / "screens")))
        return 0
    with tempfile.TemporaryDirectory() as folder:
        frames = render(args.log, Path(folder), args.hands, args.seed)
        env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "OMP_NUM_THREADS": "1"}
        child = subprocess.run([sys.executable, __file__, str(args.log), "--hands",
                                str(args.hands), "--replay", folder],
                               capture_output=True, text=True, env=env)
    if child.returncode != 0:
        print(child.stderr, file=sys.stderr)
        return child.returncode
    result = json.loads(child.stdout.strip().splitlines()[-1])
    result.update(log=args.log.name, rendered_frames=frames, budget_mb=BUDGET_MB,
                  within_budget=result["peak_mb"] < BUDGET_MB)
    print(json.dumps(result))
    if args.json is not None:
        args.json.write_text(json.dumps(result, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
