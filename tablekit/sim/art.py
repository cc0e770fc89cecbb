"""Tile faces from art sets: plain folders anyone can add, read once and cached.

An art set is a folder named for the set holding one image per face named by its code
(``1m.png`` ... ``9s.png``, ``1z.png`` ... ``7z.png``, red fives ``0m.png``, ``0p.png``,
``0s.png``), a licence file (``LICENSE``, ``LICENSE.md`` or ``LICENSE.txt``) and optionally
``set.toml`` (docs/tile-sets.md)::

    face = "#f0ecd6"      # the face side's colour (default: taken from the white dragon)
    back = "#1f6b3a"      # the back's colour (default: one of the simulator's palettes)
    use = "train"         # "train": drawn for random rigs; "test" (default): by name only
    source = "..."        # where the art comes from
    licence = "CC0"       # the licence in a few words

A face is an opaque picture of the whole face, or a transparent glyph laid on a drawn face
of the ``face`` colour; all are scaled to the size of the first. Sets are looked for, in
this order (the first folder of a name wins), in:

1. each folder of ``$TABLEKIT_TILE_ART`` (several joined with ``os.pathsep``),
2. ``../shared/data/tile-art`` beside a checkout of the project,
3. the user's folder of converted sets, ``$XDG_DATA_HOME/tablekit/tile-art``
   (``~/.local/share/tablekit/tile-art``), which ``python tools/make_art_sets.py`` fills,
4. ``tablekit/sim/assets``: ``fallback`` (a small committed set), so tests and CI render
   without ``../shared``.

>>> art = load_art("fallback")
>>> len(art.faces), art.faces["0p"].shape, art.use
(37, (86, 64, 3), 'train')
>>> art.face("1z", 20).shape
(27, 20, 3)
"""

from __future__ import annotations

import functools
import os
import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from tablekit.files.resources import source_tree

KINDS = tuple(f"{n}{s}" for s in "mps" for n in range(1, 10)) + tuple(f"{n}z" for n in range(1, 8))
FACE_CODES = (*KINDS, "0m", "0p", "0s")
"""Every face a set provides: 34 kinds then the red fives (the vision classes' order)."""
FACE_SIZE = (120, 160)
"""Width and height in px at which converted faces are kept (26:35 mm is 0.743, this is 0.75)."""
ASSETS = Path(__file__).resolve().parent / "assets"
LICENCE_FILES = ("LICENSE", "LICENSE.md", "LICENSE.txt")
METADATA = "set.toml"
USES = ("train", "test")
BGR = tuple[int, int, int]


class ArtError(ValueError):
    """An art set that is absent or cannot be used (the message is one line)."""


def user_art_dir(environ: Mapping[str, str] = os.environ) -> Path:
    """Where converted sets are written: ``$XDG_DATA_HOME/tablekit/tile-art``.

    >>> user_art_dir({"XDG_DATA_HOME": "/d"}).as_posix()
    '/d/tablekit/tile-art'
    """
    base = environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "tablekit" / "tile-art"


def art_dirs(environ: Mapping[str, str] = os.environ) -> tuple[Path, ...]:
    """The folders searched for art sets, in order (module docstring).

    >>> [p.name for p in art_dirs({"TABLEKIT_TILE_ART": os.pathsep.join(["/a", "/b"]),
    ...                            "XDG_DATA_HOME": "/d"})][:2]
    ['a', 'b']
    """
    found = [Path(p) for p in environ.get("TABLEKIT_TILE_ART", "").split(os.pathsep) if p]
    checkout = source_tree()
    if checkout is not None:
        found.append(checkout.parent / "shared" / "data" / "tile-art")
    return (*found, user_art_dir(environ), ASSETS)


def _is_set(folder: Path) -> bool:
    """A folder that means to be an art set: it has ``set.toml`` or a face image."""
    return folder.is_dir() and ((folder / METADATA).is_file() or any(
        (folder / f"{code}.png").is_file() for code in ("1m", "5z", "0m")))


def art_folders(dirs: Iterable[Path] | None = None) -> dict[str, Path]:
    """Each set's name and folder, the first of a name kept."""
    found: dict[str, Path] = {}
    for root in art_dirs() if dirs is None else dirs:
        if root.is_dir():
            for folder in sorted(root.iterdir()):
                if folder.name not in found and _is_set(folder):
                    found[folder.name] = folder
    return found


