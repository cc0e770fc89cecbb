"""One winner's details: the hand with the winning tile set apart and the melds, the yaku
with their han, the fu breakdown, the limit and han/fu.

Names (``winN`` for the N-th winner): ``winN.header``, ``winN.value``, ``winN.tiles`` (the
whole row), ``winN.tileK``, ``winN.win_tile``, ``winN.yakuK``/``winN.hanK``,
``winN.fuK``/``winN.fu_pointsK``.

>>> from tablekit.tiles import parse_tiles, Tile
>>> [t.code for t in concealed(tuple(parse_tiles("345m123p")), Tile.from_code("3m"))]
['4m', '5m', '1p', '2p', '3p']
"""

from __future__ import annotations

from collections.abc import Sequence

import pygame

from tablekit.display import theme
from tablekit.display.canvas import Canvas
from tablekit.display.geometry import columns, rows
from tablekit.display.tile_images import ASPECT
from tablekit.game.state import WinResult
from tablekit.rules.hand import Meld
from tablekit.rules.scoring import HandValue
from tablekit.tiles import WIND_NAMES, Tile

GROUP_GAP = 0.35   # tile heights between the hand, the winning tile and each meld


def concealed(hand: tuple[Tile, ...], win_tile: Tile) -> list[Tile]:
    """The hand without (one copy of) the winning tile, in suit order m, p, s, z."""
    tiles = list(hand)
    match = next((i for i, t in enumerate(tiles) if t == win_tile), None)
    if match is None:
        match = next((i for i, t in enumerate(tiles) if t.kind == win_tile.kind), None)
    if match is not None:
        del tiles[match]
    return sorted(tiles, key=lambda t: (t.suit, t.number, t.red))


def value_line(value: HandValue) -> str:
    """``Mangan · 5 han 30 fu``; yakuman hands give only the limit.

    >>> value = HandValue(5, 30, (), (), "mangan", 2000, 0, False, True)
    >>> value_line(value)
    'Mangan · 5 han 30 fu'
    """
    if value.yakuman:
        return value.limit.capitalize()
    limit = f"{value.limit.capitalize()} · " if value.limit else ""
    return f"{limit}{value.han} han {value.fu} fu"


def draw_win_block(canvas: Canvas, area: pygame.Rect, win: WinResult, index: int,
                   winds: Sequence[int], names: Sequence[str]) -> None:
    prefix = f"win{index}"
    unit = canvas.unit
    header_h = min(area.height * 0.16, unit * 6)
    tiles_h = min(area.height * 0.3, unit * 12)
    header, hand, details = rows(area, (header_h, tiles_h, area.height - header_h - tiles_h),
                                 unit * 0.8)
    who = seat_label(win.seat, winds, names)
    value = canvas.text(header, value_line(win.value), header.height, theme.GOLD, "right",
                        f"{prefix}.value")
    canvas.text(pygame.Rect(header.left, header.top, value.left - header.left - unit * 2,
                            header.height), who, header.height, theme.TEXT, "left",
                f"{prefix}.header")
    _tiles_row(canvas, hand, win, prefix)
    yaku_box, fu_box = columns(details, (0.55, 0.45), unit * 3)
    _lines(canvas, yaku_box, _yaku_lines(win.value), f"{prefix}.yaku", f"{prefix}.han")
    _lines(canvas, fu_box, _fu_lines(win.value), f"{prefix}.fu", f"{prefix}.fu_points")


def seat_label(seat: int, winds: Sequence[int], names: Sequence[str]) -> str:
    """``South (Kaavi)``, or ``South`` without names.

    >>> seat_label(1, (0, 1, 2, 3), ("A", "B", "C", "D")), seat_label(2, (3, 0, 1, 2), ())
    ('South (B)', 'South')
    """
    name = names[seat] if seat < len(names) and names[seat] else ""
    return f"{WIND_NAMES[winds[seat]]} ({name})" if name else WIND_NAMES[winds[seat]]


