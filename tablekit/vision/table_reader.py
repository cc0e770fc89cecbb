"""The calibrated read: rectify -> find -> classify -> place, one frame to a TableReading.

Stages (each a plain function): the frame is warped to the 0.8 px/mm top-down view of
the plane of the tile faces (:mod:`tablekit.vision.rectify`), the view's tiles are found
(:mod:`tablekit.vision.table_detect`), every face-up tile is cut at the fixed face size
(26 x 35 mm) around its centre, turned upright when it lies sideways and named by the
classifier (top three candidates with their calibrated probabilities; the classifier
reads upright and upside-down faces alike), and the arms over the felt are boxed
(:mod:`tablekit.vision.busy`).

A tile's angle follows from where it lies: a face is upright for the seat whose side of
the table it is on (``90 * seat``) unless it lies across that seat's reading direction,
when it is turned a quarter to the left (``90 * seat + 90``, as riichi and called tiles
lie); the small rotation measured from its edges is added.

Load the models once, read many frames::

    models = TableModels.load()
    profile = Profile.load(Path("calibration/table.json"))
    reading = read_table(frame, profile, models, timestamp)
    if not check_profile(frame, profile).ok:  # now and then: a bumped camera
        profile = calibrate(frames)

>>> upright_angle((0.0, -150.0), tall=True), upright_angle((0.0, -150.0), tall=False)
(0.0, 90.0)
>>> upright_angle((300.0, 0.0), tall=False), upright_angle((-300.0, 0.0), tall=True)
(90.0, 0.0)
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from tablekit.tiles import Tile
from tablekit.vision.busy import FeltMemory, busy_boxes
from tablekit.vision.calibration import Profile
from tablekit.vision.classes import BACK, CLASSES, NOT_A_TILE
from tablekit.vision.classify import crop_size, upright_crop
from tablekit.vision.layout import DEFAULT_LAYOUT, seat_of_point
from tablekit.vision.onnx_model import CLASSIFIER_PATH, MODELS_DIR, OnnxModel, load_model
from tablekit.vision.rectify import TableView
from tablekit.vision.red_fives import RedFiveCheck
from tablekit.vision.row_gaps import second_looks
from tablekit.vision.table_detect import (
    DETECT_HALF,
    DETECT_SCALE,
    TableDetections,
    detect_table,
)
from tablekit.vision.table_reading import SeenTile, TableReading
from tablekit.vision.zones import locate

TABLE_DETECTOR_PATH = MODELS_DIR / "table_detector.onnx"
TOP_K = 3
UNSURE_RATIO = (0.82, 1.22)
FACE_CLASSES = np.array([code not in (BACK, NOT_A_TILE) for code in CLASSES])
DETECT_THRESHOLD = 0.35
ZONE_THRESHOLDS = {"pond": 0.25, "ura": 0.25, "hand": 0.3}
"""Weaker peaks kept in a pond and in front of the dead wall (discards and ura indicators
lie in known places on bare felt; the far side's tiles are small in the frame) and in a
hand row (a revealed hand's faces; the tops of standing tiles peak lower still); the
tracker votes over frames anyway."""
LOOK_SURE = 0.5
"""A face the classifier names in a hand row's gap at least this surely is kept."""
FAINT_POND = 0.12
"""Fainter pond peaks still read, apart (:attr:`TableReading.faint`): a blank white dragon
on light felt can peak this low, and the tracker takes one only where a discard must be."""


@dataclass(frozen=True)
class TableModels:
    """The rectified-view detector and the tile classifier (the one the photo path uses:
    it learned sim tiles and real ones), loaded once."""

    detector: OnnxModel
    classifier: OnnxModel
    """The classifier, or a :class:`~tablekit.vision.nearest.NearestFaces` that runs alike."""
    min_score: float = 0.3
    red_fives: RedFiveCheck | None = None
    """The second look at a five's colour (:mod:`tablekit.vision.red_fives`); None: the
    classifier alone."""

    @classmethod
    def load(cls, threads: int = 1, detector: Path = TABLE_DETECTOR_PATH,
             classifier: Path = CLASSIFIER_PATH, tileset: str | Path | None = None
             ) -> TableModels:
        """The shipped models (or the paths given); ``tileset``: an enrolled set's folder,
        whose classifier (or nearest faces) names the faces."""
        if tileset:
            from tablekit.vision.tileset import load_classifier

            named = load_classifier(tileset, threads)
        else:
            named = load_model(classifier, threads)
        check = RedFiveCheck.load()
        shown = getattr(named, "red_fives_shown", ())  # a set's own red fives decide theirs
        return cls(load_model(detector, threads), named,
                   red_fives=check.without(shown) if check is not None else None)

    def name_crops(self, batch: np.ndarray) -> np.ndarray:
        """The classifier's probabilities for a crop batch, each five's red-or-plain split
        looked at again by :attr:`red_fives` when there is one."""
        probs = self.classifier.run(batch)["probs"]
        return self.red_fives.apply(batch, probs) if self.red_fives is not None else probs

    def name_boxes(self, image: np.ndarray, view: TableView, boxes: np.ndarray) -> np.ndarray:
        """:meth:`name_crops` of the faces at ``boxes`` (view px) of ``image``."""
        if not len(boxes):
            return np.zeros((0, len(CLASSES)), np.float32)
        return self.name_crops(face_crops(image, view, boxes, crop_size(self.classifier)))


@dataclass(frozen=True)
class ViewTile:
    """One tile read in the view: its face box (view px), face up or not, candidates
    (code, probability) best first, and the detector's score."""

    box: tuple[float, float, float, float]
    face_up: bool
    candidates: tuple[tuple[str, float], ...]
    score: float

    @property
    def code(self) -> str:
        return self.candidates[0][0] if self.candidates else BACK

    @property
    def tall(self) -> bool:
        x0, y0, x1, y1 = self.box
        return (y1 - y0) >= (x1 - x0)


def face_boxes(found: TableDetections, scale: float, tall: np.ndarray | None = None,
               width: float = DEFAULT_LAYOUT.tile_width,
               length: float = DEFAULT_LAYOUT.tile_length
               ) -> np.ndarray:
    """Boxes of the true face size (view px) centred on each tile found, tall or wide as
    the box found is (or as ``tall`` says)."""
    centres = (found.boxes[:, :2] + found.boxes[:, 2:]) / 2
    if tall is None:
        tall = box_ratio(found.boxes) >= 1.0
    half = np.where(tall[:, None], [width / 2, length / 2], [length / 2, width / 2]) * scale
    return np.concatenate([centres - half, centres + half], axis=1).astype(np.float32)


def box_ratio(boxes: np.ndarray) -> np.ndarray:
    """Height over width of each box."""
    return (boxes[:, 3] - boxes[:, 1]) / np.maximum(boxes[:, 2] - boxes[:, 0], 1e-6)


def unsure_shape(boxes: np.ndarray) -> np.ndarray:
    """bool per box: too square to tell a tall tile from one lying sideways (a face is
    35 x 26 mm, ratio 1.35 either way round); such faces are read both ways.

    >>> unsure_shape(np.array([[0, 0, 26, 35], [0, 0, 24, 26], [0, 0, 35, 26]])).tolist()
    [False, True, False]
    """
    ratio = box_ratio(boxes)
    return (ratio > UNSURE_RATIO[0]) & (ratio < UNSURE_RATIO[1])


def top_candidates(probs: np.ndarray, k: int = TOP_K) -> tuple[tuple[str, float], ...]:
    """The ``k`` likeliest faces (backs and not-a-tile left out), best first.

    >>> probs = np.zeros(len(CLASSES)); probs[[4, 13, 37]] = [0.6, 0.3, 0.1]
    >>> top_candidates(probs, 2)
    (('5m', 0.6), ('5p', 0.3))
    """
    faces = np.where(FACE_CLASSES, probs, -1.0)
    order = np.argsort(-faces, kind="stable")[:k]
    return tuple((CLASSES[i], round(float(probs[i]), 4)) for i in order)


def face_crops(image: np.ndarray, view: TableView, boxes: np.ndarray,
               size: tuple[int, int]) -> np.ndarray:
    """The classifier's batch: each box of the view warped alone from the frame, turned
    upright when wide, resized to ``size``: as :func:`crops_batch` on the whole view."""
    batch = np.empty((len(boxes), 3, *size), np.float32)
    for i, box in enumerate(boxes):
        face = view.warp_box(image, box)
        whole = np.array([0, 0, face.shape[1], face.shape[0]], np.float32)
        batch[i] = upright_crop(face, whole, size).transpose(2, 0, 1)
    return batch * np.float32(1 / 255)


def name_tiles(models: TableModels, image: np.ndarray, view: TableView,
               found: TableDetections, zones: np.ndarray | None = None) -> list[ViewTile]:
    """Classify the face-up tiles, every tile in a pond (discards lie face up: a blank
    white dragon the detector or classifier took for a back is named by its likeliest
    face) and the face-down tiles of the hand rows (a white dragon lying in a meld or a
    revealed hand often looks face down to the detector: the classifier decides there);
    other face-down tiles keep no candidates. A face whose box is too square to say which
    way it lies is read both ways and keeps the way whose best face is likelier.
    Faces scoring under ``models.min_score`` are dropped. ``zones``: each box's zone when
    the caller has them (:func:`find_in_view`)."""
    sizes = view.layout.tile_width, view.layout.tile_length
    boxes = face_boxes(found, view.scale, None, *sizes)
    zones = zones_of(view, boxes) if zones is None else zones
    pond = zones == "pond"
    up = np.nonzero(~found.back | pond | (zones == "hand"))[0]
    both = up[unsure_shape(found.boxes[up])]
    turned = face_boxes(found.take(both), view.scale, box_ratio(found.boxes[both]) < 1.0,
                        *sizes)
    crops = np.concatenate([boxes[up], turned])
    probs = models.name_boxes(image, view, crops)
    named = dict(zip(up.tolist(), probs[: len(up)], strict=True))
    for i, box, row in zip(both.tolist(), turned, probs[len(up):], strict=True):
        if (row * FACE_CLASSES).max() > (named[i] * FACE_CLASSES).max():
            named[i], boxes[i] = row, box
    tiles = []
    for i, box in enumerate(boxes):
        box_t = tuple(float(v) for v in box)
        row = named.get(i)
        best = CLASSES[int(row.argmax())] if row is not None else BACK
        unsure = row is not None and float(row.max()) < models.min_score
        if found.back[i] and not pond[i] and (best == NOT_A_TILE or unsure):
            row, best, unsure = None, BACK, False  # face down, as the detector saw it
        if best == NOT_A_TILE or unsure:
            continue
        face_up = best != BACK or bool(pond[i])
        candidates = top_candidates(row) if face_up and row is not None else ()
        tiles.append(ViewTile(box_t, face_up, candidates, float(found.scores[i])))  # type: ignore[arg-type]
    return tiles


def zones_of(view: TableView, boxes: np.ndarray) -> np.ndarray:
    """The zone (:func:`tablekit.vision.zones.locate`) of each box's centre (view px)."""
    centres = view.to_table((boxes[:, :2] + boxes[:, 2:]) / 2) if len(boxes) else []
    return np.array([locate((float(x), float(y)), view.layout).zone for x, y in centres],
                    dtype=object)


def where_tiles_lie(view: TableView, boxes: np.ndarray) -> np.ndarray:
    """bool per box: its centre is on the felt and off the markers (tiles cannot be there).

    >>> from tablekit.vision.table_camera import TableCamera
    >>> view = TableView(TableCamera(8, 8, 1.0, 0.0, (4.0, 4.0), (0, 0, 0), (0, 0, 1)))
    >>> centres = view.to_view(np.array([[0.0, 0.0], [-435.0, -435.0], [495.0, 0.0]]))
    >>> where_tiles_lie(view, np.concatenate([centres - 5, centres + 5], axis=1)).tolist()
    [True, False, False]
    """
    xy = view.to_table((boxes[:, :2] + boxes[:, 2:]) / 2)
    layout = view.layout
    keep = (np.abs(xy) <= layout.table_half).all(axis=1)
    reach = layout.marker_size / 2 + layout.marker_margin
    for centre in layout.marker_centres:
        keep &= ~(np.abs(xy - centre) <= reach).all(axis=1)
    return keep


def detection_view(view: TableView) -> TableView:
    """The detector's coarser view of the same camera."""
    return TableView(view.camera, DETECT_SCALE, DETECT_HALF, view.plane_mm, view.layout)


def find_in_view(image: np.ndarray, view: TableView, models: TableModels,
                 faint: bool = False) -> tuple[TableDetections, np.ndarray, np.ndarray]:
    """The tiles found in a frame (boxes in ``view`` pixels), the detector's view, and each
    tile's zone; ``faint``: pond peaks from :data:`FAINT_POND` too."""
    thresholds = {**ZONE_THRESHOLDS, "pond": FAINT_POND} if faint else ZONE_THRESHOLDS
    coarse = detection_view(view)
    small = coarse.warp(image)
    found = detect_table(models.detector, small, threshold=min(thresholds.values()))
    zones = zones_of(coarse, found.boxes)
    needed = np.array([thresholds.get(zone, DETECT_THRESHOLD) for zone in zones])
    keep = where_tiles_lie(coarse, found.boxes) & (found.scores >= needed)
    found = found.take(keep)
    boxes = view.to_view(coarse.to_table(found.boxes.reshape(-1, 2))).reshape(-1, 4)
    return TableDetections(boxes.astype(np.float32), found.scores, found.back), small, \
        zones[keep]


def read_view(image: np.ndarray, view: TableView, models: TableModels, faint: bool = False
              ) -> tuple[list[ViewTile], np.ndarray]:
    """Every tile of a frame, read in its top-down ``view``, and the detector's coarser view
    of the frame; ``faint``: faint pond peaks too (their scores are under the pond's)."""
    found, small, zones = find_in_view(image, view, models, faint)
    tiles = name_tiles(models, image, view, found, zones)
    return tiles, small


def upright_angle(xy: tuple[float, float], tall: bool) -> float:
    """The face's angle (degrees counter-clockwise from table +y) from its seat's side and
    whether it is tall in the view."""
    seat = seat_of_point(*xy)
    across = tall != (seat % 2 == 0)
    return float((90 * seat + (90 if across else 0)) % 360)


def edge_field(view_bgr: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per pixel, the gradient's strength times the cosine and sine of four times its
    direction: summed over a tile, they give its edges' rotation modulo 90 degrees."""
    import cv2

    grey = cv2.cvtColor(view_bgr, cv2.COLOR_BGR2GRAY).astype(np.float32)
    gx, gy = cv2.Sobel(grey, cv2.CV_32F, 1, 0), cv2.Sobel(grey, cv2.CV_32F, 0, 1)
    square = gx * gx + gy * gy
    cos2, sin2 = (gx * gx - gy * gy), 2 * gx * gy
    weight = 1 / np.maximum(square, 1e-3)
    return (cos2 * cos2 - sin2 * sin2) * weight, 2 * cos2 * sin2 * weight


def fine_angle(field: tuple[np.ndarray, np.ndarray], box: tuple[float, float, float, float],
               pad: int = 3) -> float:
    """The small rotation (degrees, -45..45, counter-clockwise as seen) of a tile's edges
    in and around ``box``."""
    x0, y0, x1, y1 = (round(v) for v in box)
    cos4, sin4 = (part[max(0, y0 - pad):y1 + pad, max(0, x0 - pad):x1 + pad] for part in field)
    if not cos4.size:
        return 0.0
    return float(-np.degrees(np.arctan2(sin4.sum(), cos4.sum())) / 4)


@functools.lru_cache(maxsize=64)
def _tile(code: str) -> Tile:
    return Tile.from_code(code)


def seen_tiles(tiles: list[ViewTile], view: TableView, small_bgr: np.ndarray
               ) -> tuple[SeenTile, ...]:
    """The view's tiles on the table: centre (mm), angle (edges measured in the detector's
    view ``small_bgr``), face up, candidates."""
    if not tiles:
        return ()
    boxes = np.array([tile.box for tile in tiles], np.float64)
    centres = view.to_table((boxes[:, :2] + boxes[:, 2:]) / 2)
    small = detection_view(view)
    small_boxes = small.to_view(view.to_table(boxes.reshape(-1, 2))).reshape(-1, 4)
    field = edge_field(small_bgr)
    out = []
    for tile, (x, y), box in zip(tiles, centres, small_boxes, strict=True):
        point = (round(float(x), 1), round(float(y), 1))
        angle = (upright_angle(point, tile.tall) + fine_angle(field, tuple(box), 2)) % 360
        candidates = tuple((_tile(code), p) for code, p in tile.candidates)
        out.append(SeenTile(point, round(angle, 1), tile.face_up, candidates,
                            locate(point, view.layout)))
    return tuple(out)


def look_in_gaps(models: TableModels, image: np.ndarray, view: TableView,
                 tiles: list[ViewTile]) -> tuple[list[ViewTile], list[int]]:
    """Second looks at the places of the frame's face-up hand rows where no face lies
    (:func:`second_looks`): the faces the classifier surely names there, as tiles of the
    hand rows' detector threshold, and the indices in ``tiles`` of the faces found off
    their places that these reads stand in for."""
    looks = second_looks(tiles, view)
    if not looks:
        return [], []
    probs = models.name_boxes(image, view, np.array([look.box for look in looks], np.float32))
    out, moved = [], set()
    for look, row in zip(looks, probs, strict=True):
        candidates = top_candidates(row)
        if CLASSES[int(row.argmax())] in (BACK, NOT_A_TILE) or candidates[0][1] < LOOK_SURE:
            continue
        moved.update(look.near)
        box = tuple(float(v) for v in look.box)
        out.append(ViewTile(box, True, candidates, ZONE_THRESHOLDS["hand"]))  # type: ignore[arg-type]
    return out, sorted(moved)


def read_frame(image: np.ndarray, profile: Profile, models: TableModels,
               timestamp: float = 0.0, calibrated: bool = True,
               felt: FeltMemory | None = None, faint: bool = False, gaps: bool = False
               ) -> tuple[TableReading, list[ViewTile]]:
    """The reading and the view tiles it was made from (same order); ``felt``: the game's
    memory of the bare felt (:class:`tablekit.vision.busy.FeltMemory`), for arms;
    ``faint``: read the ponds' faint peaks too, apart (when the tracker asks for them);
    ``gaps``: look again at the revealed rows' empty places (:func:`look_in_gaps`, while
    the tracker reads a win)."""
    view = TableView(profile.camera, layout=profile.layout)
    every, small = read_view(image, view, models, faint=faint)
    floor = min(ZONE_THRESHOLDS.values())  # under it: a faint pond peak
    tiles = [tile for tile in every if tile.score >= floor]
    table_boxes = view.boxes_to_table(np.array([t.box for t in tiles]).reshape(-1, 4))
    busy = busy_boxes(small, DETECT_SCALE, DETECT_HALF,
                      [tuple(float(v) for v in b) for b in table_boxes],  # type: ignore[misc]
                      felt, timestamp, profile.layout)
    faint_tiles = seen_tiles([tile for tile in every if tile.score < floor], view, small)
    looked, moved = look_in_gaps(models, image, view, tiles) if gaps else ([], [])
    seen = seen_tiles(tiles, view, small)
    reading = TableReading(seen, tuple(busy), timestamp, calibrated, faint_tiles,
                           seen_tiles(looked, view, small), profile.layout,
                           tuple(seen[i] for i in moved))
    return reading, tiles


def read_table(image: np.ndarray, profile: Profile, models: TableModels,
               timestamp: float = 0.0, calibrated: bool = True,
               felt: FeltMemory | None = None, faint: bool = False, gaps: bool = False
               ) -> TableReading:
    """Everything a calibrated camera's frame shows of the table, in table mm (``faint``,
    ``gaps``: :func:`read_frame`).

    ``calibrated`` is passed on: the caller that checks the markers now and then
    (:func:`tablekit.vision.calibration.check_profile`) says False once they have moved."""
    return read_frame(image, profile, models, timestamp, calibrated, felt, faint, gaps)[0]
