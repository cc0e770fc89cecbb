"""Tile faces from openly licensed art sets, composited once and cached.

Sets read from ``../shared/data/tile-art`` when it is there (it is not in a clone):

* ``fluffystuff`` and ``fluffystuff-black``: FluffyStuff/riichi-mahjong-tiles (CC0), the
  PNG exports (faces are overlays on ``Front.png``),
* ``lietxia``: lietxia/mahjong_graphic (M+ FONTS LICENSE), the transparent PNG faces on a
  drawn ivory face,
* ``hongkong`` (by name only, never for a random rig): samoheen/mahjong-tiles (CC0), the
  Hong Kong faces, fives inked red for red fives.

``fallback`` is always there: a small atlas committed in ``tablekit/sim/assets`` (made from
the CC0 FluffyStuff faces, see its ATTRIBUTION.md), so tests and CI render without
``../shared``.

>>> art = load_art("fallback")
>>> len(art.faces), art.faces["0p"].shape
(37, (86, 64, 3))
>>> art.face("1z", 20).shape
(27, 20, 3)
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from tablekit.resources import source_tree

KINDS = tuple(f"{n}{s}" for s in "mps" for n in range(1, 10)) + tuple(f"{n}z" for n in range(1, 8))
FACE_CODES = (*KINDS, "0m", "0p", "0s")
"""Every face a set provides: 34 kinds then the red fives (the vision classes' order)."""
FACE_SIZE = (120, 160)
"""Width and height in px at which faces are kept (26:35 mm is 0.743, this is 0.75)."""
ASSETS = Path(__file__).resolve().parent / "assets"
FALLBACK_ATLAS = ASSETS / "faces-fluffystuff-64x86.png"
ATLAS_FACE = (64, 86)
ATLAS_COLUMNS = 8


def shared_art_dir() -> Path | None:
    """``$TABLEKIT_TILE_ART``, or ``../shared/data/tile-art`` beside a checkout of the project
    (None from an installed wheel: only ``fallback`` is there)."""
    if os.environ.get("TABLEKIT_TILE_ART"):
        return Path(os.environ["TABLEKIT_TILE_ART"])
    checkout = source_tree()
    return checkout.parent / "shared" / "data" / "tile-art" if checkout else None


@dataclass(frozen=True)
class ArtSet:
    """One set's faces (``code -> BGR uint8``, all the same size) and its face-side colour."""

    name: str
    faces: dict[str, np.ndarray] = field(repr=False)
    ivory: tuple[int, int, int]
    source: str
    licence: str

    def face(self, code: str, width: int) -> np.ndarray:
        """The face of ``code`` resized to ``width`` px wide (cached per width)."""
        return _resized(self.name, max(8, int(width)))[code]


@functools.lru_cache(maxsize=32)
def _resized(name: str, width: int) -> dict[str, np.ndarray]:
    art = load_art(name)
    h, w = next(iter(art.faces.values())).shape[:2]
    size = (width, round(width * h / w))
    return {code: cv2.resize(face, size, interpolation=cv2.INTER_AREA)
            for code, face in art.faces.items()}


def available_art() -> tuple[str, ...]:
    """The sets that can be loaded here, ``fallback`` last."""
    root = shared_art_dir()
    found = [name for name, (folder, _) in _SHARED.items()
             if root is not None and (root / folder).is_dir()]
    return (*found, "fallback")


@functools.lru_cache(maxsize=8)
def load_art(name: str) -> ArtSet:
    """Load (once) the art set ``name``; an unknown or absent set raises ``ValueError``."""
    if name == "fallback":
        return _fallback()
    if name in HELD_OUT and (shared_art_dir() / HELD_OUT[name][0]).is_dir():
        folder, loader = HELD_OUT[name]
        return loader(shared_art_dir() / folder)
    if name not in _SHARED or name not in available_art():
        raise ValueError(f"tile art {name!r} is not available here (have: "
                         f"{', '.join(available_art())})")
    folder, loader = _SHARED[name]
    return loader(Path(shared_art_dir() or ".") / folder)


# --- FluffyStuff ---------------------------------------------------------------------------

_FLUFFY_HONOURS = ("Ton", "Nan", "Shaa", "Pei", "Haku", "Hatsu", "Chun")
_FLUFFY_SUITS = {"m": "Man", "p": "Pin", "s": "Sou"}


def _fluffy_file(code: str) -> str:
    number, suit = code[0], code[1]
    if suit == "z":
        return _FLUFFY_HONOURS[int(number) - 1]
    return f"{_FLUFFY_SUITS[suit]}5-Dora" if number == "0" else f"{_FLUFFY_SUITS[suit]}{number}"


def _fluffy(variant: str) -> Callable[[Path], ArtSet]:
    def load(root: Path) -> ArtSet:
        folder = root / "Export" / variant
        front = _read_rgba(folder / "Front.png")
        ivory = tuple(int(v) for v in front[front.shape[0] // 2, front.shape[1] // 2, :3])
        base = _over(np.full((*front.shape[:2], 3), ivory, np.uint8), front)
        faces = {code: _shrink(_over(base, _read_rgba(folder / f"{_fluffy_file(code)}.png")))
                 for code in FACE_CODES}
        name = "fluffystuff" if variant == "Regular" else "fluffystuff-black"
        return ArtSet(name, faces, ivory, "FluffyStuff/riichi-mahjong-tiles", "CC0")  # type: ignore[arg-type]
    return load


# --- lietxia --------------------------------------------------------------------------------

_LIETXIA_DIR = "PNG 位图/透明背景 Transparent background/800px宽 weight 800px"
LIETXIA_IVORY = (214, 232, 240)


def _lietxia(root: Path) -> ArtSet:
    folder = root / _LIETXIA_DIR
    base = drawn_face(FACE_SIZE, LIETXIA_IVORY)
    faces = {}
    for code in FACE_CODES:
        path = folder / f"{code}.png"
        faces[code] = _over(base, _read_rgba(path, FACE_SIZE)) if path.exists() else base.copy()
    return ArtSet("lietxia", faces, LIETXIA_IVORY, "lietxia/mahjong_graphic", "M+ FONTS LICENSE")


def drawn_face(size: tuple[int, int], colour: tuple[int, int, int]) -> np.ndarray:
    """A plain ivory face with a soft bevel at its edges (for glyph-only art)."""
    w, h = size
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    edge = np.minimum(np.minimum(xx, w - 1 - xx), np.minimum(yy, h - 1 - yy)) / (0.06 * w)
    shade = 0.84 + 0.16 * (1 - np.exp(-edge)) + 0.03 * (1 - yy / h)
    face = np.asarray(colour, np.float32)[None, None, :] * shade[..., None]
    return np.clip(face, 0, 255).astype(np.uint8)


# --- samoheen Hong Kong (held out: loaded by name only) ---------------------------------------

_HONGKONG_DIR = "hongkong/png"
_HONGKONG_ORDER = ("5z", "6z", "7z", "1z", "2z", "3z", "4z", *(f"{n}m" for n in range(1, 10)),
                   *(f"{n}p" for n in range(1, 10)), *(f"{n}s" for n in range(1, 10)))
HONGKONG_IVORY = (226, 236, 240)
RED_INK = (40, 40, 200)


def _hongkong(root: Path) -> ArtSet:
    """samoheen/mahjong-tiles' Hong Kong faces on a drawn face; this set has no red fives,
    so each five's glyph is inked red for one (as red fives are made)."""
    folder = root / _HONGKONG_DIR
    files = sorted(folder.glob("*.png"))
    base = drawn_face(FACE_SIZE, HONGKONG_IVORY)
    glyphs = {code: _read_rgba(path, FACE_SIZE)
              for code, path in zip(_HONGKONG_ORDER, files, strict=False)}
    for suit in "mps":
        red = glyphs[f"5{suit}"].copy()
        red[:, :, :3] = RED_INK
        glyphs[f"0{suit}"] = red
    faces = {code: _over(base, glyphs[code]) for code in FACE_CODES}
    return ArtSet("hongkong", faces, HONGKONG_IVORY, "samoheen/mahjong-tiles", "CC0")


_SHARED: dict[str, tuple[str, Callable[[Path], ArtSet]]] = {
    "fluffystuff": ("fluffystuff-riichi", _fluffy("Regular")),
    "fluffystuff-black": ("fluffystuff-riichi", _fluffy("Black")),
    "lietxia": ("lietxia-mahjong-graphic", _lietxia),
}
HELD_OUT: dict[str, tuple[str, Callable[[Path], ArtSet]]] = {
    "hongkong": ("samoheen-hongkong", _hongkong),
}
"""Sets loaded by name only, never drawn for a random rig: art the sim's training never
used (the enrollment benchmark's unseen set)."""


# --- the committed fallback atlas ------------------------------------------------------------

def _fallback() -> ArtSet:
    atlas = cv2.imread(str(FALLBACK_ATLAS), cv2.IMREAD_COLOR)
    if atlas is None:
        raise FileNotFoundError(f"the fallback tile atlas is missing: {FALLBACK_ATLAS}")
    w, h = ATLAS_FACE
    faces = {}
    for index, code in enumerate(FACE_CODES):
        row, col = divmod(index, ATLAS_COLUMNS)
        faces[code] = atlas[row * h:(row + 1) * h, col * w:(col + 1) * w].copy()
    ivory = tuple(int(v) for v in faces["5z"][h // 2, w // 2])
    return ArtSet("fallback", faces, ivory, "FluffyStuff/riichi-mahjong-tiles (downscaled)",  # type: ignore[arg-type]
                  "CC0")


def build_atlas(art: ArtSet, path: Path = FALLBACK_ATLAS) -> Path:
    """Write ``art``'s faces as the fallback atlas (rows of eight, FACE_CODES order)."""
    w, h = ATLAS_FACE
    rows = -(-len(FACE_CODES) // ATLAS_COLUMNS)
    atlas = np.zeros((rows * h, ATLAS_COLUMNS * w, 3), np.uint8)
    for index, code in enumerate(FACE_CODES):
        row, col = divmod(index, ATLAS_COLUMNS)
        atlas[row * h:(row + 1) * h, col * w:(col + 1) * w] = cv2.resize(
            art.faces[code], (w, h), interpolation=cv2.INTER_AREA)
    path.parent.mkdir(parents=True, exist_ok=True)
    cv2.imwrite(str(path), atlas, [cv2.IMWRITE_PNG_COMPRESSION, 9])
    return path


# --- image helpers ---------------------------------------------------------------------------

def _read_rgba(path: Path, size: tuple[int, int] | None = None) -> np.ndarray:
    data = np.fromfile(str(path), np.uint8)  # np.fromfile copes with non-ASCII paths
    image = cv2.imdecode(data, cv2.IMREAD_UNCHANGED)
    if image is None or image.ndim != 3 or image.shape[2] != 4:
        raise ValueError(f"{path} is not an RGBA PNG")
    return image if size is None else cv2.resize(image, size, interpolation=cv2.INTER_AREA)


def _over(base: np.ndarray, rgba: np.ndarray) -> np.ndarray:
    """``rgba`` alpha-composited over the BGR ``base`` (resized to match)."""
    if rgba.shape[:2] != base.shape[:2]:
        rgba = cv2.resize(rgba, base.shape[1::-1], interpolation=cv2.INTER_AREA)
    alpha = rgba[:, :, 3:4].astype(np.float32) / 255
    out = rgba[:, :, :3] * alpha + base * (1 - alpha)
    return np.clip(out + 0.5, 0, 255).astype(np.uint8)


def _shrink(face: np.ndarray) -> np.ndarray:
    return cv2.resize(face, FACE_SIZE, interpolation=cv2.INTER_AREA)


if __name__ == "__main__":  # python -m tablekit.sim.art: rebuild the fallback atlas
    print(build_atlas(load_art("fluffystuff")))
