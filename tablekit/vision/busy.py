"""Where an arm or a hand covers the table: a cheap colour test on a coarse top-down view.

Each 8 mm cell of the felt is compared with the felt's own colour where it is (a smooth
quadratic fitted to the bare felt cells, so uneven light does not count): a cell whose
chromaticity differs, or that is brighter or darker than light and shadow make the felt,
is not felt. Cells of found tiles, the centre panel, the markers and the felt's rim are
left out. What stays after an opening of 64 mm (arms are thick, rows of standing tiles
and stray cells are not) and reaches the edge of the felt (arms come from outside the
table) is an arm; its box, grown to the thin parts next to it (fingers) and by a margin,
is busy. An arm that barely reaches over the felt (a player taking from their own hand)
is caught where it crosses the wooden rim: a run of rim cells unlike that side's wood.

Over a game a :class:`FeltMemory` learns how each cell of the felt has looked lately, and
a part with next to nothing unlike that is no arm: a lamp's glare, which stays where it
is, stops counting within seconds, while a passing arm still counts (and so does the row
of standing tiles it crosses to reach the edge).

>>> felt = np.zeros((100, 100, 3), np.uint8); felt[:] = (40, 100, 40)
>>> arm = felt.copy(); arm[40:52, 0:45] = (150, 180, 225)
>>> row = felt.copy(); row[10:13, 10:60] = (150, 180, 225)
>>> busy_boxes(felt, 0.1, 500.0, []), busy_boxes(row, 0.1, 500.0, [])
([], [])
>>> [round(v) for v in busy_boxes(arm, 0.1, 500.0, [])[0]]
[-520, -48, -24, 120]
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from tablekit.vision.layout import DEFAULT_LAYOUT, TableLayout

CELL_MM = 8.0
INSET_MM = 16.0
"""The felt's outermost band (mixed with the rim) is not looked at."""
EDGE_MM = 40.0
"""An arm's thick part reaches this close to the looked-at felt's edge."""
THICK_MM = 64.0
GROW_MM = 80.0
MARGIN_MM = 20.0
CHROMA = 0.2
"""Log-ratio spread between channels (against the felt) that marks a cell as not felt."""
BRIGHTER, DARKER = 1.4, 0.3
TILE_PAD_MM = 6.0
RIM_BAND = (8.0, 28.0)
"""The band of the rim (mm out from the felt's edge) watched for arms crossing it."""
RIM_RUN_MM = 32.0
RIM_CHROMA, RIM_SHADE, RIM_BRIGHTER = 0.3, 0.6, 1.6
"""Wood has grain and takes shadows: what marks a rim cell as not wood is stricter."""
LEARN_SECONDS = (4.0, 20.0)
"""How long a :class:`FeltMemory` takes (to 1 - 1/e) to follow a cell that looks like
felt (light drifting), and to learn one that does not (an arm passes in a second and is
hardly learned; a glare that stays is learned in several seconds)."""
NEW_CELLS = 8
"""An arm's part of the not-felt cells has at least this many cells unlike their recent
look."""

Box = tuple[float, float, float, float]


def coarse_view(view_bgr: np.ndarray, scale: float) -> tuple[np.ndarray, float]:
    """The view at CELL_MM per pixel, and that scale in px/mm."""
    factor = 1 / (CELL_MM * scale)
    size = (round(view_bgr.shape[1] * factor), round(view_bgr.shape[0] * factor))
    small = cv2.resize(view_bgr, size, interpolation=cv2.INTER_AREA)
    return small, size[0] / view_bgr.shape[1] * scale


@functools.lru_cache(maxsize=4)
def _table_grid(shape: tuple[int, ...], scale: float, half: float
                ) -> tuple[np.ndarray, np.ndarray]:
    """Table x and y (mm) of each cell (cached: read-only)."""
    cols = (np.arange(shape[1]) + 0.5) / scale - half
    rows = half - (np.arange(shape[0]) + 0.5) / scale
    x, y = np.meshgrid(cols, rows)
    x.flags.writeable = y.flags.writeable = False
    return x, y


@functools.lru_cache(maxsize=4)
def _terms(shape: tuple[int, ...], scale: float, half: float) -> np.ndarray:
    """The quadratic's six terms at each cell (cached: read-only)."""
    x, y = _table_grid(shape, scale, half)
    terms = np.stack([np.ones_like(x), x, y, x * x, x * y, y * y], axis=-1) / \
        np.array([1, 500, 500, 250000, 250000, 250000])
    terms.flags.writeable = False
    return terms


def _box_mask(shape: tuple[int, ...], scale: float, half: float, boxes: Sequence[Box],
              pad: float) -> np.ndarray:
    """bool mask of the cells covered by table boxes (mm) grown by ``pad``."""
    mask = np.zeros(shape[:2], np.uint8)
    for x0, y0, x1, y1 in boxes:
        c0, c1 = int((x0 - pad + half) * scale), int(np.ceil((x1 + pad + half) * scale))
        r0, r1 = int((half - y1 - pad) * scale), int(np.ceil((half - y0 + pad) * scale))
        mask[max(r0, 0):max(r1, 0), max(c0, 0):max(c1, 0)] = 1
    return mask.astype(bool)


