"""Which kind of game record a file holds, read from its first bytes (never its name).

A tablekit journal and mjai are both JSON lines, and a tenhou.net/6 log is JSON too, so
the commands that read records say what they found rather than what they expected.

>>> import tempfile, pathlib
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> def kind(text):
...     (folder / "f").write_text(text)
...     return record_format(folder / "f")
>>> kind('{"type": "journal", "format": 3}\\n{"n": 1, "type": "game_started"}\\n')
'a tablekit journal'
>>> kind('{"type":"start_game","names":["A","B","C","D"]}\\n')
'mjai JSON lines'
>>> kind('{"title": ["", ""], "name": ["A", "B", "C", "D"], "log": []}')
'a tenhou.net/6 JSON log'
>>> kind('<mjloggm ver="2.3"><GO type="169"/></mjloggm>')
'a Tenhou mjlog (XML)'
>>> kind("hello")
'an unknown kind of file'
>>> _ = (folder / "f").write_bytes(b"\\x89PNG\\r\\n\\x1a\\n" + bytes(range(256)))
>>> record_format(folder / "f")
'a PNG image'

A FIFO, a device or a folder is refused (:class:`~tablekit.untrusted.Untrusted`, one
line), never read:

>>> record_format("/dev/zero")
Traceback (most recent call last):
...
tablekit.untrusted.Untrusted: /dev/zero: not a regular file (a character device)
"""

from __future__ import annotations

from pathlib import Path

from tablekit.untrusted.files import SIGNATURES, open_regular
from tablekit.untrusted.json_text import parse_json

JOURNAL = "a tablekit journal"
MJAI = "mjai JSON lines"
TENHOU6 = "a tenhou.net/6 JSON log"
MJLOG = "a Tenhou mjlog (XML)"
GZIP = "a gzip-compressed file"
EMPTY = "an empty file"
UNKNOWN = "an unknown kind of file"
RECORD_LIMIT = 64 << 20  # bytes: the largest game record read (an mjlog is some 30 KB)
# files that are no record at all, by their first bytes ("a PNG image", "a ZIP archive")
OTHER_FILES = tuple(name for magic, name in SIGNATURES if magic != b"\x1f\x8b")

HEAD_BYTES = 1 << 16
# the first line of a journal: its header (formats 2 and 3) or a game's start (format 1)
_JOURNAL_FIRST = ("journal", "game_started")
_MJAI_FIRST = ("start_game", "start_kyoku")


def record_format(path: Path) -> str:
    """The kind of record in ``path`` (one of this module's names), from its first bytes."""
    with open_regular(path) as file:
        head = file.read(HEAD_BYTES)
    if head[:2] == b"\x1f\x8b":
        return GZIP
    other = next((name for magic, name in SIGNATURES if head.startswith(magic)), None)
    if other is not None:
        return other
    text = head.decode("utf-8-sig", errors="replace").lstrip()
    if not text:
        return EMPTY
    if text[0] == "<":
        return MJLOG if "<mjloggm" in text[:4096] else UNKNOWN
    if text[0] not in "{[":
        return UNKNOWN
    try:
        first = parse_json(text.split("\n", 1)[0])
    except ValueError:
        first = None
    if isinstance(first, dict):
        kind = first.get("type")
        if kind in _JOURNAL_FIRST:
            return JOURNAL
        if kind in _MJAI_FIRST:
            return MJAI
        if "log" in first:
            return TENHOU6
    return TENHOU6 if '"log"' in text else UNKNOWN
