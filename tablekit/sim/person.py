"""A simulated person putting a win's tiles right with the buttons, as someone who sees
the table would when the app cannot score a revealed hand on its own, or when the win
screen shows tiles other than those on the table (:func:`shown_wrong`: a revealed hand
misread into another valid hand, a dora or ura indicator misread): CALL opens the
tiles (:mod:`tablekit.flow.tile_fix`), RIICHI steps to each wrong one, CALL and WIN turn it
into the tile that lies there, OK scores the hand. Presses come one at a time, each
chosen from what the app's screen (its :class:`~tablekit.display.model.ScreenModel`)
shows after the last: the person knows the table, never the app's insides.

>>> from tablekit.tiles import Tile
>>> [(p.name.value, p.long) for p in kind_presses(Tile.from_code("2m"), Tile.from_code("1m"))]
[('call', True)]
>>> [p.name.value for p in kind_presses(Tile.from_code("3m"), Tile.from_code("3s"))]
['win', 'win']
>>> [p.name.value for p in kind_presses(None, Tile.from_code("5z"))]   # 5m, then suits
['call', 'call', 'call', 'call', 'call', 'win', 'win', 'win']
"""

from __future__ import annotations

import heapq
from collections import Counter
from collections.abc import Iterator, Sequence
from typing import Protocol

from tablekit.display.model import Mode, ScreenModel, TileFixView
from tablekit.flow import FU_STEPS, HAN_STEPS
from tablekit.flow.tile_fix import TileFix
from tablekit.game.events import Won
from tablekit.io.presses import ButtonName, ButtonPress
from tablekit.rules.scoring import HandValue
from tablekit.tiles import Tile

MOVES = ((ButtonName.CALL, False, 1), (ButtonName.CALL, True, 3), (ButtonName.WIN, False, 1))
"""Each way to change a tile: the button, held or not, and its cost (a held press is slow)."""


class Shows(Protocol):
    """What the person looks at: the app's screen."""

    def screen(self) -> ScreenModel: ...


def put_right(table: Shows, truth: Won, seat: int, values: dict[int, HandValue] | None = None,
              dora: Sequence[Tile] = ()) -> Iterator[ButtonPress]:
    """The presses (made by ``seat``'s player) that turn the win waiting on screen into
    ``truth`` (and the dora indicators into ``dora``, the true ones). When the table's
    shape differs from it (a meld taken wrongly: tiles alone cannot fix that), UNDO, then
    the winner's han and fu from ``values`` (by seat)."""
    yield ButtonPress(ButtonName.CALL, seat)
    shown = table.screen()
    fix = shown.fix if shown.mode is Mode.FIX_TILES else None
    targets = fix_targets(fix, truth, dora) if fix else None
    if fix is None or targets is None:
        yield ButtonPress(ButtonName.UNDO)
        value = (values or {}).get(seat)
        if value is not None and len(truth.winners) == 1:
            yield from enter_value(value, seat)
        return
    for index, target in enumerate(targets):
        now = table.screen().fix or fix   # as the screen shows it after the last press
        if slots(now)[index] == target:
            continue
        for _ in range((index - now.cursor) % len(targets)):
            yield ButtonPress(ButtonName.RIICHI, seat)
        for press in kind_presses(slots(now)[index], target):
            yield ButtonPress(press.name, seat, press.long)
    yield ButtonPress(ButtonName.OK)


def shown_wrong(screen: ScreenModel, truth: Won, dora: Sequence[Tile] = ()) -> bool:
    """Whether the win waiting for OK on ``screen`` shows tiles other than those on the
    table: a winner (seat, revealed hand or winning tile) not as in ``truth``, a dora
    indicator not as in ``dora`` (the true ones, in order), an ura indicator not as in
    ``truth`` (or none shown for a riichi winner's). Only a win read by the camera (its
    tiles shown, CALL puts them right) is looked at; a value entered by hand is not.

    >>> from tablekit.display.model import WinPreview
    >>> from tablekit.game.events import WinnerHand
    >>> from tablekit.game.state import TableState, WinResult
    >>> from tablekit.tiles import parse_tiles
    >>> hand = tuple(parse_tiles("123m456p789s11222z"))
    >>> def screen(shown, ura=()):
    ...     win = WinResult(0, None, None, None, shown, shown[-1], (), (Tile(1),), ura)
    ...     return ScreenModel(TableState.new(), Mode.WIN_CONFIRM,
    ...                        preview=WinPreview((win,), (), fixable=True))
    >>> truth = Won((WinnerHand(0, hand, hand[-1]),))
    >>> shown_wrong(screen(hand), truth, [Tile(1)])
    False
    >>> shown_wrong(screen((*parse_tiles("234m"), *hand[3:])), truth)   # 1m read as 4m
    True
    >>> shown_wrong(screen(hand), truth, [Tile(2)])                     # dora 3m, not 2m
    True
    >>> shown_wrong(screen(hand, (Tile(3),)), truth)                    # no ura on the table
    True
    """
    preview = screen.preview
    if screen.mode is not Mode.WIN_CONFIRM or preview is None or not preview.fixable or (
            preview.entering):
        return False
    truths = {winner.seat: winner for winner in truth.winners}
    if sorted(truths) != sorted(win.seat for win in preview.wins):
        return True
    for win in preview.wins:
        winner = truths[win.seat]
        if not win.hand:
            continue   # its value entered by hand: no tiles to compare
        riichi = win.seat < len(screen.state.seats) and screen.state.seats[win.seat].riichi
        if (sorted(win.hand) != sorted(winner.hand) or win.win_tile != winner.win_tile
                or tuple(win.dora) != tuple(dora[: len(win.dora)])
                or tuple(win.ura) != tuple(truth.ura[: len(win.ura)])
                or (riichi and truth.ura and not win.ura)):
            return True
    return False


