"""A file is replaced whole in one place: :mod:`tablekit.files.atomic`. A full card leaves
the old file and no side file (a journal written whole, a note, a PNG frame); no module of
tablekit renames a file over another by hand, but for the moves of a damaged file aside
listed below with their reasons."""

from __future__ import annotations

import ast
import errno
import os
from pathlib import Path
from unittest import mock

import pytest

from harness.write_faults import events
from tablekit.files.atomic import atomic_path, write_atomic
from tablekit.game.journal import JournalError, salvage_journal, write_journal

ROOT = Path(__file__).parents[1]
FULL = OSError(errno.ENOSPC, "No space left on device")

#: The renames that are not writes, by (file, function): each moves a damaged or refused
#: file aside under a new name, whole, to be looked at; nothing is written, so there is no
#: side file to fsync and the move itself is all there is to do.
MOVES_ASIDE = {
    ("tablekit/files/atomic.py", "atomic_path"): "the one rename of a side file over a file",
    ("tablekit/files/atomic.py", "replace_folder"): "a folder written whole moved in (a "
                                                    "tile set that learned from play)",
    ("tablekit/files/atomic.py", "recover_folder"): "that folder's old one moved back after a "
                                                    "cut",
    ("tablekit/flow/saved.py", "_checked"): "a flow note of a wrong shape kept as .damaged",
    ("tablekit/club/outbox.py", "_set_aside"): "an outbox file that cannot be sent, as .bad",
    ("tablekit/game/recovery.py", "_keep_aside"): "a damaged journal kept as .damaged-<time>",
}
RENAMES = {"replace", "rename", "renames", "move"}  # os.replace/rename/renames, shutil.move


def renames_in(path: Path) -> list[tuple[str, int]]:
    """The calls in ``path`` that rename a file: (enclosing function, line). A one-argument
    ``.replace(x)`` or any ``.rename(...)`` is a Path's (str.replace takes two), and
    ``os.``/``shutil.`` calls or names imported from them count whatever their arguments."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    imported = {alias.asname or alias.name for node in ast.walk(tree)
                if isinstance(node, ast.ImportFrom) and node.module in ("os", "shutil")
                for alias in node.names if alias.name in RENAMES}
    found: list[tuple[str, int]] = []

    def visit(node: ast.AST, where: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                visit(child, child.name)
                continue
            if isinstance(child, ast.Call) and _renames(child, imported):
                found.append((where, child.lineno))
            visit(child, where)

    visit(tree, "<module>")
    return found


def _renames(call: ast.Call, imported: set[str]) -> bool:
    function = call.func
    if isinstance(function, ast.Name):
        return function.id in imported
    if not isinstance(function, ast.Attribute) or function.attr not in RENAMES:
        return False
    owner = function.value
    if isinstance(owner, ast.Name) and owner.id in ("os", "shutil"):
        return True
    if isinstance(owner, ast.Name) and owner.id == "dataclasses":
        return False
    if function.attr == "rename":
        return True
    return function.attr == "replace" and len(call.args) == 1 and not call.keywords


def test_no_module_renames_a_file_over_another_by_hand():
    sites = {(path.relative_to(ROOT).as_posix(), function): line
             for path in sorted((ROOT / "tablekit").rglob("*.py"))
             for function, line in renames_in(path)}
    unknown = [f"{name}:{line} ({function})" for (name, function), line in sites.items()
               if (name, function) not in MOVES_ASIDE]
    assert unknown == [], ("write files whole with tablekit.files.atomic (write_atomic, "
                           "atomic_path); a move aside that is no write goes in MOVES_ASIDE "
                           f"with its reason: {unknown}")
    assert sorted(set(MOVES_ASIDE) - set(sites)) == []  # no stale entry


def test_the_check_sees_each_way_of_renaming(tmp_path):
    source = tmp_path / "m.py"
    source.write_text("import os, shutil\nfrom os import replace as swap\n"
                      "def a(p, q):\n    os.replace(p, q)\n"
                      "def b(p, q):\n    p.rename(q)\n"
                      "def c(p, q):\n    p.replace(q)\n"
                      "def d(p, q):\n    shutil.move(p, q)\n"
                      "def e(p, q):\n    swap(p, q)\n"
                      "def f(s, state):\n    s.replace('_', ' '); dataclasses.replace(state)\n")
    assert [function for function, _ in renames_in(source)] == ["a", "b", "c", "d", "e"]


def test_atomic_path_replaces_the_file_and_leaves_no_side_file(tmp_path):
    path = tmp_path / "a.txt"
    path.write_text("old")
    with atomic_path(path, side=".new") as side:
        assert side == tmp_path / "a.txt.new" and not side.exists()
        side.write_text("new")
    assert path.read_text() == "new" and sorted(tmp_path.iterdir()) == [path]


def test_a_full_card_in_atomic_path_leaves_the_old_file_and_no_side_file(tmp_path):
    path = tmp_path / "a.txt"
    path.write_text("old")
    (tmp_path / "a.txt.part").write_text("stale")  # from a power cut: removed first
    with mock.patch("os.fsync", side_effect=FULL), pytest.raises(OSError, match="No space"), \
            atomic_path(path) as side:
        side.write_text("new")
    assert path.read_text() == "old" and sorted(tmp_path.iterdir()) == [path]


def test_a_symlink_left_as_the_side_file_is_never_written_through(tmp_path):
    path, elsewhere = tmp_path / "a.txt", tmp_path / "elsewhere"
    path.write_text("old")
    elsewhere.write_text("keep")
    with pytest.raises(OSError), atomic_path(path) as side:
        side.symlink_to(elsewhere)
    assert path.read_text() == "old" and elsewhere.read_text() == "keep"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.txt", "elsewhere"]


def test_without_sync_nothing_is_fsynced(tmp_path):
    with mock.patch("os.fsync", side_effect=FULL), \
            atomic_path(tmp_path / "b.png", sync=False, spare=".b.partial.png") as side:
        side.write_bytes(b"png")
    write_atomic(tmp_path / "c", "c", sync=False)  # (os.fsync is real again: not called)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["b.png", "c"]


def test_a_journal_written_whole_on_a_full_card_leaves_the_old_one(tmp_path):
    game = events()
    path = tmp_path / "game.jsonl"
    write_journal(path, game[:10], clock=lambda: 0.0)
    before = path.read_bytes()
    with mock.patch("os.fsync", side_effect=FULL), pytest.raises(JournalError):
        write_journal(path, game[:20], clock=lambda: 0.0)
    assert path.read_bytes() == before and sorted(tmp_path.iterdir()) == [path]
    write_journal(path, game[:20], clock=lambda: 0.0)
    assert salvage_journal(path).events == game[:20]
    assert sorted(os.listdir(tmp_path)) == ["game.jsonl"]