def available_art(use: str | None = None) -> tuple[str, ...]:
    """The sets found here (``use``: only those marked so), by name, ``fallback`` last."""
    names = [name for name in sorted(art_folders()) if name != "fallback"]
    if use is not None:
        names = [name for name in names if read_metadata(art_folders()[name]).get("use",
                                                                                  "test") == use]
    return (*names, "fallback")


def training_art() -> tuple[str, ...]:
    """The sets drawn for random rigs: those marked ``use = "train"`` (and ``fallback``)."""
    return available_art("train")


@dataclass(frozen=True)
class ArtSet:
    """One set's faces (``code -> BGR uint8``, all the same size) and its colours."""

    name: str
    faces: dict[str, np.ndarray] = field(repr=False)
    ivory: BGR
    source: str
    licence: str
    use: str = "test"
    back: BGR | None = None

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


@functools.lru_cache(maxsize=16)
def load_art(name: str) -> ArtSet:
    """Load (once) the art set ``name``; an absent or unusable set raises :class:`ArtError`."""
    folders = art_folders()
    if name not in folders:
        raise ArtError(f"tile art {name!r} is not available here (have: "
                       f"{', '.join(available_art())}; docs/tile-sets.md says how to add one)")
    return read_art_folder(folders[name])


def read_art_folder(folder: Path) -> ArtSet:
    """The art set in ``folder``, refused in one line when a face or its licence is missing.

    >>> read_art_folder(Path("/nonexistent/x"))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    tablekit.sim.art.ArtError: tile art 'x' (/nonexistent/x) has no licence file (LICENSE, ...)
    """
    name = folder.name
    where = f"tile art {name!r} ({folder})"
    licence_file = next((folder / n for n in LICENCE_FILES if (folder / n).is_file()), None)
    if licence_file is None:
        raise ArtError(f"{where} has no licence file ({', '.join(LICENCE_FILES[:-1])} or "
                       f"{LICENCE_FILES[-1]})")
    missing = [code for code in FACE_CODES if not (folder / f"{code}.png").is_file()]
    if missing:
        raise ArtError(f"{where} lacks {len(missing)} face{'s' if len(missing) > 1 else ''}: "
                       f"{', '.join(missing)}")
    meta = read_metadata(folder)
    images = {code: read_image(folder / f"{code}.png") for code in FACE_CODES}
    size = images[FACE_CODES[0]].shape[1::-1]
    ivory = meta["face"] if "face" in meta else _middle_colour(images["5z"])
    base = drawn_face(size, ivory)
    faces = {code: composite(base, image) if image.shape[2] == 4 else _fit(image, size)
             for code, image in images.items()}
    return ArtSet(name, faces, ivory, str(meta.get("source", "")),
                  str(meta.get("licence", licence_file.name)), str(meta.get("use", "test")),
                  meta.get("back"))


