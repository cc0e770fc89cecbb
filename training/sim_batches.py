"""Batches for the rectified-view models, small enough to train on a CPU.

* Detector: 128 x 128 crops of the 0.5 px/mm views (the sim pack's 0.8 px/mm views scaled
  by 0.625, as the reader does), turned by quarter turns and mirrored, with two-class
  CenterNet targets (face up, face down); tiles mostly hidden are left out of the loss.
* Classifier: 64 x 64 patches cut once around each tile (and around bits of table that are
  not a tile) from the sim views and from the real photos of the photo pack; a batch warps
  them to the classifier's upright 48 x 36 crops with the same jitter as the photo training.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np
import torch

from training.photo_batches import BACK_CLASS, CROP, NONE_CLASS, _turn_scale, warp

DETECT_SCALE = 0.625
"""0.8 px/mm views to the detector's 0.5 px/mm."""
CELL = 4
PATCH = 64
POSITIVE_VISIBLE = 0.5
IGNORE_VISIBLE = 0.15
READABLE_VISIBLE = 0.7


def detector_views(views: np.ndarray) -> np.ndarray:
    """0.8 px/mm BGR views (N, H, W, 3) as 0.5 px/mm RGB (N, 3, h, w) uint8."""
    small = [cv2.resize(v, None, fx=DETECT_SCALE, fy=DETECT_SCALE, interpolation=cv2.INTER_AREA)
             for v in views]
    return np.stack(small)[..., ::-1].transpose(0, 3, 1, 2).copy()


@dataclass
class DetectorData:
    """The detector's views (N, 3, S, S) uint8 and tiles (frame, cx, cy, w, h, back, weight)."""

    images: np.ndarray
    tiles: np.ndarray

    @classmethod
    def from_pack(cls, views: np.ndarray, tiles: np.ndarray) -> DetectorData:
        keep = (tiles[:, 7] >= IGNORE_VISIBLE) & (tiles[:, 6] == 0)
        t = tiles[keep]
        box = t[:, 1:5] * DETECT_SCALE
        rows = np.stack([t[:, 0], (box[:, 0] + box[:, 2]) / 2, (box[:, 1] + box[:, 3]) / 2,
                         box[:, 2] - box[:, 0], box[:, 3] - box[:, 1],
                         t[:, 5] == BACK_CLASS, t[:, 7] >= POSITIVE_VISIBLE], axis=1)
        return cls(detector_views(views), rows.astype(np.float32))


def _crop_origin(data: DetectorData, frame: int, rng: np.random.Generator, side: int
                 ) -> np.ndarray:
    size = data.images.shape[-1]
    mine = data.tiles[data.tiles[:, 0] == frame]
    if len(mine) and rng.random() < 0.7:
        centre = mine[int(rng.integers(len(mine))), 1:3] + rng.uniform(-side / 3, side / 3, 2)
    else:
        centre = rng.uniform(side / 2, size - side / 2, 2)
    return np.clip(np.round(centre - side / 2), 0, size - side).astype(int)


def _turn(points: np.ndarray, wh: np.ndarray, quarter: int, flip: bool, side: int
          ) -> tuple[np.ndarray, np.ndarray]:
    """Tile centres and sizes after ``np.rot90(k=quarter)`` of a flipped-or-not crop."""
    x, y = points[:, 0].copy(), points[:, 1].copy()
    if flip:
        x = side - x
    for _ in range(quarter % 4):
        x, y = y, side - x
    return np.stack([x, y], 1), (wh[:, ::-1] if quarter % 2 else wh)


def _targets(centres: np.ndarray, wh: np.ndarray, back: np.ndarray, weight: np.ndarray,
             cells: int) -> tuple[np.ndarray, ...]:
    """Heat (2, C, C), loss weights (2, C, C), log size and offset (2, C, C), mask (1, C, C)."""
    heat = np.zeros((2, cells, cells), np.float32)
    care = np.ones((2, cells, cells), np.float32)
    size = np.zeros((2, cells, cells), np.float32)
    offset = np.zeros((2, cells, cells), np.float32)
    mask = np.zeros((1, cells, cells), np.float32)
    grid = np.arange(cells, dtype=np.float32)
    for (cx, cy), (w, h), is_back, positive in zip(centres / CELL, wh / CELL, back, weight,
                                                    strict=True):
        if not (0 <= cx < cells and 0 <= cy < cells):
            continue
        ix, iy = int(cx), int(cy)
        sx, sy = max(w * 0.09, 0.35), max(h * 0.09, 0.35)
        gauss = np.exp(-(grid[None, :] - ix) ** 2 / (2 * sx ** 2)
                       - (grid[:, None] - iy) ** 2 / (2 * sy ** 2))
        channel = int(is_back)
        if not positive:
            care[:, gauss > 0.1] = 0.0
            continue
        heat[channel] = np.maximum(heat[channel], gauss)
        heat[channel, iy, ix] = 1.0
        size[:, iy, ix] = np.log([max(w, 0.5), max(h, 0.5)])
        offset[:, iy, ix] = cx - ix, cy - iy
        mask[0, iy, ix] = 1.0
    return heat, care, size, offset, mask


