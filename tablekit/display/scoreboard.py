"""The scoreboard: a panel per seat (four, or three) around the centre, in the model's layout
(three players: each panel on the side of the seat box its player presses).

Used for the game in play and, with each seat's declaration, for tenpai entry.
"""

from __future__ import annotations

import pygame

from tablekit.display.canvas import Canvas
from tablekit.display.centre import draw_centre
from tablekit.display.layout import board
from tablekit.display.model import ScreenModel
from tablekit.display.seat_panel import draw_seat_panel, seat_views


def draw_scoreboard(canvas: Canvas, model: ScreenModel, area: pygame.Rect) -> None:
    layout = board(model.layout, area, canvas.unit, model.state.players, model.boxes)
    views = seat_views(model)
    winds = tuple(view.wind for view in views)
    for placement in layout.seats:
        panel = canvas.child(placement.upright_size)
        draw_seat_panel(panel, views[placement.seat], winds)
        canvas.paste(panel, placement.rect.topleft, placement.turns)
    draw_centre(canvas, layout.centre, model)
