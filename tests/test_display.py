"""The scoreboard, checked by pixels and by the record of what was drawn where.

Every example screen (states replayed from the committed real game) is rendered at 800x480
and 1920x1080 in both layouts with SDL's dummy video driver; the checks that hold for any
table (``boards``) run on the screens of a three-player (sanma) game too.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from dataclasses import replace

import pygame
import pytest
from conftest import ROOT

from tablekit.cli import main
from tablekit.display import legend, theme
from tablekit.display.backends import DisplayError, PngDisplay, WindowDisplay, open_display
from tablekit.display.canvas import Canvas, Frame
from tablekit.display.examples import FIXTURE_GAME, SANMA_GAME, UNFAMILIAR, example_screens
from tablekit.display.layout import LEGEND, board, screen_areas
from tablekit.display.legend import strip_legend
from tablekit.display.model import Menu, Mode, ScreenModel
from tablekit.display.render import render
from tablekit.display.seat_panel import draw_seat_panel, seat_views
from tablekit.display.tile_images import TILE_DIR, tile_picture
from tablekit.display.win_block import ENTERED
from tablekit.flow import menu_items
from tablekit.game.events import BadEvent, Discard
from tablekit.game.reducer import apply
from tablekit.game.state import Phase
from tablekit.tiles import WIND_NAMES, parse_tiles
from tablekit.vision.familiar import WARNING

SIZES = ((800, 480), (1920, 1080))
LAYOUTS = ("facing", "centre")
GALLERY = ROOT / "docs" / "screens"
NUMBERS = re.compile(r"^(seat\d\.(points|diff\d|sticks\.\d+)|pay\.(delta|now)\d"
                     r"|result\.(delta|points|sticks)\d|final\.(points|score)\d"
                     r"|win\d\.(value|han\d|indicator_han\d|fu_points\d))$")
SEAT_NUMBER = re.compile(r"\bseats? \d")
RESULT_SCREENS = ("win-confirm", "win-confirm-double-ron", "hand-result-win")


@pytest.fixture(scope="module", autouse=True)
def dummy_video(pygame_dummy_video):
    """SDL's dummy driver for the whole module (tests/conftest.py)."""


def rendered(game) -> dict[tuple[str, str, tuple[int, int]], tuple]:
    """(name, layout, size) -> (model, surface, frame) for every example screen of ``game``."""
    out = {}
    for layout in LAYOUTS:
        for example in example_screens(game, layout):
            for size in SIZES:
                surface = pygame.Surface(size)
                out[example.name, layout, size] = (example.model, surface,
                                                   render(example.model, surface))
    return out


@pytest.fixture(scope="module")
def screens(dummy_video) -> dict[tuple[str, str, tuple[int, int]], tuple]:
    """The four-player example game's screens (see :func:`rendered`)."""
    return rendered(FIXTURE_GAME)


@pytest.fixture(scope="module")
def sanma(dummy_video) -> dict[tuple[str, str, tuple[int, int]], tuple]:
    """The three-player (sanma) example game's screens."""
    return rendered(SANMA_GAME)


@pytest.fixture(params=("four", "sanma"))
def boards(request) -> dict[tuple[str, str, tuple[int, int]], tuple]:
    """Each example game's screens in turn: four players, then three."""
    return request.getfixturevalue("screens" if request.param == "four" else "sanma")


def shown(screens, name: str, layout: str, size: tuple[int, int]
          ) -> tuple[ScreenModel, pygame.Surface, Frame]:
    return screens[name, layout, size]


def share_of(surface: pygame.Surface, rect: pygame.Rect, colour: tuple[int, int, int],
             tolerance: int = 12) -> float:
    """The share of ``rect``'s pixels within ``tolerance`` of ``colour``."""
    mask = pygame.mask.from_threshold(surface.subsurface(rect), colour,
                                      (tolerance, tolerance, tolerance, 255))
    return mask.count() / max(rect.width * rect.height, 1)


def centre_area(model: ScreenModel, size: tuple[int, int]) -> pygame.Rect:
    unit = theme.unit(size)
    _, content, _, _ = screen_areas(size, unit, bool(model.warnings), bool(model.message),
                                    bool(strip_legend(model)))
    return board(model.layout, content, unit, model.state.players, model.boxes).centre


# -- every screen ------------------------------------------------------------------------

def test_no_text_overlaps_and_nothing_leaves_the_screen(boards):
    for (name, layout, size), (_, _, frame) in boards.items():
        texts = frame.texts
        assert texts, name
        for i, first in enumerate(texts):
            for second in texts[i + 1:]:
                assert not first.rect.colliderect(second.rect), (
                    f"{name} {layout} {size}: {first.name} {first.text!r} overlaps "
                    f"{second.name} {second.text!r}")
        screen = pygame.Rect((0, 0), size)
        assert all(screen.contains(item.rect) for item in frame), (name, layout, size)
        numbers = [t for t in texts if NUMBERS.match(t.name)]
        assert not any(t.text.endswith("…") for t in numbers), (name, layout, size)


