"""Three players (sanma) at any three of the four seat boxes: each player's panel on the
side of the box they press, in both layouts, the centre information on the empty side."""

from __future__ import annotations

import itertools
from dataclasses import replace

import pygame
import pytest

from tablekit.cli import main
from tablekit.display import theme
from tablekit.display.examples import SANMA_GAME, example_screens
from tablekit.display.layout import board, screen_areas
from tablekit.display.legend import strip_legend
from tablekit.display.model import ScreenModel
from tablekit.display.render import render
from tablekit.flow import Flow
from tablekit.flow.boxes import parse_boxes
from tablekit.game.session import Session
from tablekit.rules.presets import TENHOU_SANMA

SIZES = ((800, 480), (1920, 1080))
LAYOUTS = ("facing", "centre")
SIDES = ("bottom", "right", "top", "left")   # the East, South, West and North boxes'
TOWARDS = ((0, 1), (1, 0), (0, -1), (-1, 0))  # each side's direction from the middle
# every three boxes, in the order of the four-player seats and turned round the table
SEATINGS = [*itertools.combinations(range(4), 3), (2, 3, 0), (3, 1, 0)]


@pytest.fixture(scope="module", autouse=True)
def dummy_video(pygame_dummy_video):
    """SDL's dummy driver for the whole module (tests/conftest.py)."""


@pytest.fixture(scope="module")
def scoreboard() -> ScreenModel:
    """The three-player example game in play."""
    return next(e.model for e in example_screens(SANMA_GAME) if e.name == "scoreboard")


def content(model: ScreenModel, size: tuple[int, int]) -> pygame.Rect:
    unit = theme.unit(size)
    return screen_areas(size, unit, bool(model.warnings), bool(model.message),
                        bool(strip_legend(model)))[1]


def side_of(rect: pygame.Rect, area: pygame.Rect) -> str:
    """The side of ``area`` that ``rect`` lies towards."""
    dx = (rect.centerx - area.centerx) / area.width
    dy = (rect.centery - area.centery) / area.height
    if abs(dy) > abs(dx):
        return "bottom" if dy > 0 else "top"
    return "right" if dx > 0 else "left"


@pytest.mark.parametrize("boxes", SEATINGS)
@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("size", SIZES)
def test_each_panel_is_on_the_side_of_its_players_box(scoreboard, boxes, layout, size):
    model = replace(scoreboard, layout=layout, boxes=boxes)
    frame = render(model, pygame.Surface(size))
    area = content(model, size)
    sides = [side_of(frame.rect(f"seat{seat}.panel"), area) for seat in range(3)]
    assert sides == [SIDES[box] for box in boxes]
    assert frame.get("seat3.panel") is None
    if layout == "centre":   # each panel turned to face its player: the wind row outermost
        for seat, box in enumerate(boxes):
            wind = frame.rect(f"seat{seat}.wind").center
            points = frame.rect(f"seat{seat}.points").center
            (dx, dy) = TOWARDS[box]
            assert (wind[0] - points[0]) * dx + (wind[1] - points[1]) * dy < 0, (seat, box)
    else:
        for seat in range(3):
            assert frame.rect(f"seat{seat}.wind").centery < frame.rect(f"seat{seat}.points").top


@pytest.mark.parametrize("boxes", SEATINGS)
@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("size", SIZES)
def test_the_centre_takes_the_empty_boxs_side(scoreboard, boxes, layout, size):
    model = replace(scoreboard, layout=layout, boxes=boxes)
    frame = render(model, pygame.Surface(size))
    area = content(model, size)
    unit = theme.unit(size)
    centre = board(layout, area, unit, 3, boxes).centre
    four = board(layout, area, unit, 4).centre
    empty = next(box for box in range(4) if box not in boxes)
    dx, dy = TOWARDS[empty]
    assert (centre.centerx - four.centerx) * dx + (centre.centery - four.centery) * dy > 0
    for seat in range(3):
        assert not frame.rect(f"seat{seat}.panel").colliderect(centre)
    for item in ("centre.round", "centre.deposits", "centre.dora", "centre.rules"):
        assert centre.contains(frame.rect(item)), item
    texts = frame.texts
    for i, first in enumerate(texts):
        for second in texts[i + 1:]:
            assert not first.rect.colliderect(second.rect), (first.name, second.name)
    assert all(pygame.Rect((0, 0), size).contains(item.rect) for item in frame)


def test_four_players_ignore_the_boxes(scoreboard):
    four = next(e.model for e in example_screens() if e.name == "scoreboard")
    frame = render(four, pygame.Surface(SIZES[0]))
    moved = render(replace(four, boxes=(1, 2, 3)), pygame.Surface(SIZES[0]))
    assert [frame.rect(f"seat{seat}.panel") for seat in range(4)] == \
        [moved.rect(f"seat{seat}.panel") for seat in range(4)]


def test_the_flow_shows_the_boxes_of_run_seat_boxes(tmp_path):
    flow = Flow(Session.open(tmp_path / "game.jsonl"), boxes=parse_boxes("e,w,n"))
    flow.start_game(TENHOU_SANMA, ("Ana", "Ben", "Chie"))
    model = flow.screen()
    assert model.boxes == (0, 2, 3)
    frame = render(model, pygame.Surface(SIZES[0]))
    area = content(model, SIZES[0])
    assert [side_of(frame.rect(f"seat{seat}.panel"), area) for seat in range(3)] == \
        ["bottom", "top", "left"]


def test_screens_draws_three_players_at_the_seat_boxes_given(scoreboard, tmp_path, capsys):
    assert main(["screens", "--players", "3", "--seat-boxes", "e,w,n", "--out",
                 str(tmp_path)]) == 0
    picture = pygame.image.load(str(tmp_path / "scoreboard-facing-sanma.png"))
    expected = pygame.Surface(SIZES[0])
    render(replace(scoreboard, boxes=(0, 2, 3)), expected)
    assert pygame.image.tobytes(picture, "RGB") == pygame.image.tobytes(expected, "RGB")
    capsys.readouterr()
    for args, words in ((["--players", "3", "--seat-boxes", "e,e,w"], "named twice"),
                        (["--seat-boxes", "e,w,n"], "for three players")):
        assert main(["screens", *args, "--out", str(tmp_path / "no")]) == 2
        err = capsys.readouterr().err
        assert words in err and len(err.splitlines()) == 1 and "Traceback" not in err
