"""The flow's note (:mod:`tablekit.flow.saved`, its shape in :mod:`tablekit.flow.note_shape`):
notes written by earlier tablekits (``tests/fixtures/notes/``, made by ``tests/note_cases.py``)
come back to the same screen; every stage's note goes round (written, read, written again the
same); a hostile note is refused whole, in one line."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from note_cases import CASES, OLD, reopened, screen_of

FIXTURES = Path(__file__).parent / "fixtures" / "notes"
SOURCES = {**{name: name for name in CASES}, **{name: source for name, (source, _) in OLD.items()}}


@pytest.mark.parametrize("name", sorted(SOURCES))
def test_a_note_of_an_earlier_tablekit_comes_back_to_the_same_screen(tmp_path, name):
    folder = tmp_path / name
    shutil.copytree(FIXTURES / name, folder)
    case = CASES[SOURCES[name]]
    note = json.loads((folder / "game.flow.json").read_text())
    flow = reopened(folder, case)
    try:
        assert not flow.note_damaged
        assert flow.stage.name == note["stage"]
    finally:
        flow.session.close()
    assert screen_of(folder, case) + "\n" == (folder / "screen.txt").read_text()
