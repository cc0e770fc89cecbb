"""One seat's panel: wind, name, dealer marker, riichi stick, points (large) and, in the
bottom row, the sticks to hold, the point differences, or the tenpai declaration.

With three players (sanma) the top row also counts the Norths the seat has set aside
(``Kita 2``: each a dora for that seat).

A panel is drawn upright on its own canvas (names ``seatN.wind``, ``seatN.dealer``,
``seatN.kita``, ``seatN.riichi``, ``seatN.points``, ``seatN.sticks.V``, ``seatN.diffM``,
``seatN.tenpai``); the board pastes it turned to its player.

>>> from tablekit.game.state import TableState
>>> views = seat_views(ScreenModel(TableState.new(), differences_for=1))
>>> views[0].dealer, views[1].wind, views[1].differences, views[0].differences
(True, 1, ((2, 0), (3, 0), (0, 0)), ())
>>> from tablekit.rules.presets import TENHOU_SANMA
>>> sanma = seat_views(ScreenModel(TableState.new(TENHOU_SANMA), differences_for=2))
>>> len(sanma), sanma[2].differences, sanma[0].kita
(3, ((0, 0), (1, 0)), 0)
"""

from __future__ import annotations

from dataclasses import dataclass

import pygame

from tablekit.display import theme
from tablekit.display.canvas import Canvas
from tablekit.display.geometry import columns, inset, rows
from tablekit.display.model import Mode, ScreenModel
from tablekit.display.sticks import SHORT, holding
from tablekit.game.state import Phase
from tablekit.tiles import WIND_NAMES

ROWS = (0.2, 0.07, 0.44, 0.16)   # top row, riichi stick, points, bottom row


@dataclass(frozen=True)
class SeatView:
    """What one seat's panel shows."""

    seat: int
    wind: int                     # 0-3: East..North this hand
    points: int
    name: str = ""
    dealer: bool = False
    riichi: bool = False
    differences: tuple[tuple[int, int], ...] = ()  # (other seat, my points - theirs)
    tenpai: bool | None = None    # set while tenpai is being entered
    asking: bool = False          # this seat asked for its differences
    kita: int | None = None       # three players: the Norths set aside (None: four players)


def seat_views(model: ScreenModel) -> tuple[SeatView, ...]:
    """The panels' contents (one per player), from the screen model alone."""
    state = model.state
    in_play = state.phase is Phase.HAND_IN_PLAY
    tenpai = model.tenpai if model.mode is Mode.TENPAI_ENTRY and model.tenpai else None
    views = []
    sanma = state.players == 3
    for seat in range(state.players):
        seat_state = state.seats[seat]
        asking = model.differences_for == seat
        views.append(SeatView(
            seat=seat, wind=state.seat_wind(seat), points=state.scores[seat],
            name=state.names[seat] if seat < len(state.names) else "",
            dealer=seat == state.dealer,
            riichi=in_play and (seat_state.riichi or seat_state.riichi_declared),
            differences=_differences(state.scores, seat) if asking else (),
            kita=seat_state.kita if sanma else None,
            tenpai=bool(tenpai[seat]) if tenpai else None,
            asking=asking,
        ))
    return tuple(views)


def _differences(scores: tuple[int, ...], seat: int) -> tuple[tuple[int, int], ...]:
    """To the right, across and to the left, in turn order (three players: right, left)."""
    players = len(scores)
    others = ((seat + offset) % players for offset in range(1, players))
    return tuple((other, scores[seat] - scores[other]) for other in others)


def draw_seat_panel(canvas: Canvas, view: SeatView, winds: tuple[int, ...]) -> None:
    """Draw ``view`` filling ``canvas`` (upright); ``winds`` gives every seat's wind."""
    area = canvas.area
    prefix = f"seat{view.seat}"
    radius = area.height * 0.08
    canvas.box(area, theme.PANEL, f"{prefix}.panel", radius)
    if view.asking:
        canvas.box(area, theme.GOLD, "", radius, max(2, round(canvas.unit * 0.5)))
    pad = max(area.height * 0.06, canvas.unit)
    top, stick, points, bottom = rows(inset(area, pad), ROWS, area.height * 0.03)
    _top_row(canvas, top, view, prefix)
    if view.riichi:
        _riichi_stick(canvas, stick, f"{prefix}.riichi")
    colour = theme.NEGATIVE if view.points < 0 else theme.TEXT
    canvas.text(points, theme.points_text(view.points), points.height, colour,
                name=f"{prefix}.points", shrink=0.5)
    if view.tenpai is not None:
        _tenpai_badge(canvas, bottom, view.tenpai, f"{prefix}.tenpai")
    elif view.differences:
        _differences_row(canvas, bottom, view, winds, prefix)
    else:
        _sticks_row(canvas, bottom, view.points, f"{prefix}.sticks")