def payer_wrong(screen: ScreenModel, truth: Won) -> bool:
    """Whether the ron waiting for OK on ``screen`` has a payer other than the seat that
    dealt in (``truth``'s): the camera misread who discarded. Not while values are
    entered by hand (RIICHI adds a han there).

    >>> from tablekit.display.model import WinPreview
    >>> from tablekit.game.events import WinnerHand
    >>> from tablekit.game.state import TableState, WinResult
    >>> def screen(payer):
    ...     win = WinResult(2, None, payer, None, (), None, ())
    ...     return ScreenModel(TableState.new(), Mode.WIN_CONFIRM,
    ...                        preview=WinPreview((win,), ()))
    >>> truth = Won((WinnerHand(2, (), None),), from_seat=3)
    >>> payer_wrong(screen(0), truth), payer_wrong(screen(3), truth)
    (True, False)
    """
    preview = screen.preview
    if screen.mode is not Mode.WIN_CONFIRM or preview is None or truth.from_seat is None or (
            preview.entering):
        return False
    return any(win.from_seat != truth.from_seat for win in preview.wins)


def slots(fix: TileFixView) -> list[Tile | None]:
    """The slots the cursor steps through, as the screen shows them: each winner's tiles,
    the dora indicators, the ura indicators."""
    return [*(tile for _, hand in fix.hands for tile in hand), *fix.dora, *fix.ura]


def enter_value(value: HandValue, seat: int) -> Iterator[ButtonPress]:
    """Held CALL, then RIICHI up to the han (or yakuman) and CALL to the fu from the
    entry's 1 han 30 fu, then OK (the fu only where it counts, below 5 han).

    >>> from tablekit.rules.scoring import HandValue
    >>> value = HandValue(3, 40, (), (), "", 0, 0, False, False)
    >>> [(p.name.value, p.long) for p in enter_value(value, 2)][:4]
    [('call', True), ('riichi', False), ('riichi', False), ('call', False)]
    """
    yield ButtonPress(ButtonName.CALL, seat, long=True)
    han_step = min(12 + value.yakuman, len(HAN_STEPS) - 1) if value.yakuman else min(
        value.han, 13) - 1
    fu_step = FU_STEPS.index(value.fu) if value.han < 5 and value.fu in FU_STEPS else 0
    yield from [ButtonPress(ButtonName.RIICHI, seat)] * han_step
    yield from [ButtonPress(ButtonName.CALL, seat)] * fu_step
    yield ButtonPress(ButtonName.OK)


def fix_targets(fix: TileFixView, truth: Won, dora: Sequence[Tile] = ()
                ) -> list[Tile | None] | None:
    """The tile each slot should show: a winner's tiles already right stay where they
    are, the others take the rest of the true hand, the winning tile last; then the true
    dora indicators (``dora``; those not given stay as shown) and the true ura indicators.
    None when a winner is not in ``truth`` or holds another count.

    >>> from tablekit.game.events import WinnerHand
    >>> from tablekit.tiles import parse_tiles, to_mpsz
    >>> hand = tuple(parse_tiles("123m456p789s11222z"))
    >>> seen = (*parse_tiles("123m456p789s132z"), None, Tile(28))   # 3z misread, one unseen
    >>> won = Won((WinnerHand(0, hand, Tile(28)),))
    >>> to_mpsz(fix_targets(TileFix.start([(0, seen)], []).view(), won))
    '123m456p789s11222z'
    >>> fix = TileFix.start([(0, hand)], [None], [Tile(1)]).view()   # dora indicator 2m
    >>> won = Won((WinnerHand(0, hand, Tile(28)),), ura=(Tile(8),))
    >>> to_mpsz(fix_targets(fix, won, [Tile(2)])[-2:])            # 3m really, ura 9m
    '39m'
    """
    truths = {winner.seat: winner for winner in truth.winners}
    targets: list[Tile | None] = []
    for seat, row in fix.hands:
        winner = truths.get(seat)
        if winner is None or winner.win_tile is None or len(winner.hand) != len(row):
            return None
        rest = Counter(winner.hand)
        rest[winner.win_tile] -= 1
        kept: list[Tile | None] = []
        for tile in row[:-1]:
            right = tile is not None and rest[tile] > 0
            kept.append(tile if right else None)
            rest[tile] -= right
        spare = iter(sorted(rest.elements()))
        targets += [tile if tile is not None else next(spare) for tile in kept]
        targets.append(winner.win_tile)
    shown = fix.dora
    return [*targets, *dora[: len(shown)], *shown[len(dora):], *truth.ura[: len(fix.ura)]]


def kind_presses(start: Tile | None, target: Tile) -> list[ButtonPress]:
    """The quickest presses that turn the framed tile from ``start`` into ``target``."""
    costs: dict[Tile | None, int] = {start: 0}
    paths: dict[Tile | None, list[ButtonPress]] = {start: []}
    queue: list[tuple[int, int, Tile | None]] = [(0, 0, start)]
    order = 0
    while queue:
        cost, _, tile = heapq.heappop(queue)
        if tile == target:
            return paths[tile]
        for name, long, step in MOVES:
            after = _after(tile, name, long)
            if after not in costs or cost + step < costs[after]:
                order += 1
                costs[after], paths[after] = cost + step, [*paths[tile], ButtonPress(name,
                                                                                    long=long)]
                heapq.heappush(queue, (cost + step, order, after))
    raise ValueError(f"no presses make {target}")


def _after(tile: Tile | None, name: ButtonName, long: bool) -> Tile | None:
    scratch = TileFix((0,), ((tile,),))
    scratch = scratch.suit() if name is ButtonName.WIN else scratch.turn(-1 if long else 1)
    return scratch.hands[0][0]
