"""The reducer under random sequences of events (Hypothesis): legal moves made from the table,
random events of every type, undo and redo. A refused event raises BadEvent naming it and
changes nothing; after an accepted one every invariant holds; every journal round-trips."""

import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import Phase as Stage
from hypothesis import strategies as st

from tablekit.game.events import (
    AbortiveDraw,
    BadEvent,
    Call,
    Chombo,
    Discard,
    DiscardCorrected,
    DoraCorrected,
    DoraRevealed,
    Draw,
    Event,
    ExhaustiveDraw,
    GameEnded,
    GameStarted,
    HandStarted,
    Redo,
    RiichiDeclared,
    Undo,
    WinnerHand,
    Won,
)
from tablekit.game.invariants import broken
from tablekit.game.journal import read_journal
from tablekit.game.reducer import _describe
from tablekit.game.session import Session
from tablekit.game.state import Phase, TableState
from tablekit.rules.presets import PRESETS
from tablekit.tiles import Tile

PHASES = (Stage.explicit, Stage.reuse, Stage.generate)  # no shrinking: keeps a failure quick
SHM = Path("/dev/shm") if Path("/dev/shm").is_dir() else None
tiles = st.builds(Tile, st.integers(0, 33)) | st.sampled_from(
    [Tile.from_code(c) for c in ("0m", "0p", "0s")])
seats = st.integers(0, 3)
any_seat = st.integers(-1, 9)
few_tiles = st.lists(tiles, min_size=0, max_size=14).map(tuple)
winner = st.builds(WinnerHand, any_seat, few_tiles, st.none() | tiles,
                   st.none() | st.integers(0, 14), st.none() | st.sampled_from([20, 25, 30, 40]),
                   st.integers(0, 2))

RANDOM_EVENTS = st.one_of(
    st.builds(GameStarted, st.sampled_from([{"base": name} for name in PRESETS]),
              first_dealer=any_seat),
    st.builds(HandStarted, st.none() | tiles, st.booleans()),
    st.builds(Draw, any_seat, st.none() | tiles, st.booleans()),
    st.builds(Discard, any_seat, tiles, st.booleans()),
    st.builds(DiscardCorrected, any_seat, st.integers(-1, 20), tiles),
    st.builds(RiichiDeclared, any_seat),
    st.builds(Call, any_seat, st.sampled_from(["chi", "pon", "kan", "ankan", "shouminkan"]),
              st.lists(tiles, min_size=2, max_size=4).map(tuple), st.none() | tiles,
              st.none() | any_seat),
    st.builds(DoraRevealed, tiles),
    st.builds(DoraCorrected, st.integers(-1, 5), tiles),
    st.builds(Won, st.lists(winner, min_size=1, max_size=3).map(tuple), st.none() | any_seat,
              st.lists(tiles, max_size=2).map(tuple)),
    st.builds(ExhaustiveDraw, st.lists(any_seat, max_size=4).map(tuple),
              st.lists(seats, max_size=1).map(tuple), st.integers(0, 70)),
    st.builds(AbortiveDraw, st.sampled_from(["nine_terminals", "four_winds", "four_riichi",
                                             "four_kans", "triple_ron"]), st.none() | seats),
    st.builds(Chombo, any_seat),
    st.builds(GameEnded),
)


def legal_move(data: st.DataObject, state: TableState) -> Event:
    """A move that the table allows most of the time (the reducer still has the last word)."""
    if state.phase in (Phase.NOT_STARTED, Phase.GAME_OVER):
        return GameStarted(PRESETS[data.draw(st.sampled_from(sorted(PRESETS)))])
    if state.phase is Phase.HAND_OVER:
        return HandStarted(data.draw(st.none() | tiles), tracked=data.draw(st.booleans()))
    if not state.tracked:
        return data.draw(st.one_of(
            st.builds(RiichiDeclared, seats),
            st.builds(Won, st.tuples(st.builds(WinnerHand, seats, han=st.integers(1, 6),
                                               fu=st.sampled_from([30, 40]))),
                      st.none() | seats),
            st.builds(ExhaustiveDraw, st.lists(seats, max_size=4, unique=True).map(tuple))))
    turn = state.turn
    if state.to_draw and state.wall == 0:
        return ExhaustiveDraw(data.draw(st.lists(seats, max_size=4, unique=True).map(tuple)))
    if state.to_draw:
        if state.last_discard is not None and data.draw(st.integers(0, 5)) == 0:
            discarder, tile = state.last_discard
            caller = data.draw(seats.filter(lambda s: s != discarder))
            return Call(caller, "pon", (tile.plain, tile.plain, tile), tile, discarder)
        return Draw(turn, rinshan=state.kan_draw)
    choice = data.draw(st.integers(0, 9))
    if choice == 0:
        return RiichiDeclared(turn)
    if choice == 1:
        return ExhaustiveDraw(wall_left=state.wall)
    return Discard(turn, data.draw(tiles), tsumogiri=data.draw(st.booleans()))


def next_event(data: st.DataObject, state: TableState) -> Event:
    kind = data.draw(st.integers(0, 9), label="kind")
    if kind == 0:
        return data.draw(st.builds(Undo, st.integers(1, 3)) | st.builds(Redo, st.integers(1, 2)))
    if kind == 1:
        return data.draw(RANDOM_EVENTS)
    return legal_move(data, state)


def step(game: Session, event: Event) -> bool:
    """Submit ``event``; True when accepted. A refusal must name the event and change nothing."""
    before = game.state
    try:
        game.submit(event)
    except BadEvent as error:
        assert game.state is before
        name = "undo" if isinstance(event, Undo) else "redo" if isinstance(event, Redo) else (
            _describe(event, before))
        assert str(error).startswith(name), (event, str(error))
        return False
    assert broken(game.state) == [], (event, broken(game.state))
    return True


@settings(max_examples=40, deadline=None, derandomize=True, database=None, phases=PHASES,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(st.data())
def test_random_events_keep_the_invariants_and_every_journal_round_trips(data):
    with tempfile.TemporaryDirectory(dir=SHM) as folder:
        path = Path(folder) / "game.jsonl"
        game = Session.open(path)
        for _ in range(data.draw(st.integers(20, 120), label="length")):
            step(game, next_event(data, game.state))
        game.close()
        assert read_journal(path).events == game.history
        again = Session.open(path)
        assert again.notice == "" and again.state == game.state
        again.close()