def _top_row(canvas: Canvas, row: pygame.Rect, view: SeatView, prefix: str) -> None:
    gap = row.height * 0.4
    right = row.right
    if view.dealer:
        right = _badge(canvas, row, "DEALER", theme.GOLD, f"{prefix}.dealer").left - gap
    if view.kita:
        kita_row = pygame.Rect(row.left, row.top, right - row.left, row.height)
        right = _badge(canvas, kita_row, f"Kita {view.kita}", theme.STICK,
                       f"{prefix}.kita").left - gap
    wind_box = pygame.Rect(row.left, row.top, max(right - row.left, 0), row.height)
    wind = canvas.text(wind_box, WIND_NAMES[view.wind], row.height, theme.TEXT, "left",
                       f"{prefix}.wind")
    name_box = pygame.Rect(wind.right + gap, row.top, right - wind.right - gap, row.height)
    if view.name and name_box.width > row.height * 2:
        canvas.text(name_box, view.name, row.height * 0.7, theme.MUTED, "left",
                    f"{prefix}.name")


def _badge(canvas: Canvas, row: pygame.Rect, label: str, colour: theme.Colour,
           name: str) -> pygame.Rect:
    """A rounded label at the right end of ``row``."""
    height = row.height * 0.62
    width = canvas.fonts.get(height).size(label)[0] + row.height * 0.6
    badge = pygame.Rect(0, row.top, round(width), row.height)
    badge.right = row.right
    canvas.box(badge, colour, name, row.height * 0.25)
    canvas.text(badge, label, height, theme.DARK, name=f"{name}_label")
    return badge


def _riichi_stick(canvas: Canvas, strip: pygame.Rect, name: str) -> None:
    """A 1,000 stick lying in front of the points: white with a red dot."""
    thickness = max(strip.height, 4)
    stick = pygame.Rect(0, 0, round(min(strip.width * 0.55, thickness * 11)), thickness)
    stick.center = strip.center
    canvas.box(stick, theme.STICK, name, thickness / 3)
    pygame.draw.circle(canvas.surface, theme.STICK_DOT, stick.center, thickness * 0.36)


def _sticks_row(canvas: Canvas, row: pygame.Rect, points: int, prefix: str) -> None:
    """Four pills, one per stick value: ``10k×1 5k×2 1k×4 100×10``."""
    row = _centred(row, row.height * 16)
    for cell, (value, count) in zip(columns(row, (1, 1, 1, 1), row.height * 0.3),
                                    holding(points).counts, strict=True):
        colour = theme.STICK if count else theme.STICK_EMPTY
        canvas.box(cell, colour, "", row.height * 0.3)
        canvas.text(inset(cell, row.height * 0.1), f"{SHORT[value]}×{count}",
                    row.height * 0.8, theme.DARK, name=f"{prefix}.{value}", shrink=0.4)


def _differences_row(canvas: Canvas, row: pygame.Rect, view: SeatView,
                     winds: tuple[int, ...], prefix: str) -> None:
    """``S −3,200``: this seat's points minus each other player's (negative: behind)."""
    row = _centred(row, row.height * 24)
    count = len(view.differences)
    for cell, (other, difference) in zip(columns(row, [1] * count, row.height * 0.4),
                                         view.differences, strict=True):
        label = f"{WIND_NAMES[winds[other]][0]} {theme.signed(difference)}"
        canvas.text(cell, label, row.height * 0.9, theme.delta_colour(difference),
                    name=f"{prefix}.diff{other}", shrink=0.4)


def _centred(row: pygame.Rect, width: float) -> pygame.Rect:
    """``row`` narrowed to at most ``width``, centred: long panels keep short rows."""
    narrow = pygame.Rect(0, row.top, min(row.width, round(width)), row.height)
    narrow.centerx = row.centerx
    return narrow


def _tenpai_badge(canvas: Canvas, row: pygame.Rect, tenpai: bool, name: str) -> None:
    badge = pygame.Rect(0, 0, round(row.width * 0.6), row.height)
    badge.center = row.center
    canvas.box(badge, theme.TENPAI if tenpai else theme.NOTEN, name, row.height * 0.3)
    canvas.text(badge, "TENPAI" if tenpai else "NOTEN", row.height * 0.95, theme.TEXT,
                name=f"{name}_label")
