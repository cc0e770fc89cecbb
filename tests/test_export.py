"""``tablekit export`` says what it wrote, and what a reader of the file should know."""

import csv

from conftest import DATA

from tablekit.cli import main
from tablekit.formats.tenhou import import_file
from tablekit.game.events import ExhaustiveDraw, GameStarted, HandStarted
from tablekit.game.session import Session

GAME = DATA / "tenhou-python-bot-28.xml"
NAMES = ("Aki", "Ben", "Cho", "Dai")


def journal(path, hands=None, games=1):
    """A journal of the committed game as the app writes one: ``games`` times, the last
    one stopped after ``hands`` hands (None: played to its end)."""
    game = import_file(GAME)
    session = Session.open(path)
    for number in range(1, games + 1):
        session.submit(game.start)
        for hand in game.hands[:hands] if number == games else game.hands:
            for event in hand.events:
                session.submit(event)
    session.close()
    return path


def test_export_says_what_it_wrote(tmp_path, capsys):
    out = tmp_path / "game.mjai.jsonl"
    assert main(["export", str(GAME), "--out", str(out)]) == 0
    assert capsys.readouterr().out.strip() == (
        f"tablekit export: wrote {out} (mjai JSON lines): 1 game, 6 hands")
    assert main(["export", str(GAME), "--format", "csv", "--out", str(tmp_path / "s.csv")]) == 0
    assert main(["export", str(GAME), "--format", "csv", "--out", str(tmp_path / "s.csv")]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == (
        f"tablekit export: appended to {tmp_path / 's.csv'} (CSV): 1 game, 6 hands")


def test_a_csv_row_of_an_unfinished_game_is_said(tmp_path, capsys):
    path = journal(tmp_path / "game.jsonl", hands=2)
    out = tmp_path / "season.csv"
    assert main(["export", str(path), "--format", "csv", "--out", str(out)]) == 0
    assert capsys.readouterr().err.strip() == (
        "tablekit export: game 1 of 1 has not ended (2 hands played): its row has the "
        "points so far, no places or game points")
    row = next(csv.DictReader(out.open(encoding="utf-8")))
    assert row["hands"] == "2" and row["points2"] == "27700"
    assert all(row[f"{cell}{seat}"] == "" for cell in ("place", "score") for seat in range(1, 5))


def test_each_game_of_a_journal_is_a_csv_row(tmp_path, capsys):
    path = journal(tmp_path / "season.jsonl", hands=1, games=3)
    out = tmp_path / "season.csv"
    assert main(["export", str(path), "--format", "csv", "--out", str(out)]) == 0
    rows = list(csv.DictReader(out.open(encoding="utf-8")))
    assert [row["hands"] for row in rows] == ["6", "6", "1"]
    assert [row["place2"] for row in rows] == ["1", "1", ""]  # the last not ended: none
    captured = capsys.readouterr()
    assert captured.err.startswith("tablekit export: game 3 of 3 has not ended")
    assert captured.out.strip().endswith("(CSV): 3 games, 13 hands")


def test_a_hand_scored_by_hand_points_tenhou6_to_mjai(tmp_path, capsys):
    path = tmp_path / "game.jsonl"
    session = Session.open(path)
    for event in (GameStarted(names=NAMES), HandStarted(tracked=False),
                  ExhaustiveDraw(tenpai=(0,))):
        session.submit(event)
    session.close()
    assert main(["export", str(path), "--format", "tenhou6"]) == 2
    error = capsys.readouterr().err.strip()
    assert error.endswith("a hand scored without its tiles cannot be written as "
                          "tenhou.net/6 (use --format mjai)") and "\n" not in error
    assert main(["export", str(path), "--format", "mjai"]) == 0
    assert '"type":"ryukyoku"' in capsys.readouterr().out.replace(" ", "")


def test_a_table_hand_dealt_before_its_dora_was_seen_is_not_called_scored_by_hand(
        tmp_path, capsys):
    path = tmp_path / "game.jsonl"
    session = Session.open(path)
    for event in (GameStarted(names=NAMES), HandStarted()):  # tracked, the dora not yet seen
        session.submit(event)
    session.close()
    assert main(["export", str(path), "--format", "tenhou6"]) == 2
    assert capsys.readouterr().err.strip() == (
        "tablekit export: East 1: tenhou.net/6 needs every player's starting hand, which a "
        "table game does not see (use --format mjai)")
