"""``tablekit run`` at its edges: how it is quit, names for a game already in the journal,
a file that is not a journal, a busy web port, a camera named wrongly. Each refusal is one
line and exit status 2, before the game starts."""

from __future__ import annotations

import dataclasses
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pygame
import pytest

from tablekit.app.loop import App, open_session
from tablekit.cli import main
from tablekit.commands.run import _open_camera
from tablekit.display.examples import example_screens
from tablekit.display.legend import strip_legend
from tablekit.display.render import render
from tablekit.flow import Flow
from tablekit.game.events import GameEnded, HandStarted
from tablekit.game.lock import JournalLock
from tablekit.game.session import Session
from tablekit.game.state import Phase
from tablekit.io.buttons import ButtonName, ButtonPress, KeyboardButtons
from tablekit.rules.presets import TENHOU

ROOT = Path(__file__).resolve().parents[1]


def run(tmp_path: Path, *argv: str, frames: int = 1) -> int:
    return main(["run", "--camera", "none", "--buttons", "none", "--display",
                 f"headless:{tmp_path / 'screens'}", "--frames", str(frames), *argv])


def one_line(capsys: pytest.CaptureFixture[str]) -> str:
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "Traceback" not in err, err
    return err


# -- quitting -----------------------------------------------------------------------------

def test_the_legend_shows_the_quit_key_and_is_read_whole(monkeypatch):
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    pygame.init()
    try:
        for example in example_screens():
            model = dataclasses.replace(example.model, quit_key="Esc")
            assert not strip_legend(example.model).endswith("quit")  # the seat buttons alone
            for size in ((800, 480), (1920, 1080)):
                legend = render(model, pygame.Surface(size)).text_of("legend")
                assert not legend or legend.endswith("   Esc: quit"), (example.name, size)
    finally:
        pygame.quit()


def test_esc_in_the_window_stops_the_loop(tmp_path, monkeypatch):
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    pygame.init()
    pygame.display.set_mode((80, 48))
    session = open_session(tmp_path / "game.jsonl", TENHOU, lambda line: None)
    try:
        app = App(Flow(session), None, sleep=lambda seconds: None)
        app.keyboard = KeyboardButtons(app.inbox)
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_ESCAPE))
        app.run(max_frames=50)
        assert not app.running and app.frames < 5
    finally:
        session.close()
        pygame.quit()


def test_the_help_line_in_a_window_says_how_to_quit(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    assert main(["run", "--camera", "none", "--buttons", "keyboard", "--display", "window",
                 "--journal", str(tmp_path / "game.jsonl"), "--frames", "1"]) == 0
    help_line = next(line for line in capsys.readouterr().err.splitlines()
                     if line.startswith("tablekit: buttons:"))
    assert "Enter is OK" in help_line and help_line.endswith("Esc quits (the game is saved)")


def test_esc_in_the_terminal_quits_with_a_line_that_the_game_is_saved(tmp_path, monkeypatch,
                                                                         capsys):
    master, slave = os.openpty()
    stream = os.fdopen(slave, "r")
    monkeypatch.setattr(sys, "stdin", stream)
    journal = tmp_path / "game.jsonl"
    screen = tmp_path / "screens" / "scoreboard.png"

    def type_keys() -> None:  # once the loop runs (the terminal's mode set, typing flushed)
        while not screen.exists():
            time.sleep(0.05)
        os.write(master, b"\x1b[A\x1b[B")  # arrows: nothing
        time.sleep(0.2)
        os.write(master, b"\x1b")            # Esc

    typist = threading.Thread(target=type_keys, daemon=True)
    typist.start()
    try:
        started = time.monotonic()
        assert main(["run", "--camera", "none", "--buttons", "keyboard", "--display",
                     f"headless:{tmp_path / 'screens'}", "--journal", str(journal),
                     "--frames", "400"]) == 0
    finally:
        typist.join(timeout=5)
        stream.close()
        os.close(master)
    assert time.monotonic() - started < 15  # not the 20 seconds of 400 frames
    err = capsys.readouterr().err.splitlines()
    assert any("reading keys from this terminal" in line and "Esc or Ctrl-D quits" in line
               for line in err)
    assert err[-1] == (f"tablekit: stopped; the game is saved in {journal} "
                       "(run it again to resume)")
    JournalLock(journal).acquire().release()  # let go: the next run may take it


def test_ctrl_c_leaves_a_line_that_the_game_is_saved(tmp_path):
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "PYTHONPATH": str(ROOT)}
    journal, screen = tmp_path / "game.jsonl", tmp_path / "screens" / "scoreboard.png"
    process = subprocess.Popen(
        [sys.executable, "-m", "tablekit.cli", "run", "--camera", "none", "--buttons", "none",
         "--display", f"headless:{tmp_path / 'screens'}", "--journal", str(journal)],
        stderr=subprocess.PIPE, text=True, env=env, cwd=tmp_path)
    try:
        deadline = time.monotonic() + 90
        while not screen.exists() and time.monotonic() < deadline:  # the loop is running
            time.sleep(0.2)
        process.send_signal(signal.SIGINT)
        _, err = process.communicate(timeout=60)
    finally:
        process.kill()
    assert process.returncode == 0, err
    assert "Traceback" not in err
    assert err.splitlines()[-1] == (f"tablekit: stopped; the game is saved in {journal} "
                                    "(run it again to resume)")


