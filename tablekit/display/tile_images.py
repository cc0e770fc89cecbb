"""Tile pictures: the committed PNGs under ``tiles/``, scaled and cached per height.

A code without a picture is drawn as its mpsz code in a box, so a missing file never stops
the scoreboard. Tiles are 3:4 (66x88 in the files).
"""

from __future__ import annotations

import functools
from pathlib import Path

import pygame

TILE_DIR = Path(__file__).with_name("tiles")
ASPECT = 0.75   # width / height
FACE = (245, 240, 235)
EDGE = (120, 120, 120)
INK = (30, 30, 30)


def tile_width(height: int) -> int:
    """The width of a tile drawn ``height`` pixels high.

    >>> tile_width(88), tile_width(40)
    (66, 30)
    """
    return round(height * ASPECT)


@functools.lru_cache(maxsize=64)
def _source(path: Path) -> pygame.Surface | None:
    try:
        return pygame.image.load(str(path))
    except (FileNotFoundError, pygame.error):
        return None


@functools.lru_cache(maxsize=512)
def tile_picture(code: str, height: int, folder: Path = TILE_DIR) -> pygame.Surface:
    """The picture for ``code`` (``5m``, ``0p``, ``7z`` or ``back``), ``height`` pixels high."""
    size = (tile_width(height), height)
    source = _source(folder / f"{code}.png")
    if source is None:
        return drawn_tile(code, size)
    return pygame.transform.smoothscale(source, size)


def drawn_tile(code: str, size: tuple[int, int]) -> pygame.Surface:
    """The fallback: the mpsz code written in a tile-shaped box."""
    if not pygame.font.get_init():
        pygame.font.init()
    surface = pygame.Surface(size, pygame.SRCALPHA)
    radius = max(size[0] // 8, 1)
    pygame.draw.rect(surface, FACE, surface.get_rect(), border_radius=radius)
    pygame.draw.rect(surface, EDGE, surface.get_rect(), max(size[0] // 20, 1), radius)
    font = pygame.font.Font(None, max(6, round(size[0] * 0.8)))
    label = font.render(code, True, INK)
    surface.blit(label, label.get_rect(center=surface.get_rect().center))
    return surface
