"""Files from outside that are not what they claim (issue #46): recordings with symlinks out
of them or fields of the wrong shape, FIFOs and devices named as files, a picture as a
record, a foreign SQLite file as the league, a deleted lock file. Each is refused in one
line with exit status 2 (never a traceback, a hang or a write outside the recording)."""

from __future__ import annotations

import json
import os
import resource
import signal
import socket
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from test_recording import record_by_hand

from tablekit.cli import main
from tablekit.game.lock import JournalBusy, JournalLock
from tablekit.game.session import Session
from tablekit.recording.manifest import FORMAT, read_manifest, write_manifest


def refusal(capsys, argv: list[str]) -> str:
    """The one line ``tablekit argv`` refuses with (exit status 2)."""
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "Traceback" not in err, err
    return err


# --- recordings --------------------------------------------------------------------------

def test_anonymise_never_rewrites_a_journal_symlinked_from_outside_the_recording(
        tmp_path, capsys):
    outside = tmp_path / "club-journal.jsonl"
    text = ('{"type": "game_started", "names": ["Aki", "Ben", "Cho", "Dai"]}\n'
            '{"type": "game_ended", "reason": "time"}\n')
    outside.write_text(text, encoding="utf-8")
    folder = tmp_path / "rec"
    folder.mkdir()
    write_manifest(folder, {"format": FORMAT, "journal_start": 0})
    (folder / "journal.jsonl").symlink_to(outside)
    assert "symlink" in refusal(capsys, ["recording", "anonymise", str(folder)])
    assert outside.read_text(encoding="utf-8") == text
    assert (folder / "journal.jsonl").is_symlink()


def test_no_file_of_a_recording_is_read_through_a_symlink(tmp_path, capsys):
    folder, _ = record_by_hand(tmp_path)
    outside = tmp_path / "elsewhere.jsonl"
    (folder / "presses.jsonl").rename(outside)
    (folder / "presses.jsonl").symlink_to(outside)
    assert "symlink" in refusal(capsys, ["recording", "play", str(folder)])
    (folder / "presses.jsonl").unlink()
    outside.rename(folder / "presses.jsonl")
    (folder / "journal.jsonl").rename(outside)
    (folder / "journal.jsonl").symlink_to(outside)
    for action in (["export", "--out", str(tmp_path / "out.jsonl")], ["play"]):
        assert "symlink" in refusal(capsys, ["recording", action[0], str(folder),
                                             *action[1:]])
    assert not (tmp_path / "out.jsonl").exists()


ROOT = Path(__file__).resolve().parents[1]
NESTED = "[" * 100_000 + "]" * 100_000


def _broken_recordings(tmp_path: Path) -> dict[str, Path]:
    """Recordings damaged in one place each, by name."""
    out = {}
    for name in ("nested", "flow", "presses", "roster", "note"):
        folder, _ = record_by_hand(tmp_path / name, names=("Aki", "Ben", "Cho", "Dai"))
        manifest = read_manifest(folder)
        if name == "nested":
            (folder / "recording.json").write_text(NESTED)
        elif name == "flow":
            write_manifest(folder, {**manifest, "flow": [1]})
        elif name == "presses":
            with (folder / "presses.jsonl").open("a") as presses:
                presses.write("[7.0, \"ok\"]\n")
        elif name == "roster":
            write_manifest(folder, {**manifest, "flow": {**manifest["flow"], "roster": 5}})
        else:
            write_manifest(folder, {**manifest, "flow_note": "flow.json"})
            (folder / "flow.json").write_text("[1, 2]")
        out[name] = folder
    return out


def test_a_recording_of_the_wrong_shape_is_refused_in_one_line_by_every_command(
        tmp_path, capsys):
    broken = _broken_recordings(tmp_path)
    record = tmp_path / "record.jsonl"
    record.write_text('{"type": "game_started", "names": ["A", "B", "C", "D"]}\n')
    reasons = {"nested": "nested more than", "flow": "flow: not an object",
               "roster": "flow.roster: not a list", "presses": "line 9: not a press"}
    for name, reason in reasons.items():
        folder = broken[name]
        commands = [["play"]] if name == "presses" else [["play"], ["anonymise"]]
        if name in ("nested", "flow", "roster"):  # what check and export read
            commands += [["check", "--against", str(record)],
                         ["export", "--out", str(tmp_path / f"{name}.jsonl")]]
        for command in commands:
            line = refusal(capsys, ["recording", command[0], str(folder), *command[1:]])
            assert reason in line, (name, command, line)
    line = refusal(capsys, ["recording", "anonymise", str(broken["note"])])
    assert "not a flow's note" in line
    assert "Aki" in (broken["note"] / "journal.jsonl").read_text()   # nothing changed


