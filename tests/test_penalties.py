"""Penalties in a ledger per game, chombo as the rules say, leftover riichi sticks."""

import pytest
from engine_helpers import Table

from tablekit.game.events import (
    BadEvent,
    Chombo,
    Discard,
    Draw,
    GameEnded,
    GameStarted,
    Penalty,
    RiichiDeclared,
)
from tablekit.game.session import Session
from tablekit.game.state import LedgerEntry
from tablekit.game.summary import summarise
from tablekit.league.database import connect
from tablekit.league.record import record_game
from tablekit.tiles import Tile


def test_a_shared_penalty_goes_to_the_other_three_and_the_ledger_sums_to_zero():
    table = Table()
    table(Penalty(2, 3000, "slow play", shared=True))
    state = table(GameEnded("time"))
    assert sum(e.points for e in state.ledger) == 0
    assert state.ledger[0] == LedgerEntry(2, 3000, "slow play")
    scores = {s.seat: s.score for s in state.standings}
    assert scores == {0: 36.0, 1: 6.0, 2: -18.0, 3: -24.0}  # 35+1, 5+1, -15-3, -25+1
    assert sum(scores.values()) == pytest.approx(0)


def test_a_plain_penalty_comes_off_the_final_score_only():
    table = Table()
    table(Penalty(0, 2000, "phone at the table"))
    state = table(GameEnded("time"))
    assert [s.points for s in state.standings] == [25000] * 4  # points on the table stay
    assert {s.seat: s.score for s in state.standings}[0] == pytest.approx(33.0)


def test_a_penalty_must_be_whole_hundreds_and_threes_when_shared():
    table = Table()
    with pytest.raises(BadEvent, match="in 300s"):
        table(Penalty(0, 1000, shared=True))
    with pytest.raises(BadEvent, match="positive"):
        table(Penalty(0, -100))


def test_undo_takes_a_penalty_back(tmp_path):
    session = Session.open(tmp_path / "game.jsonl")
    session.submit(GameStarted())
    assert session.submit(Penalty(1, 1000, "late")).penalties == (0, 1000, 0, 0)
    assert session.undo().ledger == ()


def test_chombo_under_penalty_rules_is_a_ledger_line():
    table = Table("ema2016")
    table.deal()
    table(Draw(0))
    state = table(Chombo(3))
    assert state.ledger == (LedgerEntry(3, 20000, "chombo"),)
    assert state.result.deltas == (0, 0, 0, 0)


def test_leftover_riichi_sticks_go_to_first_place_visibly():
    table = Table()
    table.deal()
    table(Draw(0), RiichiDeclared(0), Discard(0, Tile.from_code("9m")))
    table.turn(1)  # the stick goes down when the discard is not ronned
    state = table(GameEnded("time"))
    assert state.leftover_sticks == 1
    first = state.standings[0]
    assert (first.seat, first.points) == (1, 25000 + 1000)  # seat 0 paid it, seat 1 leads


def test_the_league_keeps_the_ledger(tmp_path):
    events = [GameStarted(names=("A", "B", "C", "D")),
              Penalty(2, 3000, "late", shared=True), GameEnded("time")]
    summary = summarise(events)
    assert [p.penalty for p in summary.players] == [-1000, -1000, 3000, -1000]
    db = connect(tmp_path / "league.sqlite")
    game = record_game(db, summary)
    rows = db.execute("SELECT seat, amount, reason FROM penalties WHERE game_id = ?"
                      " ORDER BY id", (game,)).fetchall()
    assert rows == [(2, 3000, "late"), (0, -1000, "late"), (1, -1000, "late"),
                    (3, -1000, "late")]