def read_metadata(folder: Path) -> dict:
    """``set.toml`` of ``folder`` with its colours as BGR, checked; {} when there is none."""
    path = folder / METADATA
    if not path.is_file():
        return {}
    try:
        meta = tomllib.loads(path.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as error:
        raise ArtError(f"tile art {folder.name!r}: {path} is not TOML ({error})") from None
    if meta.get("use", "test") not in USES:
        raise ArtError(f"tile art {folder.name!r}: use must be 'train' or 'test', not "
                       f"{meta['use']!r}")
    for key in ("face", "back"):
        if key in meta:
            meta[key] = parse_colour(meta[key], f"tile art {folder.name!r}: {key}")
    return meta


def parse_colour(text: object, what: str = "colour") -> BGR:
    """``"#rrggbb"`` as a BGR triple.

    >>> parse_colour("#f0ecd6")
    (214, 236, 240)
    """
    value = str(text).strip().lstrip("#")
    try:
        red, green, blue = (int(value[i:i + 2], 16) for i in (0, 2, 4))
    except ValueError:
        raise ArtError(f"{what} must be '#rrggbb', not {text!r}") from None
    if len(value) != 6:
        raise ArtError(f"{what} must be '#rrggbb', not {text!r}")
    return blue, green, red


def colour_text(bgr: Iterable[int]) -> str:
    """A BGR triple as ``"#rrggbb"`` (for ``set.toml``).

    >>> colour_text((214, 236, 240))
    '#f0ecd6'
    """
    blue, green, red = (int(v) for v in bgr)
    return f"#{red:02x}{green:02x}{blue:02x}"


def write_art_folder(folder: Path, faces: Mapping[str, np.ndarray], licence: str,
                     meta: Mapping[str, object]) -> Path:
    """Write a set in the folder format: ``faces`` (BGR or BGRA, every code of FACE_CODES),
    the licence text as ``LICENSE`` and ``meta`` (strings; colours as BGR) as ``set.toml``."""
    missing = [code for code in FACE_CODES if code not in faces]
    if missing:
        raise ArtError(f"tile art {folder.name!r} lacks {', '.join(missing)}")
    folder.mkdir(parents=True, exist_ok=True)
    for code in FACE_CODES:
        ok, data = cv2.imencode(".png", faces[code], [cv2.IMWRITE_PNG_COMPRESSION, 9])
        if not ok:
            raise ArtError(f"tile art {folder.name!r}: face {code} could not be encoded")
        (folder / f"{code}.png").write_bytes(data.tobytes())
    (folder / "LICENSE").write_text(licence.rstrip() + "\n", encoding="utf-8")
    lines = []
    for key, value in meta.items():
        text = colour_text(value) if key in ("face", "back") else str(value)  # type: ignore[arg-type]
        lines.append(f"{key} = {_toml_string(text)}")
    (folder / METADATA).write_text("\n".join(lines) + "\n", encoding="utf-8")
    return folder


def _toml_string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", " ") + '"'


def drawn_face(size: tuple[int, int], colour: tuple[int, int, int]) -> np.ndarray:
    """A plain face of ``colour`` with a soft bevel at its edges (for glyph-only art)."""
    w, h = size
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    edge = np.minimum(np.minimum(xx, w - 1 - xx), np.minimum(yy, h - 1 - yy)) / (0.06 * w)
    shade = 0.84 + 0.16 * (1 - np.exp(-edge)) + 0.03 * (1 - yy / h)
    face = np.asarray(colour, np.float32)[None, None, :] * shade[..., None]
    return np.clip(face, 0, 255).astype(np.uint8)


# --- image helpers ---------------------------------------------------------------------------

def read_image(path: Path, size: tuple[int, int] | None = None) -> np.ndarray:
    """A PNG as BGR or BGRA (``size``: resized to it); one line when it cannot be read."""
    data = np.fromfile(str(path), np.uint8)  # np.fromfile copes with non-ASCII paths
    image = cv2.imdecode(data, cv2.IMREAD_UNCHANGED)
    if image is None or image.ndim not in (2, 3):
        raise ArtError(f"{path} is not an image")
    if image.dtype != np.uint8:
        image = (image / 257).astype(np.uint8)
    if image.ndim == 2:
        image = cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    return image if size is None else cv2.resize(image, size, interpolation=cv2.INTER_AREA)


def composite(base: np.ndarray, rgba: np.ndarray) -> np.ndarray:
    """``rgba`` alpha-composited over the BGR ``base`` (resized to match)."""
    if rgba.shape[:2] != base.shape[:2]:
        rgba = cv2.resize(rgba, base.shape[1::-1], interpolation=cv2.INTER_AREA)
    alpha = rgba[:, :, 3:4].astype(np.float32) / 255
    out = rgba[:, :, :3] * alpha + base * (1 - alpha)
    return np.clip(out + 0.5, 0, 255).astype(np.uint8)


def _fit(image: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    if image.shape[1::-1] == tuple(size):
        return image
    return cv2.resize(image, size, interpolation=cv2.INTER_AREA)


def _middle_colour(image: np.ndarray) -> BGR:
    """The colour in the middle of a face (the white dragon's: the face side's colour)."""
    h, w = image.shape[:2]
    patch = image[h * 2 // 5:h * 3 // 5, w * 2 // 5:w * 3 // 5, :3].reshape(-1, 3)
    blue, green, red = (int(v) for v in np.median(patch, axis=0))
    return blue, green, red