@pytest.mark.parametrize("name", ["scoreboard", "differences", "win-confirm", "final"])
def test_long_names_big_numbers_and_five_dora_still_fit(boards, name):
    """A harder table than the example game: the same checks at 1024x600 and 480x320."""
    model = boards[name, "facing", SIZES[0]][0]
    players = model.state.players
    state = replace(model.state, names=("Alexandria-Konstantinopel",) * players, honba=12,
                    sticks=7, scores=(-12300, 123400, 8800, -100)[:players],
                    dora=tuple(parse_tiles("19m5z0p7z")))
    model = replace(model, state=state, warnings=("Camera lost: " + "check the cable " * 5,),
                    message="a status message far too long for one line " * 3)
    for layout in LAYOUTS:
        for size in ((1024, 600), (480, 320)):
            frame = render(replace(model, layout=layout), pygame.Surface(size))
            texts = frame.texts
            assert not any(a.rect.colliderect(b.rect) for i, a in enumerate(texts)
                           for b in texts[i + 1:]), (layout, size)
            assert not any(t.text.endswith("…") for t in texts if NUMBERS.match(t.name))
            assert all(pygame.Rect((0, 0), size).contains(item.rect) for item in frame)


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("size", SIZES)
def test_points_are_at_least_a_twelfth_of_the_screen_high(boards, layout, size):
    for name in ("scoreboard", "differences", "warnings", "tenpai-entry"):
        model, _, frame = shown(boards, name, layout, size)
        for seat in range(model.state.players):
            rect = frame.rect(f"seat{seat}.points")
            turned = layout == "centre" and seat % 2 == 1
            height = rect.width if turned else rect.height
            assert height >= size[1] / 12, (name, seat, rect)
            assert frame.text_of(f"seat{seat}.points") == f"{model.state.scores[seat]:,}"


# -- the scoreboard ----------------------------------------------------------------------

@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("size", SIZES)
def test_the_dealer_marker_sits_in_the_dealers_panel(boards, layout, size):
    model, surface, frame = shown(boards, "scoreboard", layout, size)
    dealer = model.state.dealer
    badges = [item for item in frame if item.name.endswith(".dealer")]
    assert [b.name for b in badges] == [f"seat{dealer}.dealer"]
    assert frame.rect(f"seat{dealer}.panel").contains(badges[0].rect)
    assert share_of(surface, badges[0].rect, theme.GOLD) > 0.4


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("size", SIZES)
def test_riichi_sticks_lie_in_the_panels_of_the_players_in_riichi(screens, layout, size):
    model, surface, frame = shown(screens, "scoreboard", layout, size)
    in_riichi = [s for s, seat in enumerate(model.state.seats) if seat.riichi]
    assert len(in_riichi) == 2
    for seat in range(4):
        stick = frame.get(f"seat{seat}.riichi")
        assert (stick is not None) == (seat in in_riichi)
        if stick is not None:
            assert frame.rect(f"seat{seat}.panel").contains(stick.rect)
            assert share_of(surface, stick.rect, theme.STICK) > 0.5
            assert surface.get_at(stick.rect.center)[:3] == theme.STICK_DOT


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("size", SIZES)
def test_dora_indicators_are_tile_pictures_in_the_centre(boards, layout, size):
    model, surface, frame = shown(boards, "scoreboard", layout, size)
    tiles = [item for item in frame if item.kind == "tile" and item.name.startswith("centre")]
    assert [t.text for t in tiles] == [t.code for t in model.state.dora]
    centre = centre_area(model, size)
    for item in tiles:
        assert centre.contains(item.rect)
        expected = pygame.Surface(item.rect.size)
        expected.fill(theme.BACKGROUND)
        expected.blit(tile_picture(item.text, item.rect.height), (0, 0))
        assert pygame.image.tobytes(surface.subsurface(item.rect), "RGB") == \
            pygame.image.tobytes(expected, "RGB")
        assert share_of(surface, item.rect, (240, 235, 228), 20) > 0.3  # the ivory face
    assert frame.text_of("centre.round") == model.state.round_label
    assert frame.text_of("centre.wall") == f"Wall {model.state.wall}"
    assert frame.text_of("centre.rules") == model.state.rules.title


