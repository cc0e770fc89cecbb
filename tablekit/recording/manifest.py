"""``recording.json``: what a recording is (format, tablekit version, what it keeps), and
the one-line refusals of a folder that is not one this tablekit can play.

>>> import tempfile
>>> folder = Path(tempfile.mkdtemp())
>>> read_manifest(folder / "nowhere")
Traceback (most recent call last):
...
tablekit.errors.BadInput: ...nowhere: no such recording (no recording.json in it)
>>> write_manifest(folder, {"format": FORMAT + 1})
>>> try:
...     read_manifest(folder)
... except BadInput as error:
...     print(str(error).split(": ", 1)[1])
a recording of format 3, newer than this tablekit plays (2): update tablekit
"""

from __future__ import annotations

import importlib.metadata
import json
from pathlib import Path
from typing import Any

from tablekit.errors import BadInput
from tablekit.files.atomic import write_atomic
from tablekit.untrusted import Untrusted
from tablekit.untrusted.files import read_bytes
from tablekit.untrusted.json_text import parse_json
from tablekit.untrusted.recording import MANIFEST_BYTES, check_manifest

FORMAT = 2
"""2: ``journal_times.jsonl`` added (format 1 recordings play as before)."""
MANIFEST = "recording.json"
PRESSES = "presses.jsonl"
JOURNAL = "journal.jsonl"
JOURNAL_TIMES = "journal_times.jsonl"
FLOW_NOTE = "flow.json"
CALIBRATION = "calibration.json"
TILESET = "tileset"


def tablekit_version() -> str:
    try:
        return importlib.metadata.version("tablekit")
    except importlib.metadata.PackageNotFoundError:
        return "unknown"


def write_manifest(folder: Path, manifest: dict[str, Any]) -> None:
    """Replace ``recording.json`` whole (a side file fsynced, renamed over it)."""
    text = json.dumps({"type": "tablekit-recording", **manifest}, indent=1) + "\n"
    replace_file(Path(folder), MANIFEST, text.encode("utf-8"))


def replace_file(folder: Path, name: str, data: bytes) -> None:
    """Replace the recording's file ``name`` with ``data``: written to a new side file
    (never through a symlink), fsynced and renamed over it, the folder fsynced
    (:func:`tablekit.files.atomic.write_atomic`), so a symlink in its place is replaced,
    never followed out of the recording.

    >>> import tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> outside = folder.parent / (folder.name + "-outside.jsonl")
    >>> _ = outside.write_text("theirs")
    >>> (folder / "journal.jsonl").symlink_to(outside)
    >>> replace_file(folder, "journal.jsonl", b"mine")
    >>> outside.read_text(), (folder / "journal.jsonl").is_symlink()
    ('theirs', False)
    """
    if Path(name).name != name or name in (".", ".."):
        raise BadInput(f"{name}: not a file's name in the recording")
    path = Path(folder) / name
    write_atomic(path, data, side=".new", mode=0o644)


def read_manifest(folder: Path) -> dict[str, Any]:
    """The recording's manifest, or :class:`BadInput` (one line) for a folder that holds
    none, a damaged one (not JSON, a field of the wrong type: :mod:`tablekit.untrusted.\
recording`), one of a newer format, or a symlink in its place."""
    path = Path(folder) / MANIFEST
    if not path.is_file() and not path.is_symlink():
        raise BadInput(f"{folder}: no such recording (no {MANIFEST} in it)")
    try:
        data = read_bytes(path, limit=MANIFEST_BYTES, inside=Path(folder))
    except Untrusted as error:
        raise BadInput(str(error)) from None
    try:
        manifest = parse_json(data)
    except Untrusted as error:
        raise BadInput(f"{path}: not a recording's manifest ({error})") from None
    version = manifest.get("format") if isinstance(manifest, dict) else None
    if isinstance(version, int) and version > FORMAT:
        raise BadInput(f"{folder}: a recording of format {version}, newer than this "
                       f"tablekit plays ({FORMAT}): update tablekit")
    try:
        return check_manifest(manifest, str(path))
    except Untrusted as error:
        raise BadInput(str(error)) from None


def journal_times(folder: Path) -> list[tuple[int, float]]:
    """``(journal size, time)`` of each line of the recording's ``journal_times.jsonl``
    (empty: none kept, format 1); a line that is not one is left out, so are sizes that do
    not rise (a damaged file answers what it can, never a traceback)."""
    from tablekit.untrusted.recording import read_lines

    out: list[tuple[int, float]] = []
    for line in read_lines(Path(folder) / JOURNAL_TIMES, Path(folder)):
        size, t = (line.get("bytes"), line.get("t")) if isinstance(line, dict) else (None, None)
        if (isinstance(size, int) and isinstance(t, int | float)
                and (not out or size > out[-1][0])):
            out.append((size, float(t)))
    return out


def require_new_folder(folder: Path) -> None:
    """A recording is written into a new or empty folder only.

    >>> require_new_folder(Path("."))
    Traceback (most recent call last):
    ...
    tablekit.errors.BadInput: .: not empty; record into a new folder
    """
    if folder.exists() and (not folder.is_dir() or any(folder.iterdir())):
        raise BadInput(f"{folder}: not empty; record into a new folder")
