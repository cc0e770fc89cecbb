"""Recordings damaged on purpose (issue #46): every command that reads a recording refuses
one of the wrong shape in one line with exit status 2, never a traceback, and never
writes outside it.

Usage: python benchmarks/recording_fuzz.py [--cases N] [--seed S] [--json OUT]

Each case copies a small recording (a camera-less hand: its manifest, journal, presses and
frames' lines) and damages one of its files in one way: a field of the manifest, a press or
a frame's line given a value of another type (a number, a list, an object, text, null,
NaN, a number of 400 digits, a list nested 100,000 deep), a whole file replaced by such a
value, by binary data or by a FIFO, a line appended that is not an object, a file made a
symlink to one outside the recording. Then ``recording play``, ``check``, ``export`` and
``anonymise`` are run on it in this process. Counted apart: a crash (an exception out of
the command, a traceback), a refusal of more than one line, an exit status other than 0,
1 or 2, a file outside the recording changed. One JSON object is printed last.

Kept in a module of its own so that it can join ``benchmarks/faults.py``'s families
(``fuzz_recordings(cases, folder, seed)`` returns the report that family prints).
The cost: about 0.1 s a case (one core), most of it ``recording play``.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import random
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

COMMANDS = ("play", "check", "export", "anonymise")
FILES = ("recording.json", "presses.jsonl", "frames.jsonl", "journal.jsonl",
         "journal_times.jsonl")
WRONG = (5, -1, 1.5, True, None, "x", "", [1], [[1, 2]], {"a": 1}, "NaN", "10" * 200,
         "NESTED", "\u202e\x1b[2J")
MANIFEST_FIELDS = ("format", "flow", "journal_start", "fps", "end", "wall_start",
                   "calibration", "tileset", "flow_note", "roster", "seed", "layout")
PRESS_FIELDS = ("t", "button", "seat", "long", "pressed", "early", "step")
FRAME_FIELDS = ("t", "file", "frame")


def make_recording(folder: Path) -> Path:
    """A small camera-less recording: a hand dealt, two presses, its end."""
    from tablekit.game.events import GameStarted, HandStarted
    from tablekit.game.journal import write_journal
    from tablekit.recording.manifest import FORMAT, write_manifest
    from tablekit.tiles import parse_tiles

    folder.mkdir(parents=True)
    write_journal(folder / "journal.jsonl",
                  [GameStarted(names=("Aki", "Ben", "Cho", "Dai")),
                   HandStarted(parse_tiles("3p")[0])], clock=lambda: 1796324400.0)
    write_manifest(folder, {"format": FORMAT, "journal_start": 0, "fps": None,
                            "flow": {"layout": "facing", "seed": None,
                                     "roster": ["Aki", "Ben", "Cho", "Dai"]},
                            "wall_start": 1796324400.0, "end": {"steps": 20, "t": 1.0},
                            "calibration": None, "tileset": None, "flow_note": None})
    (folder / "presses.jsonl").write_text(
        '{"t": 0.25, "step": 5, "early": false, "button": "ok", "seat": null, "long": false, '
        '"pressed": 0.25}\n{"t": 0.5, "step": 10, "early": false, "button": "riichi", '
        '"seat": 2, "long": false, "pressed": 0.5}\n')
    (folder / "frames.jsonl").write_text('{"frame": 1, "t": 0.1, "file": null}\n')
    (folder / "journal_times.jsonl").write_text('{"t": 0.0, "step": 0, "bytes": 10}\n')
    return folder


def _text(value: Any) -> str:
    """``value`` as JSON text (NaN and a list nested 100,000 deep written as such)."""
    if value == "NESTED":
        return "[" * 100_000 + "]" * 100_000
    if value == "NaN":
        return "NaN"
    return json.dumps(value)


def damage(folder: Path, rng: random.Random, outside: Path) -> str:
    """Damage one file of the recording in ``folder`` in one way; what was done."""
    name = rng.choice(FILES)
    path = folder / name
    how = rng.choice(("field", "field", "field", "whole", "line", "binary", "symlink",
                      "fifo"))
    value = rng.choice(WRONG)
    if how == "field" and name in ("recording.json", "presses.jsonl", "frames.jsonl"):
        lines = path.read_text(encoding="utf-8").splitlines() if name != "recording.json" \
            else [path.read_text(encoding="utf-8")]
        number = rng.randrange(len(lines))
        record = json.loads(lines[number])
        fields = {"recording.json": MANIFEST_FIELDS, "presses.jsonl": PRESS_FIELDS,
                  "frames.jsonl": FRAME_FIELDS}[name]
        field = rng.choice(fields)
        target = record["flow"] if field in ("roster", "seed", "layout") else record
        target[field] = "@@VALUE@@"
        lines[number] = json.dumps(record).replace('"@@VALUE@@"', _text(value))
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        return f"{name}: {field} = {_text(value)[:40]}"
    if how == "line" and name.endswith(".jsonl"):
        with path.open("a", encoding="utf-8") as file:
            file.write(_text(value) + "\n")
        return f"{name}: a line {_text(value)[:40]} appended"
    path.unlink(missing_ok=True)
    if how == "binary":
        path.write_bytes(b"\x89PNG\r\n\x1a\n" + rng.randbytes(200))
    elif how == "symlink":
        path.symlink_to(outside)
    elif how == "fifo":
        os.mkfifo(path)
    else:
        path.write_text(_text(value), encoding="utf-8")
        how = f"whole = {_text(value)[:40]}"
    return f"{name}: {how}"


def run_command(argv: list[str]) -> tuple[int | None, str, str]:
    """``tablekit argv`` in this process: its exit status (None: it raised), its standard
    error, and the exception's name when it raised."""
    from tablekit.cli import main

    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        try:
            return main(argv), err.getvalue(), ""
        except SystemExit as stop:
            return int(stop.code or 0), err.getvalue(), ""
        except Exception as error:  # a crash: counted, the fuzzing goes on
            return None, err.getvalue(), f"{type(error).__name__}: {error}"[:200]


