"""Training batches made on the training device (GPU or CPU) from a loaded pack.

Everything is tensor work: a batch is a set of affine warps of the packed photos (or of the
tile-art bank) through ``grid_sample``, so no CPU data-loader is needed.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import torch
from torch.nn import functional as F

NONE_CLASS = 38
BACK_CLASS = 37
RED_FIVES = (34, 35, 36)
CROP = (48, 36)


@dataclass
class Photos:
    """Packed photos on the device: images (N, 3, S, S) uint8, boxes in pixels, labels."""

    images: torch.Tensor
    sizes: torch.Tensor
    boxes: torch.Tensor
    labels: torch.Tensor

    @classmethod
    def from_pack(cls, pack: dict[str, np.ndarray], index: np.ndarray, device: str) -> Photos:
        sizes = torch.from_numpy(pack["sizes"][index]).to(device)
        scale = torch.cat([sizes, sizes], dim=1)[:, None, :]
        return cls(
            torch.from_numpy(pack["photos"][index]).permute(0, 3, 1, 2).contiguous().to(device),
            sizes, torch.from_numpy(pack["boxes"][index]).to(device) * scale,
            torch.from_numpy(pack["labels"][index].astype(np.int64)).to(device))

    @property
    def side(self) -> int:
        return self.images.shape[-1]

    def median_height(self) -> torch.Tensor:
        """Each photo's median tile height in pixels (40 where a photo has none)."""
        h = (self.boxes[..., 3] - self.boxes[..., 1]).masked_fill(self.labels < 0, float("nan"))
        return torch.nan_to_num(h.nanmedian(dim=1).values, nan=40.0).clamp(min=6.0)


def rotation(quarter: torch.Tensor, flip: torch.Tensor) -> torch.Tensor:
    """(B, 2, 2) matrices: a flip of x (where ``flip``) then ``quarter`` quarter turns."""
    angle = quarter.float() * (math.pi / 2)
    cos, sin = torch.cos(angle).round(), torch.sin(angle).round()
    rot = torch.stack([torch.stack([cos, -sin], -1), torch.stack([sin, cos], -1)], -2)
    mirror = torch.ones_like(rot[:, 0])
    mirror[:, 0] = 1 - 2 * flip.float()
    return rot * mirror[:, None, :]


def warp(images: torch.Tensor, centre: torch.Tensor, linear: torch.Tensor,
         out_hw: tuple[int, int], pick: torch.Tensor) -> torch.Tensor:
    """Sample ``images[pick]`` at ``centre + linear @ q`` for q over the output (half-sizes)."""
    side_h, side_w = images.shape[-2:]
    theta = torch.zeros(len(pick), 2, 3, device=images.device)
    theta[:, 0, :2] = linear[:, 0] * 2 / side_w
    theta[:, 1, :2] = linear[:, 1] * 2 / side_h
    theta[:, 0, 2] = centre[:, 0] * 2 / side_w - 1
    theta[:, 1, 2] = centre[:, 1] * 2 / side_h - 1
    grid = F.affine_grid(theta, [len(pick), 3, *out_hw], align_corners=False)
    return F.grid_sample(images[pick].float() / 255, grid, mode="bilinear",
                         padding_mode="zeros", align_corners=False)


def photometric(x: torch.Tensor, gen: torch.Generator) -> torch.Tensor:
    """Light, colour, blur and noise changes, per sample."""
    b = len(x)
    rand = lambda *shape: torch.rand(*shape, generator=gen, device=x.device)  # noqa: E731
    mean = x.mean(dim=(1, 2, 3), keepdim=True)
    x = (x - mean) * (0.6 + 0.8 * rand(b, 1, 1, 1)) + mean
    x = x * (0.55 + 0.9 * rand(b, 1, 1, 1)) * (0.85 + 0.3 * rand(b, 3, 1, 1))
    blur = rand(b, 1, 1, 1) < 0.3
    x = torch.where(blur, F.avg_pool2d(x, 3, 1, 1, count_include_pad=False), x)
    grey = rand(b, 1, 1, 1) < 0.05
    x = torch.where(grey, x.mean(dim=1, keepdim=True).expand_as(x), x)
    noise = torch.randn(x.shape, generator=gen, device=x.device) * 0.04 * rand(b, 1, 1, 1)
    return (x + noise).clamp(0, 1)


