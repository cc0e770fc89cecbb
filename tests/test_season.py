"""A season's journal: many games in one file, opened from its last game alone, and undo,
redo and reopening anywhere giving exactly what reading the whole journal gives."""

import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_reducer_properties import PHASES, SHM, next_event, step

from tablekit.game.events import BadEvent, GameEnded, GameStarted, HandStarted
from tablekit.game.journal import read_journal, salvage_tail
from tablekit.game.reducer import replay
from tablekit.game.session import JournalFollower, Session, actions, in_force
from tablekit.game.state import Phase
from tablekit.rules.presets import Rules, rules_from_dict


def check(game: Session, path: Path) -> None:
    """The session agrees with the whole journal read from its first line."""
    everything = read_journal(path)
    active = in_force(everything.events)[0]
    assert game.length == len(everything.events)
    assert game.state == replay(active) and game.state.events == len(active)
    assert game.active_count == len(active) and game.can_redo == bool(
        in_force(everything.events)[1])
    sizes = actions(everything.events, everything.joins)[0]
    assert game.last_action() == tuple(active[len(active) - sizes[-1]:] if sizes else ())


@settings(max_examples=30, deadline=None, derandomize=True, database=None, phases=PHASES,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(st.data())
def test_a_season_reopened_anywhere_resumes_exactly(data):
    with tempfile.TemporaryDirectory(dir=SHM) as folder:
        path = Path(folder) / "game.jsonl"
        game, follower = Session.open(path), JournalFollower(path)
        for _ in range(data.draw(st.integers(30, 160), label="length")):
            kind = data.draw(st.integers(0, 11), label="kind")
            if kind == 0 and game.state.phase in (Phase.HAND_IN_PLAY, Phase.HAND_OVER):
                step(game, GameEnded("the evening goes on"))
            elif kind == 0:
                step(game, GameStarted())
            elif kind == 1:
                game.close()
                game = Session.open(path)
                assert game.notice == ""
                check(game, path)
            elif kind in (2, 3):
                before = game.state
                try:
                    game.undo() if kind == 2 else game.redo()
                except BadEvent:
                    assert game.state is before
            else:
                event = next_event(data, game.state)
                if isinstance(event, GameStarted) and not isinstance(event.rules, Rules):
                    event = GameStarted(rules_from_dict(event.rules))  # the strategy gives a dict
                step(game, event)
            assert follower.state() == game.state  # the web page's reading
        check(game, path)
        game.close()
        again = Session.open(path)
        check(again, path)
        assert again.history == read_journal(path).events  # the earlier games read on asking
        again.close()


def season(path: Path, games: int) -> list:
    """``games`` short games, one after another, in one journal; their events."""
    game = Session.open(path)
    for number in range(games):
        game.submit(GameStarted(first_dealer=number % 4))
        game.submit(HandStarted())
        game.submit(GameEnded(f"game {number + 1}"))
    game.close()
    return read_journal(path).events


def test_the_last_game_is_read_alone_and_undo_reaches_back_into_the_one_before(tmp_path):
    path = tmp_path / "game.jsonl"
    events = season(path, 5)
    tail = salvage_tail(path)
    assert tail.events == events[12:] and tail.skipped == 12 and tail.before == 12
    game = Session.open(path)
    assert game.in_force_read()[0] == 12 and game.state == replay(events)
    game.undo()  # the last game's end
    game.undo()  # its first hand
    game.undo()  # its start: back to the fourth game's standings, read now
    assert game.state == replay(events[:12]) and game.state.phase is Phase.GAME_OVER
    assert game.history[:15] == events
    game.close()
    again = Session.open(path)
    check(again, path)
    again.redo()
    assert again.state == replay(events[:13])


def test_a_damaged_line_in_the_last_game_cuts_back_to_it_and_keeps_the_earlier_games(
        tmp_path):
    path = tmp_path / "game.jsonl"
    events = season(path, 4)
    lines = path.read_bytes().split(b"\n")
    lines[-2] = lines[-2].replace(b"game 4", b"game 5")  # the checksum no longer holds
    path.write_bytes(b"\n".join(lines))
    game = Session.open(path)
    assert "line 13: the line's checksum fails" in game.notice
    assert game.state == replay(events[:11]) and game.length == 11
    assert len(list(tmp_path.glob("game.jsonl.damaged-*"))) == 1
    game.close()
    assert read_journal(path).events == events[:11]


def test_the_page_follows_a_journal_cut_back_after_a_power_cut(tmp_path):
    path = tmp_path / "game.jsonl"
    events = season(path, 3)
    follower = JournalFollower(path)
    assert follower.state() == replay(events)
    with path.open("ab") as handle:
        handle.write(b'{"n": 10, "type": "hand_st')  # a line half written: not taken yet
    assert follower.state() == replay(events)
    game = Session.open(path)  # the restart cuts it off
    game.undo()
    assert "half-written" in game.notice and follower.state() == game.state
    game.close()
