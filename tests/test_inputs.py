"""Inputs from outside: long text on the screen, and fuzzed rules files and rosters (no
traceback, no nonsense accepted)."""

from __future__ import annotations

import time

import pytest

pygame = pytest.importorskip("pygame")

from tablekit.display.text import ELLIPSIS, Fonts  # noqa: E402


@pytest.fixture(scope="module")
def fonts():
    return Fonts()


def test_a_32000_character_name_is_cut_in_a_few_measures(fonts):
    began = time.perf_counter()
    font, shown = fonts.fit("Aki " * 8000, 30, 300)
    assert time.perf_counter() - began < 0.5  # one character at a time: over a minute
    assert shown.endswith(ELLIPSIS) and shown.startswith("Aki Aki")
    assert font.size(shown)[0] <= 300


def one_at_a_time(font, text: str, width: float) -> str:
    """The cut as it was: a character off the end at a time (right, but quadratic)."""
    if font.size(text)[0] <= width:
        return text
    while text and font.size(text + ELLIPSIS)[0] > width:
        text = text[:-1]
    return text.rstrip() + ELLIPSIS if text else ""


@pytest.mark.parametrize("text", ["Thursday club at the corner café", "W" * 60, "a b " * 30,
                                  "x", "  spaced  out  " * 5])
@pytest.mark.parametrize("width", [4, 12, 40, 97, 250, 1000])
def test_the_cut_is_the_one_a_character_at_a_time_gives(fonts, text, width):
    font, shown = fonts.fit(text, 20, width)
    assert shown == one_at_a_time(font, text, width)


def test_every_screen_draws_32000_character_names_in_a_frame():
    from harness.input_fuzz import lengthened
    from tablekit.display.examples import example_screens
    from tablekit.display.render import render

    surface = pygame.Surface((800, 480))
    shown = ("scoreboard", "hand-result-win", "final", "evening", "league", "choose-players")
    for example in [e for e in example_screens() if e.name in shown]:
        model = lengthened(example.model)
        assert len(model.state.rules.title) == len(model.state.names[0]) == 32_000
        began = time.perf_counter()
        frame = render(model, surface)
        assert time.perf_counter() - began < 1.0, example.name  # it was 380 s
        drawn = [item for item in frame if item.kind == "text"]
        assert any(item.text.endswith(ELLIPSIS) for item in drawn), example.name
        assert all(len(item.text) < 1000 and item.rect.right <= 800 for item in drawn)


def test_fuzzed_rules_files_and_rosters_crash_nothing_and_let_no_nonsense_in(tmp_path):
    from harness.input_fuzz import fuzz_rosters, fuzz_rules

    for report in (fuzz_rules(50, tmp_path / "rules", seed=3),
                   fuzz_rosters(50, tmp_path / "rosters", seed=3)):
        assert (report.crashes, report.nonsense, report.unclear) == (0, 0, 0), report.problems
        assert report.accepted >= 3 and report.refused >= 20


def test_run_refuses_a_roster_that_cannot_seat_a_game_in_one_line(tmp_path, capsys):
    from tablekit.cli import main

    roster = tmp_path / "roster.txt"
    roster.write_text("Aki\nBen\nCho\n", encoding="utf-8")
    argv = ["run", "--roster", str(roster), "--journal", str(tmp_path / "game.jsonl"),
            "--camera", "none", "--buttons", "none", "--display", f"headless:{tmp_path}",
            "--frames", "1"]
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("tablekit: players: the roster ") and err.endswith(
        "names 3 players: a game needs 4") and len(err.splitlines()) == 1
    assert not (tmp_path / "game.jsonl").exists()
