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
import os
from pathlib import Path
from typing import Any

from tablekit.errors import BadInput

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
    path = Path(folder) / MANIFEST
    side = path.with_name(path.name + ".new")
    with open(side, "w", encoding="utf-8") as file:
        file.write(json.dumps({"type": "tablekit-recording", **manifest}, indent=1) + "\n")
        file.flush()
        os.fsync(file.fileno())
    os.replace(side, path)


def read_manifest(folder: Path) -> dict[str, Any]:
    """The recording's manifest, or :class:`BadInput` (one line) for a folder that holds
    none, a damaged one, or one of a newer format."""
    path = Path(folder) / MANIFEST
    if not path.is_file():
        raise BadInput(f"{folder}: no such recording (no {MANIFEST} in it)")
    try:
        manifest = json.loads(path.read_text(encoding="utf-8"))
        version = int(manifest["format"])
    except (ValueError, KeyError, TypeError, OSError) as error:
        raise BadInput(f"{path}: not a recording's manifest ({type(error).__name__})") from None
    if version > FORMAT:
        raise BadInput(f"{folder}: a recording of format {version}, newer than this "
                       f"tablekit plays ({FORMAT}): update tablekit")
    return manifest


def journal_times(folder: Path) -> list[tuple[int, float]]:
    """``(journal size, time)`` of each line of the recording's ``journal_times.jsonl``
    (empty: none kept, format 1); a line that is not one is left out, so are sizes that do
    not rise (a damaged file answers what it can, never a traceback)."""
    from tablekit.vision.frame_log import read_lines

    out: list[tuple[int, float]] = []
    for line in read_lines(Path(folder) / JOURNAL_TIMES):
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