@pytest.mark.parametrize("size", SIZES)
def test_the_centre_layout_turns_each_panel_to_its_player(boards, size):
    model, surface, frame = shown(boards, "scoreboard", "centre", size)
    players = model.state.players
    wind = {seat: frame.rect(f"seat{seat}.wind").center for seat in range(players)}
    points = {seat: frame.rect(f"seat{seat}.points").center for seat in range(players)}
    assert wind[0][1] < points[0][1]     # upright: the wind row above the points
    assert wind[1][0] < points[1][0]     # 90 degrees: the top of the panel points left
    assert wind[2][1] > points[2][1]     # 180 degrees
    assert players == 3 or wind[3][0] > points[3][0]     # 270 degrees
    assert frame.get("seat3.panel") is None or players == 4   # three: the left side empty
    views = seat_views(model)
    winds = tuple(v.wind for v in views)
    for seat, turns in enumerate((0, 90, 180, 270)[:players]):
        rect = frame.rect(f"seat{seat}.panel")
        upright = Canvas(pygame.Surface(rect.size if turns % 180 == 0 else
                                        (rect.height, rect.width), pygame.SRCALPHA),
                         theme.unit(size))
        draw_seat_panel(upright, views[seat], winds)
        expected = pygame.Surface(rect.size)
        expected.fill(theme.BACKGROUND)
        expected.blit(pygame.transform.rotate(upright.surface, turns), (0, 0))
        assert pygame.image.tobytes(surface.subsurface(rect), "RGB") == \
            pygame.image.tobytes(expected, "RGB"), f"seat {seat}"


def test_the_facing_layout_keeps_every_panel_upright(screens):
    _, _, frame = shown(screens, "scoreboard", "facing", (800, 480))
    panels = {seat: frame.rect(f"seat{seat}.panel") for seat in range(4)}
    assert panels[0].top > panels[1].bottom - panels[1].height // 2 > panels[2].bottom
    assert panels[3].right < panels[0].centerx < panels[1].left
    for seat in range(4):
        assert frame.rect(f"seat{seat}.wind").centery < frame.rect(f"seat{seat}.points").top
        points = frame.rect(f"seat{seat}.points")
        assert points.width > points.height


@pytest.mark.parametrize("layout", LAYOUTS)
def test_differences_and_sticks_rows(screens, layout):
    model, _, frame = shown(screens, "differences", layout, (800, 480))
    asking, scores = model.differences_for, model.state.scores
    for other in range(4):
        text = frame.text_of(f"seat{asking}.diff{other}")
        if other == asking:
            assert not text
            continue
        assert text.endswith(theme.signed(scores[asking] - scores[other]))
    assert not frame.named(f"seat{asking}.sticks")
    sticks = [frame.text_of(f"seat0.sticks.{v}") for v in (10000, 5000, 1000, 100)]
    assert sticks == ["10k×1", "5k×2", "1k×2", "100×1"]  # 22,100 points


@pytest.mark.parametrize("size", SIZES)
def test_warnings_banner_and_status_line(boards, size):
    model, surface, frame = shown(boards, "warnings", "facing", size)
    banner, status = frame.rect("banner"), frame.rect("status_line")
    assert banner.topleft == (0, 0) and banner.width == size[0]
    assert status.bottom == size[1] - round(LEGEND * theme.unit(size)) and status.width == size[0]
    assert frame.rect("legend").top >= status.bottom   # the button legend under it
    assert all(w in frame.text_of("banner.text") for w in model.warnings)
    assert frame.text_of("status") == model.message
    assert share_of(surface, banner, theme.WARNING) > 0.5
    for seat in range(model.state.players):
        panel = frame.rect(f"seat{seat}.panel")
        assert not panel.colliderect(banner) and not panel.colliderect(status)


@pytest.mark.parametrize("layout", LAYOUTS)
def test_tenpai_entry_shows_each_seats_declaration(boards, layout):
    model, surface, frame = shown(boards, "tenpai-entry", layout, (800, 480))
    for seat, tenpai in enumerate(model.tenpai):
        assert frame.text_of(f"seat{seat}.tenpai_label") == ("TENPAI" if tenpai else "NOTEN")
        colour = theme.TENPAI if tenpai else theme.NOTEN
        assert share_of(surface, frame.rect(f"seat{seat}.tenpai"), colour) > 0.4
    assert frame.text_of("centre.prompt0") == "Exhaustive draw"


# -- overlays ----------------------------------------------------------------------------