# -- names for the game in the journal ----------------------------------------------------

def test_players_for_a_game_in_progress_are_refused_unless_they_are_its_players(
        tmp_path, capsys):
    journal = tmp_path / "game.jsonl"
    assert run(tmp_path, "--journal", str(journal), "--players", "Aki,Ben,Cho,Dai") == 0
    capsys.readouterr()
    session = Session.open(journal)
    session.submit(HandStarted())
    session.close()
    before = journal.read_bytes()
    assert run(tmp_path, "--journal", str(journal), "--players", "Emi,Ben,Cho,Dai") == 2
    line = one_line(capsys)
    assert line.startswith(f"tablekit: journal: {journal} holds a game in progress (East 1: "
                           "Aki, Ben, Cho, Dai)")
    assert "--journal" in line and "end it from the menu" in line
    assert journal.read_bytes() == before
    assert run(tmp_path, "--journal", str(journal), "--players", "Ben,Aki,Dai,Cho") == 0
    assert "resumed the game" in capsys.readouterr().err  # the same four: the game goes on
    assert journal.read_bytes() == before


def test_players_after_a_finished_game_start_a_new_one_under_their_names(tmp_path, capsys):
    journal = tmp_path / "game.jsonl"
    assert run(tmp_path, "--journal", str(journal), "--players", "Aki,Ben,Cho,Dai") == 0
    session = Session.open(journal)
    session.submit(GameEnded())
    assert session.state.phase is Phase.GAME_OVER
    session.close()
    capsys.readouterr()
    assert run(tmp_path, "--journal", str(journal), "--players", "Emi,Fay,Gus,Hal") == 0
    assert "seats: East Emi · South Fay" in capsys.readouterr().err
    session = Session.open(journal)
    assert session.state.names == ("Emi", "Fay", "Gus", "Hal")
    assert session.state.phase is not Phase.GAME_OVER
    session.close()


def test_three_player_rules_for_a_four_player_game_in_progress_are_refused(tmp_path, capsys):
    journal = tmp_path / "game.jsonl"
    assert run(tmp_path, "--journal", str(journal), "--players", "Aki,Ben,Cho,Dai") == 0
    session = Session.open(journal)
    session.submit(HandStarted())
    session.close()
    capsys.readouterr()
    before = journal.read_bytes()
    assert run(tmp_path, "--journal", str(journal), "--rules", "tenhou-sanma") == 2
    line = one_line(capsys)
    assert line.startswith(f"tablekit: journal: {journal} holds a game in progress (East 1) "
                           "under tenhou rules: --rules tenhou-sanma starts a new game")
    assert "run without --rules to resume it" in line and "--journal" in line
    assert journal.read_bytes() == before
    assert run(tmp_path, "--journal", str(journal), "--rules", "tenhou") == 0  # its own rules
    assert "resumed the game" in capsys.readouterr().err
    assert journal.read_bytes() == before


def test_three_player_rules_after_a_finished_game_start_a_three_player_game(tmp_path, capsys):
    journal = tmp_path / "game.jsonl"
    assert run(tmp_path, "--journal", str(journal), "--players", "Aki,Ben,Cho,Dai") == 0
    session = Session.open(journal)
    session.submit(GameEnded())
    session.close()
    assert run(tmp_path, "--journal", str(journal), "--rules", "tenhou-sanma") == 0
    session = Session.open(journal)  # four names do not fit three seats: players not named
    assert session.state.rules.players == 3 and session.state.names == ()
    assert session.state.phase is not Phase.GAME_OVER
    session.close()