def detector_batch(photos: Photos, gen: torch.Generator, batch: int, side: int = 320,
                   stride: int = 4, tilt: float = 0.0) -> tuple[torch.Tensor, ...]:
    """Images (B, 3, side, side) and CenterNet targets (heat, size, offset, mask).

    Each view is a photo turned by quarter turns (and mirrored), scaled so its tiles stand
    12 to 90 px tall; with ``tilt`` (radians) half the views are also turned by up to that
    angle and squashed by up to 15% along one axis (a camera not straight above), their
    boxes becoming the boxes around the turned tiles, as photo labels draw them.
    """
    dev = photos.images.device
    rand = lambda *shape: torch.rand(*shape, generator=gen, device=dev)  # noqa: E731
    pick = torch.randint(len(photos.images), (batch,), generator=gen, device=dev)
    target_h = torch.exp(math.log(12) + rand(batch) * math.log(90 / 12))
    scale = (target_h / photos.median_height()[pick]).clamp(0.15, 3.0)
    forward = rotation(torch.randint(4, (batch,), generator=gen, device=dev),
                       torch.randint(2, (batch,), generator=gen, device=dev))
    if tilt:
        tilted = rand(batch) < 0.5
        forward = _turn_scale((rand(batch) - 0.5) * 2 * tilt * tilted,
                              torch.ones(batch, 2, device=dev)) @ forward
        squash = torch.ones(batch, 2, device=dev)
        squash[torch.arange(batch), (rand(batch) < 0.5).long()] = 1 - 0.15 * rand(batch) * tilted
        forward = squash[:, :, None] * forward
    forward = forward * scale[:, None, None]
    centre = _view_centres(photos, pick, rand)
    linear = torch.linalg.inv(forward) * (side / 2)
    images = photometric(warp(photos.images, centre, linear, (side, side), pick), gen)
    boxes = _forward_boxes(photos.boxes[pick], centre, forward, side)
    return (images, *_centre_targets(boxes, photos.labels[pick] >= 0, side // stride, stride))


def _view_centres(photos: Photos, pick: torch.Tensor, rand) -> torch.Tensor:
    """Half the views centre on a random tile, half on a random point of the photo."""
    sizes = photos.sizes[pick]
    anywhere = rand(len(pick), 2) * sizes
    count = (photos.labels[pick] >= 0).sum(1).clamp(min=1)
    j = (rand(len(pick)) * count).long()
    box = photos.boxes[pick, j]
    on_tile = (box[:, :2] + box[:, 2:]) / 2
    use_tile = (rand(len(pick)) < 0.5) & (photos.labels[pick, j] >= 0)
    return torch.where(use_tile[:, None], on_tile, anywhere)


def _forward_boxes(boxes: torch.Tensor, centre: torch.Tensor, forward: torch.Tensor,
                   side: int) -> torch.Tensor:
    """The boxes around each box's four corners once moved into the view."""
    x1, y1, x2, y2 = boxes.unbind(-1)
    corners = torch.stack([torch.stack([x1, y1], -1), torch.stack([x2, y1], -1),
                           torch.stack([x2, y2], -1), torch.stack([x1, y2], -1)], dim=2)
    corners = corners - centre[:, None, None, :]
    moved = torch.einsum("bij,bmkj->bmki", forward, corners) + side / 2
    return torch.cat([moved.min(dim=2).values, moved.max(dim=2).values], dim=-1)


def _centre_targets(boxes: torch.Tensor, valid: torch.Tensor, cells: int, stride: int):
    """Elliptic Gaussian heat (TTFNet-style), log size and offset at each centre cell."""
    centre = (boxes[..., :2] + boxes[..., 2:]) / 2 / stride
    wh = (boxes[..., 2:] - boxes[..., :2]).clamp(min=1.0) / stride
    inside = valid & (centre >= 0).all(-1) & (centre < cells).all(-1)
    cell = centre.floor().clamp(0, cells - 1)
    sigma = (wh * 0.54 / 6).clamp(min=0.35)
    grid = torch.arange(cells, device=boxes.device, dtype=torch.float32)
    gx = torch.exp(-((grid[None, None, :] - cell[..., 0:1]) ** 2) / (2 * sigma[..., 0:1] ** 2))
    gy = torch.exp(-((grid[None, None, :] - cell[..., 1:2]) ** 2) / (2 * sigma[..., 1:2] ** 2))
    gauss = gy[..., :, None] * gx[..., None, :] * inside[..., None, None]
    heat = gauss.max(dim=1).values[:, None]
    b_idx, m_idx = torch.nonzero(inside, as_tuple=True)
    iy, ix = cell[b_idx, m_idx, 1].long(), cell[b_idx, m_idx, 0].long()
    size = torch.zeros(len(boxes), 2, cells, cells, device=boxes.device)
    offset = torch.zeros_like(size)
    mask = torch.zeros(len(boxes), 1, cells, cells, device=boxes.device)
    size[b_idx, :, iy, ix] = torch.log(wh[b_idx, m_idx])
    offset[b_idx, :, iy, ix] = centre[b_idx, m_idx] - cell[b_idx, m_idx]
    mask[b_idx, 0, iy, ix] = 1.0
    heat = torch.maximum(heat, mask)
    return heat, size, offset, mask


def box_iou(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    """IoU of (B, 4) boxes against (B, M, 4) boxes: (B, M)."""
    lt = torch.maximum(a[:, None, :2], b[..., :2])
    rb = torch.minimum(a[:, None, 2:], b[..., 2:])
    inter = (rb - lt).clamp(min=0).prod(-1)
    area_a = (a[:, 2:] - a[:, :2]).prod(-1)[:, None]
    area_b = (b[..., 2:] - b[..., :2]).prod(-1)
    return inter / (area_a + area_b - inter).clamp(min=1e-6)


class CropSampler:
    """Classifier batches: real tile crops, not-a-tile crops and tile-art renders."""

    def __init__(self, photos: Photos, art: torch.Tensor, art_labels: torch.Tensor) -> None:
        self.photos = photos
        self.tiles = torch.nonzero(photos.labels >= 0)
        self.art = F.avg_pool2d(art.float(), 2)
        self.art_labels = art_labels
        weights = torch.ones(len(art_labels), device=art.device)
        for special in (*RED_FIVES, BACK_CLASS):
            weights[art_labels == special] = 6.0
        self.art_weights = weights

    def batch(self, gen: torch.Generator, size: int, jitter: bool = True,
              ) -> tuple[torch.Tensor, torch.Tensor]:
        n_art = size // 5 if len(self.art_labels) else 0
        n_neg = size // 4
        parts = [self.real(gen, size - n_art - n_neg, jitter), self.negatives(gen, n_neg)]
        if n_art:
            parts.append(self.rendered(gen, n_art))
        crops = torch.cat([p[0] for p in parts])
        labels = torch.cat([p[1] for p in parts])
        return (photometric(crops, gen) if jitter else crops), labels

    def real(self, gen: torch.Generator, n: int, jitter: bool = True):
        dev = self.photos.images.device
        pick = self.tiles[torch.randint(len(self.tiles), (n,), generator=gen, device=dev)]
        boxes = self.photos.boxes[pick[:, 0], pick[:, 1]]
        labels = self.photos.labels[pick[:, 0], pick[:, 1]]
        amount = 1.0 if jitter else 0.0
        return self._crops(pick[:, 0], boxes, gen, amount), labels

    def negatives(self, gen: torch.Generator, n: int):
        """Boxes overlapping no tile by IoU 0.3 or more: tile-sized bits of table, halves."""
        dev = self.photos.images.device
        rand = lambda *shape: torch.rand(*shape, generator=gen, device=dev)  # noqa: E731
        img = torch.randint(len(self.photos.images), (4 * n,), generator=gen, device=dev)
        count = (self.photos.labels[img] >= 0).sum(1)
        j = (rand(4 * n) * count.clamp(min=1)).long()
        ref = self.photos.boxes[img, j]
        wh = torch.where((count > 0)[:, None], ref[:, 2:] - ref[:, :2],
                         20 + 60 * rand(4 * n, 1).expand(-1, 2) * torch.tensor([0.75, 1.0],
                                                                           device=dev))
        wh = wh * (0.6 + 0.9 * rand(4 * n, 2))
        shift = (0.55 + 0.3 * rand(4 * n, 1)) * torch.where(rand(4 * n, 1) < 0.5, -1.0, 1.0)
        axis = (rand(4 * n) < 0.5).long()
        straddle = (ref[:, :2] + ref[:, 2:]) / 2
        straddle[torch.arange(4 * n), axis] += shift[:, 0] * wh[torch.arange(4 * n), axis]
        centre = torch.where(((rand(4 * n) < 0.4) & (count > 0))[:, None], straddle,
                             rand(4 * n, 2) * self.photos.sizes[img])
        boxes = torch.cat([centre - wh / 2, centre + wh / 2], dim=1)
        iou = box_iou(boxes, self.photos.boxes[img]).masked_fill(self.photos.labels[img] < 0, 0)
        order = torch.argsort((iou.max(1).values >= 0.3).float(), stable=True)[:n]
        labels = torch.full((n,), NONE_CLASS, device=dev, dtype=torch.long)
        return self._crops(img[order], boxes[order], gen, 1.0), labels

    def _crops(self, img: torch.Tensor, boxes: torch.Tensor, gen: torch.Generator,
               amount: float) -> torch.Tensor:
        dev = boxes.device
        n = len(img)
        rand = lambda *shape: torch.rand(*shape, generator=gen, device=dev)  # noqa: E731
        wh = boxes[:, 2:] - boxes[:, :2]
        centre = (boxes[:, :2] + boxes[:, 2:]) / 2 + (rand(n, 2) - 0.5) * 0.16 * wh * amount
        wh = wh * (1 + (rand(n, 2) * 0.25 - 0.1) * amount)
        sideways = wh[:, 0] > wh[:, 1]
        quarter = sideways.long() + 2 * (rand(n) < 0.5).long() * int(amount > 0)
        quarter = quarter + ((rand(n) < 0.08) & (amount > 0)).long()
        angle = quarter.float() * (math.pi / 2) + (rand(n) - 0.5) * 0.14 * amount
        crop_wh = torch.where((quarter % 2 == 1)[:, None], wh.flip(1), wh)
        return warp(self.photos.images, centre, _turn_scale(angle, crop_wh / 2), CROP, img)

    def rendered(self, gen: torch.Generator, n: int):
        dev = self.art.device
        rand = lambda *shape: torch.rand(*shape, generator=gen, device=dev)  # noqa: E731
        pick = torch.multinomial(self.art_weights, n, replacement=True, generator=gen)
        art = self.art[pick] / 255
        labels = self.art_labels[pick].long()
        tint = torch.where((labels == BACK_CLASS)[:, None, None, None],
                           0.3 + 0.7 * rand(n, 3, 1, 1), torch.ones(n, 3, 1, 1, device=dev))
        back = rand(n, 3, 1, 1).expand(-1, -1, *art.shape[-2:])
        rgb = art[:, :3] * tint * art[:, 3:] + back * (1 - art[:, 3:])
        centre = torch.tensor([CROP[1] / 2, CROP[0] / 2], device=dev) * (1 + (rand(n, 2) - 0.5)
                                                                           * 0.12)
        half = torch.tensor([CROP[1] / 2, CROP[0] / 2], device=dev) * (0.85 + 0.3 * rand(n, 2))
        angle = (rand(n) < 0.5).float() * math.pi + (rand(n) - 0.5) * 0.14
        images = (rgb * 255).to(torch.uint8)
        crops = warp(images, centre, _turn_scale(angle, half), CROP, torch.arange(n, device=dev))
        return crops, labels


def _turn_scale(angle: torch.Tensor, half: torch.Tensor) -> torch.Tensor:
    """(B, 2, 2): rotate by ``angle`` after scaling the unit square to ``half`` sizes."""
    cos, sin = torch.cos(angle), torch.sin(angle)
    rot = torch.stack([torch.stack([cos, -sin], -1), torch.stack([sin, cos], -1)], -2)
    return rot * half[:, None, :]
