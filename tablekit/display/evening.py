"""Between games: the evening so far (each game's place and game points, and the running
total) and the league table.

Names: ``evening.headN`` (the column heads), ``evening.nameR``, ``evening.gameR_G`` (row R,
game G counted from the first shown), ``evening.totalR``; ``league.nameR``,
``league.gamesR``, ``league.pointsR``, ``league.placeR``, ``league.ratingR``;
``between.empty`` when there is nothing to show yet.

>>> result_cell(1, 48.0), result_cell(None, None), shown_games(6)
('1st +48.0', '·', range(2, 6))
"""

from __future__ import annotations

import pygame

from tablekit.display import theme
from tablekit.display.canvas import Canvas
from tablekit.display.final import score_text
from tablekit.display.legend import between_legend
from tablekit.display.model import ScreenModel
from tablekit.display.overlay_frame import overlay_frame, table_row
from tablekit.game.state import ordinal

GAMES_SHOWN = 4   # the latest games get a column each; earlier ones are in the total
ROW = 10.0        # units: a row's height at the most
SMALLEST = 6.5    # ... and at the least: players beyond what fits are left off


def result_cell(place: int | None, score: float | None) -> str:
    """``1st +48.0``: a player's place and game points in one game (``·``: not playing)."""
    if place is None or score is None:
        return "·"
    return f"{ordinal(place)} {score_text(score)}"


def shown_games(count: int) -> range:
    """The games that get a column: the latest :data:`GAMES_SHOWN`."""
    return range(max(count - GAMES_SHOWN, 0), count)


def draw_evening(canvas: Canvas, model: ScreenModel, area: pygame.Rect) -> None:
    evening = model.evening
    assert evening is not None
    counted, cancelled = evening.counted, sum(g.cancelled for g in evening.games)
    games = shown_games(counted)
    subtitle = f"{counted} game{'s' if counted != 1 else ''}" + (
        f", {cancelled} cancelled" if cancelled else "") + (
        f" (games 1-{games.start} in the total)" if games.start else "")
    body = overlay_frame(canvas, area, "The evening so far", subtitle, between_legend(model))
    lines = evening.lines()
    if not lines:
        _empty(canvas, body, "No game of the evening has counted yet")
        return
    weights = (0.26, *(0.19,) * len(games), 0.16)
    heads = ["", *(f"Game {g + 1}" for g in games), "Total"]
    rows = _rows(canvas, body, len(lines))
    table_row(canvas, rows[0], [(text, "right" if i else "left", f"evening.head{i}")
                                for i, text in enumerate(heads)], weights,
              [theme.MUTED] * len(heads))
    for number, (row, line) in enumerate(zip(rows[1:], lines, strict=False), start=1):
        cells = [(line.name, "left", f"evening.name{number}"),
                 *((result_cell(line.places[g], line.scores[g]), "right",
                    f"evening.game{number}_{g - games.start}") for g in games),
                 (score_text(line.total), "right", f"evening.total{number}")]
        colours = [theme.TEXT, *(theme.TEXT for _ in games),
                   theme.POSITIVE if line.total >= 0 else theme.NEGATIVE]
        _panel_row(canvas, row, cells, weights, colours, leader=number == 1)


def draw_league(canvas: Canvas, model: ScreenModel, area: pygame.Rect) -> None:
    league = model.league or ()
    body = overlay_frame(canvas, area, "League table", f"{len(league)} players",
                         between_legend(model))
    if not league:
        _empty(canvas, body, "No game in the league yet")
        return
    weights = (0.08, 0.34, 0.12, 0.16, 0.16, 0.14)
    heads = ["", "", "games", "points", "av. place", "rating"]
    rows = _rows(canvas, body, len(league))
    table_row(canvas, rows[0], [(text, "right" if i > 1 else "left", f"league.head{i}")
                                for i, text in enumerate(heads)], weights,
              [theme.MUTED] * len(heads))
    for number, (row, line) in enumerate(zip(rows[1:], league, strict=False), start=1):
        cells = [(f"{number}", "left", f"league.rank{number}"),
                 (line.name, "left", f"league.name{number}"),
                 (f"{line.games}", "right", f"league.games{number}"),
                 (score_text(line.points), "right", f"league.points{number}"),
                 (f"{line.average_placement:.2f}", "right", f"league.place{number}"),
                 (f"{line.rating:.1f}".replace("-", "−"), "right", f"league.rating{number}")]
        colours = [theme.GOLD if number == 1 else theme.TEXT, theme.TEXT, theme.TEXT,
                   theme.POSITIVE if line.points >= 0 else theme.NEGATIVE, theme.TEXT,
                   theme.TEXT]
        _panel_row(canvas, row, cells, weights, colours, leader=number == 1)


def _rows(canvas: Canvas, body: pygame.Rect, count: int) -> list[pygame.Rect]:
    """The head row and as many player rows as fit (at most ``count``)."""
    unit = canvas.unit
    fits = max(int(body.height // (unit * SMALLEST)) - 1, 1)
    shown = min(count, fits)
    height = min(body.height / (shown + 1), unit * ROW)
    head = pygame.Rect(body.left, body.top, body.width, round(height * 0.7))
    return [head.inflate(-round(unit * 3), 0), *(
        pygame.Rect(body.left, round(head.bottom + index * height), body.width, round(height))
        for index in range(shown))]


def _panel_row(canvas: Canvas, row: pygame.Rect, cells: list[tuple[str, str, str]],
               weights: tuple[float, ...], colours: list[theme.Colour], leader: bool) -> None:
    box = row.inflate(0, -round(row.height * 0.14))
    canvas.box(box, theme.PANEL, "", canvas.unit)
    if leader:
        canvas.box(box, theme.GOLD, "between.leader", canvas.unit,
                   max(2, round(canvas.unit / 2)))
    table_row(canvas, row.inflate(-round(canvas.unit * 3), 0), cells, weights, colours,
              row.height * 0.5)


def _empty(canvas: Canvas, body: pygame.Rect, text: str) -> None:
    line = pygame.Rect(body.left, body.top, body.width, round(canvas.unit * 10))
    canvas.text(line, text, line.height * 0.6, theme.MUTED, name="between.empty")
