"""One winner's details: the hand with the winning tile set apart and the melds, the yaku
with their han (the dora and ura dora indicators as tiles beside theirs), the fu breakdown,
the limit and han/fu.

Names (``winN`` for the N-th winner): ``winN.header``, ``winN.value``, ``winN.tiles`` (the
whole row), ``winN.tileK``, ``winN.win_tile``, ``winN.yakuK``/``winN.hanK`` (and
``winN.indicatorK``/``winN.indicator_hanK`` with ``winN.indicatorK.tileJ``, the dora and
ura dora lines, and with three players the kita line: the Norths set aside as tiles),
``winN.fuK``/``winN.fu_pointsK``; a hand whose han and fu were entered by
hand has ``winN.entered`` (the line saying so) where its tiles would be.

>>> from tablekit.tiles import parse_tiles, Tile
>>> [t.code for t in concealed(tuple(parse_tiles("345m123p")), Tile.from_code("3m"))]
['4m', '5m', '1p', '2p', '3p']
"""

from __future__ import annotations

from collections.abc import Sequence

import pygame

from tablekit.display import theme
from tablekit.display.canvas import Canvas
from tablekit.display.geometry import columns
from tablekit.display.tile_images import ASPECT
from tablekit.game.state import WinResult, player_label
from tablekit.rules.hand import Meld
from tablekit.rules.scoring import HandValue
from tablekit.tiles import Tile

NORTH = Tile.from_code("4z")   # a North set aside (kita), shown on its line

GROUP_GAP = 0.35   # tile heights between the hand, the winning tile and each meld
MIN_TILES = 10.5   # units (hundredths of the screen height): the hand's tiles at the least
MAX_TILES = 13.5   # ... and at the most, leaving room for the yaku
TILE_LINE = 1.6    # a line with indicator tiles, in plain lines' heights
LINE = 6.0         # units: a yaku or fu line's height at the most
ENTERED = "Han and fu entered by hand, not read from tiles"

Groups = list[list[tuple[Tile | None, bool]]]   # tiles (sideways or not) drawn together


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
                   winds: Sequence[int], names: Sequence[str], kita: int = 0) -> None:
    """The winner and the value above the hand's tiles (as large as ``area`` allows, at
    least a tenth of the screen high); below them the yaku, and beside them the dora and
    ura dora indicators with their han (and the winner's ``kita``, Norths set aside) over
    the fu. ``winds`` has a wind per seat (three with three players)."""
    prefix = f"win{index}"
    unit = canvas.unit
    gap = round(unit * 0.8)
    header_h = round(min(max(area.height * 0.15, unit * 5), unit * 6.5))
    tiles_h = round(max(min(area.height * 0.4, unit * MAX_TILES), unit * MIN_TILES))
    header = pygame.Rect(area.left, area.top, area.width, header_h)
    hand = pygame.Rect(area.left, header.bottom + gap, area.width, tiles_h)
    details = pygame.Rect(area.left, hand.bottom + gap, area.width,
                          max(area.bottom - hand.bottom - gap, 0))
    who = seat_label(win.seat, winds, names)
    value = canvas.text(header, value_line(win.value), header.height, theme.GOLD, "right",
                        f"{prefix}.value")
    canvas.text(pygame.Rect(header.left, header.top, value.left - header.left - unit * 2,
                            header.height), who, header.height, theme.TEXT, "left",
                f"{prefix}.header")
    _tiles_row(canvas, hand, win, prefix, len(winds))
    yaku_box, right_box = columns(details, (0.52, 0.48), unit * 6)
    lines = yaku_lines(win, kita)
    indicators = [line for line in lines if line[2]]
    yaku = [line for line in lines if not line[2]]
    fu = [(label, amount, ()) for label, amount in _fu_lines(win.value)]
    if right_box.height < unit * 4 * (TILE_LINE * len(indicators) + len(fu)):
        fu = []   # no room for the breakdown (several winners): the value line has the fu
    right = TILE_LINE * len(indicators) + len(fu)
    height = min(unit * LINE, yaku_box.height / max(len(yaku), 1),
                 right_box.height / max(right, 1))
    _lines(canvas, yaku_box, yaku, height, f"{prefix}.yaku", f"{prefix}.han")
    below = _lines(canvas, right_box, indicators, height, f"{prefix}.indicator",
                   f"{prefix}.indicator_han")
    _lines(canvas, pygame.Rect(right_box.left, below, right_box.width, right_box.bottom - below),
           fu, height, f"{prefix}.fu", f"{prefix}.fu_points")


def seat_label(seat: int, winds: Sequence[int], names: Sequence[str]) -> str:
    """``South (Kaavi)``, or ``South`` without names.

    >>> seat_label(1, (0, 1, 2, 3), ("A", "B", "C", "D")), seat_label(2, (3, 0, 1, 2), ())
    ('South (B)', 'South')
    """
    return player_label(winds[seat], names[seat] if seat < len(names) else "")


