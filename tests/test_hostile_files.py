"""Files from outside that are not what they claim (issue #46): recordings with symlinks out
of them or fields of the wrong shape, FIFOs and devices named as files, a picture as a
record, a foreign SQLite file as the league, a deleted lock file. Each is refused in one
line with exit status 2 (never a traceback, a hang or a write outside the recording)."""

from __future__ import annotations

import json
from pathlib import Path

from test_recording import record_by_hand

from tablekit.cli import main
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