def ignored_cells(shape: tuple[int, ...], scale: float, half: float, tiles: Sequence[Box],
                  layout: TableLayout = DEFAULT_LAYOUT) -> np.ndarray:
    """Cells that are not bare felt by design: the rim, the centre panel, markers, tiles."""
    x, y = _table_grid(shape, scale, half)
    limit = layout.table_half - INSET_MM
    out = (np.abs(x) > limit) | (np.abs(y) > limit)
    panel = layout.centre_half + 6
    reach = layout.marker_size / 2 + layout.marker_margin + 4
    fixed = [(-panel, -panel, panel, panel)] + [
        (cx - reach, cy - reach, cx + reach, cy + reach) for cx, cy in layout.marker_centres]
    return out | _box_mask(shape, scale, half, [*fixed, *tiles], TILE_PAD_MM)


def felt_model(logs: np.ndarray, bare: np.ndarray, terms: np.ndarray) -> np.ndarray:
    """The felt's log colour at every cell: a quadratic in (x, y) (``terms``, see
    :func:`_terms`) fitted to the ``bare`` cells, refitted once without the cells it fits
    worst."""
    use = bare.copy()
    use[1::2] = False  # every other row is enough for six coefficients
    for _ in range(2):
        if use.sum() < 12:
            return np.broadcast_to(np.median(logs[bare] if bare.any() else logs.reshape(-1, 3),
                                             axis=0), logs.shape)
        a = terms[use]
        coef = np.linalg.solve(a.T @ a + 1e-6 * np.eye(6), a.T @ logs[use])
        fitted = terms @ coef
        residual = np.abs(logs - fitted).max(axis=-1)
        use &= residual <= np.percentile(residual[use], 80)
    return fitted


@dataclass
class FeltMemory:
    """Each coarse cell's recent look (log colour) while no tile lay on it.

    >>> memory, glare = FeltMemory(), np.zeros((4, 4, 3), np.float32)
    >>> glare[0, 0] = 1.0  # a bright spot the fitted felt does not know
    >>> memory.recall(np.zeros_like(glare), 0.0)[0, 0].tolist()  # starts from the fit
    [0.0, 0.0, 0.0]
    >>> for second in range(1, 31):
    ...     memory.learn(glare, np.zeros((4, 4), bool), _odd(glare), second)
    >>> round(float(memory.recall(glare, 31.0)[0, 0, 0]), 2), bool(_odd(glare - memory.logs)[0, 0])
    (0.77, False)
    """

    logs: np.ndarray | None = None
    seen_at: float | None = None

    def recall(self, fitted: np.ndarray, timestamp: float) -> np.ndarray:
        """The learned look, or ``fitted`` (the felt's fit) where nothing is learned yet
        (the first frame, a new view, a long gap)."""
        stale = self.seen_at is None or not 0 <= timestamp - self.seen_at <= LEARN_SECONDS[0]
        if self.logs is None or self.logs.shape != fitted.shape or stale:
            self.logs = fitted.astype(np.float32)
        return self.logs

    def learn(self, logs: np.ndarray, ignored: np.ndarray, new: np.ndarray,
              timestamp: float) -> None:
        """Move the cells that are not ``ignored`` (tiles, panel, rim) towards ``logs``,
        those that look ``new`` (unlike felt) slowly."""
        assert self.logs is not None
        dt = 0.0 if self.seen_at is None else max(timestamp - self.seen_at, 0.0)
        rates = (1 - np.exp(-dt / np.array(LEARN_SECONDS))).astype(np.float32)
        rate = np.where(new, rates[1], rates[0])[..., None]
        bare = ~ignored
        self.logs[bare] += (rate * (logs - self.logs))[bare]
        self.seen_at = timestamp


def _odd(ratio: np.ndarray) -> np.ndarray:
    """bool mask of log-colour differences too large for light and shade on felt."""
    level = ratio.mean(axis=2)
    chroma = np.abs(ratio - level[..., None]).max(axis=2)
    return (chroma > CHROMA) | (level > np.log(BRIGHTER)) | (level < np.log(DARKER))


def not_felt(logs: np.ndarray, fitted: np.ndarray, ignored: np.ndarray) -> np.ndarray:
    """bool mask of the cells whose log colour ``logs`` cannot be the ``fitted`` felt's,
    lit or shaded."""
    return _odd(logs - fitted) & ~ignored


def _disk(mm: float, scale: float) -> np.ndarray:
    size = max(1, round(mm * scale))
    return cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (size, size))


