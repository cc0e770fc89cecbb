"""Readers of the Debian packages' mahjongg tilesets for tools/make_art_sets.py.

* ``kdegames-mahjongg-data-kf5``: four of its six SVG tilesets (GPL-2+), one element per face
  (``CHARACTER_n`` man, ``ROD_n`` pin, ``BAMBOO_n`` sou, ``WIND_1..4`` north, south, east,
  west, ``DRAGON_1..3`` white, green, red; flowers and seasons left out), each glyph stretched
  over the face as kmahjongg does, on the colour of the set's tile face (``TILE_1``).
* ``gnome-mahjongg``: two of its three themes (GPL-2+), a strip of 43 tiles 96x132 px
  (pins, winds north west south east, red and green dragons, man, sou, four flowers, the
  white dragon, four seasons, a blank), each tile's face cut from it.

Neither has red fives: :func:`make_art_sets.red_five` makes them.
"""

from __future__ import annotations

import gzip
import subprocess
import tempfile
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np
from make_art_sets import FACE_SIZE, GNOME, KDE, Converted, red_five

from tablekit.sim.art import KINDS, composite, read_image

KDE_SETS = ("default", "classic", "jade", "traditional")
GNOME_SETS = ("smooth", "postmodern")
NOT_MAHJONG_FACES = ("kde alphabet", "kde egypt", "gnome edu_kang_xi")
"""Left out: their faces are letters and digits, Egyptian pictures and Kang Xi radicals, not
mahjong faces that a player (or a reader) could name."""
_KDE_WINDS = {"1z": "WIND_3", "2z": "WIND_2", "3z": "WIND_4", "4z": "WIND_1"}
_KDE_DRAGONS = {"5z": "DRAGON_1", "6z": "DRAGON_2", "7z": "DRAGON_3"}
_KDE_SUITS = {"m": "CHARACTER", "p": "ROD", "s": "BAMBOO"}
_GNOME_ORDER = (*(f"{n}p" for n in range(1, 10)), "4z", "3z", "2z", "1z", "7z", "6z",
                *(f"{n}m" for n in range(1, 10)), *(f"{n}s" for n in range(1, 10)),
                "flower", "flower", "flower", "flower", "5z")
_GNOME_TILE = (96, 132)
_GLYPH_AREA = (0.86, 0.88)


def kde_element(code: str) -> str:
    """The SVG element of ``code`` in a kmahjongg tileset.

    >>> kde_element("3p"), kde_element("1z")
    ('ROD_3', 'WIND_3')
    """
    if code[1] == "z":
        return {**_KDE_WINDS, **_KDE_DRAGONS}[code]
    return f"{_KDE_SUITS[code[1]]}_{code[0]}"


def _render(svg: Path, element: str | None, height: int, scratch: Path) -> np.ndarray:
    out = scratch / f"{element or 'all'}.png"
    command = ["rsvg-convert", "-a", "-h", str(height), str(svg), "-o", str(out)]
    if element:
        command[1:1] = ["-i", element]
    subprocess.run(command, check=True, capture_output=True)
    image = read_image(out)
    return image if image.shape[2] == 4 else cv2.cvtColor(image, cv2.COLOR_BGR2BGRA)


def _crop(rgba: np.ndarray) -> np.ndarray:
    """The drawn part of a render (a blank one, such as a white dragon left empty, as is)."""
    ys, xs = np.nonzero(rgba[:, :, 3] > 8)
    if not len(ys):
        return rgba
    return rgba[ys.min():ys.max() + 1, xs.min():xs.max() + 1]


