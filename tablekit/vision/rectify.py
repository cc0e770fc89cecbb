"""A top-down view of the table at a fixed scale, made with a calibrated camera.

The view shows the plane at ``plane_mm`` above the felt (by default the top of a tile
lying flat, so faces keep their true size and place: 26 x 35 mm faces are always
``26 * scale`` x ``35 * scale`` pixels), seat 0 at the bottom, table ``+y`` up.
The warp is one ``cv2.remap`` through maps computed once per camera.

>>> from tablekit.vision.table_camera import TableCamera
>>> camera = TableCamera(640, 360, 400.0, 0.0, (320.0, 180.0), (np.pi, 0.0, 0.0),
...                      (0.0, 0.0, 1150.0))
>>> view = TableView(camera, scale=0.25, half_mm=480.0, plane_mm=0.0)
>>> view.shape
(240, 240)
>>> view.to_table(np.array([[120.0, 120.0], [0.0, 0.0]])).tolist()
[[0.0, 0.0], [-480.0, 480.0]]
>>> view.to_view(np.array([[0.0, 0.0]])).tolist()
[[120.0, 120.0]]
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import cv2
import numpy as np

from tablekit.vision.layout import DEFAULT_LAYOUT, TableLayout
from tablekit.vision.table_camera import TableCamera

VIEW_SCALE = 0.8
"""Pixels per mm of the rectified view: a face 35 mm tall is 28 px, the size the detector
reads best."""
VIEW_HALF = 500.0
"""The view covers table x and y in -500..500 mm (the felt is -480..480)."""


@dataclass(frozen=True)
class TableView:
    """How one camera's frames become top-down views."""

    camera: TableCamera
    scale: float = VIEW_SCALE
    half_mm: float = VIEW_HALF
    plane_mm: float = DEFAULT_LAYOUT.tile_thickness
    layout: TableLayout = DEFAULT_LAYOUT
    """The table seen (its felt, markers and zones: what the view's tiles are placed by)."""

    @property
    def shape(self) -> tuple[int, int]:
        side = round(2 * self.half_mm * self.scale)
        return side, side

    def to_table(self, view_px: np.ndarray) -> np.ndarray:
        """Table (x, y) mm of view pixel coordinates (N, 2) (pixel corners at integers)."""
        view_px = np.asarray(view_px, np.float64).reshape(-1, 2)
        return np.stack([view_px[:, 0] / self.scale - self.half_mm,
                         self.half_mm - view_px[:, 1] / self.scale], axis=1)

    def to_view(self, table_xy: np.ndarray) -> np.ndarray:
        """View pixel coordinates of table points (N, 2) mm."""
        table_xy = np.asarray(table_xy, np.float64).reshape(-1, 2)
        return np.stack([(table_xy[:, 0] + self.half_mm) * self.scale,
                         (self.half_mm - table_xy[:, 1]) * self.scale], axis=1)

    def boxes_to_table(self, boxes: np.ndarray) -> np.ndarray:
        """View boxes (N, 4) as table boxes ``(x0, y0, x1, y1)`` mm, x0 < x1 and y0 < y1."""
        boxes = np.asarray(boxes, np.float64).reshape(-1, 4)
        low = self.to_table(boxes[:, [0, 3]])
        high = self.to_table(boxes[:, [2, 1]])
        return np.concatenate([low, high], axis=1)

    def warp(self, image: np.ndarray) -> np.ndarray:
        """The top-down view of a frame (BGR in, BGR out, outside the frame black)."""
        map1, map2 = view_maps(self)
        return cv2.remap(image, map1, map2, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT)

    def warp_box(self, image: np.ndarray, box: np.ndarray) -> np.ndarray:
        """Only the part of the view inside ``box`` (view px, rounded, clipped): the same
        pixels :meth:`warp` gives there, without warping the rest."""
        height, width = self.shape
        x0, y0, x1, y1 = (int(v) for v in np.rint(box))
        x0, y0 = min(max(x0, 0), width - 1), min(max(y0, 0), height - 1)
        x1, y1 = min(max(x1, x0 + 1), width), min(max(y1, y0 + 1), height)
        map1, map2 = view_maps(self)
        return cv2.remap(image, map1[y0:y1, x0:x1], map2[y0:y1, x0:x1], cv2.INTER_LINEAR,
                         borderMode=cv2.BORDER_CONSTANT)


@functools.lru_cache(maxsize=8)
def view_maps(view: TableView) -> tuple[np.ndarray, np.ndarray]:
    """cv2.remap's fixed-point maps for ``view`` (computed every 4 px, then interpolated)."""
    height, width = view.shape
    step = 4
    cols = np.arange(0, width + step, step, dtype=np.float64) + 0.5
    rows = np.arange(0, height + step, step, dtype=np.float64) + 0.5
    grid = np.stack(np.meshgrid(cols, rows), axis=-1).reshape(-1, 2)
    table = view.to_table(grid)
    points = np.concatenate([table, np.full((len(table), 1), view.plane_mm)], axis=1)
    coarse = view.camera.project(points).astype(np.float32).reshape(len(rows), len(cols), 2)
    at_x, at_y = np.meshgrid(np.arange(width, dtype=np.float32) / step,
                             np.arange(height, dtype=np.float32) / step)
    fine = cv2.remap(coarse, at_x, at_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    return cv2.convertMaps(fine[..., 0], fine[..., 1], cv2.CV_16SC2)


def felt_mask(view: TableView, inset_mm: float = 0.0) -> np.ndarray:
    """bool (H, W): the view pixels on the felt (``inset_mm`` in from its edge)."""
    height, width = view.shape
    cols = (np.arange(width) + 0.5) / view.scale - view.half_mm
    rows = view.half_mm - (np.arange(height) + 0.5) / view.scale
    limit = view.layout.table_half - inset_mm
    return (np.abs(rows)[:, None] <= limit) & (np.abs(cols)[None, :] <= limit)
