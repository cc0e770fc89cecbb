"""The files of a recording (docs/recordings.md) as they must be before tablekit plays,
checks, exports or anonymises one: ``recording.json`` (its manifest), each line of
``presses.jsonl`` and of ``frames.jsonl``. A recording is something handed on: a file
of the wrong shape is refused in one line (:class:`~tablekit.untrusted.Untrusted`),
never a traceback, and no file of it is read through a symlink (:func:`recording_file`).

>>> check_manifest({"format": 2, "flow": {"roster": ["Aki", "Ben"]}}, "m")["flow"]["roster"]
['Aki', 'Ben']
>>> def refused(check, value):
...     try:
...         check(value, "recording.json")
...     except Untrusted as error:
...         return str(error)
>>> refused(check_manifest, {"format": 2, "flow": [1]})
"recording.json: not a recording's manifest (flow: not an object, [1])"
>>> refused(check_manifest, {"format": 2, "flow": {"roster": 5}})
"recording.json: not a recording's manifest (flow.roster: not a list, 5)"
>>> refused(check_press, [0.5, 1])
'recording.json: not a press (not an object, [0.5, 1])'
>>> check_press({"t": 0.5, "button": "ok", "seat": None}, "p")["long"]
False
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

from pydantic import Field, StrictBool, StrictInt

from tablekit.untrusted import Untrusted
from tablekit.untrusted.fields import PlayerName, Text
from tablekit.untrusted.files import check_inside, read_bytes
from tablekit.untrusted.json_text import parse_json
from tablekit.untrusted.shapes import Shape, validated

MANIFEST_BYTES = 1 << 20       # a manifest is about 1 KB
LINES_BYTES = 64 << 20         # presses.jsonl, frames.jsonl, journal.jsonl: an evening's
LONGEST_ROSTER = 1000          # names a flow's roster may hold
SEATS = 4

Seconds = Annotated[float, Field(strict=True, ge=0, allow_inf_nan=False)]
Time = Annotated[float, Field(strict=True, allow_inf_nan=False)]
Count = Annotated[StrictInt, Field(ge=0, le=1 << 62)]
FileName = Text(255)


class FlowOptions(Shape):
    """The flow's options a recording was made with."""

    layout: Text(32) = "facing"
    seed: StrictInt | None = None
    roster: list[PlayerName] = Field(default_factory=list, max_length=LONGEST_ROSTER)


class End(Shape):
    """Where recording stopped (a manifest without one was cut)."""

    t: Seconds
    steps: Count | None = None


class Manifest(Shape):
    """``recording.json``: the fields tablekit reads back."""

    format: Annotated[StrictInt, Field(ge=1, le=1000)]
    journal_start: Count | None = 0
    flow: FlowOptions | None = None
    fps: Annotated[float, Field(strict=True, gt=0, le=1000, allow_inf_nan=False)] | None = None
    wall_start: Time | None = None
    end: End | None = None
    calibration: FileName | None = None
    tileset: FileName | None = None
    flow_note: FileName | None = None


class Press(Shape):
    """One line of ``presses.jsonl``: a button pressed at ``t`` (the recording's time)."""

    t: Seconds
    button: Text(32)
    seat: Annotated[StrictInt, Field(ge=0, lt=SEATS)] | None = None
    long: StrictBool = False
    pressed: Time = 0.0
    early: StrictBool = False
    step: Count | None = None


class FrameLine(Shape):
    """One line of ``frames.jsonl``: a frame read at ``t``, kept as ``file`` (None:
    not kept)."""

    t: Seconds
    file: Text(255) | None = None
    frame: Count | None = None


def check_manifest(value: Any, where: str) -> dict[str, Any]:
    """``value`` (a parsed ``recording.json``) as a dict whose fields tablekit reads have
    their types (a missing one at its default; a roster's names in NFC), or
    :class:`Untrusted` naming ``where`` and the first field at fault."""
    return validated(Manifest, value, where, "a recording's manifest")


def check_press(value: Any, where: str) -> dict[str, Any]:
    """One parsed line of ``presses.jsonl`` checked (see :class:`Press`)."""
    return validated(Press, value, where, "a press")


def check_frame_line(value: Any, where: str) -> dict[str, Any]:
    """One parsed line of ``frames.jsonl`` checked (see :class:`FrameLine`)."""
    return validated(FrameLine, value, where, "a frame's line")


def recording_file(folder: Path, name: str) -> Path:
    """``folder / name`` if no symlink is on the way to it and it stays in ``folder``
    (it need not exist), else :class:`Untrusted`: a recording handed on never makes
    tablekit read or write outside it.

    >>> recording_file(Path("rec"), "../journal.jsonl")
    Traceback (most recent call last):
    ...
    tablekit.untrusted.Untrusted: rec/../journal.jsonl: outside rec
    """
    return check_inside(Path(folder) / name, Path(folder))


def read_lines(path: Path, folder: Path, check: Any = None,
               limit: int = LINES_BYTES) -> list[Any]:
    """A recording's JSON-lines file (``folder``'s, read with no symlink followed): its
    records up to the first line that is not JSON (a torn tail, a power cut); each checked
    by ``check(value, where)`` when given (a line of the wrong shape is refused). No file:
    no lines.

    >>> import tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> _ = (folder / "presses.jsonl").write_text('{"t": 1, "button": "ok"}\\n[2]\\n')
    >>> read_lines(folder / "presses.jsonl", folder)
    [{'t': 1, 'button': 'ok'}, [2]]
    >>> read_lines(folder / "presses.jsonl", folder, check_press)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    tablekit.untrusted.Untrusted: .../presses.jsonl, line 2: not a press (not an object, [2])
    """
    try:
        data = read_bytes(path, limit=limit, inside=folder)
    except FileNotFoundError:
        return []
    records = []
    for number, line in enumerate(data.split(b"\n"), 1):
        try:
            value = parse_json(line)
        except Untrusted:
            break
        records.append(value if check is None else check(value, f"{path}, line {number}"))
    return records
