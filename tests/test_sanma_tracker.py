"""The tracker for three players: a North laid face up by the hand of the seat whose turn it
is becomes a Kita event (with its draw), never a discard; a meld called later is read
without the Norths set aside beside it."""

from __future__ import annotations

from tablekit.game.events import Draw, GameStarted, HandStarted, Kita
from tablekit.game.reducer import apply
from tablekit.game.state import TableState
from tablekit.rules.presets import TENHOU, TENHOU_SANMA, with_options
from tablekit.rules.reading import TileRead
from tablekit.tiles import Tile, parse_tiles
from tablekit.tracking.kita_watch import kita_events, without_kita
from tablekit.tracking.tracker import Tracker


class Rows:
    """A steady view that shows the given meld rows."""

    def __init__(self, rows: dict[int, str]) -> None:
        self.rows = rows

    def meld_row(self, seat: int) -> list[TileRead] | None:
        return [TileRead.sure(t) for t in parse_tiles(self.rows.get(seat, ""))]


def dealt(rules=TENHOU_SANMA) -> TableState:
    state = apply(apply(TableState.new(), GameStarted(rules)), HandStarted(Tile.from_code("1p")))
    assert state.turn == 0 and state.to_draw
    return state


def test_a_north_by_the_hand_of_the_seat_to_draw_is_its_draw_and_a_kita():
    state = dealt()
    assert kita_events(Rows({0: "4z"}), state) == [Draw(0, rinshan=False), Kita(0)]
    after = apply(apply(state, Draw(0, Tile.from_code("4z"))), Kita(0))
    assert after.seats[0].kita == 1 and after.to_draw and after.kan_draw
    assert kita_events(Rows({0: "4z"}), after) == []  # counted: no second kita
    assert kita_events(Rows({0: "44z"}), apply(after, Draw(0, Tile.from_code("4z"),
                                                           rinshan=True))) == [Kita(0)]


def test_no_kita_for_another_seat_four_players_or_north_as_yakuhai():
    assert kita_events(Rows({1: "4z"}), dealt()) == []
    assert kita_events(Rows({0: "4z"}), dealt(TENHOU)) == []
    assert kita_events(Rows({0: "4z"}), dealt(with_options(TENHOU_SANMA, north="yakuhai"))) == []


def test_the_norths_set_aside_are_not_read_as_a_new_meld():
    reads = [TileRead.sure(t) for t in parse_tiles("44z555p")]
    assert [r.best[0].code for r in without_kita(reads, 2)] == ["5p", "5p", "5p"]
    assert [r.best[0].code for r in without_kita(reads, 1)] == ["4z", "5p", "5p", "5p"]


def test_the_tracker_follows_three_seats_only():
    state = dealt()
    tracker = Tracker(lambda: state)
    assert tracker._kita(state) == []  # nothing steady seen yet: no kita
    assert not tracker.behind()  # three ponds asked about, no fourth seat
    assert tracker.melds.events(state) == [] and tracker.votes.corrections(state) == []
