"""One moment of a recorded game as ``frame.png`` and ``truth.json`` (``tablekit sim snapshot``).

>>> import tempfile
>>> out = Path(tempfile.mkdtemp())
>>> from tablekit.sim.table import DEMO_GAME
>>> frame, truth = write_snapshot(DEMO_GAME, hand=1, turn=10, out=out, size=(640, 360),
...                               art="fallback")
>>> frame.name, truth.name
('frame.png', 'truth.json')
"""

from __future__ import annotations

from pathlib import Path

import cv2

from tablekit.sim.frame import RenderedFrame
from tablekit.sim.script import Script
from tablekit.sim.source import REACH, SimulatedCamera
from tablekit.sim.truth import compact_json

SNAPSHOT_SIZE = (1920, 1080)


def render_snapshot(log: Path, hand: int, turn: int, seed: int = 0, art: str | None = None,
                    size: tuple[int, int] = SNAPSHOT_SIZE, clean: bool = False,
                    arm: bool = False) -> RenderedFrame:
    """Hand ``hand`` (0-based) of the game in ``log`` after ``turn`` events (1 = the deal);
    ``arm`` shows the acting player's arm reaching over the table."""
    script = Script.from_log(log)
    camera = SimulatedCamera(script, seed=seed, size=size, art=art, clean=clean, arms=arm)
    index = script.index_of(hand, turn)
    return camera.render_moment(index, REACH / 2 if arm else 1.0)


def write_snapshot(log: Path, hand: int, turn: int, out: Path, **options: object
                   ) -> tuple[Path, Path]:
    """Write ``frame.png`` and ``truth.json`` to ``out`` (created when missing)."""
    frame = render_snapshot(log, hand, turn, **options)  # type: ignore[arg-type]
    out.mkdir(parents=True, exist_ok=True)
    image_path, truth_path = out / "frame.png", out / "truth.json"
    if not cv2.imwrite(str(image_path), frame.image):
        raise OSError(f"could not write {image_path}")
    truth = frame.truth.to_dict()
    truth["moment"]["log"] = log.name
    truth_path.write_text(compact_json(truth) + "\n", encoding="utf-8")
    return image_path, truth_path
