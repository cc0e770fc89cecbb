"""The tracker for three players: a North laid face up by the hand of the seat whose turn it
is becomes a Kita event (with its draw), never a discard; a meld called later is read
without the Norths set aside beside it."""

from __future__ import annotations

import pytest
from conftest import FIXTURES

from tablekit.formats.tenhou import import_file
from tablekit.game.events import (
    Call,
    Discard,
    DoraRevealed,
    Draw,
    GameStarted,
    HandStarted,
    Kita,
    RiichiDeclared,
)
from tablekit.game.reducer import apply
from tablekit.game.state import TableState
from tablekit.io.presses import ButtonName
from tablekit.rules.presets import TENHOU, TENHOU_SANMA, with_options
from tablekit.rules.reading import TileRead
from tablekit.sim.perfect_reading import PerfectReader
from tablekit.sim.script import Script
from tablekit.sim.source import SimulatedCamera
from tablekit.sim.table import hand_start_states
from tablekit.tiles import Tile, parse_tiles, to_mpsz
from tablekit.tracking.kita_watch import kita_events, without_kita
from tablekit.tracking.tracker import Tracker

GAME = FIXTURES / "mjlog" / "sanma-2022010814gm-00b9-0000-c378f5c4.xml"


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
    tracker = Tracker()
    assert tracker._kita(state) == []  # nothing steady seen yet: no kita
    assert not tracker.behind(state)  # three ponds asked about, no fourth seat
    assert tracker.melds.events(state) == [] and tracker.votes.corrections(state) == []


@pytest.mark.slow
def test_a_sanma_hand_on_the_simulated_table_is_tracked_kita_and_all():
    # the camera's side of a whole hand (no flow: the deal and riichi are applied as the
    # flow would, a riichi with its discard): every draw, discard, call, kita and dora the
    # tracker reads from the truth of the rendered frames is the record's
    game = import_file(GAME, three_players=True)
    script = Script.from_game(game)
    camera = SimulatedCamera(script, seed=3, size=(640, 360), fps=4.0, clean=True, arms=False)
    reader, record = PerfectReader(), list(game.hands[0].events)
    box = {"state": hand_start_states(game)[0]}
    tracker = Tracker()
    got: list = []
    flow, riichi, last = 0, set(), max(i for i, m in enumerate(script.moments) if m.hand == 0)
    while (frame := camera.read()) is not None and script.index_at(frame.timestamp) <= last:
        for press in script.presses_between(frame.timestamp - 0.25, frame.timestamp + 1e-9):
            if press.name == ButtonName.CALL and press.seat is not None:
                tracker.expect_call(box["state"], press.seat)
        for event in record[flow:frame.moment.turn]:
            if isinstance(event, HandStarted):
                got.append(event)
                box["state"] = apply(box["state"], event)
            elif isinstance(event, RiichiDeclared):
                riichi.add(event.seat)
        flow = max(flow, frame.moment.turn)
        if box["state"].result is not None:
            break
        for event in tracker.update(reader.read(frame.truth, frame.timestamp), box["state"]):
            if isinstance(event, Discard) and event.seat in riichi:
                riichi.discard(event.seat)
                got.append(RiichiDeclared(event.seat))
                box["state"] = apply(box["state"], got[-1])
            got.append(event)
            box["state"] = apply(box["state"], event)
    camera_events = (HandStarted, RiichiDeclared, Draw, Discard, Call, Kita, DoraRevealed)
    assert [_plain(e) for e in got] == [_plain(e) for e in record
                                        if isinstance(e, camera_events)]
    assert sum(isinstance(e, Kita) for e in got) == 2


def _plain(event):
    """What a camera can tell: no drawn tile, no tsumogiri."""
    if isinstance(event, Discard):
        return Discard(event.seat, event.tile)
    return Draw(event.seat, None, event.rinshan) if isinstance(event, Draw) else event


def test_the_norths_of_a_hand_laid_open_are_not_kita():
    """A winner laying the hand open by the meld row (a ron on the discard just made) shows
    Norths among other tiles: no kita (game 4 of the sanma figure stuck on two)."""
    assert kita_events(Rows({0: "789s44z111z"}), dealt()) == []
    assert kita_events(Rows({0: "4z5p"}), dealt()) == []


def _won_with_kita(kita: int) -> TableState:
    """South (seat 1) with ``kita`` Norths set aside, on East's 6p discard."""
    from dataclasses import replace

    state = dealt()
    seats = list(state.seats)
    seats[1] = replace(seats[1], kita=kita)
    return replace(state, seats=tuple(seats), last_discard=(0, Tile.from_code("6p")))


@pytest.mark.parametrize("north_at", [340.0, 140.0])
def test_the_norths_set_aside_are_no_tiles_of_a_revealed_hand(north_at):
    """A winner's kita lie in its row beside the hand (far apart on the simulated table, or
    close by): they are no tiles of the hand, even where a hand tile was seen in fewer
    frames than they were (sanma figure, game 1 hand 0: the 8p was left out for a North,
    the North taken as the ron tile, and the hand scored haneman, not mangan)."""
    from tablekit.vision.table_reading import SeenTile

    hand = parse_tiles("2205578p456s777z6p")
    places = [-258.0 + 27 * i for i in range(13)] + [101.0]
    norths = [north_at, north_at + 28]

    def tile(x: float, t: Tile) -> tuple[float, SeenTile]:
        return x, SeenTile((x, 0.0), 0.0, True, ((t, 0.95),))

    def frame(skip: set[int]) -> list:
        row = [tile(x, t) for i, (x, t) in enumerate(zip(places, hand, strict=True))
               if i not in skip]
        return [None, row + [tile(x, Tile.from_code("4z")) for x in norths], None]

    state = _won_with_kita(2)
    tracker = Tracker()
    for at, skip in enumerate(({6}, set(), set(), set())):  # the 8p missed in one frame
        tracker.revealed.rows.append((at / 4, frame(skip)))
    reading = tracker.read_win(state, (1,), 0)
    assert [to_mpsz(w.hand) for w in reading.winners] == ["2205578p456s777z6p"]
    assert reading.doubts == () and reading.unseen == 0


def test_a_sanma_revealed_hand_or_ura_indicator_holds_no_2m_to_8m():
    """A face the camera takes most likely for a 5m is the 5s it was also read as: a
    three-player set has no 2m-8m (a four-player table keeps the 5m)."""
    from tablekit.tracking.hand_reading import read_indicators, read_revealed, visible_counts

    unsure = TileRead(((Tile.from_code("5m"), 0.6), (Tile.from_code("5s"), 0.4)))
    reads = [*(TileRead.sure(t) for t in parse_tiles("111p999p123s789s")), unsure, unsure]
    hand, _ = read_revealed(dealt(), 1, reads, None)
    assert hand is not None and to_mpsz(hand.hand) == "111999p12378955s"
    four, _ = read_revealed(dealt(TENHOU), 1, reads, None)
    assert four is not None and to_mpsz(four.hand) == "111999p123789s55m"
    ura, _ = read_indicators([unsure], visible_counts(dealt(), False), "ura dora")
    assert to_mpsz(ura) == "5s"