def busy_boxes(view_bgr: np.ndarray, scale: float, half: float, tiles: Sequence[Box],
               memory: FeltMemory | None = None, timestamp: float = 0.0,
               layout: TableLayout = DEFAULT_LAYOUT) -> list[Box]:
    """Table boxes (mm) of arms over the felt in a top-down view (``scale`` px/mm covering
    ``-half..half`` mm); ``tiles`` are the table boxes of the tiles found; ``memory``: the
    game's :class:`FeltMemory`, which learns this frame (``timestamp``: its time, s);
    ``layout``: the table (its felt, centre panel and markers are no arms)."""
    coarse, cell_scale = coarse_view(view_bgr, scale)
    x, y = _table_grid(coarse.shape, cell_scale, half)
    ignored = ignored_cells(coarse.shape, cell_scale, half, tiles, layout)
    terms = _terms(coarse.shape, cell_scale, half)
    logs = np.log(coarse.astype(np.float32) + 4.0)
    fitted = felt_model(logs, ~ignored, terms)
    mask = not_felt(logs, fitted, ignored)
    thick = cv2.morphologyEx(mask.astype(np.uint8), cv2.MORPH_OPEN, _disk(THICK_MM, cell_scale))
    count, labels = cv2.connectedComponents(thick, connectivity=8)
    edge_at = layout.table_half - INSET_MM - EDGE_MM
    edge = (np.abs(x) >= edge_at) | (np.abs(y) >= edge_at)
    parts = [labels == label for label in range(1, count)]
    parts = [part for part in parts if (part & edge).any()]
    if memory is not None:  # a part with nothing new in it (a glare) is no arm
        new = mask & _odd(logs - memory.recall(fitted, timestamp))
        memory.learn(logs, ignored, mask, timestamp)
        parts = [part for part in parts if (part & new).sum() >= NEW_CELLS]
    parts += rim_crossings(coarse, x, y, layout.table_half)
    return _merged([_grown_box(part, mask, x, y) for part in parts])


def _side(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Which rim side each cell is on: 0 bottom, 1 right, 2 top, 3 left."""
    return np.where(np.abs(y) >= np.abs(x), np.where(y < 0, 0, 2), np.where(x > 0, 1, 3))


def rim_crossings(coarse: np.ndarray, x: np.ndarray, y: np.ndarray,
                  half: float = DEFAULT_LAYOUT.table_half) -> list[np.ndarray]:
    """Masks of the runs of rim cells whose colour is not their side's wood."""
    reach = np.maximum(np.abs(x), np.abs(y))
    band = ((reach >= half + RIM_BAND[0]) & (reach <= half + RIM_BAND[1])
            & (coarse.max(axis=2) > 0))
    rows, cols = np.nonzero(band)
    logs = np.log(coarse[rows, cols].astype(np.float32) + 4.0)
    side = _side(x[rows, cols], y[rows, cols])
    odd = np.zeros(len(rows), bool)
    for k in range(4):
        cells = side == k
        if cells.sum() < 8:
            continue
        ratio = logs[cells] - np.median(logs[cells], axis=0)
        level = ratio.mean(axis=-1)
        chroma = np.abs(ratio - level[:, None]).max(axis=-1)
        lit = level > np.log(RIM_SHADE)  # in shadow the colour of dark wood is noise
        odd[cells] = (lit & (chroma > RIM_CHROMA)) | (level > np.log(RIM_BRIGHTER))
    mask = np.zeros(band.shape, np.uint8)
    mask[rows[odd], cols[odd]] = 1
    count, labels = cv2.connectedComponents(mask, connectivity=8)
    runs = [labels == label for label in range(1, count)]
    return [run for run in runs if _length(run, x, y) >= RIM_RUN_MM]


def _length(run: np.ndarray, x: np.ndarray, y: np.ndarray) -> float:
    return float(max(np.ptp(x[run]), np.ptp(y[run])) + CELL_MM)


def _merged(boxes: list[Box]) -> list[Box]:
    """Overlapping boxes joined."""
    out: list[Box] = []
    for box in sorted(boxes):
        if out and box[0] <= out[-1][2] and box[1] <= out[-1][3] and box[3] >= out[-1][1]:
            last = out.pop()
            box = (min(last[0], box[0]), min(last[1], box[1]), max(last[2], box[2]),
                   max(last[3], box[3]))
        out.append(box)
    return out


def _grown_box(part: np.ndarray, mask: np.ndarray, x: np.ndarray, y: np.ndarray) -> Box:
    """The box of a thick part and of the not-felt cells within GROW_MM of its box."""
    x0, x1, y0, y1 = x[part].min(), x[part].max(), y[part].min(), y[part].max()
    near = (mask | part) & (x >= x0 - GROW_MM) & (x <= x1 + GROW_MM) & \
        (y >= y0 - GROW_MM) & (y <= y1 + GROW_MM)
    pad = MARGIN_MM + CELL_MM / 2
    return (float(x[near].min() - pad), float(y[near].min() - pad),
            float(x[near].max() + pad), float(y[near].max() + pad))