def fuzz_recordings(cases: int, folder: Path, seed: int = 0) -> dict[str, Any]:
    """``cases`` damaged recordings, each run through every command; the report."""
    rng = random.Random(seed)
    base = make_recording(folder / "base")
    outside = folder / "outside.jsonl"
    record = folder / "record.jsonl"
    shutil.copyfile(base / "journal.jsonl", record)
    shutil.copyfile(base / "journal.jsonl", outside)
    kept = outside.read_bytes()
    report: dict[str, Any] = {"cases": cases, "runs": 0, "refused": 0, "crashes": 0,
                              "lines_over_one": 0, "odd_status": 0, "outside_changed": 0,
                              "problems": []}
    started = time.perf_counter()
    for number in range(cases):
        case = folder / f"case-{number}"
        shutil.copytree(base, case, symlinks=True)
        what = damage(case, rng, outside)
        for command in COMMANDS:
            extra = {"check": ["--against", str(record)],
                     "export": ["--out", str(folder / f"out-{number}.jsonl")],
                     "play": ["--journal", str(folder / f"played-{number}-{command}.jsonl")],
                     }.get(command, [])
            status, err, crash = run_command(["recording", command, str(case), *extra])
            report["runs"] += 1
            lines = err.strip().splitlines()
            problem = None
            if crash:
                report["crashes"] += 1
                problem = crash
            elif status not in (0, 1, 2):
                report["odd_status"] += 1
                problem = f"exit {status}"
            elif status == 2 and len(lines) != 1:
                report["lines_over_one"] += 1
                problem = f"{len(lines)} lines: {lines[:3]}"
            report["refused"] += status == 2
            if outside.read_bytes() != kept:
                report["outside_changed"] += 1
                problem = "a file outside the recording changed"
                outside.write_bytes(kept)
            if problem and len(report["problems"]) < 20:
                report["problems"].append(f"case {number} ({what}), {command}: {problem}")
        shutil.rmtree(case)
    report["seconds"] = round(time.perf_counter() - started, 1)
    return report


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cases", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="recording-fuzz-") as scratch:
        report = fuzz_recordings(args.cases, Path(scratch), args.seed)
    text = json.dumps(report)
    if args.json is not None:
        args.json.write_text(text + "\n")
    print(text)
    bad = report["crashes"] + report["lines_over_one"] + report["odd_status"]
    return 1 if bad or report["outside_changed"] else 0


if __name__ == "__main__":
    raise SystemExit(main())
