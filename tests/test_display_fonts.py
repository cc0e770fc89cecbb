"""Players' names in any script: what the bundled font lacks comes from a system font (a
CJK one for Japanese names), and without one the name is drawn as it is with one line in
the log and in ``tablekit doctor`` saying what to install."""

from __future__ import annotations

import pygame
import pytest

from tablekit.commands import doctor
from tablekit.display import fallback_fonts
from tablekit.display.canvas import Canvas
from tablekit.display.examples import SANMA_GAME, example_screens
from tablekit.display.fallback_fonts import BUNDLED
from tablekit.display.render import render
from tablekit.display.text import Fonts, MixedFont

NAME = "ふりtん！"      # the sanma example game's: kana, a Latin letter, a full-width mark
MISSING = "\ue000"      # a private-use character no font draws: the missing-glyph box


@pytest.fixture(scope="module", autouse=True)
def dummy_video(pygame_dummy_video):
    """SDL's dummy driver for the whole module (tests/conftest.py)."""


@pytest.fixture
def no_cjk_font(monkeypatch):
    """A machine with no font for Japanese (nor any other fallback), the note not yet
    written."""
    monkeypatch.setattr(fallback_fonts, "CJK_FAMILIES", ("nosuchfontfamily",))
    monkeypatch.setattr(fallback_fonts, "BROAD_FAMILIES", ())
    monkeypatch.setattr(fallback_fonts, "CJK_FILES", ())
    monkeypatch.setattr(fallback_fonts, "_noted", [])


def pixels(font, text: str) -> bytes:
    return pygame.image.tobytes(font.render(text, True, (255, 255, 255)), "RGBA")


def test_a_japanese_name_is_drawn_with_no_missing_glyph_boxes():
    if fallback_fonts.cjk_font() is None:
        pytest.skip("no font for Japanese here (Debian: fonts-noto-cjk)")
    font, shown = Fonts().fit(NAME, 40, 1000)
    assert shown == NAME and isinstance(font, MixedFont)
    box = pixels(font, MISSING)
    for character in NAME:
        assert pixels(font, character) != box, character
    assert font.size(NAME)[0] > 0 and font.get_linesize() <= 40
    assert [run for _, run in font.runs(NAME)] == ["ふり", "t", "ん！"]


def test_the_sanma_example_names_come_out_on_the_screen(monkeypatch):
    """The final standings drawn with a font for Japanese differ from those drawn without
    one exactly in the lines with Japanese names."""
    if fallback_fonts.cjk_font() is None:
        pytest.skip("no font for Japanese here (Debian: fonts-noto-cjk)")
    model = next(e.model for e in example_screens(SANMA_GAME) if e.name == "final")
    shown, plain = pygame.Surface((800, 480)), pygame.Surface((800, 480))
    frame = render(model, shown)
    with monkeypatch.context() as patch:
        patch.setattr(fallback_fonts, "CJK_FAMILIES", ())
        patch.setattr(fallback_fonts, "BROAD_FAMILIES", ())
        patch.setattr(fallback_fonts, "CJK_FILES", ())
        patch.setattr(fallback_fonts, "_noted", [])
        render(model, plain)
    lacking = [item for item in frame.texts if fallback_fonts.lacking(item.text, BUNDLED)]
    assert len(lacking) == 3 and all("(" in item.text for item in lacking)
    for item in lacking:
        assert pygame.image.tobytes(shown.subsurface(item.rect), "RGB") != \
            pygame.image.tobytes(plain.subsurface(item.rect), "RGB"), item.text
    others = [item for item in frame.texts if item not in lacking]
    assert all(pygame.image.tobytes(shown.subsurface(item.rect), "RGB") ==
               pygame.image.tobytes(plain.subsurface(item.rect), "RGB") for item in others)


def test_latin_names_keep_the_bundled_font():
    font, shown = Fonts().fit("Zoë Ana-Maria", 40, 1000)
    assert shown == "Zoë Ana-Maria" and isinstance(font, pygame.font.Font)


def test_without_a_font_the_name_is_drawn_as_it_is_and_the_log_says_once(no_cjk_font,
                                                                          capsys):
    assert fallback_fonts.cjk_font() is None and fallback_fonts.fallback_fonts() == ()
    canvas = Canvas(pygame.Surface((800, 480)), 4.8)
    for _ in range(3):
        canvas.text(pygame.Rect(0, 0, 800, 60), NAME, 40, (255, 255, 255), name="name")
    assert [item.text for item in canvas.items] == [NAME] * 3
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 1 and "sudo apt install fonts-noto-cjk" in lines[0]


def test_doctor_says_which_package_draws_the_names(no_cjk_font):
    line = doctor.names_font().line()
    assert line == ("--   names font: no font draws Japanese or Chinese names: they show as "
                    "boxes -> sudo apt install fonts-noto-cjk")


def test_doctor_names_the_font_when_there_is_one():
    font = fallback_fonts.cjk_font()
    line = doctor.names_font().line()
    assert line.startswith("OK   names font:" if font else "--   names font:")
    assert (font or "fonts-noto-cjk") in line


def test_a_broken_font_file_draws_nothing_and_breaks_nothing(no_cjk_font, monkeypatch,
                                                             tmp_path, capsys):
    broken = tmp_path / "broken.ttf"
    broken.write_bytes(b"not a font" * 100)
    monkeypatch.setattr(fallback_fonts, "CJK_FILES", (str(broken),))
    assert fallback_fonts.fallback_fonts() == (str(broken),)
    assert fallback_fonts.cjk_font() is None
    canvas = Canvas(pygame.Surface((800, 480)), 4.8)
    canvas.text(pygame.Rect(0, 0, 800, 60), NAME, 40, (255, 255, 255), name="name")
    assert canvas.items[0].text == NAME
    assert "fonts-noto-cjk" in capsys.readouterr().err
