"""Removing the players' names from a recording (``tablekit recording anonymise DIR``), so
that it can be handed to the project.

The names are those of every game's start in the journal (``names``) and of the flow's
roster (the manifest's and the flow's note): each becomes ``Player 1``, ``Player 2``, ...
in the order first met, wherever a JSON string in ``journal.jsonl``, ``recording.json`` or
``flow.json`` is exactly that name. The journal's lines are sealed again (their checksums
would fail otherwise), and the manifest's ``journal_start`` and the sizes in
``journal_times.jsonl`` moved to the same lines, so the recording plays back, and is enrolled
from, as before. Free text that merely contains a name (a penalty's
``reason``) is not changed: the count of such lines is reported for a person to read.

>>> _replaced({"names": ["Ann", "Bo"], "x": [{"y": "Ann"}], "z": "Annie"}, {"Ann": "P1"})
{'names': ['P1', 'Bo'], 'x': [{'y': 'P1'}], 'z': 'Annie'}
"""

from __future__ import annotations

import json
from itertools import accumulate
from pathlib import Path
from typing import Any

from tablekit.errors import BadInput
from tablekit.game.journal import seal, unseal
from tablekit.recording.manifest import (
    FLOW_NOTE,
    JOURNAL,
    JOURNAL_TIMES,
    read_manifest,
    replace_file,
    write_manifest,
)
from tablekit.untrusted import Untrusted
from tablekit.untrusted.files import read_bytes
from tablekit.untrusted.json_text import parse_json
from tablekit.untrusted.recording import LINES_BYTES, read_lines, recording_file


def anonymise(folder: Path) -> tuple[int, int]:
    """Replace the players' names in the recording in ``folder``; how many names were
    replaced, and how many journal lines still hold one in free text. No file of the
    recording is read or written through a symlink (a journal linked from elsewhere is
    refused, never rewritten), and a flow's note of the wrong shape is refused in one line,
    before anything is changed."""
    folder = Path(folder)
    manifest = read_manifest(folder)
    journal = recording_file(folder, JOURNAL)
    lines = _read(folder, JOURNAL).splitlines(keepends=True)
    records = [_record(line) for line in lines]
    note = recording_file(folder, FLOW_NOTE)
    flow = _flow_note(folder)
    times = read_lines(recording_file(folder, JOURNAL_TIMES), folder)
    names: dict[str, str] = {}
    for found in [*(r[0].get("names") or () for r in records if r and r[0].get(
            "type") == "game_started"), (manifest.get("flow") or {}).get("roster") or (),
                  (flow or {}).get("roster") or ()]:
        for name in found if isinstance(found, list | tuple) else ():
            if isinstance(name, str) and name and name not in names and not (
                    name.startswith("Player ") and name[7:].isdigit()):  # done before
                names[name] = f"Player {len(names) + 1}"
    start, before, after, told = int(manifest.get("journal_start") or 0), 0, 0, 0
    out = []
    for line, record in zip(lines, records, strict=True):
        new = line
        if record is not None:
            data, sealed = record
            text = json.dumps(_replaced(data, names), ensure_ascii=False)
            new = (seal(text) if sealed else text).encode("utf-8") + b"\n"
            told += any(name in text for name in names)
        if before < start:
            before += len(line)
            after += len(new)
        out.append(new)
    if before != start:
        raise BadInput(f"{folder}: journal_start {start} is not at a line's start; "
                       "not changed")
    if lines:
        replace_file(folder, journal.name, b"".join(out))
        _move_times(folder, times, lines, out)
    if flow is not None:
        replace_file(folder, note.name,
                     json.dumps(_replaced(flow, names), ensure_ascii=False).encode("utf-8"))
    write_manifest(folder, _replaced({**manifest, "journal_start": after}, names))
    return len(names), told


def _read(folder: Path, name: str) -> bytes:
    """The recording's file ``name`` (empty: none), read with no symlink followed."""
    try:
        return read_bytes(folder / name, limit=LINES_BYTES, inside=folder)
    except FileNotFoundError:
        return b""


def _flow_note(folder: Path) -> dict[str, Any] | None:
    """The recording's copy of the flow's note (None: none), a JSON object whose roster,
    if any, is a list of names; else :class:`BadInput`."""
    data = _read(folder, FLOW_NOTE)
    if not data:
        return None
    where = folder / FLOW_NOTE
    try:
        flow = parse_json(data, max_bytes=LINES_BYTES)
    except Untrusted as error:
        raise BadInput(f"{where}: not a flow's note ({error}); not changed") from None
    roster = flow.get("roster", []) if isinstance(flow, dict) else None
    if not isinstance(roster, list) or not all(isinstance(name, str) for name in roster):
        raise BadInput(f"{where}: not a flow's note (not an object with a list of names "
                       "as its roster); not changed")
    return flow


def _move_times(folder: Path, times: list[Any], lines: list[bytes], out: list[bytes]
                ) -> None:
    """The journal's sizes in ``journal_times.jsonl`` (its lines ``times``) moved from the
    end of a line of ``lines`` to the end of the same line of ``out``."""
    if not times:
        return
    moved = dict(zip(accumulate(map(len, lines)), accumulate(map(len, out)), strict=True))
    replace_file(folder, JOURNAL_TIMES, "".join(
        json.dumps(_moved(line, moved)) + "\n" for line in times).encode("utf-8"))


def _moved(line: Any, moved: dict[int, int]) -> Any:
    """One line of ``journal_times.jsonl`` with its size moved (a damaged one as it was).

    >>> _moved({"t": 2.0, "bytes": 90}, {90: 84}), _moved([1], {})
    ({'t': 2.0, 'bytes': 84}, [1])
    """
    size = line.get("bytes") if isinstance(line, dict) else None
    if not isinstance(size, int) or size not in moved:
        return line
    return {**line, "bytes": moved[size]}


def _record(line: bytes) -> tuple[dict[str, Any], bool] | None:
    """A journal line's JSON object and whether it was sealed (None: a torn line)."""
    body = line.rstrip(b"\n")
    try:
        sealed = body.endswith(b'"}') and b', "crc": "' in body[-20:]
        data = parse_json(unseal(body) if sealed else body)
    except ValueError:
        return None
    return (data, sealed) if isinstance(data, dict) else None


def _replaced(value: Any, names: dict[str, str]) -> Any:
    """``value`` with every string that is exactly a name replaced."""
    if isinstance(value, str):
        return names.get(value, value)
    if isinstance(value, list):
        return [_replaced(item, names) for item in value]
    if isinstance(value, dict):
        return {key: _replaced(item, names) for key, item in value.items()}
    return value
