"""A three-player (sanma) evening: ``tablekit run --rules tenhou-sanma`` with three names
(``--players``, or a roster and the seat buttons of the three boxes in use), the sanma
league table between games, and the web page's league for three."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from conftest import DATA, FIXTURES

from tablekit.cli import main
from tablekit.commands.run import _keep_league
from tablekit.display.backends import PngDisplay
from tablekit.flow import Flow, Stage
from tablekit.formats.tenhou import import_file
from tablekit.game.journal import read_journal
from tablekit.game.session import Session
from tablekit.io.presses import ButtonName, ButtonPress
from tablekit.league.database import LeagueError, connect
from tablekit.league.record import record_game
from tablekit.league.roster import choose_players, read_roster
from tablekit.rules.presets import TENHOU_SANMA
from tablekit.web.source import JournalSource

SANMA = FIXTURES / "mjlog" / "sanma-2022010814gm-00b9-0000-c378f5c4.xml"
GAME = DATA / "tenhou-python-bot-28.xml"
THREE = ("Aki", "Ben", "Cho")
RUN = ["run", "--rules", "tenhou-sanma", "--camera", "none", "--buttons", "none",
       "--frames", "2"]


def started_names(journal) -> tuple[str, ...]:
    return read_journal(journal).events[0].names


def test_a_roster_of_three_seats_a_sanma_game_and_four_names_are_refused(tmp_path):
    roster = tmp_path / "roster.txt"
    roster.write_text("Aki\nBen\nCho\n", encoding="utf-8")
    assert read_roster(roster, seats=3) == list(THREE)
    with pytest.raises(LeagueError, match="a game needs 4"):
        read_roster(roster)                                  # four players: one short
    assert choose_players("Cho, Aki, Ben", read_roster(roster, 3), seats=3) == (
        "Cho", "Aki", "Ben")
    with pytest.raises(LeagueError, match="a game of three needs three different players"):
        choose_players("Aki, Ben, Cho, Dai", seats=3)


def test_run_starts_a_sanma_game_under_three_names(tmp_path, capsys):
    roster = tmp_path / "roster.txt"
    roster.write_text("Aki\nBen\nCho\nDai\n", encoding="utf-8")
    journal = tmp_path / "game.jsonl"
    assert main([*RUN, "--display", f"headless:{tmp_path / 's'}", "--journal", str(journal),
                 "--roster", str(roster), "--players", "Dai,Aki,Ben"]) == 0
    assert "seats: East Dai · South Aki · West Ben" in capsys.readouterr().err
    assert started_names(journal) == ("Dai", "Aki", "Ben")
    assert read_journal(journal).events[0].rules.players == 3
    other = tmp_path / "other.jsonl"
    assert main([*RUN, "--display", f"headless:{tmp_path / 's'}", "--journal", str(other),
                 "--players", "Aki,Ben,Cho,Dai"]) == 2
    err = capsys.readouterr().err.strip()
    assert err == ("tablekit: players: a game of three needs three different players, not "
                   "'Aki,Ben,Cho,Dai' (four players: four-player rules, e.g. --rules tenhou)")
    assert not other.exists()


def test_the_seat_buttons_of_the_three_boxes_in_use_choose_the_players(tmp_path):
    flow = Flow(Session.open(tmp_path / "game.jsonl"), roster=("Aki", "Ben", "Cho", "Dai"),
                rules=TENHOU_SANMA, boxes=(0, 1, 3))
    assert flow.stage is Stage.CHOOSE_PLAYERS
    assert flow.screen().seating.names == (None, None, None)
    for box in (0, 1, 3):                                    # the West box is not used
        flow.handle(ButtonPress(ButtonName.RIICHI, box))
    flow.handle(ButtonPress(ButtonName.RIICHI, 2))
    assert "the West box has no player" in flow.data.message
    assert flow.screen().seating.names == THREE
    display = PngDisplay(tmp_path / "png", numbered=False)
    display.show(flow.screen())                              # three seats drawn
    display.close()
    flow.handle(ButtonPress(ButtonName.OK))
    state = flow.session.state
    assert (state.names, state.players, flow.stage) == (THREE, 3, Stage.BETWEEN_HANDS)
    flow.session.close()


def test_a_sanma_evening_shows_the_sanma_league_table(tmp_path):
    path = tmp_path / "league.sqlite"
    db = connect(path)
    record_game(db, import_file(GAME).events, key="four")
    record_game(db, import_file(SANMA, three_players=True).events, names=THREE, key="three")
    db.close()
    journal = tmp_path / "game.jsonl"
    session = Session.open(journal)
    flow = Flow(session, rules=TENHOU_SANMA)
    flow.start_game(TENHOU_SANMA, THREE)
    faults: list[str] = []
    app = SimpleNamespace(flow=flow, hooks=[])
    _keep_league(app, path, journal, faults.append)
    assert faults == [] and len(app.hooks) == 1
    assert [line.name for line in flow.league()] == ["Ben", "Cho", "Aki"]   # three players
    session.close()
    _, state = JournalSource(journal, path).current()
    assert [p["name"] for p in state["league_three"]] == ["Ben", "Cho", "Aki"]
    assert len(state["league"]) == 4                         # the four-player table apart