@pytest.mark.parametrize("size", SIZES)
def test_win_confirm_shows_the_hand_value_payments_and_doubts(screens, size):
    model, surface, frame = shown(screens, "win-confirm", "facing", size)
    win, value = model.preview.wins[0], model.preview.wins[0].value
    hand = [item for item in frame if re.match(r"win0\.tile\d+$", item.name)]
    assert len(hand) == len(win.hand) - 1
    winning = frame.rect("win0.win_tile")
    assert winning.left > max(t.rect.right for t in hand) + winning.width // 4  # set apart
    assert frame.get("win0.win_tile").text == win.win_tile.code
    assert share_of(surface, winning.inflate(4, 4), theme.WIN_FRAME) > 0.03
    plain = [y for y in value.yaku if y.name not in ("dora", "ura_dora")]
    assert [frame.text_of(f"win0.yaku{i}") for i in range(len(plain))] == [y.title for y in plain]
    assert [frame.text_of(f"win0.han{i}") for i in range(len(plain))] == \
        [f"{y.han} han" for y in plain]
    assert frame.text_of("win0.value") == f"Baiman · {value.han} han {value.fu} fu"
    fu = [frame.text_of(f"win0.fu{i}") for i in range(len(value.fu_items))]
    assert fu == [i.reason.capitalize() for i in value.fu_items]
    for seat, delta in enumerate(model.preview.deltas):
        assert frame.text_of(f"pay.delta{seat}") == theme.signed(delta)
    dealer = model.state.dealer
    assert frame.text_of(f"pay.note{dealer}") == "gives 5k×1 1k×3"  # the dealer's 8,000
    assert frame.text_of("pay.note1") == "takes 2 riichi sticks"
    assert frame.text_of("doubt0") == f"Check: {model.preview.doubts[0]}"
    assert frame.text_of("overlay.footer") == "OK to apply, UNDO to cancel"


def test_double_ron_shows_both_winners_and_their_melds(screens):
    model, _, frame = shown(screens, "win-confirm-double-ron", "centre", (800, 480))
    assert frame.text_of("overlay.title") == "Double ron on East (Ana)'s discard"
    assert frame.rect("win1.tiles").top > frame.rect("win0.tiles").bottom
    assert frame.text_of("win0.header") == "South (Ben)"
    assert [frame.text_of(f"doubt{i}")[7:] for i in range(2)] == list(model.preview.doubts)
    _, _, ron = shown(screens, "hand-result-win", "facing", (800, 480))
    meld_tiles = [item for item in ron if re.match(r"win0\.tile\d+$", item.name)]
    assert [t.text for t in meld_tiles[-3:]] == ["6z", "6z", "6z"]   # the called pon
    assert meld_tiles[-1].rect.width > meld_tiles[-1].rect.height   # from the right: sideways


def test_hand_results_for_draws(screens):
    model, _, frame = shown(screens, "hand-result-draw", "facing", (800, 480))
    result = model.state.result
    for seat in range(4):
        expected = "TENPAI" if seat in result.tenpai else "NOTEN"
        assert frame.text_of(f"result.status{seat}") == expected
        assert frame.text_of(f"result.delta{seat}") == theme.signed(result.deltas[seat])
        assert frame.text_of(f"result.sticks{seat}") == (
            f"{'gives' if result.deltas[seat] < 0 else 'takes'} 1k×1 100×5")
    assert frame.text_of("overlay.subtitle") == "East 1"
    model, _, frame = shown(screens, "hand-result-abortive", "facing", (800, 480))
    assert frame.text_of("overlay.title") == "Abortive draw: four winds"
    assert frame.text_of("overlay.footer").startswith(
        f"OK: deal East 2, {model.state.honba} honba   UNDO: take the hand back")
    rows = sorted(range(4), key=lambda seat: frame.rect(f"result.seat{seat}").top)
    assert [frame.text_of(f"result.seat{seat}").split()[0] for seat in rows] == \
        ["East", "South", "West", "North"]  # the dealer has moved on from seat 0


@pytest.mark.parametrize("size", SIZES)
def test_final_standings_in_rank_order(screens, size):
    model, _, frame = shown(screens, "final", "centre", size)
    assert model.state.phase is Phase.GAME_OVER
    tops = [frame.rect(f"final.rank{rank}").top for rank in range(1, 5)]
    assert tops == sorted(tops)
    for standing in model.state.standings:
        assert frame.text_of(f"final.points{standing.rank}") == f"{standing.points:,}"
        assert frame.text_of(f"final.score{standing.rank}").lstrip("+−") == \
            f"{abs(standing.score):.1f}"
    assert frame.text_of("final.score1") == "+48.0"  # as the log's owari: Tenhou rounds
    assert frame.text_of("overlay.subtitle") == "East 4 ended"   # the reason, as said
    assert "Uma +20/+10/−10/−20" in frame.text_of("overlay.footer")


def test_the_menu_highlights_the_selected_item(boards):
    model, surface, frame = shown(boards, "menu", "facing", (800, 480))
    highlight = frame.rect("menu.selected")
    selected = frame.get(f"menu.item{model.menu.selected}")
    assert selected.text == model.menu.items[model.menu.selected]
    assert highlight.contains(selected.rect)
    assert share_of(surface, highlight, theme.GOLD) > 0.5
    others = [frame.rect(f"menu.item{i}") for i in range(len(model.menu.items))
              if i != model.menu.selected]
    assert not any(highlight.colliderect(rect) for rect in others)


# -- what players see from their chairs ----------------------------------------------------

