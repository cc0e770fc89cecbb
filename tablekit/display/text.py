"""Fonts by pixel height, and fitting a line of text into a width.

pygame's bundled default font (freesansbold) draws every line, so no system font is
needed; a line with characters it lacks (a name in Japanese, say) is drawn by a
:class:`MixedFont`, those characters in a system font that has them
(:mod:`~tablekit.display.fallback_fonts`). Fonts are cached per :class:`Fonts` (one per
frame): a pygame font must not outlive ``pygame.font.quit()``.
"""

from __future__ import annotations

import pygame

from tablekit.display.fallback_fonts import (
    BUNDLED,
    fallback_fonts,
    font_of,
    lacking,
    synthetic_bold,
)

SIZE_PER_PIXEL = 1.333  # freesansbold: a font of size 60 renders lines 45 px high
SHRINK_LIMIT = 0.7      # fitting shrinks text to 70% of its height, then cuts it short
ELLIPSIS = "…"


def font_size(height: float) -> int:
    """The pygame font size whose lines are about ``height`` pixels high.

    >>> font_size(45), font_size(4)
    (60, 6)
    """
    return max(6, round(height * SIZE_PER_PIXEL))


class MixedFont:
    """The bundled font at one size with system fonts at the same size for the characters
    it lacks: measures and draws a line as a pygame font does, a run of characters per
    font, on one baseline."""

    def __init__(self, fonts: dict[int, pygame.font.Font]) -> None:
        self.fonts = fonts   # by font_of()'s number: 0 the bundled font
        self.ascent = max(font.get_ascent() for font in fonts.values())
        self.descent = min(font.get_descent() for font in fonts.values())

    def runs(self, text: str) -> list[tuple[pygame.font.Font, str]]:
        """``text`` cut where the font drawing it changes."""
        paths = fallback_fonts()
        out: list[tuple[pygame.font.Font, str]] = []
        for character in text:
            font = self.fonts.get(font_of(character, paths), self.fonts[0])
            if out and out[-1][0] is font:
                out[-1] = (font, out[-1][1] + character)
            else:
                out.append((font, character))
        return out

    def get_linesize(self) -> int:
        return self.ascent - self.descent

    def size(self, text: str) -> tuple[int, int]:
        return sum(font.size(run)[0] for font, run in self.runs(text)), self.get_linesize()

    def render(self, text: str, antialias: bool, colour: tuple[int, int, int]
               ) -> pygame.Surface:
        pictures = [(font, font.render(run, antialias, colour)) for font, run in self.runs(text)]
        surface = pygame.Surface((max(sum(p.get_width() for _, p in pictures), 1),
                                  self.get_linesize()), pygame.SRCALPHA)
        surface.fill((*colour, 0))   # blended edges keep the colour, not black's
        x = 0
        for font, picture in pictures:
            surface.blit(picture, (x, self.ascent - font.get_ascent()))
            x += picture.get_width()
        return surface


def faces(text: str) -> tuple[int, ...]:
    """The fonts that draw ``text`` (:func:`~tablekit.display.fallback_fonts.font_of`'s
    numbers: 0 the bundled font).

    >>> faces("Ana"), faces("")
    ((0,), (0,))
    """
    paths = fallback_fonts() if lacking(text, BUNDLED) else ()
    return tuple(sorted({0, *(font_of(c, paths) for c in lacking(text, BUNDLED))}))


class Fonts:
    """The default font at any line height, each size loaded once; with more ``faces``
    than the bundled font's, a :class:`MixedFont`."""

    def __init__(self) -> None:
        if not pygame.font.get_init():
            pygame.font.init()
        self._fonts: dict[tuple[int, tuple[int, ...]], pygame.font.Font | MixedFont] = {}

    def get(self, height: float, faces: tuple[int, ...] = (0,)) -> pygame.font.Font:
        size = font_size(height)
        if (size, faces) not in self._fonts:
            self._fonts[size, faces] = _mixed(size, faces) if faces != (0,) else \
                pygame.font.Font(None, size)
        return self._fonts[size, faces]  # type: ignore[return-value]  (measures, draws alike)

    def within(self, height: float, faces: tuple[int, ...] = (0,)) -> float:
        """``height``, lowered until the font's lines really are at most that high."""
        target = height
        while self.get(height, faces).get_linesize() > target and font_size(height) > 6:
            height *= 0.96
        return height

    def fit(self, text: str, height: float, width: float, shrink: float = SHRINK_LIMIT
            ) -> tuple[pygame.font.Font, str]:
        """The largest font (down to ``shrink`` times ``height``) that fits ``text`` in
        ``width``; when even that is too wide, the text is cut short with an ellipsis.
        Only the start that could show in ``width`` is ever measured: a name of 32,000
        characters costs what a name as wide as the screen does."""
        start = text[:most_characters(width)]
        drawn_by = faces(start)   # characters the bundled font lacks: system fonts' too
        height = self.within(height, drawn_by)
        font = self.get(height, drawn_by)
        if start == text and font.size(text)[0] <= width:
            return font, text
        scaled = height * max(shrink, width / max(font.size(start)[0], 1))
        font = self.get(scaled, drawn_by)
        while font.size(start)[0] > width and font_size(scaled) > font_size(height * shrink):
            scaled *= 0.95
            font = self.get(scaled, drawn_by)
        return font, _cut(font, text, width)


def _mixed(size: int, faces: tuple[int, ...]) -> MixedFont:
    """The bundled font at ``size`` and the fallback fonts numbered in ``faces`` at the
    size whose lines are as high (each emboldened when not a bold face, as the bundled
    font is bold)."""
    paths = fallback_fonts()
    bundled = pygame.font.Font(None, size)
    fonts = {0: bundled}
    for face in faces[1:]:
        try:   # a font that will not load: its characters are the bundled font's (boxes)
            font = pygame.font.Font(paths[face - 1], size)
            scaled = max(6, round(size * bundled.get_linesize() / max(font.get_linesize(), 1)))
            fonts[face] = pygame.font.Font(paths[face - 1], scaled)
        except (OSError, pygame.error):
            continue
        fonts[face].set_bold(synthetic_bold(paths[face - 1]))
    return MixedFont(fonts)


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
