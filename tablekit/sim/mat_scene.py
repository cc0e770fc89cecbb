"""The enrollment mat on the simulated table: a printed sheet with a set's tiles on it.

The sheet (:func:`tablekit.vision.enroll_mat.mat_image`) is laid flat on the felt at any
place and turn, each slot gets its tile (face up, nudged and turned a little, some upside
down or a quarter round, the face-down slot a back), and the rig's camera sees it with its
lens, light, blur and noise: the photo ``tablekit enroll --image`` reads, for tests and
benchmarks of enrollment on art the classifier never saw.

>>> from tablekit.sim.rig import make_rig
>>> from tablekit.vision.enroll_mat import SHEETS
>>> rig = make_rig(3, size=(640, 360), art="fallback")
>>> image = render_mat(rig, SHEETS["A3"][0], np.random.default_rng(0))
>>> image.shape
(360, 640, 3)
"""

from __future__ import annotations

import math
from collections.abc import Collection
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from tablekit.sim.effects import apply_effects
from tablekit.sim.render import cast_shadows, draw_tiles
from tablekit.sim.rig import Rig
from tablekit.sim.scene import PlacedTile
from tablekit.sim.tile_geometry import project_tiles
from tablekit.vision.enroll_mat import SHEETS, SLOT_MM, Sheet, mat_image

DPI = 120


def to_table(points: np.ndarray, sheet: Sheet, centre: tuple[float, float], turn: float
             ) -> np.ndarray:
    """Table mm ``(N, 2)`` of sheet mm ``(N, 2)`` (sheet down the page = table -y).

    >>> from tablekit.vision.enroll_mat import SHEETS
    >>> to_table(np.array([[210.0, 148.5]]), SHEETS["A3"][0], (5.0, 0.0), 0.0).tolist()
    [[5.0, 0.0]]
    """
    local = np.asarray(points, np.float64) - np.array(sheet.paper) / 2
    local = local * np.array([1.0, -1.0])
    cos, sin = math.cos(turn), math.sin(turn)
    return local @ np.array([[cos, sin], [-sin, cos]]) + np.array(centre)


def mat_tiles(sheet: Sheet, rng: np.random.Generator, centre: tuple[float, float],
              turn: float, leave_out: Collection[str] = (), doubled: Collection[str] = ()
              ) -> list[PlacedTile]:
    """One tile on each slot (none on ``leave_out``, two on ``doubled``)."""
    tiles = []
    for code, (x, y) in sheet.slots.items():
        if code in leave_out:
            continue
        middle = np.array([[x + SLOT_MM[0] / 2, y + SLOT_MM[1] / 2]])
        spots = [middle + rng.uniform(-2.0, 2.0, 2)]
        if code in doubled:
            spots = [middle + np.array([0.0, side * 19.0]) for side in (-1, 1)]
        for spot in spots:
            tx, ty = to_table(spot, sheet, centre, turn)[0]
            yaw = turn + math.pi / 2 + rng.uniform(-0.08, 0.08) \
                + math.pi / 2 * int(rng.choice([0, 0, 2, 2, 1, 3]))
            face = "down" if code == "back" else "up"
            tiles.append(PlacedTile(None if code == "back" else code, float(tx), float(ty),
                                    0.0, yaw % (2 * math.pi), face, "pond", 0))
    return tiles


def render_mat(rig: Rig, sheet: Sheet, rng: np.random.Generator,
               centre: tuple[float, float] = (0.0, 0.0), turn: float = 0.0,
               leave_out: Collection[str] = (), doubled: Collection[str] = ()) -> np.ndarray:
    """The rig's camera frame of ``sheet`` on its table with one tile on each slot."""
    camera = rig.camera
    image = rig.renderer.background.copy()
    page = mat_image(sheet, DPI)
    x, y = camera.table_points(step=1)
    cos, sin = math.cos(turn), math.sin(turn)
    dx, dy = x - centre[0], y - centre[1]
    u = (dx * cos + dy * sin) + sheet.paper[0] / 2
    v = -(-dx * sin + dy * cos) + sheet.paper[1] / 2
    to_px = DPI / 25.4
    warped = cv2.remap(page, (u * to_px).astype(np.float32), (v * to_px).astype(np.float32),
                       cv2.INTER_AREA if False else cv2.INTER_LINEAR,
                       borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0))
    inside = (u >= 0) & (u < sheet.paper[0]) & (v >= 0) & (v < sheet.paper[1])
    image[inside] = (warped[inside].astype(np.float32) * 0.92).astype(np.uint8)
    tiles = mat_tiles(sheet, rng, centre, turn, leave_out, doubled)
    boxes = project_tiles(tiles, camera)
    cast_shadows(image, boxes, (), camera, rig.look)
    draw_tiles(image, tiles, camera, rig.look, boxes)
    return apply_effects(image, rig.conditions, rig.renderer.noise, rng)


def mat_photo(rig: Rig, seed: int) -> np.ndarray:
    """The player's A3 mat, a tile on each slot, somewhere on the rig's table at any turn
    (seeded): what the camera shows when a club enrolls its set."""
    rng = np.random.default_rng(seed)
    centre = (float(rng.uniform(-120, 120)), float(rng.uniform(-120, 120)))
    return render_mat(rig, SHEETS["A3"][0], rng, centre=centre,
                      turn=float(rng.uniform(-math.pi, math.pi)))


def enroll_on_table(camera: Any, folder: Path, seed: int) -> Any:
    """Enroll the set of a :class:`~tablekit.sim.source.SimulatedCamera`'s table from one
    mat (:func:`mat_photo`), calibrated from the table's first two moments as the app
    calibrates itself: the :class:`~tablekit.vision.tileset.TileSet` saved in ``folder``.
    """
    from tablekit.vision.calibration import calibrate
    from tablekit.vision.enroll_mat import enroll_from_mat_images

    profile = calibrate([camera.render_moment(0, 1.0).image,
                         camera.render_moment(1, 1.0).image])
    tileset, _ = enroll_from_mat_images([mat_photo(camera.rig, seed)], folder,
                                        "a simulated mat", profile)
    return tileset


def write_mat_photo(out: Path, seed: int = 0, art: str | None = None,
                    size: tuple[int, int] = (1920, 1080)) -> Path:
    """``out/mat.png``: the rig of ``seed`` (its table, camera and light; ``art``: its tile
    art) photographing the enrollment mat with a tile on each slot (:func:`mat_photo`)."""
    from tablekit.sim.rig import make_rig

    out.mkdir(parents=True, exist_ok=True)
    path = out / "mat.png"
    if not cv2.imwrite(str(path), mat_photo(make_rig(seed, size, art), seed)):
        raise OSError(f"could not write {path}")
    return path