def test_other_rules_after_a_finished_game_with_the_seat_buttons_to_choose_are_said(
        tmp_path, capsys):
    journal, roster = tmp_path / "game.jsonl", tmp_path / "roster.txt"
    roster.write_text("Aki\nBen\nCho\nDai\n", encoding="utf-8")
    assert run(tmp_path, "--journal", str(journal), "--players", "Aki,Ben,Cho,Dai") == 0
    session = Session.open(journal)
    session.submit(GameEnded())
    session.close()
    capsys.readouterr()
    assert run(tmp_path, "--journal", str(journal), "--roster", str(roster),
               "--rules", "tenhou-sanma") == 0
    assert ("tablekit: rules: the seat buttons choose the next game's players under the "
            "finished game's rules (tenhou); --players starts one under --rules tenhou-sanma"
            in capsys.readouterr().err.splitlines())


def test_three_names_under_four_player_rules_are_told_of_the_three_player_rules(
        tmp_path, capsys):
    assert run(tmp_path, "--journal", str(tmp_path / "game.jsonl"),
               "--players", "Aki,Ben,Cho") == 2
    line = one_line(capsys)
    assert line.startswith("tablekit: players: a game needs four different players")
    assert line.endswith("(three players: --rules tenhou-sanma, or a rules file with "
                         "players = 3)")
    assert run(tmp_path, "--journal", str(tmp_path / "game.jsonl"), "--rules", "tenhou-sanma",
               "--players", "Aki,Ben,Cho,Dai") == 2
    assert one_line(capsys).endswith("(four players: four-player rules, e.g. --rules tenhou)")


# -- the flow's note on a resume ---------------------------------------------------------

def resumed_app(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, *argv: str,
                presses: tuple[ButtonPress, ...] = ()) -> App:
    """The app of a ``tablekit run`` (one frame, taking ``presses``), kept for a look after
    it stopped."""
    apps: list[App] = []
    played = App.run

    def run_once(app: App, **kw: object) -> None:
        apps.append(app)
        for press in presses:
            app.inbox.put(press)
        played(app, **kw)

    monkeypatch.setattr(App, "run", run_once)
    assert run(tmp_path, *argv) == 0
    return apps[0]


def test_a_message_the_note_kept_goes_with_the_next_action_after_a_resume(
        tmp_path, capsys, monkeypatch):
    journal = tmp_path / "game.jsonl"
    flow = Flow(open_session(journal, TENHOU, lambda line: None))
    for press in (ButtonPress(ButtonName.OK), ButtonPress(ButtonName.RIICHI, 0),
                  ButtonPress(ButtonName.UNDO)):
        flow.handle(press)
    assert flow.data.message == "took back the last action"
    flow.session.close()
    app = resumed_app(tmp_path, monkeypatch, "--journal", str(journal),
                      presses=(ButtonPress(ButtonName.RIICHI, 1),))
    assert "took back" not in capsys.readouterr().err  # not a fault of the start
    assert app.screen is not None
    assert not any("took back" in line for line in (*app.screen.warnings, app.screen.message))


def test_a_damaged_note_is_still_said_in_the_banner_at_start(tmp_path, capsys, monkeypatch):
    journal = tmp_path / "game.jsonl"
    assert run(tmp_path, "--journal", str(journal)) == 0
    journal.with_suffix(".flow.json").write_text("{not json")
    app = resumed_app(tmp_path, monkeypatch, "--journal", str(journal))
    assert any("kept aside as game.flow.json.damaged" in line for line in app.flow.data.warnings)
    assert "kept aside as game.flow.json.damaged" in capsys.readouterr().err


def test_a_folder_named_as_the_league_is_refused_before_the_game(tmp_path, capsys):
    folder = tmp_path / "league"
    folder.mkdir()
    journal = tmp_path / "game.jsonl"
    assert run(tmp_path, "--journal", str(journal), "--league", str(folder)) == 2
    assert one_line(capsys) == (f"tablekit: league: {folder} is a folder, not a league file: "
                                f"name a file, e.g. {folder / 'league.sqlite'}")
    assert not journal.exists() and not any(folder.iterdir())
    log = ROOT / "tablekit" / "data" / "tenhou-python-bot-28.xml"
    assert main(["simulate", str(log), "--league", str(folder)]) == 2
    assert one_line(capsys).startswith(f"tablekit simulate: {folder} is a folder, not a")


# -- a file that was never a journal ------------------------------------------------------

def test_a_file_that_is_not_a_journal_is_refused_and_left_as_it_is(tmp_path, capsys):
    picture = tmp_path / "journal.png"
    data = b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 8
    picture.write_bytes(data)
    assert run(tmp_path, "--journal", str(picture)) == 2
    assert one_line(capsys) == (f"tablekit: journal: {picture} is not a tablekit journal (no "
                                "line of one in it): left it as it is; name another file with "
                                "--journal")
    assert picture.read_bytes() == data
    assert sorted(path.name for path in tmp_path.iterdir()) == ["journal.png"]


