"""Convert tile art from its upstream layouts into tablekit's art-set folders.

Usage: python tools/make_art_sets.py [--out DIR] [--sets NAME ...] [--fallback] [--list]

Writes one folder per set (tablekit/sim/art.py's format, docs/tile-sets.md) under ``--out``
(default the user's folder, ``$XDG_DATA_HOME/tablekit/tile-art``), from:

* ``../shared/data/tile-art`` (``--shared``): FluffyStuff (``fluffystuff``,
  ``fluffystuff-black``), lietxia (``lietxia``) and samoheen's Hong Kong faces (``hongkong``);
* Debian's ``kdegames-mahjongg-data-kf5`` (``kde-*``: four SVG tilesets) and
  ``gnome-mahjongg`` (``gnome-*``: two themes; tools/art_debian.py says which are left out
  and why), when installed (``apt-get install kdegames-mahjongg-data-kf5 gnome-mahjongg
  librsvg2-bin``; rsvg-convert renders the SVGs).

A set without red fives gets them as clubs mark them (:func:`red_five`). Flowers and seasons
are left out (not a tile for tablekit). ``--fallback`` rewrites the committed ``fallback`` set
(tablekit/sim/assets/fallback) from FluffyStuff. Sources that are not here are skipped with a
line saying so.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from tablekit.sim.art import (  # noqa: E402
    ASSETS,
    FACE_CODES,
    FACE_SIZE,
    ArtError,
    composite,
    drawn_face,
    read_image,
    user_art_dir,
    write_art_folder,
)

SHARED = ROOT.parent / "shared" / "data" / "tile-art"
KDE = Path("/usr/share/kmahjongglib/tilesets")
GNOME = Path("/usr/share/gnome-mahjongg/themes")
GNOME_COPYRIGHT = Path("/usr/share/doc/gnome-mahjongg/copyright")
RED_INK = (40, 40, 200)
LIGHT_RED = (120, 120, 255)
BGR = tuple[int, int, int]


@dataclass(frozen=True)
class Converted:
    """A set ready to write: faces (BGR, FACE_SIZE), licence text and set.toml entries."""

    faces: dict[str, np.ndarray]
    licence: str
    meta: dict[str, object]


# --- shared helpers --------------------------------------------------------------------------

def shrink(face: np.ndarray) -> np.ndarray:
    return cv2.resize(face, FACE_SIZE, interpolation=cv2.INTER_AREA)


def rgba(path: Path, size: tuple[int, int] | None = None) -> np.ndarray:
    image = read_image(path, size)
    if image.shape[2] != 4:
        raise ArtError(f"{path} is not an RGBA PNG")
    return image


def red_glyph(glyph: np.ndarray) -> np.ndarray:
    """A transparent glyph inked red all over (a red five's face, as Hong Kong sets mark it)."""
    red = glyph.copy()
    red[:, :, :3] = RED_INK
    return red


def red_five(face: np.ndarray, ivory: BGR) -> np.ndarray:
    """An opaque five's face made red: its ink (what differs from the face colour) turned red
    and a red dot in its top corner, as clubs mark red fives on a set that has none."""
    difference = np.abs(face.astype(np.int16) - np.asarray(ivory, np.int16)).max(2)
    ink = difference > 60
    colour = RED_INK if sum(ivory) > 3 * 110 else LIGHT_RED  # a dark face: a light red
    strength = np.clip(difference[..., None] / 160, 0, 1)
    red = np.asarray(ivory, np.float32) * (1 - strength) + np.asarray(colour) * strength
    out = face.copy()
    out[ink] = np.clip(red[ink], 0, 255).astype(np.uint8)
    h, w = face.shape[:2]
    cv2.circle(out, (w - w // 7, h // 9), max(2, w // 18), colour, -1, cv2.LINE_AA)
    return out


def licence_text(header: str, path: Path) -> str:
    return f"{header}\n\n{path.read_text(encoding='utf-8', errors='replace')}"


# --- ../shared/data/tile-art -----------------------------------------------------------------

_FLUFFY_HONOURS = ("Ton", "Nan", "Shaa", "Pei", "Haku", "Hatsu", "Chun")
_FLUFFY_SUITS = {"m": "Man", "p": "Pin", "s": "Sou"}
_COMMITS = {"fluffystuff-riichi": "26e127ba2117f45cdce5ea0225748cc0cfad3169",
            "lietxia-mahjong-graphic": "3e275804ff58325306710bef3a7406860444bc6a",
            "samoheen-hongkong": "37a2549fe91687db191014cc426f836df630b1b6"}


def _fluffy_file(code: str) -> str:
    number, suit = code[0], code[1]
    if suit == "z":
        return _FLUFFY_HONOURS[int(number) - 1]
    return f"{_FLUFFY_SUITS[suit]}5-Dora" if number == "0" else f"{_FLUFFY_SUITS[suit]}{number}"


def fluffy(variant: str) -> Callable[[Path], Converted]:
    """FluffyStuff's PNG exports: each face an overlay on ``Front.png``."""
    def convert(shared: Path) -> Converted:
        root = shared / "fluffystuff-riichi"
        folder = root / "Export" / variant
        front = rgba(folder / "Front.png")
        ivory = tuple(int(v) for v in front[front.shape[0] // 2, front.shape[1] // 2, :3])
        base = composite(np.full((*front.shape[:2], 3), ivory, np.uint8), front)
        faces = {code: shrink(composite(base, rgba(folder / f"{_fluffy_file(code)}.png")))
                 for code in FACE_CODES}
        return Converted(faces, licence_text(
            f"FluffyStuff/riichi-mahjong-tiles, commit {_COMMITS['fluffystuff-riichi']}, "
            f"Export/{variant}: faces composited on Front.png by tools/make_art_sets.py.",
            root / "LICENSE.md"),
            {"face": ivory, "use": "train", "source": "FluffyStuff/riichi-mahjong-tiles "
             f"Export/{variant}", "licence": "CC0"})
    return convert


_LIETXIA_DIR = "PNG 位图/透明背景 Transparent background/800px宽 weight 800px"
LIETXIA_IVORY = (214, 232, 240)


def lietxia(shared: Path) -> Converted:
    """lietxia's transparent faces on a drawn ivory face."""
    root = shared / "lietxia-mahjong-graphic"
    folder = root / _LIETXIA_DIR
    base = drawn_face(FACE_SIZE, LIETXIA_IVORY)
    faces = {}
    for code in FACE_CODES:
        path = folder / f"{code}.png"
        faces[code] = composite(base, rgba(path, FACE_SIZE)) if path.exists() else base.copy()
    return Converted(faces, licence_text(
        f"lietxia/mahjong_graphic, commit {_COMMITS['lietxia-mahjong-graphic']}: transparent "
        "PNG faces on a drawn ivory face by tools/make_art_sets.py.", root / "LICENSE"),
        {"face": LIETXIA_IVORY, "use": "train", "source": "lietxia/mahjong_graphic",
         "licence": "M+ FONTS LICENSE (use and modification free)"})


_HONGKONG_ORDER = ("5z", "6z", "7z", "1z", "2z", "3z", "4z", *(f"{n}m" for n in range(1, 10)),
                   *(f"{n}p" for n in range(1, 10)), *(f"{n}s" for n in range(1, 10)))
HONGKONG_IVORY = (226, 236, 240)


def hongkong(shared: Path) -> Converted:
    """samoheen's Hong Kong faces on a drawn face; the set has no red fives, so each five's
    glyph is inked red for one. Test-only: the simulator's training never used it."""
    root = shared / "samoheen-hongkong"
    files = sorted((root / "hongkong" / "png").glob("*.png"))
    base = drawn_face(FACE_SIZE, HONGKONG_IVORY)
    glyphs = {code: rgba(path, FACE_SIZE)
              for code, path in zip(_HONGKONG_ORDER, files, strict=False)}
    for suit in "mps":
        glyphs[f"0{suit}"] = red_glyph(glyphs[f"5{suit}"])
    faces = {code: composite(base, glyphs[code]) for code in FACE_CODES}
    return Converted(faces, licence_text(
        f"samoheen/mahjong-tiles, commit {_COMMITS['samoheen-hongkong']}, hongkong/png: faces "
        "on a drawn face, red fives inked red, by tools/make_art_sets.py.",
        root / "LICENSE.md"),
        {"face": HONGKONG_IVORY, "use": "test", "source": "samoheen/mahjong-tiles (Hong Kong)",
         "licence": "CC0"})


SHARED_SETS: dict[str, Callable[[Path], Converted]] = {
    "fluffystuff": fluffy("Regular"), "fluffystuff-black": fluffy("Black"),
    "lietxia": lietxia, "hongkong": hongkong}


# --- writing ---------------------------------------------------------------------------------

def convert_all(out: Path, names: list[str] | None, shared: Path) -> int:
    """Write each set asked for (all by default); the number written."""
    makers = {**{k: (lambda f=f: f(shared)) for k, f in SHARED_SETS.items()}, **debian_sets()}
    unknown = sorted(set(names or []) - set(makers))
    if unknown:
        print(f"make_art_sets: no such set: {', '.join(unknown)} (have: "
              f"{', '.join(sorted(makers))})", file=sys.stderr)
        return 0
    written = 0
    for name, make in makers.items():
        if names and name not in names:
            continue
        try:
            made = make()
        except (OSError, ArtError, KeyError, subprocess.CalledProcessError) as error:
            print(f"{name}: skipped: {str(error).splitlines()[0]}", file=sys.stderr)
            continue
        folder = out / name
        if folder.exists():
            shutil.rmtree(folder)
        write_art_folder(folder, made.faces, made.licence, made.meta)
        print(f"{folder} ({made.meta.get('use')}, {made.meta.get('licence')})", flush=True)
        written += 1
    return written


def write_fallback(shared: Path) -> Path:
    """The committed ``fallback`` set: FluffyStuff's faces at 64x86 px."""
    made = fluffy("Regular")(shared)
    faces = {code: cv2.resize(face, (64, 86), interpolation=cv2.INTER_AREA)
             for code, face in made.faces.items()}
    ivory = tuple(int(v) for v in faces["5z"][43, 32])
    return write_art_folder(ASSETS / "fallback", faces, made.licence, {
        "face": ivory, "use": "train", "source": "FluffyStuff/riichi-mahjong-tiles (downscaled)",
        "licence": "CC0"})


def debian_sets() -> dict[str, Callable[[], Converted]]:
    from art_debian import debian_makers

    return debian_makers()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=user_art_dir())
    parser.add_argument("--shared", type=Path, default=SHARED,
                        help="the upstream tile-art folder (../shared/data/tile-art)")
    parser.add_argument("--sets", nargs="*", default=None, metavar="NAME")
    parser.add_argument("--fallback", action="store_true",
                        help="rewrite the committed fallback set instead")
    args = parser.parse_args()
    if args.fallback:
        print(write_fallback(args.shared))
        return 0
    written = convert_all(args.out, args.sets, args.shared)
    print(f"{written} set(s) written to {args.out}")
    return 0 if written else 1


if __name__ == "__main__":
    raise SystemExit(main())
