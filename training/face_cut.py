"""A tile's printed face cut from a labelled photo: perspective corrected, upright, scored.

A label is an upright box around a tile that may lie at a slant and be seen at an angle. The
face is the largest bright, little-coloured patch in the box (ivory or white; its ink filled
in); its outline, fitted with four corners (or the smallest turned rectangle around it), is
warped to a portrait face of the wanted size. Which of the two portrait ways up is upright
:func:`upright` tells from a reference face of the same kind (another set's art). The
:class:`FaceCut` says how good a cut it is (:attr:`FaceCut.score`): sharp, seen straight on,
large in the photo and covered by no other labelled tile (tools/make_photo_art.py keeps the
best cut of each kind).

>>> face = np.full((80, 60, 3), 230, np.uint8); face[10:30, 20:40] = 20
>>> photo = np.full((200, 200, 3), 60, np.uint8); photo[50:130, 70:130] = face
>>> cut = cut_face(photo, np.array([66, 46, 134, 134]), (30, 40))
>>> cut.face.shape, cut.frontal > 0.9, int(cut.face[8, 15, 0]) < 100
((40, 30, 3), True, True)
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

MARGIN = 0.06
"""How far beyond the labelled box (a share of its size) the face is looked for."""
SHARP_AT = 400.0
"""The variance of the Laplacian at which a face counts as sharp (a score of 1)."""
BRIDGE = 0.1
"""How wide a bright bridge (a share of the patch's shorter side) is cut to part a face from
touching neighbours."""
SIDEWAYS = 0.3
"""How much more alike a face turned a quarter must look to be taken that way up."""
ALIKE_AT = 0.2
"""The :func:`likeness` to another set's face of the kind under which a cut looks like no
face of its kind (mislabelled, or cut across two tiles): its score is then :data:`UNLIKE`
times less."""
UNLIKE = 0.3
LARGE_AT = 60
"""The face's shorter side in photo pixels from which it is large enough (a score of 1)."""


@dataclass(frozen=True)
class FaceCut:
    """One face cut from a photo, and how good a cut it is (each part 0..1)."""

    face: np.ndarray
    quad: np.ndarray
    sharp: float
    frontal: float
    large: float
    clear: float
    alike: float = 1.0

    @property
    def score(self) -> float:
        """The product of the parts: one poor part makes a poor cut."""
        return self.sharp * self.frontal * self.large * self.clear * self.alike


def face_mask(patch: np.ndarray, part: bool = True) -> np.ndarray:
    """The bright, little-coloured pixels of ``patch`` (a tile's face) as 0/255, its ink
    filled in; ``part``: only the part nearest the middle once parted from what touches it
    (a neighbouring face; also, where ink crosses the face, a piece of the face itself)."""
    hsv = cv2.cvtColor(patch, cv2.COLOR_BGR2HSV)
    whiteness = (hsv[:, :, 2].astype(np.float32) * (1 - hsv[:, :, 1] / 255.0)).astype(np.uint8)
    _, mask = cv2.threshold(cv2.GaussianBlur(whiteness, (5, 5), 0), 0, 255,
                            cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    outlines, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    cv2.drawContours(mask, outlines, -1, 255, cv2.FILLED)  # the ink filled in
    if not part:
        return mask
    h, w = mask.shape
    reach = max(1, round(BRIDGE * min(h, w)))
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * reach + 1, 2 * reach + 1))
    core = cv2.erode(mask, kernel)  # cuts the bridges to touching neighbours
    count, labels, stats, _ = cv2.connectedComponentsWithStats(core)
    if count < 2:
        return mask
    middle = labels[h // 4:h - h // 4, w // 4:w - w // 4]
    inside = np.bincount(middle.ravel(), minlength=count)
    inside[0] = 0
    keep = int(inside.argmax()) if inside.max() else int(stats[1:, cv2.CC_STAT_AREA].argmax()) + 1
    grown = cv2.dilate(np.where(labels == keep, 255, 0).astype(np.uint8), kernel)
    return cv2.bitwise_and(grown, mask)


def face_quad(mask: np.ndarray) -> np.ndarray:
    """Four corners (float32, clockwise from any) of the face in ``mask``: the outline's
    four-cornered fit when one fits it, else the smallest turned rectangle around it."""
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    hull = cv2.convexHull(np.concatenate(contours))  # all its pieces (ink may part them)
    rectangle = cv2.boxPoints(cv2.minAreaRect(hull)).astype(np.float32)
    perimeter = cv2.arcLength(hull, True)
    for share in (0.02, 0.04, 0.06, 0.08):
        corners = cv2.approxPolyDP(hull, share * perimeter, True).reshape(-1, 2)
        if len(corners) == 4 and cv2.isContourConvex(corners):
            area = cv2.contourArea(corners.astype(np.float32))
            if area > 0.85 * cv2.contourArea(hull):
                return _clockwise(corners.astype(np.float32))
    return _clockwise(rectangle)


def _clockwise(corners: np.ndarray) -> np.ndarray:
    centre = corners.mean(axis=0)
    angles = np.arctan2(corners[:, 1] - centre[1], corners[:, 0] - centre[0])
    return corners[np.argsort(angles)]


def portrait(quad: np.ndarray) -> np.ndarray:
    """``quad``'s corners ordered top-left, top-right, bottom-right, bottom-left with its
    long sides upright (of the two ways, the one starting nearest the photo's top left).

    >>> portrait(np.float32([[0, 0], [40, 0], [40, 30], [0, 30]])).tolist()
    [[0.0, 30.0], [0.0, 0.0], [40.0, 0.0], [40.0, 30.0]]
    """
    sides = np.linalg.norm(quad - np.roll(quad, -1, axis=0), axis=1)
    first = 0 if sides[0] + sides[2] < sides[1] + sides[3] else 1
    ways = [np.roll(quad, -first, axis=0), np.roll(quad, -first - 2, axis=0)]
    return min(ways, key=lambda q: float(q[0].sum()))


def warp_face(image: np.ndarray, quad: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    """The face inside ``quad`` (top-left first, clockwise) seen straight on at ``size``."""
    width, height = size
    target = np.float32([[0, 0], [width, 0], [width, height], [0, height]]) - 0.5
    matrix = cv2.getPerspectiveTransform(np.float32(quad), target)
    return cv2.warpPerspective(image, matrix, (width, height), flags=cv2.INTER_AREA,
                               borderMode=cv2.BORDER_REPLICATE)


def frontal(quad: np.ndarray) -> float:
    """How nearly ``quad`` is a 3:4 rectangle (1: seen straight on; less when slanted in
    depth, foreshortened, or cut too long or too wide).

    >>> round(frontal(np.float32([[0, 0], [30, 0], [30, 40], [0, 40]])), 2)
    1.0
    >>> frontal(np.float32([[10, 0], [20, 0], [30, 40], [0, 40]])) < 0.8
    True
    """
    sides = np.linalg.norm(quad - np.roll(quad, -1, axis=0), axis=1)
    parallel = min(sides[0], sides[2]) / max(sides[0], sides[2]) * \
        min(sides[1], sides[3]) / max(sides[1], sides[3])
    shape = min(sides[0] + sides[2], sides[1] + sides[3]) / max(sides[0] + sides[2],
                                                                sides[1] + sides[3])
    return float(parallel * max(0.0, 1 - abs(shape - 0.75) / 0.75))


def sharpness(face: np.ndarray) -> float:
    """The variance of the Laplacian of ``face``'s grey (higher: sharper)."""
    grey = cv2.cvtColor(face, cv2.COLOR_BGR2GRAY)
    return float(cv2.Laplacian(grey, cv2.CV_32F).var())


def covered(box: np.ndarray, others: np.ndarray) -> float:
    """The largest share of ``box`` that any of ``others`` (x1 y1 x2 y2 rows) covers.

    >>> covered(np.array([0, 0, 10, 10]), np.array([[5, 0, 20, 10], [30, 30, 40, 40]]))
    0.5
    """
    if len(others) == 0:
        return 0.0
    x1 = np.maximum(others[:, 0], box[0])
    y1 = np.maximum(others[:, 1], box[1])
    x2 = np.minimum(others[:, 2], box[2])
    y2 = np.minimum(others[:, 3], box[3])
    inter = np.clip(x2 - x1, 0, None) * np.clip(y2 - y1, 0, None)
    area = max(float((box[2] - box[0]) * (box[3] - box[1])), 1e-6)
    return float(inter.max() / area)


def cut_face(image: np.ndarray, box: np.ndarray, size: tuple[int, int],
             others: np.ndarray | None = None, reference: np.ndarray | None = None
             ) -> FaceCut:
    """The face of the tile labelled ``box`` (x1 y1 x2 y2, pixels) in ``image`` (BGR) at
    ``size`` (width, height; portrait), and its score; ``others``: the photo's other
    labelled boxes (a tile they cover is partly hidden); ``reference``: the same kind's face
    in other art, to turn the face upright (:func:`upright`; else the long sides are)."""
    height, width = image.shape[:2]
    x1, y1, x2, y2 = (float(v) for v in box)
    reach_x, reach_y = (x2 - x1) * MARGIN, (y2 - y1) * MARGIN
    left, top = int(max(x1 - reach_x, 0)), int(max(y1 - reach_y, 0))
    right, bottom = int(min(x2 + reach_x, width)), int(min(y2 + reach_y, height))
    patch = image[top:bottom, left:right]
    quad, best = None, 0.0
    if patch.shape[0] >= 8 and patch.shape[1] >= 8:
        outline = np.float32([[x1 - left, y1 - top], [x2 - left, y1 - top], [x2 - left, y2 - top],
                              [x1 - left, y2 - top]])
        for part in (False, True):  # all the bright patch; the face parted from touching ones
            mask = face_mask(patch, part)
            if not mask.any():
                continue
            found = face_quad(mask)
            area = cv2.contourArea(found)
            if not 0.5 <= area / ((x2 - x1) * (y2 - y1)) <= 1.3:
                continue
            inside = cv2.intersectConvexConvex(found, outline)[0] / area
            if frontal(portrait(found)) * inside > best:
                quad, best = found + np.float32([left, top]), frontal(portrait(found)) * inside
    boxed = quad is None
    if boxed:  # no face outline found: the box itself, no correction
        quad = np.float32([[x1, y1], [x2, y1], [x2, y2], [x1, y2]])
    quad = portrait(quad)
    alike = 1.0
    if reference is None:
        face = warp_face(image, quad, size)
    else:
        face, quad = upright(image, quad, size, reference)
        alike = 1.0 if likeness(face, reference) >= ALIKE_AT else UNLIKE
    shorter = float(min(np.linalg.norm(quad[1] - quad[0]), np.linalg.norm(quad[3] - quad[0])))
    small = cv2.resize(face, (size[0] // 2, size[1] // 2), interpolation=cv2.INTER_AREA)
    return FaceCut(face, quad, min(1.0, sharpness(small) / SHARP_AT),
                   frontal(quad) * (0.2 if boxed else 1.0), min(1.0, shorter / LARGE_AT),
                   1.0 - covered(np.asarray(box, np.float32),
                                 np.zeros((0, 4)) if others is None else np.asarray(others)),
                   alike)


def likeness(face: np.ndarray, reference: np.ndarray) -> float:
    """How alike two faces' ink is (what differs from each one's face colour), blurred and
    normalised: 1 for the same picture, about 0 for unrelated ones.

    >>> ref = np.zeros((8, 6, 3), np.uint8); ref[:3] = 255
    >>> likeness(ref, ref) > 0.99, likeness(ref[::-1].copy(), ref) < 0
    (True, True)
    """
    def ink(image: np.ndarray) -> np.ndarray:
        small = cv2.resize(image, (24, 32), interpolation=cv2.INTER_AREA).astype(np.float32)
        paper = np.median(small.reshape(-1, 3), axis=0)
        far = cv2.GaussianBlur(np.abs(small - paper).max(axis=2), (3, 3), 0)
        return (far - far.mean()) / (far.std() + 1e-6)

    return float((ink(face) * ink(reference)).mean())


def upright(image: np.ndarray, quad: np.ndarray, size: tuple[int, int],
            reference: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The face inside ``quad`` (:func:`portrait` order) warped the way up that looks most
    like ``reference`` (the same kind's face in other art), and its quad: either portrait
    way, or a landscape one when it looks clearly more alike (:data:`SIDEWAYS`: a tile lying
    sideways in a photo stretched to a square looks portrait)."""
    best = (-np.inf, quad, quad)
    for turn in range(4):
        way = np.roll(quad, -turn, axis=0)
        face = warp_face(image, way, size)
        alike = likeness(face, reference) - (SIDEWAYS if turn % 2 else 0.0)
        if alike > best[0]:
            best = (alike, face, way)
    return best[1], best[2]
