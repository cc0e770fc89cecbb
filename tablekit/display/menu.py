"""The menu (held UNDO): its title and items, the selected one highlighted, and how to move
between them and pick one. A menu longer than the screen holds shows a window of items
around the selected one, with a mark where more are above or below.

Names: ``menu.itemN`` (the texts, N counted over the whole menu), ``menu.selected`` (the
highlight), ``menu.more_above`` and ``menu.more_below`` (the marks).

>>> list(window(17, 0, 8)), list(window(17, 9, 8)), list(window(17, 16, 8))
([0, 1, 2, 3, 4, 5, 6, 7], [5, 6, 7, 8, 9, 10, 11, 12], [9, 10, 11, 12, 13, 14, 15, 16])
>>> list(window(5, 3, 8))
[0, 1, 2, 3, 4]
"""

from __future__ import annotations

import pygame

from tablekit.display import theme
from tablekit.display.canvas import Canvas
from tablekit.display.geometry import inset
from tablekit.display.legend import MENU
from tablekit.display.model import ScreenModel
from tablekit.display.overlay_frame import overlay_frame

ITEM = 12.0       # units: an item's height at the most
SMALLEST = 10.0   # ... and at the least: a longer menu scrolls


def window(count: int, selected: int, fits: int) -> range:
    """The items shown: all of them when they fit, else ``fits`` of them with the selected
    one in the middle (or as near it as the ends allow)."""
    if count <= fits:
        return range(count)
    start = min(max(selected - fits // 2, 0), count - fits)
    return range(start, start + fits)


def draw_menu(canvas: Canvas, model: ScreenModel, area: pygame.Rect) -> None:
    menu = model.menu
    assert menu is not None
    unit = canvas.unit
    body = overlay_frame(canvas, area, menu.title, model.state.round_label, MENU)
    fits = max(int(body.height // (unit * SMALLEST)), 1)
    shown = window(len(menu.items), menu.selected, fits)
    height = min(body.height / max(len(shown), 1), unit * ITEM)
    width = min(body.width - round(unit * 10), round(unit * 110))   # room for the marks
    left = body.left + (body.width - width) // 2
    for row_number, index in enumerate(shown):
        row = pygame.Rect(left, round(body.top + row_number * height), width, round(height))
        box = row.inflate(0, -round(height * 0.14))
        selected = index == menu.selected
        canvas.box(box, theme.GOLD if selected else theme.PANEL,
                   "menu.selected" if selected else "", unit)
        canvas.text(inset(box, unit), menu.items[index], box.height * 0.6,
                    theme.DARK if selected else theme.TEXT, name=f"menu.item{index}")
        if row_number == 0 and index > 0:
            _mark(canvas, box, up=True)
        if row_number == len(shown) - 1 and index < len(menu.items) - 1:
            _mark(canvas, box, up=False)


def _mark(canvas: Canvas, box: pygame.Rect, up: bool) -> None:
    """A triangle beside ``box``: more items that way."""
    size = box.height * 0.3
    x, y = box.right + canvas.unit * 3, box.centery
    tip, base = (y - size, y + size / 2) if up else (y + size, y - size / 2)
    points = [(x, tip), (x - size, base), (x + size, base)]
    rect = pygame.draw.polygon(canvas.surface, theme.MUTED, points)
    canvas.record("shape", "menu.more_above" if up else "menu.more_below", rect)