def test_recording_play_check_never_calls_a_missing_or_empty_journal_the_same(
        tmp_path, capsys):
    folder, _ = record_by_hand(tmp_path)
    journal = folder / "journal.jsonl"
    kept = journal.read_bytes()
    write_manifest(folder, {**read_manifest(folder), "journal_start": 0})
    for state in ("missing", "empty"):
        journal.unlink(missing_ok=True)
        if state == "empty":
            journal.write_bytes(b"")
        assert main(["recording", "play", str(folder), "--check"]) == 1
        out, err = capsys.readouterr()
        summary = json.loads(out.strip().splitlines()[-1])
        assert summary["same_journal"] is False and summary["recorded_journal"] == state
        assert f"the recording's journal is {state}" in err
    journal.write_bytes(kept)


# --- files that are not files ------------------------------------------------------------

RUN = ["run", "--camera", "none", "--buttons", "none", "--frames", "2"]


MEMORY = 3 << 30  # bytes of address space: reading /dev/zero whole ends in MemoryError


def _bounded() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))


def run_cli(tmp_path: Path, *argv: str, timeout: float = 60) -> subprocess.CompletedProcess:
    """``tablekit argv`` in a process of its own, its memory bounded (a hang is a timeout
    and a read without end a MemoryError, not a stuck test or machine)."""
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "tablekit.cli", *argv], capture_output=True,
                          text=True, env=env, cwd=tmp_path, timeout=timeout,
                          preexec_fn=_bounded)


def one_line_refusal(done: subprocess.CompletedProcess) -> str:
    err = done.stderr.strip()
    assert done.returncode == 2 and len(err.splitlines()) == 1, (done.returncode, err)
    assert "Traceback" not in err
    return err


def test_a_fifo_as_the_journal_is_refused_in_one_line_by_run_and_replay(tmp_path):
    fifo = tmp_path / "game.jsonl"
    os.mkfifo(fifo)
    line = one_line_refusal(run_cli(tmp_path, *RUN, "--display",
                                    f"headless:{tmp_path / 'screens'}", "--journal", str(fifo)))
    assert "not a regular file (a FIFO)" in line
    assert "not a regular file (a FIFO)" in one_line_refusal(run_cli(tmp_path, "replay",
                                                                     str(fifo)))
    for command in (["export", str(fifo)], ["tournament", "seat", "--players", str(fifo),
                                            "--rounds", "2", "--out", "plan.json"]):
        assert "a FIFO" in one_line_refusal(run_cli(tmp_path, *command))


def test_replay_refuses_a_device_and_says_what_a_picture_is(tmp_path, capsys):
    line = one_line_refusal(run_cli(tmp_path, "replay", "/dev/zero"))
    assert "not a regular file (a character device)" in line
    picture = tmp_path / "game.xml"
    picture.write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(range(256)))
    assert "it looks like a PNG image" in refusal(capsys, ["replay", str(picture)])


def test_tournament_seat_never_reads_a_device_as_its_roster(tmp_path):
    line = one_line_refusal(run_cli(tmp_path, "tournament", "seat", "--players", "/dev/zero",
                                    "--rounds", "2", "--out", "plan.json"))
    assert "not a regular file (a character device)" in line


def test_tournament_start_refuses_a_deeply_nested_plan_in_one_line(tmp_path, capsys):
    plan = tmp_path / "plan.json"
    plan.write_text('{"rounds": ' + NESTED + "}")
    start = ["tournament", "start", "--plan", str(plan), "--db", str(tmp_path / "club.db")]
    assert "nested more than" in refusal(capsys, start)
    plan.write_text('{"rounds": [[["Aki", "Ben", "Cho"]]]}')
    assert "3 items, fewer than 4" in refusal(capsys, start)


def test_a_deleted_lock_file_never_lets_a_second_run_open_the_journal(tmp_path, capsys):
    journal = tmp_path / "game.jsonl"
    with JournalLock(journal):
        for stray in tmp_path.glob("game.jsonl.*"):  # what a person might delete
            stray.unlink()
        line = refusal(capsys, [*RUN, "--display", f"headless:{tmp_path / 'screens'}",
                                "--journal", str(journal)])
        assert "another tablekit is using the journal" in line
    assert [path.name for path in tmp_path.iterdir()] == []   # no lock file beside it


