"""The examples of the README and the pages under docs/ run as written (those that are quick
and need no hardware, no ``../shared`` and no root), the README keeps its promises to a
newcomer (short, the keyboard and quitting early), and every page is linked."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from tablekit.cli import main

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text()
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")),
         *sorted((ROOT / "docs").glob("*/README.md"))]
NOT_HERE = ("tablekit demo", "tablekit run", "tablekit calibrate", "tablekit replay --check ../",
            "tablekit export ~/", "--reader vision", "tablekit doctor", "--camera picamera2",
            "tablekit web ", "tablekit replay ~/")
"""Run elsewhere: the demo and the wheel in .ci/wheel, run and doctor in test_app, test_systemd
and test_doctor, calibrate in test_calibration, the web page (it serves until stopped) in
test_web; the rest needs ../shared, a journal, minutes or a Pi's camera."""


def _examples() -> list[str]:
    text = "\n".join(page.read_text() for page in PAGES)
    blocks = re.findall(r"```sh\n(.*?)```", text, flags=re.S)
    lines = [line.split("  #")[0].strip() for block in blocks for line in block.splitlines()]
    return [line for line in lines if line.startswith("tablekit ")]


RUN = [line for line in _examples() if not any(part in line for part in NOT_HERE)]


def test_the_readme_has_examples_to_run() -> None:
    assert len(RUN) >= 20


def test_the_readme_is_short_and_says_how_to_play_and_quit_early() -> None:
    lines = README.splitlines()
    assert len(lines) <= 250
    first = "\n".join(lines[:80]).lower()
    assert "--buttons keyboard" in first and "quit" in first


def test_every_page_is_linked_from_the_readme_and_its_links_lead_somewhere() -> None:
    for page in PAGES[1:]:
        assert page.relative_to(ROOT).as_posix().replace("/README.md", "") in README, page
    for page in PAGES:
        for target in re.findall(r"\]\(([^)#:]+)(?:#[^)]*)?\)", page.read_text()):
            assert (page.parent / target).exists(), f"{page.name}: {target}"


def test_the_test_instructions_name_every_package_ci_installs() -> None:
    """``.ci/run`` installs what the tests need; the README and docs/development.md name the
    same packages in their ``sudo apt install`` line."""
    packages = re.findall(r"missing\+=\(([\w-]+)\)", (ROOT / ".ci" / "run").read_text())
    assert "mosquitto" in packages
    for page in (ROOT / "README.md", ROOT / "docs" / "development.md"):
        text = " ".join(page.read_text().split())
        line = re.search(r"sudo apt install ([\w\s-]+)", text)
        assert line and set(packages) <= set(line.group(1).split()), page.name


def test_the_readme_s_hands_exact_are_rows_of_the_figures() -> None:
    """A figure of hands read exactly in the README is one measured (docs/figures.md), not a
    sum of rows taken at different commits."""
    figures = " ".join((ROOT / "docs" / "figures.md").read_text().split())
    found = re.findall(r"(\d[\d,]*) of (\d[\d,]*) hands exact", " ".join(README.split()))
    assert found
    for right, of in found:
        assert f"{right} of {of} hands exact" in figures, f"{right} of {of}"


def test_no_page_says_three_player_games_are_refused_or_not_taken() -> None:
    """Three-player games are played (run), exported, simulated and kept in the league."""
    for page in PAGES:
        text = " ".join(page.read_text().split())
        for said in ("refuses three-player rules", "do not take three-player",
                     "takes four-player games only"):
            assert said not in text, f"{page.name}: {said}"


def test_a_time_measured_in_the_development_notes_is_dated() -> None:
    for paragraph in (ROOT / "docs" / "development.md").read_text().split("\n\n"):
        if re.search(r"\d+\.\d+ minutes", paragraph):
            assert re.search(r"\d{4}-\d{2}-\d{2}", paragraph), paragraph[:80]


@pytest.mark.parametrize("line", [
    pytest.param(line, marks=pytest.mark.slow) if "tablekit simulate" in line else line
    for line in RUN])   # a game on the simulated table takes a minute or more
def test_a_readme_example_runs(line: str, tmp_path: Path, monkeypatch) -> None:
    for name in ("tablekit", "tests", "examples"):
        (tmp_path / name).symlink_to(ROOT / name)
    monkeypatch.chdir(tmp_path)
    for before in _made_before(line):   # a file an earlier example writes
        assert main(shlex.split(before)[1:]) == 0
    assert main(shlex.split(line)[1:]) == 0


def _outputs(words: list[str]) -> set[str]:
    return {words[i + 1] for i, word in enumerate(words[:-1]) if word in ("--out", "--league")}


def _made_before(line: str) -> list[str]:
    """The last earlier example that writes a file ``line`` reads (by ``--out`` or
    ``--league``), to be run first."""
    words = shlex.split(line)
    reads = [word for word in words if word not in _outputs(words)]
    earlier = RUN[:RUN.index(line)]
    makers = [example for example in earlier if any(
        word.startswith(out) for out in _outputs(shlex.split(example)) for word in reads)]
    return makers[-1:]
