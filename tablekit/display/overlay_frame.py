"""The frame every full-screen overlay shares: a title row, the body, a footer row; plus a
small table helper for rows of columns.

Names: ``overlay.title``, ``overlay.subtitle``, ``overlay.footer``.

>>> hand_label("E2-3"), hand_label("S4-0"), hand_label("nagashi mangan")
('East 2, 3 honba', 'South 4', '')
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import pygame

from tablekit.display import theme
from tablekit.display.canvas import Canvas
from tablekit.display.geometry import columns, inset
from tablekit.game.state import TableState
from tablekit.rules.hand import WINDS
from tablekit.tiles import WIND_NAMES

_SHORT_LABEL = re.compile(r"^([ESWN])([1-4])-(\d+)$")


def overlay_frame(canvas: Canvas, area: pygame.Rect, title: str, subtitle: str = "",
                  footer: str = "") -> pygame.Rect:
    """Draw the title (and footer) rows; returns the body's rectangle."""
    unit = canvas.unit
    inner = inset(area, unit * 1.5)
    top = pygame.Rect(inner.left, inner.top, inner.width, round(unit * 8))
    right = top.right
    if subtitle:
        sub = pygame.Rect(top.left + top.width // 2, top.top, top.width // 2, top.height)
        right = canvas.text(sub, subtitle, top.height * 0.6, theme.MUTED, "right",
                            "overlay.subtitle").left - round(unit * 2)
    canvas.text(pygame.Rect(top.left, top.top, right - top.left, top.height), title,
                top.height * 0.85, theme.TEXT, "left", "overlay.title")
    bottom = inner.bottom
    if footer:
        row = pygame.Rect(inner.left, inner.bottom - round(unit * 7), inner.width,
                          round(unit * 7))
        canvas.box(row, theme.PANEL, "overlay.footer_bar", unit)
        canvas.text(inset(row, unit * 0.5), footer, row.height * 0.7, theme.GOLD,
                    name="overlay.footer")
        bottom = row.top - round(unit)
    return pygame.Rect(inner.left, top.bottom + round(unit), inner.width,
                       bottom - top.bottom - round(unit))


def hand_label(detail: str) -> str:
    """``East 2, 3 honba`` from a hand result's ``E2-3`` detail ('' for other details)."""
    match = _SHORT_LABEL.match(detail)
    if not match:
        return ""
    wind, number, honba = match.groups()
    label = f"{WIND_NAMES[WINDS.index(wind)]} {number}"
    return f"{label}, {honba} honba" if int(honba) else label


def hand_winds(state: TableState) -> tuple[int, ...]:
    """Each seat's wind during the hand the result is about (the state has moved on)."""
    dealer = state.dealer
    match = _SHORT_LABEL.match(state.result.detail if state.result else "")
    if match:
        dealer = (state.first_dealer + int(match.group(2)) - 1) % state.players
    return tuple((seat - dealer) % state.players for seat in range(state.players))


def table_row(canvas: Canvas, row: pygame.Rect, cells: Sequence[tuple[str, str, str]],
              weights: Sequence[float], colours: Sequence[theme.Colour] | None = None,
              height: float | None = None) -> None:
    """One table row: ``cells`` are ``(text, align, name)`` in columns of ``weights``."""
    boxes = columns(row, weights, canvas.unit * 1.5)
    colours = colours or [theme.TEXT] * len(cells)
    for box, (text, align, name), colour in zip(boxes, cells, colours, strict=True):
        canvas.text(box, text, height or row.height * 0.7, colour, align, name, shrink=0.5)
