"""Write the simulated-table gallery (docs/sim/*.jpg) from the committed Tenhou game.

Usage: python benchmarks/sim_gallery.py [OUT_DIR]
Renders at 1920x1080 and saves 960x540 JPEGs (quality 80), plus one full-resolution crop.
Uses the art sets in ../shared/data/tile-art when present, else the fallback atlas.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

import cv2

from tablekit.sim.art import available_art
from tablekit.sim.effects import Conditions
from tablekit.sim.script import Script
from tablekit.sim.source import SimulatedCamera

ROOT = Path(__file__).resolve().parents[1]
LOG = ROOT / "tablekit" / "data" / "tenhou-python-bot-28.xml"
SIZE = (1920, 1080)


@dataclass(frozen=True)
class Shot:
    name: str
    hand: int
    turn: int | None  # None: the hand's last event (its result)
    seed: int
    art: str
    conditions: Conditions
    progress: float = 1.0
    crop: tuple[int, int, int, int] | None = None  # x, y, w, h at full resolution


SOFT = Conditions(exposure=1.02, light_falloff=0.12, vignette=0.12, noise=2.0,
                  focus_blur=0.4, jpeg_quality=90)
SHOTS = (
    Shot("mid-hand-fluffystuff", 2, 40, 21, "fluffystuff", SOFT),
    Shot("arm-lietxia", 4, 61, 8, "lietxia",
         Conditions(exposure=0.95, white_balance=(1.06, 1.0, 0.95), light_falloff=0.2,
                    vignette=0.2, noise=3.0, focus_blur=0.5, jpeg_quality=80), 0.22),
    Shot("glare-uneven-light-fallback", 3, 50, 14, "fallback",
         Conditions(exposure=1.1, white_balance=(0.92, 1.0, 1.1), light_centre=(0.3, 0.35),
                    light_falloff=0.45, vignette=0.3, glare=((0.62, 0.38, 0.07, 0.55),),
                    noise=5.5, focus_blur=0.9, jpeg_quality=60)),
    Shot("win-revealed-fluffystuff", 1, None, 5, "fluffystuff", SOFT),
    Shot("draw-tenpai-black", 0, None, 33, "fluffystuff-black",
         Conditions(exposure=0.9, light_falloff=0.25, vignette=0.25, noise=4.0,
                    motion_blur=4.0, motion_angle=0.6, jpeg_quality=70)),
    Shot("detail-lietxia", 5, 70, 12, "lietxia", SOFT, crop=(560, 260, 960, 540)),
)


def render(script: Script, shot: Shot) -> object:
    art = shot.art if shot.art in available_art() else "fallback"
    turn = shot.turn or len(script.game.hands[shot.hand].events)
    camera = SimulatedCamera(script, seed=shot.seed, size=SIZE, art=art)
    frame = camera.render_moment(script.index_of(shot.hand, turn), shot.progress,
                                 shot.conditions)
    if shot.crop:
        x, y, w, h = shot.crop
        return frame.image[y:y + h, x:x + w]
    return cv2.resize(frame.image, (SIZE[0] // 2, SIZE[1] // 2), interpolation=cv2.INTER_AREA)


def main() -> int:
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "docs" / "sim"
    out.mkdir(parents=True, exist_ok=True)
    script = Script.from_log(LOG)
    for shot in SHOTS:
        path = out / f"{shot.name}.jpg"
        cv2.imwrite(str(path), render(script, shot), [cv2.IMWRITE_JPEG_QUALITY, 80])
        print(f"{path} {path.stat().st_size // 1024} KiB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
