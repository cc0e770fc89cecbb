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
