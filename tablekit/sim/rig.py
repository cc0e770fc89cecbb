"""The rig: one table, one mounted camera, one group of players, all drawn from a seed.

Each part has its own child generator of ``numpy.random.SeedSequence(seed)``, so the
same seed gives the same table, camera, placement and frames, and drawing one more
frame does not change the table.

>>> a, b = make_rig(7, art="fallback"), make_rig(7, art="fallback")
>>> a.camera.intrinsics == b.camera.intrinsics and a.look == b.look
True
>>> make_rig(8, art="fallback").look == a.look
False
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from tablekit.sim.camera_model import Camera, random_camera
from tablekit.sim.effects import Conditions, random_conditions
from tablekit.sim.frame import TableRenderer
from tablekit.sim.look import Look, random_look
from tablekit.sim.occluders import SKINS, SLEEVES
from tablekit.sim.scene import Jitter

DEFAULT_SIZE = (1280, 720)


@dataclass(frozen=True)
class Rig:
    seed: int
    look: Look
    camera: Camera
    jitter: Jitter
    conditions: Conditions
    """The conditions of the first frame (they drift from there)."""
    players: tuple[tuple[tuple[int, int, int], tuple[int, int, int], float], ...]
    """Each seat's (skin, sleeve, arm size)."""
    renderer: TableRenderer
    frames: np.random.Generator
    """Everything drawn frame by frame (noise offsets, drift, arms)."""


def make_rig(seed: int, size: tuple[int, int] = DEFAULT_SIZE, art: str | None = None,
             clean: bool = False, quarter_turns: int | None = 0) -> Rig:
    """Draw a rig from ``seed``; ``clean`` keeps the camera effects out (an ideal camera)."""
    look_rng, camera_rng, jitter_rng, light_rng, table_rng, player_rng, frame_rng = (
        np.random.default_rng(s) for s in np.random.SeedSequence(seed).spawn(7))
    look = random_look(look_rng, art=art)
    camera = random_camera(camera_rng, size[0], size[1], quarter_turns)
    conditions = Conditions() if clean else random_conditions(light_rng)
    players = tuple((SKINS[int(player_rng.integers(len(SKINS)))],
                     SLEEVES[int(player_rng.integers(len(SLEEVES)))],
                     float(player_rng.uniform(0.9, 1.12))) for _ in range(4))
    return Rig(seed, look, camera, Jitter(jitter_rng), conditions, players,
               TableRenderer(look, camera, table_rng), frame_rng)