@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("size", SIZES)
def test_result_screens_show_the_hands_tiles_at_least_a_tenth_of_the_screen_high(
        boards, layout, size):
    for name in RESULT_SCREENS:
        model, _, frame = shown(boards, name, layout, size)
        wins = model.preview.wins if model.preview else model.state.result.wins
        for index in range(len(wins)):
            tiles = [item for item in frame if re.match(rf"win{index}\.(win_tile|tile\d+)$",
                                                        item.name)]
            assert len(tiles) >= 14, (name, index)
            upright = [t.rect.height for t in tiles if t.rect.height > t.rect.width]
            assert min(upright) >= size[1] / 10, (name, layout, size, min(upright))


@pytest.mark.parametrize("size", SIZES)
def test_dora_and_ura_indicators_are_tiles_beside_their_han(screens, size):
    model, _, frame = shown(screens, "win-confirm", "facing", size)
    win = model.preview.wins[0]
    assert win.dora and win.ura   # a riichi tsumo: both rows of indicators
    lines = {frame.text_of(f"win0.indicator{i}"): i for i in range(2)}
    assert set(lines) == {"Dora", "Ura Dora"}
    for label, indicators, han in (("Dora", win.dora, win.value.dora),
                                   ("Ura Dora", win.ura, win.value.ura)):
        line = lines[label]
        tiles = frame.named(f"win0.indicator{line}")[0:0] + [
            item for item in frame if item.name.startswith(f"win0.indicator{line}.tile")]
        assert [t.text for t in tiles] == [t.code for t in indicators]
        amount = frame.get(f"win0.indicator_han{line}")
        assert amount.text == f"{han} han"
        for tile in tiles:
            assert tile.rect.top <= amount.rect.centery <= tile.rect.bottom  # on its line
            assert frame.rect(f"win0.indicator{line}").right < tile.rect.left < \
                amount.rect.left
            assert tile.rect.height >= size[1] / 24


@pytest.mark.parametrize("layout", LAYOUTS)
def test_payments_go_in_wind_order_from_the_winner(boards, layout):
    for name in RESULT_SCREENS:
        model, _, frame = shown(boards, name, layout, (800, 480))
        wins = model.preview.wins if model.preview else model.state.result.wins
        players = model.state.players
        order = sorted(range(players), key=lambda seat: frame.rect(f"pay.seat{seat}").left)
        first = order[0]
        assert first == wins[0].seat, name
        assert order == [(first + k) % players for k in range(players)], name
        winds = [frame.text_of(f"pay.seat{seat}").split()[0] for seat in order]
        start = WIND_NAMES.index(winds[0])
        assert winds == [WIND_NAMES[(start + k) % players] for k in range(players)], name
        assert all(frame.rect(f"pay.seat{s}").top > frame.rect("win0.tiles").bottom
                   for s in range(players))
        assert frame.get(f"pay.seat{players}") is None


def test_a_hand_entered_by_hand_says_so_where_its_tiles_would_be(screens):
    """No face-down tile framed as a winning tile: the line saying the tiles were not read,
    the melds the table saw beside it, the fu said entered too."""
    for layout in LAYOUTS:
        for size in SIZES:
            model, _, frame = shown(screens, "win-entry", layout, size)
            assert model.preview.entering and model.preview.wins[0].win_tile is None
            assert frame.text_of("win0.entered") == ENTERED, (layout, size)
            tiles = [item for item in frame if item.kind == "tile"
                     and item.name.startswith("win0.")]
            assert frame.get("win0.win_tile") is None and "back" not in [t.text for t in tiles]
            assert len(tiles) == 3   # the pon
            assert min(t.rect.left for t in tiles) > frame.rect("win0.entered").right
            assert (frame.text_of("win0.fu0"), frame.text_of("win0.fu_points0")) == \
                ("Entered", "40 fu")


def test_a_percentage_on_any_screen_says_it_is_how_sure_the_camera_was(screens):
    examples = example_screens()
    lines = [line for e in examples for line in (
        *e.model.warnings, *(e.model.preview.doubts if e.model.preview else ()))]
    assert any("%" in line for line in lines)
    for line in lines:
        if "%" in line:
            assert re.search(r"camera (only )?\d+% sure", line), line
    assert UNFAMILIAR == WARNING   # the example banner says what the camera says


def test_no_text_names_a_seat_by_number(screens):
    for (name, layout, size), (_, _, frame) in screens.items():
        for item in frame.texts:
            assert not SEAT_NUMBER.search(item.text), (name, layout, size, item.text)
    state = example_screens()[0].model.state   # the game in play: menus and refusals
    labels = [item.label for item in menu_items(state)]
    assert not any(SEAT_NUMBER.search(label) for label in labels)
    assert "Chombo: East (Ichihime)" in labels   # seat 3 deals East 4
    with pytest.raises(BadEvent) as refusal:
        apply(state, Discard((state.turn + 1) % 4, parse_tiles("1z")[0]))
    assert str(refusal.value) == \
        "discard by North (Xenia) (1z): it is West (Kaavi)'s turn to discard"


