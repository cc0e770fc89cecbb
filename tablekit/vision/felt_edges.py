"""The felt's straight edges as calibration evidence: where the felt meets the rim.

The four markers sit in the table's corners, so alone they say little about how the lens
bends the middle of each side. The felt's edges are straight lines at ``x, y = +-480`` mm:
with a first camera fit, each edge is searched across at a few dozen places along it (the
point where the colour is halfway from the felt's to the rim's), and each point found adds
one constraint (its table coordinate across the edge is 480 mm) to the final fit. Places
covered by an arm or a tile, or with too little contrast, give no point; points far off the
line are dropped by the fit.

>>> image = np.zeros((200, 200, 3), np.uint8); image[:, :] = (30, 90, 40)
>>> image[:, 150:] = (60, 110, 160)
>>> crossing_point(image, np.array([140.0, 100.0]), np.array([160.0, 100.0])).round(2).tolist()
[149.5, 100.0]
"""

from __future__ import annotations

from collections.abc import Callable

import cv2
import numpy as np

from tablekit.vision.layout import DEFAULT_LAYOUT

REACH_MM = 14.0
"""How far across the edge (each way) the profile is taken."""
SPAN_MM = 370.0
"""Points along each edge stay this close to its middle (clear of the corner markers)."""
SAMPLES = 24
MIN_CONTRAST = 24.0
END_TOLERANCE = 0.15
"""A profile whose felt or rim end is this far (share of the contrast) from the side's
usual colours is left out: a shadow or a tile lies on it."""

EdgePoints = tuple[np.ndarray, np.ndarray, np.ndarray]
"""Image points (N, 2), the table axis each constrains (0: x, 1: y), and its value (mm)."""


def crossing_point(image: np.ndarray, inside: np.ndarray, outside: np.ndarray,
                   steps: int = 80) -> np.ndarray | None:
    """The image point between ``inside`` (felt) and ``outside`` (rim) where the colour is
    halfway from the one to the other; None when the two differ too little or it is unclear."""
    found = crossing(image, inside, outside, steps)
    return None if found is None else found[0]


def crossing(image: np.ndarray, inside: np.ndarray, outside: np.ndarray, steps: int = 80
             ) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """:func:`crossing_point` with the felt's and the rim's colours at the two ends."""
    share = np.linspace(0.0, 1.0, steps)
    points = (inside[None, :] + (outside - inside)[None, :] * share[:, None]).astype(np.float32)
    colours = cv2.remap(image, points[None, :, 0], points[None, :, 1], cv2.INTER_LINEAR,
                        borderMode=cv2.BORDER_REPLICATE)[0].astype(np.float32)
    quarter = steps // 4
    felt, rim = np.median(colours[:quarter], axis=0), np.median(colours[-quarter:], axis=0)
    contrast = rim - felt
    if float(np.linalg.norm(contrast)) < MIN_CONTRAST:
        return None
    along = (colours - felt) @ contrast / float(contrast @ contrast)
    rising = np.nonzero((along[:-1] < 0.5) & (along[1:] >= 0.5))[0]
    if len(rising) != 1:
        return None
    j = int(rising[0])
    t = share[j] + (0.5 - along[j]) / (along[j + 1] - along[j]) * (share[j + 1] - share[j])
    return inside + (outside - inside) * t, felt, rim


def _typical(felt: np.ndarray, rim: np.ndarray) -> np.ndarray:
    """bool per profile: both ends look like the side's usual felt and rim (no shadow, tile
    or arm on them)."""
    contrast = float(np.linalg.norm(np.median(rim, 0) - np.median(felt, 0)))
    off = np.maximum(np.linalg.norm(felt - np.median(felt, 0), axis=1),
                     np.linalg.norm(rim - np.median(rim, 0), axis=1))
    return off <= END_TOLERANCE * contrast


def _sides(half: float) -> list[tuple[int, float]]:
    """(axis fixed, its value) of the four edges."""
    return [(1, -half), (0, half), (1, half), (0, -half)]


def felt_edge_points(image: np.ndarray, project: Callable[[np.ndarray], np.ndarray],
                     half: float = DEFAULT_LAYOUT.table_half) -> EdgePoints:
    """Edge points found in ``image``; ``project`` maps table points (N, 3) mm to pixels;
    ``half``: half the felt's side (mm)."""
    found, axes, values = [], [], []
    along = np.linspace(-SPAN_MM, SPAN_MM, SAMPLES)
    for axis, value in _sides(half):
        sign = np.sign(value)
        side = []
        for t in along:
            ends = np.zeros((2, 3))
            ends[:, 1 - axis] = t
            ends[:, axis] = value - sign * REACH_MM, value + sign * REACH_MM
            inside, outside = project(ends)
            if (hit := crossing(image, inside, outside)) is not None:
                side.append(hit)
        if len(side) < 4:
            continue
        keep = _typical(np.array([h[1] for h in side]), np.array([h[2] for h in side]))
        found += [h[0] for h, k in zip(side, keep, strict=True) if k]
        axes += [axis] * int(keep.sum())
        values += [value] * int(keep.sum())
    return (np.array(found, np.float64).reshape(-1, 2), np.array(axes, np.int64),
            np.array(values, np.float64))
