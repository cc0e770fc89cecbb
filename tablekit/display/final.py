"""The final standings: rank, player, points and the score with oka and uma (rounded
as the rules say), and the riichi sticks left on the table going to first place.

Names: ``final.rankN``, ``final.seatN``, ``final.pointsN``, ``final.scoreN`` (N the rank,
1-4; 1-3 with three players), ``final.rules`` and, when the game had penalties,
``final.ledger`` (what the ledger took off or gave each seat: the scores include it).

>>> ordinal(1), ordinal(2), ordinal(3), ordinal(4)
('1st', '2nd', '3rd', '4th')
>>> score_text(48.5), score_text(-16.0)
('+48.5', '−16.0')
"""

from __future__ import annotations

import pygame

from tablekit.display import theme
from tablekit.display.canvas import Canvas
from tablekit.display.model import ScreenModel
from tablekit.display.overlay_frame import overlay_frame, table_row
from tablekit.display.win_block import seat_label
from tablekit.game.state import SEATS, Standing, TableState, ordinal
from tablekit.rules.presets import Rules

COLUMNS = (0.14, 0.4, 0.22, 0.24)


def score_text(score: float) -> str:
    return f"{'−' if score < 0 else '+'}{abs(score):.1f}"


def rules_line(rules: Rules) -> str:
    """``Uma +20/+10/−10/−20 · oka 20,000 · return 30,000``."""
    uma = "/".join(score_text(u).replace(".0", "") for u in rules.uma)
    return f"Uma {uma} · oka {rules.oka:,} · return {rules.return_points:,}"


def leftover_text(sticks: int, rules: Rules) -> str:
    """``2 riichi sticks (+2,000) to first``: where the sticks left on the table went.

    >>> from tablekit.rules.presets import TENHOU
    >>> leftover_text(1, TENHOU)
    '1 riichi stick (+1,000) to first'
    """
    plural = "s" if sticks > 1 else ""
    return f"{sticks} riichi stick{plural} (+{sticks * rules.riichi_deposit:,}) to first"


def draw_final(canvas: Canvas, model: ScreenModel, area: pygame.Rect) -> None:
    state = model.state
    reason = state.end_reason[:1].upper() + state.end_reason[1:]
    if state.leftover_sticks:
        reason += f" · {leftover_text(state.leftover_sticks, state.rules)}"
    body = overlay_frame(canvas, area, "Final standings", reason, rules_line(state.rules))
    ledger = ledger_text(state)
    height = min(body.height / (SEATS + 1 + bool(ledger)), canvas.unit * 13)
    header = pygame.Rect(body.left, body.top, body.width, round(height * 0.6))
    table_row(canvas, header.inflate(-round(canvas.unit * 3), 0),
              [("", "left", ""), ("", "left", ""), ("points", "right", "final.head_points"),
               ("score (oka, uma)", "right", "final.head_score")], COLUMNS, [theme.MUTED] * 4)
    for index, standing in enumerate(state.standings):
        row = pygame.Rect(body.left, round(header.bottom + index * height), body.width,
                          round(height))
        _standing_row(canvas, row, standing, state)
    if ledger:
        line = pygame.Rect(body.left, round(header.bottom + state.players * height),
                           body.width,
                           round(height * 0.8))
        canvas.text(line.inflate(-round(canvas.unit * 3), 0), ledger, line.height * 0.55,
                    theme.NEGATIVE, "left", "final.ledger", shrink=0.6)


def ledger_text(state: TableState) -> str:
    """``Penalties: West (Chie) −8,000``: each seat's ledger total, by starting wind ('':
    no penalties).

    >>> from dataclasses import replace
    >>> ledger_text(replace(TableState.new(), penalties=(0, 0, 8000, 0)))
    'Penalties: West −8,000'
    """
    starting = starting_winds(state)
    parts = [f"{seat_label(seat, starting, state.names)} {theme.signed(-points)}"
             for seat, points in enumerate(state.penalties) if points]
    return "Penalties: " + " · ".join(parts) if parts else ""


def starting_winds(state: TableState) -> tuple[int, ...]:
    """Each seat's wind at the game's first deal (three players: East, South, West).

    >>> from tablekit.rules.presets import TENHOU_SANMA
    >>> starting_winds(TableState.new(TENHOU_SANMA, first_dealer=1))
    (2, 0, 1)
    """
    return tuple((seat - state.first_dealer) % state.players for seat in range(state.players))


def _standing_row(canvas: Canvas, row: pygame.Rect, standing: Standing,
                  state: TableState) -> None:
    box = row.inflate(0, -round(row.height * 0.12))
    canvas.box(box, theme.PANEL, "", canvas.unit)
    if standing.rank == 1:
        canvas.box(box, theme.GOLD, "final.first", canvas.unit, max(2, round(canvas.unit / 2)))
    starting = starting_winds(state)
    rank = standing.rank
    cells = [(ordinal(rank), "left", f"final.rank{rank}"),
             (seat_label(standing.seat, starting, state.names), "left", f"final.seat{rank}"),
             (theme.points_text(standing.points), "right", f"final.points{rank}"),
             (score_text(standing.score), "right", f"final.score{rank}")]
    colours = [theme.GOLD if rank == 1 else theme.TEXT, theme.TEXT, theme.TEXT,
               theme.POSITIVE if standing.score >= 0 else theme.NEGATIVE]
    table_row(canvas, row.inflate(-round(canvas.unit * 3), 0), cells, COLUMNS, colours,
              row.height * 0.5)
