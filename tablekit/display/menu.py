"""The menu (held UNDO): its title and items, the selected one highlighted, and how to move
between them and pick one. A menu longer than the screen holds shows a window of items
around the selected one, with a mark where more are above or below.

Names: ``menu.itemN`` (the texts, N counted over the whole menu), ``menu.selected`` (the
highlight), ``menu.more_above`` and ``menu.more_below`` (the marks); with phones as the seat
buttons, each seat's address as a QR code beside the items, ``menu.phone.east`` ... with its
wind under it as ``menu.phone.east.label``.

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
    if model.phones:  # the seats' addresses beside the items: a phone's camera opens them
        codes = pygame.Rect(body.left, body.top, round(body.width * 0.45), body.height)
        draw_codes(canvas, codes, model.phones)
        body = pygame.Rect(codes.right, body.top, body.width - codes.width, body.height)
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


def qr_modules(text: str) -> tuple[tuple[bool, ...], ...]:
    """The dark modules of ``text``'s QR code (segno; error correction M), row by row.

    >>> rows = qr_modules("http://192.168.1.20:8080/seat/east/" + "k" * 22)
    >>> len(rows), len(rows) == len(rows[0])
    (33, True)
    """
    import segno  # pure Python: only the menu with phones needs it

    code = segno.make_qr(text, error="m", boost_error=False)
    return tuple(tuple(bool(cell) for cell in row) for row in code.matrix)


def draw_codes(canvas: Canvas, area: pygame.Rect,
               phones: tuple[tuple[str, str], ...]) -> None:
    """Each seat's address as a QR code, two a row, the seat's wind under each."""
    unit = canvas.unit
    columns = 2
    rows = (len(phones) + columns - 1) // columns
    cell_w, cell_h = area.width / columns, area.height / max(rows, 1)
    for index, (wind, address) in enumerate(phones):
        cell = pygame.Rect(round(area.left + index % columns * cell_w),
                           round(area.top + index // columns * cell_h),
                           round(cell_w), round(cell_h)).inflate(-round(unit), -round(unit))
        label = pygame.Rect(cell.left, cell.bottom - round(unit * 5), cell.width, round(unit * 5))
        modules = qr_modules(address)
        quiet = 2  # modules of light margin (a screen's dark frame around it does the rest)
        span = len(modules) + 2 * quiet
        size = max(min(cell.width, cell.height - label.height) // span, 1)
        side = size * span
        square = pygame.Rect(cell.centerx - side // 2, cell.top, side, side)
        canvas.box(square, theme.STICK, f"menu.phone.{wind.lower()}")
        for y, row in enumerate(modules):
            for x, dark in enumerate(row):
                if dark:
                    pygame.draw.rect(canvas.surface, theme.DARK, pygame.Rect(
                        square.left + (x + quiet) * size, square.top + (y + quiet) * size,
                        size, size))
        canvas.text(label, wind, label.height * 0.8, theme.TEXT,
                    name=f"menu.phone.{wind.lower()}.label")