Line = tuple[str, str, tuple[Tile, ...]]   # label, amount, the indicators it counts


def yaku_lines(win: WinResult, kita: int = 0) -> list[Line]:
    """The yaku with their han; the dora and ura dora lines carry their indicators (shown
    with 0 han when they give none, so the table can check them). With three players the
    winner's ``kita`` (Norths set aside, each a nuki-dora) get their own line of North
    tiles, their han taken out of the dora the scoring counted them in.

    >>> from tablekit.rules.scoring import YakuItem
    >>> value = HandValue(2, 30, (YakuItem("riichi", 1), YakuItem("dora", 1)), (), "", 480,
    ...                   0, False, False)
    >>> win = WinResult(0, value, 1, None, (), Tile.from_code("5p"), (),
    ...                 (Tile.from_code("4p"),), (Tile.from_code("1z"),))
    >>> [(label, han, [t.code for t in tiles]) for label, han, tiles in yaku_lines(win)]
    [('Riichi', '1 han', []), ('Dora', '1 han', ['4p']), ('Ura Dora', '0 han', ['1z'])]
    >>> value = HandValue(3, 30, (YakuItem("chun", 1), YakuItem("dora", 2)), (), "", 1000,
    ...                   0, False, False)
    >>> win = WinResult(0, value, 1, None, (), Tile.from_code("5p"), (),
    ...                 (Tile.from_code("4p"),))
    >>> [(label, han, [t.code for t in tiles]) for label, han, tiles in yaku_lines(win, 1)]
    [('Chun', '1 han', []), ('Dora', '1 han', ['4p']), ('Kita', '1 han', ['4z'])]
    """
    value = win.value
    indicators = {"dora": win.dora, "ura_dora": win.ura}
    lines = [(y.title, _han_text(y.yakuman, y.han), indicators.get(y.name, ()))
             for y in value.yaku if y.name not in indicators]
    for name, tiles in indicators.items():
        item = next((y for y in value.yaku if y.name == name), None)
        if item is not None or (tiles and not value.yakuman):
            han = (item.han if item else 0) - (kita if name == "dora" else 0)
            lines.append((name.replace("_", " ").title(), f"{han} han", tiles))
    if kita and not value.yakuman:
        lines.append(("Kita", f"{kita} han", (NORTH,) * kita))
    return lines


def _han_text(yakuman: int, han: int) -> str:
    return f"yakuman ×{yakuman}" if yakuman > 1 else "yakuman" if yakuman else f"{han} han"


def _fu_lines(value: HandValue) -> list[tuple[str, str]]:
    if value.yakuman:
        return [("yakuman: fu not counted", "")]
    if not value.fu_items:   # entered by hand: no breakdown
        return [("Entered", f"{value.fu} fu")]
    lines = [(item.reason.capitalize(), f"{item.fu} fu") for item in value.fu_items]
    raw = sum(item.fu for item in value.fu_items)
    return [*lines, ("Total" if raw == value.fu else "Total, rounded up", f"{value.fu} fu")]


def _lines(canvas: Canvas, area: pygame.Rect, lines: list[Line], height: float,
           left_name: str, right_name: str) -> int:
    """Label, indicator tiles and amount per line, ``height`` high (a line with tiles
    taller, for the tiles), the amounts right-aligned; returns the bottom of the last."""
    amount_width = area.width * 0.3
    top = float(area.top)
    for i, (label, amount, tiles) in enumerate(lines):
        row = pygame.Rect(area.left, round(top), area.width,
                          round(height * (TILE_LINE if tiles else 1)))
        top += row.height
        right = canvas.text(pygame.Rect(row.right - amount_width, row.top, amount_width,
                                        row.height), amount, height * 0.8, theme.TEXT, "right",
                            f"{right_name}{i}")
        label_right = (right.left if amount else row.right - amount_width) - canvas.unit * 2
        if tiles:
            label_right = _indicators(canvas, row, label_right, tiles,
                                      f"{left_name}{i}.tile") - canvas.unit * 2
        canvas.text(pygame.Rect(row.left, row.top, label_right - row.left, row.height), label,
                    height * 0.8, theme.TEXT, "left", f"{left_name}{i}")
    return round(top)


def _indicators(canvas: Canvas, row: pygame.Rect, right: float, tiles: tuple[Tile, ...],
                name: str) -> int:
    """Indicator tiles ending at ``right``; returns their left edge."""
    height = max(row.height - 2, 8)
    width = round(height * ASPECT) + 1
    left = round(right) - width * len(tiles)
    for k, tile in enumerate(tiles):
        canvas.tile(tile, (left + k * width, row.top + 1), height, f"{name}{k}")
    return left


