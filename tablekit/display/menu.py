"""The menu (held UNDO): its title and items, the selected one highlighted, and how to move
between them and pick one.

Names: ``menu.itemN`` (the texts), ``menu.selected`` (the highlight).
"""

from __future__ import annotations

import pygame

from tablekit.display import theme
from tablekit.display.canvas import Canvas
from tablekit.display.geometry import inset
from tablekit.display.legend import MENU
from tablekit.display.model import ScreenModel
from tablekit.display.overlay_frame import overlay_frame


def draw_menu(canvas: Canvas, model: ScreenModel, area: pygame.Rect) -> None:
    menu = model.menu
    assert menu is not None
    body = overlay_frame(canvas, area, menu.title, model.state.round_label, MENU)
    count = max(len(menu.items), 1)
    height = min(body.height / count, canvas.unit * 12)
    width = min(body.width, round(canvas.unit * 110))
    left = body.left + (body.width - width) // 2
    for index, item in enumerate(menu.items):
        row = pygame.Rect(left, round(body.top + index * height), width, round(height))
        box = row.inflate(0, -round(height * 0.14))
        selected = index == menu.selected
        canvas.box(box, theme.GOLD if selected else theme.PANEL,
                   "menu.selected" if selected else "", canvas.unit)
        canvas.text(inset(box, canvas.unit), item, box.height * 0.6,
                    theme.DARK if selected else theme.TEXT, name=f"menu.item{index}")