def detector_batch(data: DetectorData, rng: np.random.Generator, batch: int, side: int = 128
                   ) -> tuple[torch.Tensor, ...]:
    """Images (B, 3, side, side) in [0, 1] and targets (heat, care, size, offset, mask)."""
    images, targets = [], []
    for _ in range(batch):
        frame = int(rng.integers(len(data.images)))
        x0, y0 = _crop_origin(data, frame, rng, side)
        crop = data.images[frame, :, y0:y0 + side, x0:x0 + side]
        quarter, flip = int(rng.integers(4)), bool(rng.random() < 0.5)
        crop = crop[:, :, ::-1] if flip else crop
        images.append(np.rot90(crop, k=quarter, axes=(1, 2)))
        mine = data.tiles[data.tiles[:, 0] == frame]
        centres, wh = _turn(mine[:, 1:3] - [x0, y0], mine[:, 3:5], quarter, flip, side)
        targets.append(_targets(centres, wh, mine[:, 5], mine[:, 6], side // CELL))
    stacked = [torch.from_numpy(np.stack(parts)) for parts in zip(*targets, strict=True)]
    return (torch.from_numpy(np.ascontiguousarray(np.stack(images))).float() / 255, *stacked)


# --- classifier patches -------------------------------------------------------------------

@dataclass
class Patches:
    """(P, 3, 64, 64) RGB uint8 patches, each tile's half sizes in the patch (P, 2), labels."""

    images: torch.Tensor
    half: torch.Tensor
    labels: torch.Tensor

    @classmethod
    def concat(cls, parts: list[Patches]) -> Patches:
        return cls(torch.cat([p.images for p in parts]), torch.cat([p.half for p in parts]),
                   torch.cat([p.labels for p in parts]))

    def batch(self, gen: torch.Generator, n: int, jitter: float = 1.0
              ) -> tuple[torch.Tensor, torch.Tensor]:
        pick = torch.randint(len(self.labels), (n,), generator=gen)
        return patch_crops(self.images, self.half[pick], pick, gen, jitter), self.labels[pick]


def patch_crops(images: torch.Tensor, half: torch.Tensor, pick: torch.Tensor,
                gen: torch.Generator, amount: float) -> torch.Tensor:
    """Upright crops of the tile at the middle of each picked patch (as the photo crops)."""
    n = len(pick)
    rand = lambda *shape: torch.rand(*shape, generator=gen)  # noqa: E731
    centre = PATCH / 2 + (rand(n, 2) - 0.5) * 0.16 * 2 * half * amount
    half = half * (1 + (rand(n, 2) * 0.25 - 0.1) * amount)
    sideways = half[:, 0] > half[:, 1]
    quarter = sideways.long() + 2 * (rand(n) < 0.5).long() * int(amount > 0)
    angle = quarter.float() * (math.pi / 2) + (rand(n) - 0.5) * 0.14 * amount
    crop_half = torch.where((quarter % 2 == 1)[:, None], half.flip(1), half)
    return warp(images, centre, _turn_scale(angle, crop_half), CROP, pick)


def cut_patch(image: np.ndarray, centre: np.ndarray, side: float) -> np.ndarray:
    """A PATCH x PATCH patch of ``image`` centred on ``centre`` covering ``side`` px."""
    scale = PATCH / side
    matrix = np.array([[scale, 0, PATCH / 2 - centre[0] * scale],
                       [0, scale, PATCH / 2 - centre[1] * scale]], np.float32)
    flags = cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR
    return cv2.warpAffine(image, matrix, (PATCH, PATCH), flags=flags,
                          borderMode=cv2.BORDER_REFLECT)


def sim_patches(views: np.ndarray, tiles: np.ndarray, rng: np.random.Generator,
                backs: float = 0.15) -> Patches:
    """Readable sim tiles (a share of the backs), standing tiles and bits of felt as not-a-tile."""
    images, halves, labels = [], [], []
    side = 80.0
    for row in tiles:
        frame, box, label = int(row[0]), row[1:5], int(row[5])
        standing, visible = bool(row[6]), float(row[7])
        if standing:
            if rng.random() > 0.2:
                continue
            label = NONE_CLASS
        elif visible < READABLE_VISIBLE or (label == BACK_CLASS and rng.random() > backs):
            continue
        centre = (box[:2] + box[2:]) / 2
        images.append(cut_patch(views[frame], centre, side))
        halves.append((box[2:] - box[:2]) / 2 * PATCH / side)
        labels.append(label)
    _felt_patches(views, tiles, rng, images, halves, labels, side)
    return _as_patches(images, halves, labels)


def _felt_patches(views: np.ndarray, tiles: np.ndarray, rng: np.random.Generator,
                  images: list, halves: list, labels: list, side: float, per_view: int = 12
                  ) -> None:
    """Tile-sized boxes next to tiles (straddling two) or anywhere: not-a-tile."""
    for frame in range(len(views)):
        mine = tiles[tiles[:, 0] == frame]
        for _ in range(per_view):
            half = np.array([10.5, 14.0]) if rng.random() < 0.5 else np.array([14.0, 10.5])
            if len(mine) and rng.random() < 0.6:
                row = mine[int(rng.integers(len(mine)))]
                centre = (row[1:3] + row[3:5]) / 2 + rng.choice([-1, 1], 2) * half * \
                    rng.uniform(0.55, 1.0, 2) * (rng.random(2) < 0.7)
            else:
                centre = rng.uniform(40, views.shape[2] - 40, 2)
            if _near_tile(mine, centre, half):
                continue
            images.append(cut_patch(views[frame], centre, side))
            halves.append(half * PATCH / side)
            labels.append(NONE_CLASS)


def _near_tile(tiles: np.ndarray, centre: np.ndarray, half: np.ndarray) -> bool:
    """Whether a box overlaps a tile by IoU 0.3 or more."""
    if not len(tiles):
        return False
    box = np.concatenate([centre - half, centre + half])
    lt = np.maximum(tiles[:, 1:3], box[:2])
    rb = np.minimum(tiles[:, 3:5], box[2:])
    inter = np.prod(np.clip(rb - lt, 0, None), axis=1)
    areas = np.prod(tiles[:, 3:5] - tiles[:, 1:3], axis=1) + np.prod(2 * half)
    return bool((inter / np.maximum(areas - inter, 1e-6) >= 0.3).any())


def _as_patches(images: list, halves: list, labels: list) -> Patches:
    rgb = np.stack(images)[..., ::-1].transpose(0, 3, 1, 2).copy()
    return Patches(torch.from_numpy(rgb), torch.tensor(np.array(halves), dtype=torch.float32),
                   torch.tensor(labels, dtype=torch.long))


def photo_patches(pack: dict[str, np.ndarray], index: np.ndarray, rng: np.random.Generator
                  ) -> Patches:
    """Patches of the photo pack's labelled tiles (and of bits of table) of photos ``index``."""
    images, halves, labels = [], [], []
    for i in index:
        bgr = pack["photos"][i][..., ::-1]
        w, h = pack["sizes"][i]
        valid = pack["labels"][i] >= 0
        boxes = pack["boxes"][i][valid] * [w, h, w, h]
        rows = np.concatenate([np.zeros((len(boxes), 1)), boxes], axis=1)
        for box, label in zip(boxes, pack["labels"][i][valid], strict=True):
            side = 2.4 * float(max(box[2] - box[0], box[3] - box[1]))
            images.append(cut_patch(bgr, (box[:2] + box[2:]) / 2, side))
            halves.append((box[2:] - box[:2]) / 2 * PATCH / side)
            labels.append(int(label))
        _photo_negatives(bgr, rows, rng, images, halves, labels, count=max(1, len(boxes) // 2))
    return _as_patches(images, halves, labels)


def _photo_negatives(bgr: np.ndarray, rows: np.ndarray, rng: np.random.Generator,
                     images: list, halves: list, labels: list, count: int) -> None:
    for _ in range(count):
        if not len(rows):
            return
        row = rows[int(rng.integers(len(rows)))]
        half = (row[3:5] - row[1:3]) / 2 * rng.uniform(0.7, 1.3, 2)
        centre = (row[1:3] + row[3:5]) / 2 + rng.choice([-1, 1], 2) * half * \
            rng.uniform(0.55, 1.2, 2) * (rng.random(2) < 0.7)
        if _near_tile(rows, centre, half):
            continue
        side = 2.4 * float(half.max() * 2)
        images.append(cut_patch(bgr, centre, side))
        halves.append(half * PATCH / side)
        labels.append(NONE_CLASS)
