"""The enrollment mat: a printed sheet with a slot for every face, found by its markers.

An A3 sheet (or two A4 halves) holds 38 grey slots in rows: ``1m``..``9m`` and the red
``0m``, the same for pins and sou, then the seven honours and a face-down tile, each slot
labelled below. Four ArUco markers (the calibration's dictionary, ids of their own) sit at
the sheet's corners, so the camera finds the mat anywhere on the table: the markers give the
homography from the frame to the sheet's millimetres, the sheet is rectified at
:data:`SCALE` px/mm, and each slot is looked at alone: what differs from the slot's grey is
the tile (any way round). A slot with nothing is *empty*; one holding two separate pieces
holds *two tiles*; either is reported and left out (two tiles pushed together read as one
large piece, and are not told apart).

>>> sheet = SHEETS["A3"][0]
>>> len(sheet.slots), sheet.slots["1m"], sheet.slots["back"]
(38, (21.0, 48.0), (287.0, 198.0))
>>> [len(s.slots) for s in SHEETS["A4"]]
[20, 18]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from tablekit.vision.classes import class_index
from tablekit.vision.classify import upright_crop
from tablekit.vision.enroll import FaceSamples, FeatureModel, background_boxes, cut_faces, enroll
from tablekit.vision.markers import detector, mm_to_px
from tablekit.vision.onnx_model import CLASSIFIER_PATH

MARKER_MM = 42.0
"""Markers as large as the sheet allows: a table camera sees about 0.6 px per mm."""
INSET_MM = 4.0
SLOT_MM = (34.0, 44.0)
PITCH_MM = (38.0, 50.0)
GRID_TOP_MM = 48.0
SLOT_GREY = 150
SCALE = 4.0
"""Pixels per mm of the rectified sheet."""
TILE_MM = (26.0, 35.0)
"""A riichi face (the sim's size); sets a little larger still fit a slot."""
ROWS: tuple[tuple[str, ...], ...] = (
    (*(f"{n}m" for n in range(1, 10)), "0m"),
    (*(f"{n}p" for n in range(1, 10)), "0p"),
    (*(f"{n}s" for n in range(1, 10)), "0s"),
    (*(f"{n}z" for n in range(1, 8)), "back"),
)
LABELS = {"0m": "red 5m", "0p": "red 5p", "0s": "red 5s", "back": "face down",
          "1z": "1z E", "2z": "2z S", "3z": "3z W", "4z": "4z N", "5z": "5z wht",
          "6z": "6z grn", "7z": "7z red"}


@dataclass(frozen=True)
class Sheet:
    """One printed sheet: paper (mm, landscape or portrait), its markers' ids (top left,
    top right, bottom right, bottom left) and each slot's top-left corner (mm)."""

    name: str
    paper: tuple[float, float]
    marker_ids: tuple[int, int, int, int]
    slots: dict[str, tuple[float, float]]

    def marker_corners(self) -> dict[int, np.ndarray]:
        """Each marker's four corners on the sheet (mm), ArUco order."""
        width, height = self.paper
        far_x, far_y = width - INSET_MM - MARKER_MM, height - INSET_MM - MARKER_MM
        corners = {}
        for marker_id, (x, y) in zip(self.marker_ids, ((INSET_MM, INSET_MM), (far_x, INSET_MM),
                                                       (far_x, far_y), (INSET_MM, far_y)),
                                     strict=True):
            corners[marker_id] = np.array([[x, y], [x + MARKER_MM, y],
                                           [x + MARKER_MM, y + MARKER_MM], [x, y + MARKER_MM]])
        return corners


def _sheet(name: str, paper: tuple[float, float], ids: tuple[int, int, int, int],
           columns: range, left: float) -> Sheet:
    slots = {}
    for row, codes in enumerate(ROWS):
        for place, column in enumerate(c for c in columns if c < len(codes)):
            slots[codes[column]] = (left + place * PITCH_MM[0], GRID_TOP_MM + row * PITCH_MM[1])
    return Sheet(name, paper, ids, slots)


SHEETS: dict[str, tuple[Sheet, ...]] = {
    "A3": (_sheet("A3", (420.0, 297.0), (20, 21, 22, 23), range(10), 21.0),),
    "A4": (_sheet("A4 left half", (210.0, 297.0), (24, 25, 26, 27), range(5), 12.0),
           _sheet("A4 right half", (210.0, 297.0), (28, 29, 30, 31), range(5, 10), 12.0)),
}


def mat_image(sheet: Sheet, dpi: int = 200) -> np.ndarray:
    """The printable sheet (BGR uint8) at ``dpi``."""
    from tablekit.vision.markers import dictionary

    width, height = sheet.paper
    page = np.full((mm_to_px(height, dpi), mm_to_px(width, dpi), 3), 255, np.uint8)
    for marker_id, corners in sheet.marker_corners().items():
        x, y = mm_to_px(corners[0][0], dpi), mm_to_px(corners[0][1], dpi)
        side = mm_to_px(MARKER_MM, dpi)
        marker = cv2.aruco.generateImageMarker(dictionary(), marker_id, side)
        page[y:y + side, x:x + side] = marker[:, :, None]
    scale = 0.33 * dpi / 100
    for code, (x, y) in sheet.slots.items():
        top_left = (mm_to_px(x, dpi), mm_to_px(y, dpi))
        bottom_right = (mm_to_px(x + SLOT_MM[0], dpi), mm_to_px(y + SLOT_MM[1], dpi))
        cv2.rectangle(page, top_left, bottom_right, (SLOT_GREY,) * 3, -1)
        cv2.putText(page, LABELS.get(code, code), (top_left[0], mm_to_px(y + SLOT_MM[1] + 5, dpi)),
                    cv2.FONT_HERSHEY_SIMPLEX, scale, (0, 0, 0), max(1, round(scale * 1.5)),
                    cv2.LINE_AA)
    title = (f"tablekit enrollment mat ({sheet.name}): print at 100%; one tile of each kind "
             f"on its slot, face up, any way round")
    cv2.putText(page, title, (mm_to_px(INSET_MM + MARKER_MM + 4, dpi), mm_to_px(26, dpi)),
                cv2.FONT_HERSHEY_SIMPLEX, scale, (0, 0, 0), max(1, round(scale * 1.5)),
                cv2.LINE_AA)
    return page


def write_mat_files(path: Path, paper: str = "A3", dpi: int = 200) -> list[Path]:
    """Write the mat's sheets (``FILE.png``, or ``FILE-1.png`` and ``FILE-2.png`` on A4)."""
    from tablekit.vision.tileset import TileSetError

    sheets = SHEETS[paper]
    paths = [path] if len(sheets) == 1 else [
        path.with_name(f"{path.stem}-{i + 1}{path.suffix}") for i in range(len(sheets))]
    for sheet, target in zip(sheets, paths, strict=True):
        target.parent.mkdir(parents=True, exist_ok=True)
        if not cv2.imwrite(str(target), mat_image(sheet, dpi)):
            raise TileSetError(f"cannot write {target}")
    return paths


@dataclass(frozen=True)
class SlotLook:
    """What one slot holds: ``ok``, ``empty`` or ``two tiles``; the tile's box (sheet px)."""

    code: str
    status: str
    box: tuple[float, float, float, float] | None = None


def find_sheets(image: np.ndarray) -> list[tuple[Sheet, np.ndarray]]:
    """Each mat sheet seen in ``image`` with its homography from image px to sheet mm
    (two of its markers are enough)."""
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image
    corners, ids, _ = detector().detectMarkers(grey)
    seen = {int(i): q.reshape(4, 2) for q, i in
            zip(corners, [] if ids is None else ids.ravel(), strict=False)}
    found = []
    for sheets in SHEETS.values():
        for sheet in sheets:
            known = sheet.marker_corners()
            shared = [i for i in sheet.marker_ids if i in seen]
            if len(shared) < 2:
                continue
            source = np.concatenate([seen[i] for i in shared]).astype(np.float64)
            target = np.concatenate([known[i] for i in shared]).astype(np.float64)
            homography, _ = cv2.findHomography(source, target)
            if homography is not None:
                found.append((sheet, homography))
    return found


def rectified(image: np.ndarray, sheet: Sheet, homography: np.ndarray) -> np.ndarray:
    """The sheet seen straight on at :data:`SCALE` px/mm."""
    to_px = np.diag([SCALE, SCALE, 1.0]) @ homography
    size = (round(sheet.paper[0] * SCALE), round(sheet.paper[1] * SCALE))
    return cv2.warpPerspective(image, to_px, size, flags=cv2.INTER_LINEAR)


REACH_MM = (3.0, 8.0)
"""How far beyond a slot's sides (x, y) a tile is looked for (the gaps between slots)."""
DIFFERS = 35.0
"""A pixel this far (any channel) from the slot's grey is part of a tile."""


def _pixels(view: np.ndarray, x0: float, y0: float, x1: float, y1: float) -> np.ndarray:
    """The view's pixels (N, 3) in the sheet rectangle (mm)."""
    rows = slice(max(round(y0 * SCALE), 0), max(round(y1 * SCALE), 1))
    cols = slice(max(round(x0 * SCALE), 0), max(round(x1 * SCALE), 1))
    return view[rows, cols].reshape(-1, 3).astype(np.float32)


def paper_near(view: np.ndarray, corner_mm: tuple[float, float]) -> np.ndarray:
    """The paper's colour just below a slot's label (the light there)."""
    (x, y), (w, h) = corner_mm, SLOT_MM
    return np.median(_pixels(view, x, y + h + 6.5, x + w, y + h + 9.5), axis=0)


def slot_rim(view: np.ndarray, corner_mm: tuple[float, float]) -> np.ndarray:
    """The median colour of a slot's outer 2 mm (bare grey unless a tile covers it)."""
    (x, y), (w, h) = corner_mm, SLOT_MM
    strips = [_pixels(view, x + 0.5, y + 0.5, x + w - 0.5, y + 2.5),
              _pixels(view, x + 0.5, y + h - 2.5, x + w - 0.5, y + h - 0.5),
              _pixels(view, x + 0.5, y + 0.5, x + 2.5, y + h - 0.5),
              _pixels(view, x + w - 2.5, y + 0.5, x + w - 0.5, y + h - 0.5)]
    return np.median(np.concatenate(strips), axis=0)


def grey_share(view: np.ndarray, sheet: Sheet) -> np.ndarray:
    """How the slots' grey compares with the paper in this view (per channel), over all
    slots: most rims are bare, so the median holds where tiles cover a few."""
    shares = [slot_rim(view, c) / np.maximum(paper_near(view, c), 1.0)
              for c in sheet.slots.values()]
    return np.median(np.array(shares), axis=0)


def _pieces(mask: np.ndarray, least: float) -> list[np.ndarray]:
    """Connected pieces' stats (x, y, w, h, area) of at least ``least`` px, largest first."""
    count, _, stats, _ = cv2.connectedComponentsWithStats(mask)
    return sorted((s for s in stats[1:count] if s[cv2.CC_STAT_AREA] > least),
                  key=lambda s: -s[cv2.CC_STAT_AREA])


def look_at_slot(view: np.ndarray, code: str, corner_mm: tuple[float, float],
                 share: np.ndarray) -> SlotLook:
    """What the slot at ``corner_mm`` of a rectified sheet holds: the pixels that differ
    from the slot's grey (the paper beside it times ``share``) are the tile."""
    (x, y), (w, h) = corner_mm, SLOT_MM
    x0, y0 = max(round((x - REACH_MM[0]) * SCALE), 0), max(round((y - REACH_MM[1]) * SCALE), 0)
    x1, y1 = round((x + w + REACH_MM[0]) * SCALE), round((y + h + REACH_MM[1]) * SCALE)
    patch = view[y0:y1, x0:x1].astype(np.float32)
    grey = paper_near(view, corner_mm) * share
    differs = np.abs(patch - grey).max(axis=2) > DIFFERS
    inside = np.zeros(differs.shape, bool)
    sx0, sy0 = round(x * SCALE) - x0, round(y * SCALE) - y0
    inside[max(sy0, 0):sy0 + round(h * SCALE), max(sx0, 0):sx0 + round(w * SCALE)] = True
    found = cv2.morphologyEx((differs & inside).astype(np.uint8), cv2.MORPH_OPEN,
                             np.ones((5, 5), np.uint8))
    tile_area = TILE_MM[0] * TILE_MM[1] * SCALE**2
    pieces = _pieces(cv2.morphologyEx(found, cv2.MORPH_CLOSE, np.ones((15, 15), np.uint8)),
                     0.25 * tile_area)
    if not pieces:
        return SlotLook(code, "empty")
    apart = _pieces(cv2.morphologyEx(found, cv2.MORPH_CLOSE, np.ones((7, 7), np.uint8)),
                    0.6 * tile_area)
    if len(apart) > 1 and sum(int(p[cv2.CC_STAT_AREA]) for p in apart) > 1.3 * tile_area:
        return SlotLook(code, "two tiles")
    left, top, width, height = (int(v) for v in pieces[0][:4])
    if len(pieces) > 1:
        return SlotLook(code, "two tiles")
    return SlotLook(code, "ok", (left + x0, top + y0, left + width + x0, top + height + y0))


def read_mat(image: np.ndarray) -> list[tuple[np.ndarray, list[SlotLook]]]:
    """Each sheet seen: its rectified view and what each of its slots holds."""
    found = []
    for sheet, homography in find_sheets(image):
        view = rectified(image, sheet, homography)
        share = grey_share(view, sheet)
        found.append((view, [look_at_slot(view, code, corner, share)
                             for code, corner in sheet.slots.items()]))
    return found


def sheet_to_table(sheet: Sheet, homography: np.ndarray, camera: Any) -> np.ndarray:
    """The affine map (2 x 3) from sheet mm to table mm (the sheet lies on the felt)."""
    width, height = sheet.paper
    points = np.array([[x, y] for x in np.linspace(0, width, 5)
                       for y in np.linspace(0, height, 5)], np.float64)
    pixels = cv2.perspectiveTransform(points.reshape(-1, 1, 2), np.linalg.inv(homography))
    affine, _ = cv2.estimateAffine2D(points, camera.to_table(pixels.reshape(-1, 2)))
    return affine


MAT_PULL = 0.2
"""A mat shows each face once: the head is held nearer the trained one than for photos
(on the simulated table, 10 rigs a set, 0.2 kept the seen sets as the trained head reads
them where 5e-2 lost up to 0.003 of F1, and the unseen Hong Kong art read the same with
either: ``benchmarks/enroll_sim.py --rigs 10``)."""
ALIGNED_DEGREES = 4.0
"""On the calibrated table the reader cuts faces square to the table: turned only a little."""


def face_plane_view(image: np.ndarray, sheet: Sheet, affine: np.ndarray, camera: Any
                    ) -> np.ndarray:
    """The sheet seen straight on at :data:`SCALE` px/mm on the plane of the tiles' faces
    (a tile's thickness above the sheet): faces there lie where they are, at true size,
    as the calibrated reader's view shows them."""
    from tablekit.vision.rectify import TableView

    width, height = round(sheet.paper[0] * SCALE), round(sheet.paper[1] * SCALE)
    step = 8
    us, vs = np.meshgrid(np.arange(0, width + step, step), np.arange(0, height + step, step))
    points = np.column_stack([us.ravel(), vs.ravel()]) / SCALE
    table = points @ affine[:, :2].T + affine[:, 2]
    lifted = np.column_stack([table, np.full(len(table), TableView(camera).plane_mm)])
    coarse = camera.project(lifted).astype(np.float32).reshape(*us.shape, 2)
    at_x, at_y = np.meshgrid(np.arange(width, dtype=np.float32) / step,
                             np.arange(height, dtype=np.float32) / step)
    fine = cv2.remap(coarse, at_x, at_y, cv2.INTER_LINEAR)
    return cv2.remap(image, fine[..., 0], fine[..., 1], cv2.INTER_LINEAR)


def face_box(box: tuple[float, float, float, float], tall: bool | None = None) -> np.ndarray:
    """The face-size box (sheet px) around a slot's tile, tall or wide as it lies (or as
    ``tall`` says).

    >>> face_box((0, 0, 40, 30)).tolist(), face_box((0, 0, 40, 30), tall=True).tolist()
    ([-50.0, -37.0, 90.0, 67.0], [-32.0, -55.0, 72.0, 85.0])
    """
    x0, y0, x1, y1 = box
    tall = y1 - y0 >= x1 - x0 if tall is None else tall
    half = np.array(TILE_MM if tall else TILE_MM[::-1]) * SCALE / 2
    middle = np.array([(x0 + x1) / 2, (y0 + y1) / 2])
    return np.concatenate([middle - half, middle + half]).astype(np.float32)


def way_it_lies(image: np.ndarray, box: tuple[float, float, float, float], label: int,
                model: FeatureModel | None) -> np.ndarray:
    """The face box around ``box``, tall or wide: the way the trained classifier finds the
    slot's own kind likelier (each way read both ways up). A tile lying a quarter round
    in its slot overhangs the slot's sides, and its sides and shadow make its outline
    nearly square: the outline alone often names the wrong way, and the face is then cut
    sideways. Without ``model``, the outline decides."""
    if model is None:
        return face_box(box)
    ways = np.stack([face_box(box, tall=True), face_box(box, tall=False)])
    crops = np.stack([upright_crop(image, way, model.size) for way in ways])
    crops = crops.transpose(0, 3, 1, 2).astype(np.float32) / np.float32(255)
    logits = model.head.logits(model.features(np.concatenate([crops, crops[:, :, ::-1, ::-1]])))
    logits -= logits.max(axis=1, keepdims=True)
    own = logits[:, label] - np.log(np.exp(logits).sum(axis=1))
    return ways[int(np.argmax(own[:2] + own[2:]))]


def mat_samples(images: Sequence[np.ndarray], size: tuple[int, int], seed: int = 0,
                profile: Any = None, model: FeatureModel | None = None,
                ) -> tuple[FaceSamples, dict[str, str]]:
    """Faces cut from every sheet seen in ``images`` and each slot's status (a slot seen
    ``ok`` once is ok; one never ok keeps the first status it was seen with). ``profile``:
    the table's calibration, to cut the faces on their own plane as the calibrated reader
    does; ``model``: the classifier that tells which way each face lies
    (:func:`way_it_lies`)."""
    rng = np.random.default_rng(seed)
    samples = FaceSamples()
    status: dict[str, str] = {}
    for image in images:
        for sheet, homography in find_sheets(image):
            view = rectified(image, sheet, homography)
            share = grey_share(view, sheet)
            looks = [look_at_slot(view, code, corner, share)
                     for code, corner in sheet.slots.items()]
            faces = None
            if profile is not None:
                affine = sheet_to_table(sheet, homography, profile.camera)
                faces = face_plane_view(image, sheet, affine, profile.camera)
                face_share = grey_share(faces, sheet)
            boxes = []
            for look in looks:
                if look.status != "ok" or look.box is None:
                    status.setdefault(look.code, look.status)
                    continue
                status[look.code] = "ok"
                box = np.array(look.box, np.float32)
                boxes.append(box)
                label = class_index(look.code)
                on_faces = look_at_slot(faces, look.code, sheet.slots[look.code], face_share) \
                    if faces is not None else None
                if on_faces is not None and on_faces.box is not None:
                    way = way_it_lies(faces, on_faces.box, label, model)
                    samples.add(cut_faces(faces, way[None], size, rng, copies=8,
                                          degrees=ALIGNED_DEGREES), label)
                else:
                    way = way_it_lies(view, look.box, label, model) if model else box
                    samples.add(cut_faces(view, way[None], size, rng, copies=8), label)
            patches = background_boxes(view.shape, np.array(boxes).reshape(-1, 4), rng, 40)
            samples.add(cut_faces(view, patches, size, rng, copies=1), class_index("none"))
    return samples, status


def enroll_from_mat_images(images: Sequence[np.ndarray], out: Path, source: str,
                           profile: Any = None, on_step: Any = None
                           ) -> tuple[object, list[str]]:
    """Enroll the set laid on the mat in ``images`` and save it to ``out``; the lines to
    tell the player (slots not seen, empty or holding two tiles). ``profile``: the table's
    calibration, when the mat lies on the calibrated table (faces are then cut as the
    calibrated reader cuts them); ``on_step``: told how far the fit has got
    (:data:`tablekit.vision.enroll.OnStep`)."""
    from tablekit.vision.tileset import TileSetError, save_tileset

    model = FeatureModel(CLASSIFIER_PATH)
    samples, status = mat_samples(images, model.size, profile=profile, model=model)
    if not status:
        raise TileSetError("no enrollment mat in view: all its corner markers hidden? "
                           "(print it with `tablekit enroll --mat FILE.png`)")
    report = []
    all_codes = [code for row in ROWS for code in row]
    unseen = [code for code in all_codes if code not in status]
    if unseen:
        report.append(f"slots not seen: {' '.join(unseen)}")
    for problem in ("empty", "two tiles"):
        codes = [code for code in all_codes if status.get(code) == problem]
        if codes:
            report.append(f"slots {problem}: {' '.join(codes)}")
    if not any(value == "ok" for value in status.values()):
        raise TileSetError("no tile on the mat could be read; " + "; ".join(report))
    tileset = save_tileset(out, enroll(samples, model, pull=MAT_PULL, on_step=on_step),
                           CLASSIFIER_PATH,
                           f"enrollment mat ({source})",
                           {"slots": dict(sorted(status.items()))})
    return tileset, report
