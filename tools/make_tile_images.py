"""Regenerate the scoreboard's tile pictures from the shared tile art.

Composites each face of FluffyStuff/riichi-mahjong-tiles (CC0; PNG exports 600x800 whose faces
are transparent overlays) on ``Front.png``, scales it down and writes one PNG per tile code
(``1m`` .. ``7z``, red fives ``0m`` ``0p`` ``0s``, and ``back``) into
``tablekit/display/tiles/``. Only those committed PNGs are used at run time.

    python tools/make_tile_images.py [--art ../shared/data/tile-art] [--height 88]
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
import pygame  # after the prompt switch

ROOT = Path(__file__).resolve().parents[1]
ART = ROOT.parent / "shared" / "data" / "tile-art"
OUT = ROOT / "tablekit" / "display" / "tiles"
STYLE = Path("fluffystuff-riichi") / "Export" / "Regular"
SUITS = {"m": "Man", "p": "Pin", "s": "Sou"}
HONOURS = ("Ton", "Nan", "Shaa", "Pei", "Haku", "Hatsu", "Chun")


def source_names() -> dict[str, str]:
    """Tile code -> the art's file stem.

    >>> names = source_names()
    >>> names["1m"], names["0p"], names["5z"], names["back"], len(names)
    ('Man1', 'Pin5-Dora', 'Haku', 'Back', 38)
    """
    names = {f"{n}{suit}": f"{stem}{n}" for suit, stem in SUITS.items() for n in range(1, 10)}
    names.update({f"0{suit}": f"{stem}5-Dora" for suit, stem in SUITS.items()})
    names.update({f"{i + 1}z": stem for i, stem in enumerate(HONOURS)})
    names["back"] = "Back"
    return names


def composite(folder: Path, stem: str) -> pygame.Surface:
    """The face ``stem`` drawn on the tile front (the back is a whole tile already)."""
    face = pygame.image.load(folder / f"{stem}.png")
    if stem == "Back":
        return face
    tile = pygame.image.load(folder / "Front.png")
    tile.blit(face, (0, 0))
    return tile


def make_images(art: Path, out: Path, height: int) -> list[Path]:
    folder = art / STYLE
    if not folder.is_dir():
        raise SystemExit(f"make_tile_images: {folder} is not here")
    out.mkdir(parents=True, exist_ok=True)
    size = (round(height * 0.75), height)
    written = []
    for code, stem in source_names().items():
        picture = pygame.transform.smoothscale(composite(folder, stem), size)
        path = out / f"{code}.png"
        pygame.image.save(picture, str(path))
        written.append(path)
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--art", type=Path, default=ART, help="the shared tile-art folder")
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--height", type=int, default=88, help="tile height in pixels")
    args = parser.parse_args(argv)
    written = make_images(args.art, args.out, args.height)
    total = sum(p.stat().st_size for p in written)
    print(f"{len(written)} tiles, {total / 1024:.0f} KiB in {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