def test_a_folder_given_as_the_journal_is_refused_and_left_as_it_is(tmp_path, capsys):
    folder = tmp_path / "games"
    (folder / "inside").mkdir(parents=True)
    assert run(tmp_path, "--journal", str(folder)) == 2
    assert one_line(capsys).startswith(f"tablekit: journal: {folder} is a folder, not a journal")
    assert sorted(path.name for path in tmp_path.iterdir()) == ["games"]
    assert [path.name for path in folder.iterdir()] == ["inside"]


def test_a_journal_cut_by_a_power_cut_is_still_resumed(tmp_path, capsys):
    journal = tmp_path / "game.jsonl"
    assert run(tmp_path, "--journal", str(journal)) == 0
    with journal.open("ab") as handle:
        handle.write(b'{"n": 2, "type": "hand_sta')  # torn while it was written
    capsys.readouterr()
    assert run(tmp_path, "--journal", str(journal)) == 0
    assert "dropped a half-written last line" in capsys.readouterr().err


# -- the web page -------------------------------------------------------------------------

def test_a_busy_web_port_is_refused_naming_it_before_the_game_starts(tmp_path, capsys):
    journal = tmp_path / "game.jsonl"
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        assert run(tmp_path, "--journal", str(journal), "--web", f"127.0.0.1:{port}") == 2
    line = one_line(capsys)
    assert line.startswith(f"tablekit: web: port {port} on 127.0.0.1 is in use")
    assert not journal.exists()  # no game was started


def test_the_web_page_is_stopped_with_the_game_without_a_word(tmp_path, capsys):
    assert run(tmp_path, "--journal", str(tmp_path / "game.jsonl"), "--web", "127.0.0.1:0",
               frames=3) == 0
    err = capsys.readouterr().err
    assert "tablekit: web: the scoreboard is on http://127.0.0.1:" in err
    assert "page stopped" not in err and "Traceback" not in err


def test_the_web_page_s_process_killed_leaves_the_game_running(tmp_path, capsys, monkeypatch):
    import os
    import signal

    from tablekit.web import server

    started = server.start_web

    def start_and_kill(*args):
        page = started(*args)
        os.kill(page.pid, signal.SIGKILL)  # the page's process dies as the game starts
        page._watcher.join(10)  # its one line is said
        return page

    monkeypatch.setattr(server, "start_web", start_and_kill)
    journal = tmp_path / "game.jsonl"
    assert run(tmp_path, "--journal", str(journal), "--web", "127.0.0.1:0", frames=3) == 0
    err = capsys.readouterr().err
    assert err.count("tablekit: web: the page stopped (killed by signal 9); the game goes on "
                     "without it\n") == 1 and "Traceback" not in err
    assert journal.exists()  # the game was played


# -- the camera ---------------------------------------------------------------------------

def test_a_camera_that_is_not_there_is_named_as_the_other_commands_name_it():
    lines: list[str] = []
    assert _open_camera("7", report=lines.append) == (None, None)
    assert len(lines) == 1 and "opencv:7" in lines[0] and "picamera2," in lines[0]
    assert "picamera," not in lines[0]


def test_ctrl_c_while_the_table_is_set_up_stops_it_before_its_first_frame(tmp_path, capsys,
                                                                        monkeypatch):
    """A Ctrl-C that comes after the pages' server started and before the loop runs (under
    load, while a phone test waited for the seat lines) stopped nothing: the server's thread
    kept the process alive. Now it ends the run cleanly, no frame drawn, the server stopped."""
    import tablekit.commands.run as run_command

    greet = run_command._greet

    def greet_then_interrupt(*args):
        greet(*args)
        os.kill(os.getpid(), signal.SIGINT)

    monkeypatch.setattr(run_command, "_greet", greet_then_interrupt)
    threads, handler = set(threading.enumerate()), signal.getsignal(signal.SIGINT)
    screens = tmp_path / "screens"
    assert main(["run", "--journal", str(tmp_path / "game.jsonl"), "--camera", "none",
                 "--buttons", "none", "--display", f"headless:{screens}",
                 "--web", "127.0.0.1:0", "--frames", "50"]) == 0
    assert "stopped; the game is saved in" in capsys.readouterr().err
    assert not list(screens.glob("*.png"))  # not one frame
    assert not [t for t in set(threading.enumerate()) - threads if t.is_alive()]
    assert signal.getsignal(signal.SIGINT) == handler  # as it was (a test worker ignores it)
