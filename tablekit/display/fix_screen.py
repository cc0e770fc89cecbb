"""The FIX_TILES screen: a misread win's tiles, one row per winner (the winning tile set
apart), a row of dora indicators and one of ura indicators, the slot under the cursor
framed, and which button does what. A tile the camera never saw shows face down until it is set.

Names: ``fix.rowN`` (the row's label), ``fix.tileK`` (slot K counted over all rows, as
the cursor counts), ``fix.cursor`` (the frame), ``fix.current`` (the line naming the
slot under the cursor).

>>> import pygame
>>> from tablekit.game.state import TableState
>>> from tablekit.tiles import parse_tiles
>>> from tablekit.display.render import render
>>> view = TileFixView(((1, (*parse_tiles("234567m234p6789s"), None)),), cursor=13)
>>> model = ScreenModel(TableState.new(), Mode.FIX_TILES, fix=view)
>>> frame = render(model, pygame.Surface((800, 480)))
>>> frame.text_of("fix.current")
'Tile 14 of 14 (the winning tile): not seen yet'
"""

from __future__ import annotations

import pygame

from tablekit.display import theme
from tablekit.display.canvas import Canvas
from tablekit.display.geometry import rows
from tablekit.display.legend import FIX_TILES
from tablekit.display.model import Mode, ScreenModel, TileFixView  # noqa: F401 (doctest)
from tablekit.display.overlay_frame import overlay_frame
from tablekit.display.win_block import GROUP_GAP, seat_label, tile_height
from tablekit.tiles import Tile


def draw_fix_tiles(canvas: Canvas, model: ScreenModel, area: pygame.Rect) -> None:
    state, fix = model.state, model.fix
    assert fix is not None
    winds = tuple(state.seat_wind(seat) for seat in range(state.players))
    body = overlay_frame(canvas, area, "Fix the tiles", state.round_label, FIX_TILES)
    lines = [(seat_label(seat, winds, state.names), tiles, True) for seat, tiles in fix.hands]
    lines += [(label + "s", tiles, False) for label, tiles in _indicator_rows(fix) if tiles]
    unit = canvas.unit
    current_h = round(unit * 7)
    boxes = rows(pygame.Rect(body.left, body.top, body.width, body.height - current_h),
                 [1] * len(lines), unit * 2)
    parts = [rows(box, (0.3, 0.7), unit) for box in boxes]
    height = min(tile_height(tiles_box, _groups(tiles, winner))
                 for (_, tiles, winner), (_, tiles_box) in zip(lines, parts, strict=True))
    slot = 0
    for number, ((label, tiles, winner), (label_box, tiles_box)) in enumerate(
            zip(lines, parts, strict=True)):
        canvas.text(label_box, label, label_box.height * 0.8, theme.TEXT, "left",
                    f"fix.row{number}")
        _tiles(canvas, tiles_box, tiles, winner, slot, fix.cursor, height)
        slot += len(tiles)
    line = pygame.Rect(body.left, body.bottom - current_h, body.width, current_h)
    canvas.text(line, current_line(fix), line.height * 0.75, theme.GOLD, "left",
                "fix.current")


def current_line(fix: TileFixView) -> str:
    """What the cursor is on, in words.

    >>> hand = (0, (Tile.from_code("3m"),) * 14)
    >>> current_line(TileFixView((hand,), (None,), cursor=2))
    'Tile 3 of 14: 3m'
    >>> current_line(TileFixView((hand,), (None,), cursor=14))
    'Ura dora indicator 1 of 1: not seen yet'
    >>> current_line(TileFixView((hand,), (None,), cursor=14, dora=(Tile.from_code("4z"),)))
    'Dora indicator 1 of 1: 4z'
    """
    index = fix.cursor
    for _, tiles in fix.hands:
        if index < len(tiles):
            what = f"Tile {index + 1} of {len(tiles)}"
            if index == len(tiles) - 1:
                what += " (the winning tile)"
            return f"{what}: {_name(tiles[index])}"
        index -= len(tiles)
    for label, tiles in _indicator_rows(fix):
        if index < len(tiles):
            return f"{label} {index + 1} of {len(tiles)}: {_name(tiles[index])}"
        index -= len(tiles)
    return ""


def _indicator_rows(fix: TileFixView) -> list[tuple[str, tuple[Tile | None, ...]]]:
    return [("Dora indicator", fix.dora), ("Ura dora indicator", fix.ura)]


def _name(tile: Tile | None) -> str:
    return tile.code if tile is not None else "not seen yet"


def _groups(tiles: tuple[Tile | None, ...], winner: bool) -> list[list[tuple[Tile | None, bool]]]:
    """The row as win_block's groups: a winner's winning tile set apart."""
    upright = [(tile, False) for tile in tiles]
    return [upright[:-1], upright[-1:]] if winner and tiles else [upright]


def _tiles(canvas: Canvas, box: pygame.Rect, tiles: tuple[Tile | None, ...], winner: bool,
           first: int, cursor: int, height: int) -> None:
    """One row of slots (a winner's winning tile set apart), the cursor's framed."""
    count = len(tiles)
    x = box.left
    for index, tile in enumerate(tiles):
        if winner and index == count - 1:
            x += round(height * GROUP_GAP)
        rect = canvas.tile(tile, (x, box.top), height, f"fix.tile{first + index}")
        if first + index == cursor:
            canvas.box(rect.inflate(6, 6), theme.WIN_FRAME, "fix.cursor", 3,
                       max(3, height // 14))
        x = rect.right + 1
