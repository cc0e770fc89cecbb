"""Choosing the players: a row per seat (four, or three), its wind and the player chosen
with its buttons, marked gold once the seats were drawn at random, and the buttons in the footer.

Names: ``seating.windN`` and ``seating.nameN`` (seat N, East 0), ``seating.drawn`` (the
mark of a draw).

>>> seat_text("Aki"), seat_text(None)
('Aki', '— press RIICHI —')
"""

from __future__ import annotations

import pygame

from tablekit.display import theme
from tablekit.display.canvas import Canvas
from tablekit.display.legend import SEATING
from tablekit.display.model import ScreenModel
from tablekit.display.overlay_frame import overlay_frame, table_row
from tablekit.tiles import WIND_NAMES

ROW = 13.0  # units: a seat's row


def seat_text(name: str | None) -> str:
    """What a seat's row says: its player, or how to choose one."""
    return name if name else "— press RIICHI —"


def draw_choose_players(canvas: Canvas, model: ScreenModel, area: pygame.Rect) -> None:
    seating = model.seating
    assert seating is not None
    chosen = sum(bool(name) for name in seating.names)
    subtitle = ("seats drawn at random" if seating.drawn
                else f"{chosen} of {len(seating.names)} chosen · roster of {seating.roster}")
    body = overlay_frame(canvas, area, "Choose the players", subtitle, SEATING)
    unit = canvas.unit
    height = min(body.height / len(WIND_NAMES), unit * ROW)   # three players: the same rows
    for seat, (wind, name) in enumerate(zip(WIND_NAMES, seating.names, strict=False)):
        row = pygame.Rect(body.left, round(body.top + seat * height), body.width, round(height))
        box = row.inflate(0, -round(height * 0.16))
        canvas.box(box, theme.PANEL, "", unit)
        if seating.drawn:
            canvas.box(box, theme.GOLD, f"seating.drawn{seat}", unit, max(2, round(unit / 2)))
        table_row(canvas, box.inflate(-round(unit * 3), 0),
                  [(wind, "left", f"seating.wind{seat}"),
                   (seat_text(name), "left", f"seating.name{seat}")], (0.25, 0.75),
                  [theme.MUTED if seat else theme.GOLD, theme.TEXT if name else theme.MUTED],
                  box.height * 0.55)
