"""Draw one :class:`ScreenModel` on a Surface: the screen for its mode, the warnings banner
at the top, the status line (a timed game's clock, then the message) and the button legend
at the bottom.

>>> import pygame
>>> from tablekit.game.state import TableState
>>> surface = pygame.Surface((800, 480))
>>> frame = render(ScreenModel(TableState.new(), message="Press OK to deal"), surface)
>>> frame.text_of("seat0.points"), frame.text_of("status")
('25,000', 'Press OK to deal')
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import pygame

from tablekit.display import theme
from tablekit.display.canvas import Canvas, Frame
from tablekit.display.evening import draw_evening, draw_league
from tablekit.display.final import draw_final
from tablekit.display.fix_screen import draw_fix_tiles
from tablekit.display.geometry import inset
from tablekit.display.layout import screen_areas
from tablekit.display.legend import strip_legend
from tablekit.display.menu import draw_menu
from tablekit.display.model import Mode, ScreenModel
from tablekit.display.overlays import draw_hand_result, draw_win_confirm
from tablekit.display.scoreboard import draw_scoreboard
from tablekit.display.seating import draw_choose_players

Screen = Callable[[Canvas, ScreenModel, pygame.Rect], None]
SCREENS: dict[Mode, Screen] = {
    Mode.SCOREBOARD: draw_scoreboard,
    Mode.TENPAI_ENTRY: draw_scoreboard,
    Mode.WHO_DEALT_IN: draw_scoreboard,
    Mode.WIN_CONFIRM: draw_win_confirm,
    Mode.HAND_RESULT: draw_hand_result,
    Mode.FINAL: draw_final,
    Mode.MENU: draw_menu,
    Mode.FIX_TILES: draw_fix_tiles,
    Mode.EVENING: draw_evening,
    Mode.LEAGUE: draw_league,
    Mode.CHOOSE_PLAYERS: draw_choose_players,
}


def render(model: ScreenModel, surface: pygame.Surface) -> Frame:
    """Draw ``model`` over the whole of ``surface``; returns what was drawn where."""
    canvas = Canvas(surface, theme.unit(surface.get_size()))
    surface.fill(theme.BACKGROUND)
    shown = model if _has_data(model) else replace(model, mode=Mode.SCOREBOARD)
    legend = strip_legend(shown)
    line = " · ".join(text for text in (model.timer, model.message) if text)
    banner, content, status, legend_area = screen_areas(
        surface.get_size(), canvas.unit, bool(model.warnings), bool(line), bool(legend))
    if banner is not None:
        _banner(canvas, banner, model.warnings)
    if status is not None:
        _status(canvas, status, line)
    if legend_area is not None:
        canvas.text(inset(legend_area, legend_area.height * 0.15), legend,
                    legend_area.height * 0.62, theme.MUTED, name="legend")
    SCREENS[shown.mode](canvas, shown, content)
    return canvas.frame()


def _has_data(model: ScreenModel) -> bool:
    """Whether the model carries what its mode shows (else the scoreboard is shown)."""
    needs = {Mode.WIN_CONFIRM: model.preview, Mode.HAND_RESULT: model.state.result,
             Mode.FINAL: model.state.standings, Mode.MENU: model.menu,
             Mode.FIX_TILES: model.fix, Mode.EVENING: model.evening,
             Mode.LEAGUE: model.league is not None, Mode.CHOOSE_PLAYERS: model.seating}
    return bool(needs.get(model.mode, True))


def _banner(canvas: Canvas, area: pygame.Rect, warnings: tuple[str, ...]) -> None:
    canvas.box(area, theme.WARNING, "banner")
    text = "   |   ".join(warnings)
    canvas.text(inset(area, area.height * 0.15), text, area.height * 0.62, theme.DARK,
                name="banner.text")


def _status(canvas: Canvas, area: pygame.Rect, message: str) -> None:
    canvas.box(area, theme.STATUS, "status_line")
    canvas.text(inset(area, area.height * 0.15), message, area.height * 0.6, theme.TEXT,
                name="status")