def _tiles_row(canvas: Canvas, row: pygame.Rect, win: WinResult, prefix: str,
               players: int) -> None:
    if win.win_tile is None:   # its han and fu entered by hand: no tiles to show
        _entered_row(canvas, row, win, prefix, players)
        return
    hand = concealed(win.hand, win.win_tile)
    groups: Groups = [[(t, False) for t in hand], [(win.win_tile, False)]]
    groups += [_meld_tiles(meld, win.seat, players) for meld in win.melds]
    drawn = _groups(canvas, row, row.left, groups, tile_height(row, groups), prefix, 1)
    canvas.record("shape", f"{prefix}.tiles", drawn[0].unionall(drawn[1:]))


def _entered_row(canvas: Canvas, row: pygame.Rect, win: WinResult, prefix: str,
                 players: int) -> None:
    """A hand whose tiles were not read: :data:`ENTERED` where they would be, its melds
    (the table saw them called) at the right."""
    groups = [_meld_tiles(meld, win.seat, players) for meld in win.melds]
    right = row.right
    if groups:
        half = pygame.Rect(row.centerx, row.top, row.right - row.centerx, row.height)
        height = tile_height(half, groups)
        right = row.right - _groups_width(groups, height)
        _groups(canvas, row, right, groups, height, prefix, None)
    box = pygame.Rect(row.left, row.top, right - row.left - round(canvas.unit * 2), row.height)
    shown = canvas.text(box, ENTERED, min(row.height * 0.45, canvas.unit * 6), theme.MUTED,
                        "left", f"{prefix}.entered")
    canvas.record("shape", f"{prefix}.tiles", shown)


def _groups(canvas: Canvas, row: pygame.Rect, left: int, groups: Groups, height: int,
            prefix: str, framed: int | None) -> list[pygame.Rect]:
    """The groups from ``left`` along the row's bottom, ``height`` high, apart by
    :data:`GROUP_GAP`; the group numbered ``framed`` is the winning tile (named and
    framed so). Returns the tiles' rectangles."""
    x, drawn = left, []
    for number, group in enumerate(groups):
        for tile, sideways in group:
            top = row.bottom - (round(height * ASPECT) if sideways else height)
            name = f"{prefix}.win_tile" if number == framed else f"{prefix}.tile{len(drawn)}"
            rect = canvas.tile(tile, (x, top), height, name, sideways)
            if number == framed:
                canvas.box(rect.inflate(4, 4), theme.WIN_FRAME, "", 3, max(2, height // 20))
            drawn.append(rect)
            x = rect.right + 1
        x += round(height * GROUP_GAP)
    return drawn


def _groups_width(groups: Groups, height: int) -> int:
    """How wide :func:`_groups` draws ``groups`` at ``height``."""
    tiles = sum((height if side else round(height * ASPECT)) + 1
                for group in groups for _, side in group)
    return tiles + round(height * GROUP_GAP) * (len(groups) - 1)


def tile_height(row: pygame.Rect, groups: Groups) -> int:
    """The tile height that fits every group in the row's width (at most the row's height)."""
    per_height = sum(1.0 if side else ASPECT for group in groups for _, side in group)
    per_height += GROUP_GAP * (len(groups) - 1)
    spacing = sum(len(group) for group in groups)
    return max(8, min(row.height, int((row.width - spacing) / per_height)))


def _meld_tiles(meld: Meld, seat: int, players: int = 4) -> list[tuple[Tile | None, bool]]:
    """A meld as the table shows it: the called tile sideways on the side of the seat it
    came from (left, across or right; three players have no one across); a closed kan
    with its ends face down.

    >>> from tablekit.rules.hand import Meld
    >>> pon = Meld("pon", tuple(Tile.from_code(c) for c in ("5z", "5z", "5z")), from_seat=0,
    ...            called=Tile.from_code("5z"))
    >>> [side for _, side in _meld_tiles(pon, 1, 3)], [side for _, side in _meld_tiles(pon, 2, 3)]
    ([True, False, False], [False, False, True])
    """
    tiles = list(meld.tiles)
    if meld.kind == "ankan":
        return [(None, False), (tiles[1], False), (tiles[2], False), (None, False)]
    if meld.called is None or meld.from_seat is None:
        return [(t, False) for t in tiles]
    if meld.called in tiles:
        tiles.remove(meld.called)
    offset = (meld.from_seat - seat) % players
    left = players - 1
    position = {left: 0, 1: len(tiles)}.get(offset, 1)
    out: list[tuple[Tile | None, bool]] = [(t, False) for t in tiles]
    out.insert(position, (meld.called, True))
    return out