def _yaku_lines(value: HandValue) -> list[tuple[str, str]]:
    return [(y.title, f"yakuman ×{y.yakuman}" if y.yakuman > 1 else "yakuman" if y.yakuman
             else f"{y.han} han") for y in value.yaku]


def _fu_lines(value: HandValue) -> list[tuple[str, str]]:
    if value.yakuman:
        return [("yakuman: fu not counted", "")]
    lines = [(item.reason.capitalize(), f"{item.fu} fu") for item in value.fu_items]
    raw = sum(item.fu for item in value.fu_items)
    return [*lines, ("Total" if raw == value.fu else "Total, rounded up", f"{value.fu} fu")]


def _lines(canvas: Canvas, area: pygame.Rect, lines: list[tuple[str, str]], left_name: str,
           right_name: str) -> None:
    """Label and amount per line, the amounts right-aligned."""
    if not lines:
        return
    height = min(area.height / len(lines), canvas.unit * 5)
    amount_width = area.width * 0.3
    for i, (label, amount) in enumerate(lines):
        row = pygame.Rect(area.left, round(area.top + i * height), area.width, round(height))
        right = canvas.text(pygame.Rect(row.right - amount_width, row.top, amount_width,
                                        row.height), amount, height * 0.8, theme.TEXT, "right",
                            f"{right_name}{i}")
        label_box = pygame.Rect(row.left, row.top, min(right.left, row.right - amount_width)
                                - row.left - canvas.unit, row.height)
        canvas.text(label_box, label, height * 0.8, theme.TEXT, "left", f"{left_name}{i}")


def _tiles_row(canvas: Canvas, row: pygame.Rect, win: WinResult, prefix: str) -> None:
    hand = concealed(win.hand, win.win_tile)
    groups: list[list[tuple[Tile | None, bool]]] = [[(t, False) for t in hand],
                                                    [(win.win_tile, False)]]
    groups += [_meld_tiles(meld, win.seat) for meld in win.melds]
    height = tile_height(row, groups)
    x, drawn = row.left, []
    for number, group in enumerate(groups):
        for tile, sideways in group:
            top = row.bottom - (round(height * ASPECT) if sideways else height)
            name = f"{prefix}.win_tile" if number == 1 else f"{prefix}.tile{len(drawn)}"
            rect = canvas.tile(tile, (x, top), height, name, sideways)
            if number == 1:
                canvas.box(rect.inflate(4, 4), theme.WIN_FRAME, "", 3, max(2, height // 20))
            drawn.append(rect)
            x = rect.right + 1
        x += round(height * GROUP_GAP)
    canvas.record("shape", f"{prefix}.tiles", drawn[0].unionall(drawn[1:]))


def tile_height(row: pygame.Rect, groups: list[list[tuple[Tile | None, bool]]]) -> int:
    """The tile height that fits every group in the row's width (at most the row's height)."""
    per_height = sum(1.0 if side else ASPECT for group in groups for _, side in group)
    per_height += GROUP_GAP * (len(groups) - 1)
    spacing = sum(len(group) for group in groups)
    return max(8, min(row.height, int((row.width - spacing) / per_height)))


def _meld_tiles(meld: Meld, seat: int) -> list[tuple[Tile | None, bool]]:
    """A meld as the table shows it: the called tile sideways on the side of the seat it
    came from; a closed kan with its ends face down."""
    tiles = list(meld.tiles)
    if meld.kind == "ankan":
        return [(None, False), (tiles[1], False), (tiles[2], False), (None, False)]
    if meld.called is None or meld.from_seat is None:
        return [(t, False) for t in tiles]
    if meld.called in tiles:
        tiles.remove(meld.called)
    position = {3: 0, 2: 1, 1: len(tiles)}.get((meld.from_seat - seat) % 4, 0)
    out: list[tuple[Tile | None, bool]] = [(t, False) for t in tiles]
    out.insert(position, (meld.called, True))
    return out
