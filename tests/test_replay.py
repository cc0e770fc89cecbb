"""Recorded games through importer, engine and scorer; mjai export."""

import json

from conftest import DATA

from tablekit.cli import main
from tablekit.formats.mjai import to_mjai, write_mjai
from tablekit.formats.replay_check import check_game
from tablekit.formats.tenhou import import_file
from tablekit.game.session import Session

GAME = DATA / "tenhou-python-bot-28.xml"


def test_fixture_game_matches_tenhou_hand_by_hand():
    report = check_game(GAME)
    assert report.mismatches == [] and report.ok
    assert report.hands == 6 and report.hands_ok == 6 and report.wins_ok == report.wins == 5


def test_replay_check_prints_a_json_summary_last(capsys):
    assert main(["replay", "--check", str(GAME)]) == 0
    summary = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert summary["games"] == summary["games_ok"] == 1
    assert set(summary) >= {"games", "games_ok", "hands", "hands_ok", "wins", "wins_ok",
                            "skipped"}


def test_replay_without_check_prints_the_hand_table(capsys):
    assert main(["replay", str(GAME)]) == 0
    out = capsys.readouterr().out
    assert "E1-0" in out and "win" in out


def tampered(folder):
    """The fixture game with seat 0 gaining 1,000 more than it did in its first hand."""
    text = GAME.read_text()
    start = text.index('sc="') + 4
    end = text.index('"', start)
    values = text[start:end].split(",")
    values[1] = str(int(values[1]) + 10)
    path = folder / "tampered.xml"
    path.write_text(text[:start] + ",".join(values) + text[end:])
    return path


def test_a_tampered_record_is_a_mismatch_with_non_zero_exit(tmp_path, capsys):
    assert main(["replay", "--check", str(tampered(tmp_path))]) == 1
    assert "score changes" in capsys.readouterr().out


def test_mjai_export_agrees_with_the_engine():
    game = import_file(GAME)
    records = to_mjai(game.events)
    kinds = [r["type"] for r in records]
    assert kinds[0] == "start_game" and kinds[-1] == "end_game"
    assert kinds.count("start_kyoku") == kinds.count("end_kyoku") == 6
    assert kinds.count("hora") == 5 and kinds.count("ryukyoku") == 1
    assert kinds.count("reach") == kinds.count("reach_accepted") == 6
    for record in records:
        if record["type"] == "hora":
            assert sum(record["deltas"]) >= 0


def test_export_command_writes_mjai_lines(tmp_path):
    out = tmp_path / "game.mjai.jsonl"
    assert main(["export", str(GAME), "--out", str(out)]) == 0
    lines = out.read_text().splitlines()
    assert json.loads(lines[0])["type"] == "start_game"


def test_shared_logs_sample_replays_exactly(shared_data):
    folder = shared_data / "tenhou" / "logs" / "MahjongRepository+tenhou-python-bot"
    reports = [check_game(p) for p in sorted(folder.iterdir())[:15]]
    played = [r for r in reports if not r.skipped]
    assert played and all(r.ok for r in played), [r.mismatches[:2] for r in played if not r.ok]


def test_games_checked_in_several_processes_give_the_same_summary(tmp_path, capsys):
    logs = [GAME, *sorted((DATA.parent.parent / "tests" / "fixtures" / "mjlog").glob("*.xml"))]
    paths = [*map(str, logs), str(tampered(tmp_path))]
    summaries = []
    for jobs in ("1", "2"):
        assert main(["replay", "--check", "--jobs", jobs, *paths]) == 1
        lines = capsys.readouterr().out.strip().splitlines()
        summaries.append((lines[:-1], {k: v for k, v in json.loads(lines[-1]).items()
                                       if k != "seconds"}))
    assert summaries[0] == summaries[1] and summaries[0][1]["games"] == len(paths)


def journal_of(game_log, path):
    """A tablekit journal of a logged game, as the app writes one."""
    game = import_file(game_log)
    session = Session.open(path)
    session.submit(game.start)
    for hand in game.hands:
        for event in hand.events:
            session.submit(event)
    session.close()
    return path


def test_a_tablekit_journal_is_named_and_played_back_hand_by_hand(tmp_path, capsys):
    assert main(["replay", str(GAME)]) == 0
    tenhou = capsys.readouterr().out.splitlines()[1:]
    journal = journal_of(GAME, tmp_path / "game.jsonl")
    assert main(["replay", str(journal)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == f"== {journal} (a tablekit journal)" and out[1:] == tenhou


def test_a_check_of_a_journal_or_mjai_finds_no_game_and_fails_naming_the_format(
        tmp_path, capsys):
    mjai = tmp_path / "game.mjai.jsonl"
    mjai.write_text("\n".join(write_mjai(import_file(GAME).events)) + "\n")
    journal = journal_of(GAME, tmp_path / "game.jsonl")
    for path, kind in ((mjai, "mjai JSON lines"), (journal, "a tablekit journal")):
        assert main(["replay", "--check", str(path)]) == 2
        captured = capsys.readouterr()
        assert json.loads(captured.out.splitlines()[-1])["games"] == 0
        err = captured.err.strip()
        assert err.startswith(f"tablekit replay: no game found in {path}: it is {kind}")
        assert len(err.splitlines()) == 1
    assert main(["replay", str(mjai)]) == 2
    assert "it is mjai JSON lines, not a Tenhou log" in capsys.readouterr().err
