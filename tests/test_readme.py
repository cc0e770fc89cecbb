"""The README's examples run as written (those that are quick and need no hardware, no
``../shared`` and no root), and name only files that exist."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from tablekit.cli import main

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text()
NOT_HERE = ("tablekit demo", "tablekit run", "tablekit calibrate", "tablekit replay --check ../",
            "tablekit export ~/", "--reader vision", "tablekit doctor")
"""Run elsewhere: the demo and the wheel in .ci/wheel, run and doctor in test_app, test_systemd
and test_doctor, calibrate in test_calibration; the rest needs ../shared, a journal or minutes."""


def _examples() -> list[str]:
    blocks = re.findall(r"```sh\n(.*?)```", README, flags=re.S)
    lines = [line.split("  #")[0].strip() for block in blocks for line in block.splitlines()]
    return [line for line in lines if line.startswith("tablekit ")]


RUN = [line for line in _examples() if not any(part in line for part in NOT_HERE)]


def test_the_readme_has_examples_to_run() -> None:
    assert len(RUN) >= 8


@pytest.mark.parametrize("line", RUN)
def test_a_readme_example_runs(line: str, tmp_path: Path, monkeypatch) -> None:
    for name in ("tablekit", "tests", "examples"):
        (tmp_path / name).symlink_to(ROOT / name)
    monkeypatch.chdir(tmp_path)
    if "snap/frame.png" in line:   # the README makes it with the line before
        before = next(example for example in RUN if "--out snap/" in example)
        assert main(shlex.split(before)[1:]) == 0
    assert main(shlex.split(line)[1:]) == 0


def test_files_the_readme_names_exist() -> None:
    named = set(re.findall(r"(?<![\w/.~])((?:tablekit|tests|examples|docs|tools|hardware)/"
                           r"[\w./-]+\.(?:xml|json|toml|jpg|png|md|sh|py|service))", README))
    assert named and [path for path in sorted(named) if not (ROOT / path).exists()] == []


def test_the_club_file_shown_is_the_one_committed() -> None:
    shown = re.search(r"```toml\n(.*?)```", README, flags=re.S)
    assert shown and shown.group(1) == (ROOT / "examples" / "club.toml").read_text()