def test_each_screen_says_what_the_buttons_do(screens):
    def text(name: str, item: str) -> str:
        return shown(screens, name, "facing", (800, 480))[2].text_of(item)

    assert text("new-game", "centre.deal") == "OK: start the game (deal East 1)"
    assert text("new-game", "legend").startswith("OK: start the game")
    for name in ("scoreboard", "differences", "warnings"):
        assert text(name, "legend") == legend.IN_PLAY
    assert text("menu", "overlay.footer") == legend.MENU
    assert text("final", "legend") == legend.FINAL
    assert text("win-confirm", "overlay.footer") == legend.CONFIRM
    assert text("fix-tiles", "overlay.footer") == legend.FIX_TILES
    assert text("who-dealt-in", "legend") == legend.WHO_DEALT_IN
    assert text("win-entry", "overlay.footer") == legend.ENTERING
    assert text("tenpai-entry", "centre.prompt1") == legend.TENPAI[1]
    for name in ("hand-result-win", "hand-result-draw", "hand-result-abortive"):
        assert text(name, "overlay.footer").startswith("OK: deal East 2, ")
    for size in SIZES:   # the legends are read whole
        for (name, layout, at), (_, _, frame) in screens.items():
            if at == size and frame.get("legend"):
                assert not frame.text_of("legend").endswith("…"), (name, layout, size)


