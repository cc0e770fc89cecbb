"""Rectangle arithmetic: splitting areas into rows and columns, and quarter turns.

>>> [tuple(r) for r in rows(pygame.Rect(0, 0, 100, 100), (1, 3), gap=10)]
[(0, 0, 100, 22), (0, 32, 100, 68)]
>>> tuple(turn_rect(pygame.Rect(10, 0, 20, 5), (100, 40), 1))
(0, 70, 5, 20)
"""

from __future__ import annotations

from collections.abc import Sequence

import pygame


def rows(area: pygame.Rect, weights: Sequence[float], gap: float = 0) -> list[pygame.Rect]:
    """Split ``area`` top to bottom in proportion to ``weights``, ``gap`` pixels apart."""
    spans = _spans(area.top, area.height, weights, gap)
    return [pygame.Rect(area.left, start, area.width, size) for start, size in spans]


def columns(area: pygame.Rect, weights: Sequence[float], gap: float = 0) -> list[pygame.Rect]:
    """Split ``area`` left to right in proportion to ``weights``, ``gap`` pixels apart.

    >>> [tuple(r) for r in columns(pygame.Rect(0, 0, 90, 10), (1, 1, 1))]
    [(0, 0, 30, 10), (30, 0, 30, 10), (60, 0, 30, 10)]
    """
    spans = _spans(area.left, area.width, weights, gap)
    return [pygame.Rect(start, area.top, size, area.height) for start, size in spans]


def _spans(start: int, length: int, weights: Sequence[float], gap: float) -> list[tuple[int, int]]:
    usable = max(length - gap * (len(weights) - 1), 0)
    total = sum(weights) or 1
    spans, position = [], float(start)
    for weight in weights:
        size = usable * weight / total
        spans.append((round(position), max(round(position + size) - round(position), 0)))
        position += size + gap
    return spans


def inset(area: pygame.Rect, margin: float) -> pygame.Rect:
    """``area`` shrunk by ``margin`` on every side.

    >>> tuple(inset(pygame.Rect(0, 0, 100, 50), 5))
    (5, 5, 90, 40)
    """
    return area.inflate(-round(2 * margin), -round(2 * margin))


def turn_rect(rect: pygame.Rect, size: tuple[int, int], turns: int) -> pygame.Rect:
    """Where ``rect`` on a surface of ``size`` lands when the surface is turned ``turns``
    quarter turns counter-clockwise (as ``pygame.transform.rotate(surface, 90 * turns)``).

    >>> tuple(turn_rect(pygame.Rect(10, 0, 20, 5), (100, 40), 2))
    (70, 35, 20, 5)
    >>> tuple(turn_rect(pygame.Rect(10, 0, 20, 5), (100, 40), 3))
    (35, 10, 5, 20)
    """
    width, height = size
    x, y, w, h = rect
    turns %= 4
    if turns == 1:
        return pygame.Rect(y, width - x - w, h, w)
    if turns == 2:
        return pygame.Rect(width - x - w, height - y - h, w, h)
    if turns == 3:
        return pygame.Rect(height - y - h, x, h, w)
    return pygame.Rect(rect)


def turned_size(size: tuple[int, int], turns: int) -> tuple[int, int]:
    """The size of a surface after ``turns`` quarter turns.

    >>> turned_size((300, 100), 1), turned_size((300, 100), 2)
    ((100, 300), (300, 100))
    """
    return (size[1], size[0]) if turns % 2 else size
