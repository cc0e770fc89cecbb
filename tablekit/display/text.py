"""Fonts by pixel height, and fitting a line of text into a width.

Only pygame's bundled default font (freesansbold) is used, so no system font is needed.
Fonts are cached per :class:`Fonts` (one per frame): a pygame font must not outlive
``pygame.font.quit()``.
"""

from __future__ import annotations

import pygame

SIZE_PER_PIXEL = 1.333  # freesansbold: a font of size 60 renders lines 45 px high
SHRINK_LIMIT = 0.7      # fitting shrinks text to 70% of its height, then cuts it short
ELLIPSIS = "…"


def font_size(height: float) -> int:
    """The pygame font size whose lines are about ``height`` pixels high.

    >>> font_size(45), font_size(4)
    (60, 6)
    """
    return max(6, round(height * SIZE_PER_PIXEL))


class Fonts:
    """The default font at any line height, each size loaded once."""

    def __init__(self) -> None:
        if not pygame.font.get_init():
            pygame.font.init()
        self._fonts: dict[int, pygame.font.Font] = {}

    def get(self, height: float) -> pygame.font.Font:
        size = font_size(height)
        if size not in self._fonts:
            self._fonts[size] = pygame.font.Font(None, size)
        return self._fonts[size]

    def within(self, height: float) -> float:
        """``height``, lowered until the font's lines really are at most that high."""
        target = height
        while self.get(height).get_linesize() > target and font_size(height) > 6:
            height *= 0.96
        return height

    def fit(self, text: str, height: float, width: float, shrink: float = SHRINK_LIMIT
            ) -> tuple[pygame.font.Font, str]:
        """The largest font (down to ``shrink`` times ``height``) that fits ``text`` in
        ``width``; when even that is too wide, the text is cut short with an ellipsis.
        Only the start that could show in ``width`` is ever measured: a name of 32,000
        characters costs what a name as wide as the screen does."""
        height = self.within(height)
        font = self.get(height)
        start = text[:most_characters(width)]
        if start == text and font.size(text)[0] <= width:
            return font, text
        scaled = height * max(shrink, width / max(font.size(start)[0], 1))
        font = self.get(scaled)
        while font.size(start)[0] > width and font_size(scaled) > font_size(height * shrink):
            scaled *= 0.95
            font = self.get(scaled)
        return font, _cut(font, text, width)


def most_characters(width: float) -> int:
    """More characters than a line ``width`` pixels wide shows: no glyph of the font at
    size 6 or more is under a pixel wide (but marks, which add to the one before, and the
    thinnest spaces: a line of those is cut sooner than it need be, never drawn too long).

    >>> most_characters(100)
    116
    """
    return int(width) + 16


def _cut(font: pygame.font.Font, text: str, width: float) -> str:
    """The longest start of ``text`` that fits ``width`` with an ellipsis after it (all of
    ``text`` when it fits; "" when not even the ellipsis does), found by halving: a few
    measures of at most :func:`most_characters` characters, whatever ``text``'s length."""
    if len(text) <= most_characters(width) and font.size(text)[0] <= width:
        return text
    low, high = 0, min(len(text), most_characters(width))  # fits(low), maybe not high
    if font.size(ELLIPSIS)[0] > width:
        return ""
    while low < high:
        middle = (low + high + 1) // 2
        if font.size(text[:middle] + ELLIPSIS)[0] <= width:
            low = middle
        else:
            high = middle - 1
    return text[:low].rstrip() + ELLIPSIS if low else ""
