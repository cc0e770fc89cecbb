"""What lies on a real table at one moment of a recorded hand.

The engine's :class:`~tablekit.game.state.TableState` knows ponds, melds, dora and
the wall count; a camera also sees what the engine does not track: every player's
concealed tiles (dealt hands plus draws, minus discards, calls and Norths set aside), the
tile just drawn, where the wall was broken (the dice) and, at the end, the revealed hands.
A three-player (sanma) game has three hands; each seat's kita (its Norths set aside) are
in its :class:`~tablekit.game.state.SeatState`.

>>> from tablekit.formats.tenhou import import_file
>>> game = import_file(DEMO_GAME)
>>> view = table_view(game, hand=1, turn=1)
>>> [len(h) for h in view.concealed], view.drawn, view.live_taken
([13, 13, 13, 13], (None, None, None, None), 52)
>>> end = table_view(game, hand=1, turn=len(game.hands[1].events))
>>> end.won is not None, end.state.seats[1].riichi
(True, True)
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from tablekit.errors import TablekitError
from tablekit.files.resources import packaged
from tablekit.formats.tenhou import ImportedGame, ImportedHand
from tablekit.game.events import Call, Discard, Draw, Event, ExhaustiveDraw, Kita, Won
from tablekit.game.reducer import apply
from tablekit.game.state import NORTH, TableState
from tablekit.tiles import Tile

DEALT = 52  # four hands of 13; three players are dealt 39
HAND = 13
DEMO_GAME = packaged("data", "tenhou-python-bot-28.xml")
"""A real game to play when none is named (shipped with tablekit)."""


class NoSuchMoment(TablekitError, ValueError):
    """A hand or turn that the game does not have."""


@dataclass(frozen=True)
class TableView:
    """Everything the simulated camera may show at one moment of one hand."""

    state: TableState
    concealed: tuple[tuple[Tile, ...], ...]
    """Each seat's concealed tiles, sorted, without the tile just drawn."""
    drawn: tuple[Tile | None, ...]
    """The tile each seat holds apart after drawing (None when it has not just drawn)."""
    dice: int
    """The dice total (2-12) that placed the break in the wall."""
    dealer: int
    live_taken: int
    """Tiles taken from the head of the live wall (the deal plus ordinary draws)."""
    rinshan_taken: int
    """Replacement tiles taken from the dead wall after kans."""
    added: tuple[tuple[Tile, ...], ...]
    """Per seat, the tile added to each pon that became an added kan."""
    won: Won | None = None
    exhaustive: ExhaustiveDraw | None = None

    @property
    def tenpai_shown(self) -> tuple[int, ...]:
        """Seats laying their hand face up at an exhaustive draw."""
        return self.exhaustive.tenpai if self.exhaustive else ()


def hand_start_states(game: ImportedGame) -> list[TableState]:
    """The table state just before each hand's deal (the game replayed once)."""
    state = apply(TableState.new(game.rules), game.start)
    starts = []
    for hand in game.hands:
        starts.append(state)
        for event in hand.events:
            state = apply(state, event)
    return starts


def table_view(game: ImportedGame, hand: int, turn: int,
               start: TableState | None = None) -> TableView:
    """The table of hand ``hand`` (0-based) after its first ``turn`` events (1 = the deal;
    ``len(events)`` = the result). ``start`` is the state before the deal, when known."""
    if not 0 <= hand < len(game.hands):
        raise NoSuchMoment(f"hand {hand}: the game has hands 0..{len(game.hands) - 1}")
    imported = game.hands[hand]
    if not 1 <= turn <= len(imported.events):
        raise NoSuchMoment(f"turn {turn}: hand {hand} has turns 1..{len(imported.events)}")
    state = start if start is not None else hand_start_states(game)[hand]
    for event in imported.events[:turn]:
        state = apply(state, event)
    return view_at(imported, state, turn)


def view_at(imported: ImportedHand, state: TableState, turn: int) -> TableView:
    """The view of ``imported`` after ``turn`` events, ``state`` being the table then."""
    events = imported.events[:turn]
    hands, drawn, added = follow_concealed(imported, events)
    draws = [e for e in events if isinstance(e, Draw)]
    rinshan = sum(1 for e in draws if e.rinshan)
    last = events[-1]
    concealed = tuple(tuple(sorted(_without(h, d), key=_order)) for h, d in zip(hands, drawn,
                                                                               strict=True))
    return TableView(
        state=state, concealed=concealed, drawn=tuple(drawn),
        dice=sum(imported.init.dice) + 2, dealer=imported.init.dealer,
        live_taken=HAND * len(hands) + len(draws) - rinshan, rinshan_taken=rinshan,
        added=tuple(tuple(a) for a in added),
        won=last if isinstance(last, Won) else None,
        exhaustive=last if isinstance(last, ExhaustiveDraw) else None)


def follow_concealed(imported: ImportedHand, events: Iterable[Event]
                     ) -> tuple[list[list[Tile]], list[Tile | None], list[list[Tile]]]:
    """Each seat's concealed tiles (the drawn tile included), its drawn tile, and the
    tiles it added to pons, after ``events`` (a seat for each dealt hand: three for sanma)."""
    hands = [[Tile.from_136(t) for t in dealt] for dealt in imported.init.hands]
    drawn: list[Tile | None] = [None] * len(hands)
    added: list[list[Tile]] = [[] for _ in hands]
    for event in events:
        if isinstance(event, Draw) and event.tile is not None:
            hands[event.seat].append(event.tile)
            drawn[event.seat] = event.tile
        elif isinstance(event, Discard):
            _take(hands[event.seat], [event.tile], event)
            drawn[event.seat] = None
        elif isinstance(event, Kita):
            north = next((t for t in hands[event.seat] if t.kind == NORTH), Tile(NORTH))
            _take(hands[event.seat], [north], event)
            drawn[event.seat] = None
        elif isinstance(event, Call):
            _take(hands[event.seat], _from_hand(event), event)
            drawn[event.seat] = None
            if event.kind == "shouminkan" and event.called is not None:
                added[event.seat].append(event.called)
    return hands, drawn, added


def _from_hand(call: Call) -> list[Tile]:
    """The tiles a call takes out of the caller's concealed hand."""
    if call.kind == "ankan":
        return list(call.tiles)
    if call.kind == "shouminkan":
        return [call.called] if call.called is not None else [call.tiles[-1]]
    rest = list(call.tiles)
    if call.called in rest:
        rest.remove(call.called)
    return rest


def _take(hand: list[Tile], tiles: list[Tile], event: Event) -> None:
    for tile in tiles:
        if tile not in hand:
            raise NoSuchMoment(f"{event}: seat does not hold {tile} (holds "
                               f"{''.join(t.code for t in hand)})")
        hand.remove(tile)


def _without(hand: list[Tile], tile: Tile | None) -> list[Tile]:
    rest = list(hand)
    if tile is not None and tile in rest:
        rest.remove(tile)
    return rest


def _order(tile: Tile) -> tuple[int, bool]:
    return (tile.kind, tile.red)
