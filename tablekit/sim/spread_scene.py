"""The enrollment spread on the simulated table: the photos ``tablekit enroll --from-table`` takes.

Each tile of a step of :data:`tablekit.vision.spread.STEPS` is laid at its slot as a person
lays it (a few mm off, turned a few degrees, upside down now and then; sideways where the
spread says), face up, standing
(the hand rows of the second step) or face down (its ponds), and the rig's camera sees the
table with its lens, light, blur and noise.

>>> from tablekit.sim.rig import make_rig
>>> rig = make_rig(3, size=(640, 360), art="fallback")
>>> photos = spread_photos(rig, np.random.default_rng(0))
>>> len(photos), photos[0].shape
(4, (360, 640, 3))
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import numpy as np

from tablekit.sim.effects import drift
from tablekit.sim.rig import Rig
from tablekit.sim.scene import SIDEWAYS, UPRIGHT, PlacedTile, Posture, Scene, place
from tablekit.vision.layout import table_to_seat
from tablekit.vision.spread import STEPS, Step, spread_slots

PLACED_MM = 1.5
"""How far off its slot a person lays a tile (standard deviation, each way)."""
PLACED_DEGREES = 2.5
UPSIDE_DOWN = 0.25
"""Share of the face-up tiles laid upside down (their faces read alike either way)."""


def spread_scene(step: Step, rng: np.random.Generator) -> Scene:
    """The tiles of ``step`` as a person lays them."""
    tiles: list[PlacedTile] = []
    for slot in spread_slots(step.layout):
        x, y = table_to_seat(slot.seat, slot.x, slot.y)
        shift = (float(rng.normal(0, PLACED_MM)), float(rng.normal(0, PLACED_MM)),
                 float(rng.normal(0, math.radians(PLACED_DEGREES))))
        posture: Posture = "up"
        if not step.faces and slot.zone == "hand":
            posture = "standing"
        elif not step.faces and slot.zone == "pond":
            posture = "down"
        yaw = (SIDEWAYS if slot.sideways else UPRIGHT) + (
            math.pi if posture == "up" and rng.random() < UPSIDE_DOWN else 0.0)
        tiles.append(place(slot.seat, (x, y, 0.0, yaw), shift, slot.code, posture,
                           "hand" if slot.zone == "hand" else "pond", sideways=slot.sideways))
    return Scene(tuple(tiles))


def spread_photos(rig: Rig, rng: np.random.Generator) -> list[np.ndarray]:
    """One camera frame of each step of the spread on the rig's table."""
    photos = []
    conditions = rig.conditions
    for step in STEPS:
        conditions = drift(conditions, rig.frames)
        photos.append(rig.renderer.render(spread_scene(step, rng), rig.frames,
                                          conditions).image)
    return photos


def enroll_from_spread(camera: Any, folder: Path, seed: int) -> Any:
    """Enroll the set of a :class:`~tablekit.sim.source.SimulatedCamera`'s table from its
    spread (:func:`spread_photos`), calibrated from the table's first two moments as the app
    calibrates itself: the :class:`~tablekit.vision.enroll_table.TableEnrollment`."""
    from tablekit.vision.calibration import calibrate
    from tablekit.vision.enroll_table import enroll_from_table

    profile = calibrate([camera.render_moment(0, 1.0).image,
                         camera.render_moment(1, 1.0).image])
    photos = spread_photos(camera.rig, np.random.default_rng(seed))
    return enroll_from_table(photos, profile, folder, "a simulated table", seed=seed)