def face_box(tile: np.ndarray) -> tuple[int, int, int, int]:
    """x0, y0, x1, y1 of a tile's face: the region of its middle's colour, grown from it."""
    h, w = tile.shape[:2]
    middle = tile[h // 2, w // 2, :3].astype(np.int16)
    same = (np.abs(tile[:, :, :3].astype(np.int16) - middle).max(2) < 40) & \
        (tile[:, :, 3] > 200)
    _, labels = cv2.connectedComponents(same.astype(np.uint8))
    ys, xs = np.nonzero(labels == labels[h // 2, w // 2])
    return int(xs.min()), int(ys.min()), int(xs.max()) + 1, int(ys.max()) + 1


def _place(glyph: np.ndarray, base: np.ndarray) -> np.ndarray:
    h, w = base.shape[:2]
    gw, gh = round(w * _GLYPH_AREA[0]), round(h * _GLYPH_AREA[1])
    layer = np.zeros((h, w, 4), np.uint8)
    x0, y0 = (w - gw) // 2, (h - gh) // 2
    layer[y0:y0 + gh, x0:x0 + gw] = cv2.resize(glyph, (gw, gh), interpolation=cv2.INTER_AREA)
    return composite(base, layer)


def _with_red_fives(faces: dict[str, np.ndarray], ivory: tuple[int, int, int]) -> None:
    for suit in "mps":
        faces[f"0{suit}"] = red_five(faces[f"5{suit}"], ivory)


def kde(name: str) -> Callable[[], Converted]:
    def convert() -> Converted:
        source = KDE / f"{name}.svgz"
        with tempfile.TemporaryDirectory() as folder:
            scratch = Path(folder)
            svg = scratch / f"{name}.svg"
            svg.write_bytes(gzip.decompress(source.read_bytes()))
            tile = _crop(_render(svg, "TILE_1", 640, scratch))
            x0, y0, x1, y1 = face_box(tile)
            patch = tile[y0:y1, x0:x1, :3]
            ivory = tuple(int(v) for v in np.median(patch.reshape(-1, 3), axis=0))
            base = cv2.resize(patch, FACE_SIZE, interpolation=cv2.INTER_AREA)
            faces = {code: _place(_crop(_render(svg, kde_element(code), 640, scratch)), base)
                     for code in KINDS}
        _with_red_fives(faces, ivory)  # type: ignore[arg-type]
        copyright_text = (KDE / f"{name}.copyright").read_text(encoding="utf-8")
        return Converted(faces, f"kmahjongg tileset '{name}' from Debian's "
                         f"kdegames-mahjongg-data-kf5 ({source}), faces rendered and red "
                         f"fives made by tools/make_art_sets.py.\n\n{copyright_text}\n"
                         "Full licence text: /usr/share/common-licenses/GPL-2",
                         {"face": ivory, "use": "test",
                          "source": f"kdegames-mahjongg-data-kf5 {name}.svgz",
                          "licence": "GPL-2+"})
    return convert


def _gnome_strip(name: str, scratch: Path) -> np.ndarray:
    png = GNOME / f"{name}.png"
    image = read_image(png) if png.is_file() else _render(GNOME / f"{name}.svg", None, 264,
                                                            scratch)
    if image.shape[2] == 3:
        image = cv2.cvtColor(image, cv2.COLOR_BGR2BGRA)
    w = _GNOME_TILE[0] * 43
    return cv2.resize(image, (w, _GNOME_TILE[1] * 2), interpolation=cv2.INTER_AREA) \
        if image.shape[1] != w else image


def gnome(name: str) -> Callable[[], Converted]:
    def convert() -> Converted:
        with tempfile.TemporaryDirectory() as folder:
            strip = _gnome_strip(name, Path(folder))
        tw, th = _GNOME_TILE
        tiles = [strip[:th, i * tw:(i + 1) * tw] for i in range(43)]
        x0, y0, x1, y1 = face_box(tiles[42])  # the blank tile
        faces, ivory = {}, None
        for code, tile in zip(_GNOME_ORDER, tiles, strict=False):
            if code == "flower":
                continue
            face = cv2.cvtColor(tile[y0:y1, x0:x1], cv2.COLOR_BGRA2BGR)
            faces[code] = cv2.resize(face, FACE_SIZE, interpolation=cv2.INTER_CUBIC)
        blank = tiles[42][y0:y1, x0:x1, :3]
        ivory = tuple(int(v) for v in np.median(blank.reshape(-1, 3), axis=0))
        _with_red_fives(faces, ivory)  # type: ignore[arg-type]
        copyright_text = Path("/usr/share/doc/gnome-mahjongg/copyright").read_text(
            encoding="utf-8")
        return Converted(faces, f"gnome-mahjongg theme '{name}' from Debian's gnome-mahjongg "
                         f"({GNOME}), faces cut from the tile strip and red fives made by "
                         f"tools/make_art_sets.py. The package's debian/copyright:\n\n"
                         f"{copyright_text}", {"face": ivory, "use": "test",
                                               "source": f"gnome-mahjongg themes/{name}",
                                               "licence": "GPL-2+"})
    return convert


def debian_makers() -> dict[str, Callable[[], Converted]]:
    """Each Debian set's converter by its art-set name (``kde-*``, ``gnome-*``)."""
    return {**{f"kde-{n}": kde(n) for n in KDE_SETS},
            **{f"gnome-{n.replace('_', '-')}": gnome(n) for n in GNOME_SETS}}
