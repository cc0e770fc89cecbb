"""A Surface that remembers what was drawn where, so screens can be checked by region.

Every text, shape and tile drawn through a :class:`Canvas` is recorded as a :class:`Drawn`
with its name (``seat0.points``, ``centre.dora1``...) and its rectangle in screen
coordinates, also for panels drawn upright and pasted turned.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import pygame

from tablekit.display.geometry import turn_rect
from tablekit.display.text import SHRINK_LIMIT, Fonts
from tablekit.display.tile_images import tile_picture
from tablekit.tiles import Tile

Align = str  # "left", "centre" or "right"


@dataclass(frozen=True, eq=False)
class Drawn:
    """One thing drawn: ``kind`` is ``text``, ``shape`` or ``tile``."""

    kind: str
    name: str
    rect: pygame.Rect
    text: str = ""


class Frame:
    """What one rendered frame holds, for tests and for the touch panel's hit tests."""

    def __init__(self, size: tuple[int, int], items: list[Drawn]) -> None:
        self.size = size
        self.items = items

    def __iter__(self) -> Iterator[Drawn]:
        return iter(self.items)

    def named(self, prefix: str) -> list[Drawn]:
        """Items whose name is ``prefix`` or starts with ``prefix.``."""
        return [d for d in self.items if d.name == prefix or d.name.startswith(prefix + ".")]

    def get(self, name: str) -> Drawn | None:
        return next((d for d in self.items if d.name == name), None)

    def rect(self, name: str) -> pygame.Rect:
        item = self.get(name)
        if item is None:
            raise KeyError(f"nothing named {name!r} was drawn")
        return item.rect

    @property
    def texts(self) -> list[Drawn]:
        return [d for d in self.items if d.kind == "text"]

    def text_of(self, name: str) -> str:
        item = self.get(name)
        return item.text if item else ""


class Canvas:
    """A surface plus the record of what was drawn on it."""

    def __init__(self, surface: pygame.Surface, unit: float, fonts: Fonts | None = None) -> None:
        self.surface = surface
        self.unit = unit
        self.fonts = fonts or Fonts()
        self.items: list[Drawn] = []

    @property
    def area(self) -> pygame.Rect:
        return self.surface.get_rect()

    def frame(self) -> Frame:
        return Frame(self.surface.get_size(), list(self.items))

    def record(self, kind: str, name: str, rect: pygame.Rect, text: str = "") -> None:
        self.items.append(Drawn(kind, name, pygame.Rect(rect), text))

    def box(self, rect: pygame.Rect, colour: tuple[int, int, int], name: str = "",
            radius: float = 0, width: int = 0) -> pygame.Rect:
        """A filled (or, with ``width``, outlined) rectangle with rounded corners."""
        pygame.draw.rect(self.surface, colour, rect, width, border_radius=round(radius))
        if name:
            self.record("shape", name, rect)
        return rect

    def text(self, box: pygame.Rect, text: str, height: float, colour: tuple[int, int, int],
             align: Align = "centre", name: str = "", shrink: float = SHRINK_LIMIT
             ) -> pygame.Rect:
        """``text`` in one line, centred vertically in ``box`` and fitted to its width
        (shrunk down to ``shrink`` times ``height``, then cut short)."""
        if not text or box.width <= 0:
            return pygame.Rect(box.left, box.centery, 0, 0)
        font, shown = self.fonts.fit(text, min(height, box.height), box.width, shrink)
        picture = font.render(shown, True, colour)
        rect = picture.get_rect(centery=box.centery)
        if align == "left":
            rect.left = box.left
        elif align == "right":
            rect.right = box.right
        else:
            rect.centerx = box.centerx
        self.surface.blit(picture, rect)
        self.record("text", name, rect, shown)
        return rect

    def tile(self, tile: Tile | None, topleft: tuple[int, int], height: int, name: str = "",
             sideways: bool = False) -> pygame.Rect:
        """A tile picture (``None`` is a tile face down), optionally turned sideways."""
        picture = tile_picture(tile.code if tile else "back", height)
        if sideways:
            picture = pygame.transform.rotate(picture, 90)
        rect = self.surface.blit(picture, topleft)
        self.record("tile", name, rect, tile.code if tile else "back")
        return rect

    def child(self, size: tuple[int, int]) -> Canvas:
        """A transparent canvas to draw a panel on upright, then :meth:`paste` it."""
        return Canvas(pygame.Surface(size, pygame.SRCALPHA), self.unit, self.fonts)

    def paste(self, child: Canvas, topleft: tuple[int, int], turns: int = 0) -> None:
        """Blit ``child`` turned ``turns`` quarter turns counter-clockwise, with its record."""
        picture = pygame.transform.rotate(child.surface, 90 * turns) if turns % 4 else \
            child.surface
        self.surface.blit(picture, topleft)
        size = child.surface.get_size()
        for item in child.items:
            rect = turn_rect(item.rect, size, turns).move(topleft)
            self.items.append(Drawn(item.kind, item.name, rect, item.text))