@pytest.mark.parametrize("size", ((800, 480), (480, 320), (1920, 1080)))
def test_a_long_menu_scrolls_around_the_selected_item(boards, size):
    model = shown(boards, "scoreboard", "facing", SIZES[0])[0]
    items = tuple(item.label for item in menu_items(model.state))
    assert len(items) > 12   # the menu in play: draws, chombos, layout, new game...
    for selected in (0, len(items) // 2, len(items) - 1):
        menu = replace(model, mode=Mode.MENU, menu=Menu("Menu", items, selected))
        frame = render(menu, pygame.Surface(size))
        drawn = sorted(int(t.name.removeprefix("menu.item")) for t in frame.texts
                       if t.name.startswith("menu.item"))
        assert selected in drawn and drawn == list(range(drawn[0], drawn[-1] + 1))
        assert frame.rect("menu.selected").contains(frame.rect(f"menu.item{selected}"))
        assert (frame.get("menu.more_above") is not None) == (drawn[0] > 0)
        assert (frame.get("menu.more_below") is not None) == (drawn[-1] < len(items) - 1)
        assert min(frame.rect(f"menu.item{i}").height for i in drawn) >= size[1] / 30
        assert all(pygame.Rect((0, 0), size).contains(item.rect) for item in frame)


def test_the_gallery_matches_what_is_rendered_now(screens, sanma):
    """docs/screens holds renders of the examples, NAME-LAYOUT.png of the four-player game
    and NAME-LAYOUT-sanma.png of the three-player one; a changed screen needs a new
    gallery."""
    pictures = sorted(GALLERY.glob("*.png"))
    assert pictures and any(path.stem.endswith("-sanma") for path in pictures)
    for path in pictures:
        three = path.stem.endswith("-sanma")
        name, layout = path.stem.removesuffix("-sanma").rsplit("-", 1)
        _, surface, _ = shown(sanma if three else screens, name, layout, (800, 480))
        changed = changed_share(surface, pygame.image.load(str(path)))
        command = f"tablekit screens{' --players 3' if three else ''} --layout {layout}"
        assert changed < 0.02, (f"{path.name}: {changed:.1%} of the pixels differ; run "
                                f"{command} --out DIR and copy it to docs/screens")


def changed_share(first: pygame.Surface, second: pygame.Surface) -> float:
    """The share of pixels whose colour differs by more than 40 in some channel."""
    assert first.get_size() == second.get_size()
    a = pygame.surfarray.array3d(first).astype(int)
    b = pygame.surfarray.array3d(second).astype(int)
    return float((abs(a - b).max(axis=2) > 40).mean())


# -- tiles, back ends and the command ----------------------------------------------------

def test_the_committed_tile_pictures():
    pictures = sorted(TILE_DIR.glob("*.png"))
    assert len(pictures) == 34 + 3 + 1
    assert sum(p.stat().st_size for p in pictures) < 400_000
    for path in pictures:
        assert 60 <= pygame.image.load(str(path)).get_height() <= 90
    attribution = (TILE_DIR / "ATTRIBUTION.md").read_text(encoding="utf-8")
    assert "FluffyStuff/riichi-mahjong-tiles" in attribution and "CC0" in attribution


def test_a_missing_tile_picture_is_drawn_as_its_code(tmp_path):
    picture = tile_picture("5m", 40, tmp_path)
    assert picture.get_size() == (30, 40)
    assert share_of(picture, picture.get_rect(), (245, 240, 235), 2) > 0.4  # a plain face
    assert pygame.image.tobytes(picture, "RGBA") != \
        pygame.image.tobytes(tile_picture("5m", 40), "RGBA")


def test_png_display_numbers_or_replaces_its_files(tmp_path):
    model = ScreenModel(example_screens()[0].model.state)
    numbered = open_display("png", folder=tmp_path / "n")
    numbered.show(model)
    numbered.show(model)
    assert [p.name for p in numbered.saved] == ["frame-0001.png", "frame-0002.png"]
    single = PngDisplay(tmp_path / "s", (1920, 1080), numbered=False)
    single.show(model)
    single.show(model)
    assert sorted(p.name for p in (tmp_path / "s").iterdir()) == ["scoreboard.png"]
    assert pygame.image.load(str(single.saved[-1])).get_size() == (1920, 1080)


def test_window_display_sets_and_restores_its_video_driver(monkeypatch):
    monkeypatch.setenv("SDL_VIDEODRIVER", "offscreen")
    window = WindowDisplay((800, 480), driver="dummy")
    frame = window.show(example_screens()[0].model)
    assert window.frames == 1 and frame.text_of("centre.round") == "East 4"
    assert pygame.display.get_surface().get_size() == (800, 480)
    assert os.environ["SDL_VIDEODRIVER"] == "dummy"
    window.close()
    assert os.environ["SDL_VIDEODRIVER"] == "offscreen"
    kms = open_display("kmsdrm")
    assert (kms.driver, kms.fullscreen, kms.size) == ("kmsdrm", True, (0, 0))
    with pytest.raises(DisplayError, match="unknown display"):
        open_display("hdmi")


def test_screens_command_writes_every_screen(tmp_path, capsys):
    assert main(["screens", "--out", str(tmp_path), "--layout", "centre"]) == 0
    written = sorted(p.name for p in tmp_path.glob("*.png"))
    assert len(written) == len(example_screens()) and "final-centre.png" in written
    assert capsys.readouterr().out.count(".png") == len(written)
    assert main(["screens", "--out", str(tmp_path), "--game", str(tmp_path / "none.xml")]) == 2


def test_only_the_display_imports_pygame():
    code = ("import sys, tablekit.cli, tablekit.game.reducer, tablekit.rules.scoring, "
            "tablekit.display.model, tablekit.display.examples; "
            "print(sorted(m for m in sys.modules if m.startswith('pygame')))")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                         text=True, check=True, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert out.stdout.strip() == "[]"


def test_gallery_files_are_small():
    assert sum(p.stat().st_size for p in GALLERY.glob("*.png")) < 1_100_000


def test_example_states_come_from_the_real_game():
    examples = {e.name: e.model for e in example_screens()}
    assert examples["scoreboard"].state.names == ("Wanjirou", "Kaavi", "Xenia", "Ichihime")
    assert examples["final"].state.standings[0].points == 38500
    assert examples["final"].state.rules.name == "tenhou"


def test_choosing_the_players_shows_each_seat_and_the_buttons(screens):
    for size in SIZES:
        model, _, frame = shown(screens, "choose-players", "facing", size)
        assert [frame.text_of(f"seating.wind{seat}") for seat in range(4)] == list(WIND_NAMES)
        assert [frame.text_of(f"seating.name{seat}") for seat in range(4)] == list(
            model.seating.names)
        assert frame.text_of("overlay.footer") == legend.SEATING
        assert frame.text_of("overlay.subtitle") == "seats drawn at random"
        assert all(frame.get(f"seating.drawn{seat}") is not None for seat in range(4))
    choosing = replace(model, seating=replace(model.seating, names=("Aki", None, None, None),
                                              drawn=False))
    frame = render(choosing, pygame.Surface((800, 480)))
    assert frame.text_of("seating.name1") == "— press RIICHI —"
    assert frame.text_of("overlay.subtitle") == "1 of 4 chosen · roster of 5"
    assert frame.get("seating.drawn0") is None


# -- three players (sanma) -----------------------------------------------------------------

@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("size", SIZES)
def test_three_players_use_the_empty_side_for_the_centre(sanma, screens, layout, size):
    model, _, frame = shown(sanma, "scoreboard", layout, size)
    assert model.state.players == 3 and frame.get("seat3.panel") is None
    centre, four = centre_area(model, size), centre_area(screens["scoreboard", layout, size][0],
                                                         size)
    assert centre.width > four.width and centre.left < four.left   # into seat 3's side
    for seat in range(3):
        assert not frame.rect(f"seat{seat}.panel").colliderect(centre)
    for item in ("centre.round", "centre.deposits", "centre.dora"):
        assert centre.contains(frame.rect(item)), item


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("size", SIZES)
def test_each_seat_shows_its_kita_in_its_panel(sanma, layout, size):
    model, _, frame = shown(sanma, "scoreboard", layout, size)
    kita = [seat.kita for seat in model.state.seats]
    assert kita == [1, 1, 0]
    for seat, count in enumerate(kita):
        badge = frame.get(f"seat{seat}.kita_label")
        assert (badge.text if badge else None) == (f"Kita {count}" if count else None)
        if count:
            assert frame.rect(f"seat{seat}.panel").contains(frame.rect(f"seat{seat}.kita"))


def test_four_player_panels_have_no_kita(screens):
    _, _, frame = shown(screens, "scoreboard", "facing", (800, 480))
    assert not [item for item in frame if item.name.endswith(".kita")]


@pytest.mark.parametrize("size", SIZES)
def test_the_win_screen_shows_kita_with_the_dora(sanma, size):
    model, _, frame = shown(sanma, "hand-result-win", "facing", size)
    win = model.state.result.wins[0]
    kita = model.state.seats[win.seat].kita
    assert kita == 1
    lines = {frame.text_of(f"win0.indicator{i}"): i for i in range(2)}
    assert set(lines) == {"Dora", "Kita"}
    line = lines["Kita"]
    tiles = [item for item in frame if item.name.startswith(f"win0.indicator{line}.tile")]
    assert [t.text for t in tiles] == ["4z"] * kita
    dora = next(y.han for y in win.value.yaku if y.name == "dora")
    assert frame.text_of(f"win0.indicator_han{line}") == f"{kita} han"
    assert frame.text_of(f"win0.indicator_han{lines['Dora']}") == f"{dora - kita} han"
    assert [frame.text_of(f"pay.seat{seat}").split()[0] for seat in (1, 2, 0)] == \
        ["South", "West", "East"]
    assert frame.get("pay.seat3") is None


@pytest.mark.parametrize("size", SIZES)
def test_the_final_screen_ranks_three_players(sanma, size):
    model, _, frame = shown(sanma, "final", "centre", size)
    assert [frame.text_of(f"final.rank{rank}") for rank in range(1, 4)] == \
        ["1st", "2nd", "3rd"]
    assert frame.get("final.rank4") is None
    assert [frame.text_of(f"final.points{s.rank}") for s in model.state.standings] == \
        [f"{s.points:,}" for s in model.state.standings]
    assert frame.text_of("final.score1") == "+71.0"
    assert "Uma +20/+0/−20" in frame.text_of("overlay.footer")


def test_three_players_draws_and_tenpai(sanma):
    model, _, frame = shown(sanma, "hand-result-draw", "facing", (800, 480))
    assert [frame.text_of(f"result.status{seat}") for seat in range(3)] == \
        ["NOTEN" if seat not in model.state.result.tenpai else "TENPAI" for seat in range(3)]
    assert frame.get("result.seat3") is None
    _, _, frame = shown(sanma, "hand-result-abortive", "facing", (800, 480))
    assert frame.text_of("overlay.title") == "Abortive draw: nine terminals"
    _, _, frame = shown(sanma, "differences", "facing", (800, 480))
    asking = shown(sanma, "differences", "facing", (800, 480))[0].differences_for
    assert len([i for i in frame if i.name.startswith(f"seat{asking}.diff")]) == 2


def test_screens_command_renders_three_players(tmp_path, capsys):
    for size in ("800x480", "1920x1080"):
        out = tmp_path / size
        assert main(["screens", "--players", "3", "--size", size, "--out", str(out)]) == 0
        written = sorted(p.name for p in out.glob("*.png"))
        assert len(written) == len(example_screens(SANMA_GAME)) and \
            "final-facing-sanma.png" in written
        assert pygame.image.load(str(out / "final-facing-sanma.png")).get_size() == \
            tuple(int(n) for n in size.split("x"))
    capsys.readouterr()
    assert main(["screens", "--players", "4", "--game", str(SANMA_GAME),
                 "--out", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert "is a 3-player game: give --players 3" in err and len(err.splitlines()) == 1


def test_three_players_without_a_camera_read_that_call_is_kita(sanma):
    model = shown(sanma, "scoreboard", "facing", SIZES[0])[0]
    state = replace(model.state, tracked=False)
    for size in (*SIZES, (480, 320)):
        frame = render(replace(model, state=state), pygame.Surface(size))
        assert frame.text_of("legend") == legend.IN_PLAY_KITA, size
    assert strip_legend(model) == legend.IN_PLAY   # the camera sees the kita


def test_three_player_screens_show_no_tile_the_set_lacks(sanma):
    """No 2m-8m (out of a three-player set) as a tile picture or in a line of text."""
    lacking = re.compile(r"\b[2-8]m\b")
    for (name, layout, size), (_, _, frame) in sanma.items():
        for item in frame:   # a tile's text is its code
            assert not lacking.search(item.text), (name, layout, size, item.name, item.text)
