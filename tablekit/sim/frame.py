"""One table under one camera: draws scenes into frames with their ground truth.

>>> import numpy as np
>>> from tablekit.sim.camera_model import Camera
>>> from tablekit.sim.look import random_look
>>> from tablekit.sim.scene import PlacedTile, Scene
>>> rng = np.random.default_rng(0)
>>> renderer = TableRenderer(random_look(rng, art="fallback"), Camera.overhead(640, 360), rng)
>>> scene = Scene((PlacedTile("0s", 0.0, -150.0, 0.0, np.pi / 2, "up", "pond", 0),))
>>> frame = renderer.render(scene, rng)
>>> frame.image.shape, [t.code for t in frame.truth.tiles], sorted(frame.truth.markers)
((360, 640, 3), ['0s'], [0, 1, 2, 3])
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from tablekit.sim.background import background_image, marker_corners_image, table_texture
from tablekit.sim.camera_model import Camera
from tablekit.sim.effects import Conditions, NoiseBank, apply_effects
from tablekit.sim.look import Look
from tablekit.sim.occluders import Arm, draw_arm
from tablekit.sim.render import cast_shadows, draw_sticks, draw_tiles
from tablekit.sim.scene import Scene
from tablekit.sim.tile_geometry import project_tiles
from tablekit.sim.truth import FrameTruth, tile_truths


@dataclass(frozen=True)
class RenderedFrame:
    image: np.ndarray
    """BGR uint8, as the camera delivers it."""
    truth: FrameTruth


class TableRenderer:
    """The look, the camera and the empty table are fixed (the table is drawn once);
    :meth:`render` draws a scene, arms and the camera's effects on top."""

    def __init__(self, look: Look, camera: Camera, rng: np.random.Generator) -> None:
        self.look, self.camera = look, camera
        self.background = background_image(camera, table_texture(look, rng), look.floor)
        self.noise = NoiseBank(rng, camera.height, camera.width)
        self.markers = {i: tuple((round(float(x), 2), round(float(y), 2)) for x, y in c)
                        for i, c in marker_corners_image(camera).items()}

    def render(self, scene: Scene, rng: np.random.Generator,
               conditions: Conditions | None = None, arms: Sequence[Arm] = (),
               moment: dict[str, Any] | None = None) -> RenderedFrame:
        conditions = conditions or Conditions()
        image = self.background.copy()
        boxes = project_tiles(scene.tiles, self.camera)
        cast_shadows(image, boxes, scene.sticks, self.camera, self.look)
        sticks = draw_sticks(image, scene.sticks, self.camera)
        drawn = draw_tiles(image, scene.tiles, self.camera, self.look, boxes)
        arm_boxes = [draw_arm(image, drawn.ids, self.camera, arm, self.look.light,
                              self.look.shadow)
                     for arm in arms]
        truth = FrameTruth(
            width=self.camera.width, height=self.camera.height,
            tiles=tile_truths(scene.tiles, drawn, drawn.ids), markers=self.markers,
            sticks=tuple({"seat": s.seat, "polygon": np.round(p, 2).tolist()}
                         for s, p in zip(scene.sticks, sticks, strict=True)),
            arms=tuple({**arm.to_dict(), "box": list(box)}
                       for arm, box in zip(arms, arm_boxes, strict=True)),
            camera=self.camera.to_dict(), look=self.look.to_dict(),
            conditions=conditions.to_dict(), moment=moment or {})
        return RenderedFrame(apply_effects(image, conditions, self.noise, rng), truth)