def test_the_lock_follows_a_journal_moved_aside_by_recovery(tmp_path):
    journal = tmp_path / "game.jsonl"
    journal.write_text('{"type": "journal", "format": 99}\n')  # from the future: moved
    lock = JournalLock(journal).acquire()
    try:
        Session.open(journal).close()
        assert any(".damaged-" in path.name for path in tmp_path.iterdir())
        lock.follow()
        with pytest.raises(JournalBusy):
            JournalLock(journal).acquire()
    finally:
        lock.release()
    JournalLock(journal).acquire().release()


def test_a_web_port_in_use_leaves_no_file_behind(tmp_path, capsys):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        line = refusal(capsys, [*RUN, "--display", f"headless:{tmp_path / 'screens'}",
                                "--journal", str(tmp_path / "game.jsonl"), "--web",
                                f"127.0.0.1:{port}"])
    assert line.startswith("tablekit: web:")
    assert sorted(path.name for path in tmp_path.iterdir()) == []


def test_a_foreign_sqlite_file_is_refused_before_anything_is_written_to_it(tmp_path, capsys):
    notes = tmp_path / "notes.sqlite"
    other = sqlite3.connect(notes)
    other.execute("CREATE TABLE notes (text)")
    other.commit()
    other.close()
    before = notes.read_bytes()
    line = refusal(capsys, ["league", "--db", str(notes)])
    assert "another program's SQLite database (tables: notes)" in line
    assert notes.read_bytes() == before   # not switched to WAL, no table added
    assert sorted(path.name for path in tmp_path.iterdir()) == ["notes.sqlite"]
    picture = tmp_path / "league.png"
    picture.write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(200))
    assert "it looks like a PNG image" in refusal(capsys, ["league", "--db", str(picture)])


# --- other readers of files from outside ---------------------------------------------------

def test_a_journal_line_nested_too_deep_is_a_damaged_line_not_a_traceback(tmp_path, capsys):
    journal = tmp_path / "game.jsonl"
    journal.write_text('{"type": "journal", "format": 3}\n' + NESTED + "\n")
    for command in (["export", str(journal)], ["replay", str(journal)]):
        assert "line 2: not a JSON event" in refusal(capsys, command)


def test_a_rules_file_that_is_a_fifo_is_refused_in_one_line(tmp_path):
    rules = tmp_path / "house.toml"
    os.mkfifo(rules)
    line = one_line_refusal(run_cli(tmp_path, *RUN, "--display",
                                    f"headless:{tmp_path / 'screens'}", "--rules", str(rules),
                                    timeout=30))
    assert "not a regular file (a FIFO)" in line


def test_a_tile_set_description_of_the_wrong_shape_is_one_line(tmp_path):
    from tablekit.vision.tileset import TileSet, TileSetError

    (tmp_path / "tileset.json").write_text("[1, 2]")
    with pytest.raises(TileSetError, match="not a tile-set description"):
        TileSet.load(tmp_path)


def test_following_a_journal_that_is_a_fifo_never_blocks(tmp_path):
    from tablekit.game.session import JournalFollower

    fifo = tmp_path / "game.jsonl"
    os.mkfifo(fifo)
    follower = JournalFollower(fifo)
    previous = signal.signal(signal.SIGALRM, lambda *_: pytest.fail("blocked on the FIFO"))
    signal.alarm(10)
    try:
        assert follower.state().round_label == follower.state().round_label
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def test_recordings_damaged_at_random_are_refused_in_one_line(tmp_path):
    """A short run of benchmarks/recording_fuzz.py: no crash, no refusal of more than one
    line, no file outside a recording changed."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("recording_fuzz",
                                                  ROOT / "benchmarks" / "recording_fuzz.py")
    assert spec is not None and spec.loader is not None
    fuzz = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(fuzz)
    previous = signal.signal(signal.SIGALRM, lambda *_: pytest.fail("blocked (a FIFO?)"))
    signal.alarm(120)
    try:
        report = fuzz.fuzz_recordings(16, tmp_path, seed=1)
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
    assert (report["crashes"], report["lines_over_one"], report["odd_status"],
            report["outside_changed"]) == (0, 0, 0, 0), report["problems"]
    assert report["refused"] >= 8
