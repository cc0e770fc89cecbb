"""Who pays what: one cell per seat, in wind order from the winner, with its score change
and the sticks to hand over (the riichi sticks the winner takes from the table, or, once
the hand is over, the new score).

Names: ``pay.seatN`` (the seat), ``pay.deltaN``, ``pay.noteN``, ``pay.nowN``.

>>> from tablekit.display.model import WinPreview
>>> rows = confirm_rows(WinPreview(wins=(), deltas=(-7700, 8700, 0, -1000)), table_sticks=1,
...                     stick_taker=1)
>>> [(r.seat, r.delta, r.note) for r in rows]  # doctest: +NORMALIZE_WHITESPACE
[(1, 8700, 'takes 1 riichi stick'), (2, 0, 'pays nothing'),
 (3, -1000, 'gives 1k×1'), (0, -7700, 'gives 5k×1 1k×2 100×7')]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import pygame

from tablekit.display import theme
from tablekit.display.canvas import Canvas
from tablekit.display.geometry import columns, inset, rows
from tablekit.display.model import WinPreview
from tablekit.display.sticks import handing_over
from tablekit.display.win_block import seat_label
from tablekit.game.state import SEATS


@dataclass(frozen=True)
class PaymentRow:
    seat: int
    delta: int
    note: str = ""
    now: str = ""   # the new score, once the hand is over


def wind_order(first: int, players: int = SEATS) -> list[int]:
    """The seats counter-clockwise from ``first``: the order the winds go round (three
    players: three seats).

    >>> wind_order(2), wind_order(2, players=3)
    ([2, 3, 0, 1], [2, 0, 1])
    """
    return [(first + offset) % players for offset in range(players)]


def sticks_note(delta: int) -> str:
    """What a score change hands over in sticks.

    >>> sticks_note(-2600), sticks_note(1500), sticks_note(0)
    ('gives 1k×2 100×6', 'takes 1k×1 100×5', '')
    """
    if not delta:
        return ""
    return f"{'gives' if delta < 0 else 'takes'} {handing_over(delta).label()}"


def confirm_rows(preview: WinPreview, table_sticks: int, stick_taker: int | None
                 ) -> list[PaymentRow]:
    """Cells for a win waiting for OK, in wind order from the winner who takes the sticks
    (the first winner): the payers' sticks, the riichi sticks taken from the table."""
    first = stick_taker if stick_taker is not None else _first_gainer(preview.deltas)
    out = []
    for seat in wind_order(first, len(preview.deltas)):
        delta = preview.deltas[seat]
        note = sticks_note(delta) if delta < 0 else "pays nothing" if delta == 0 else ""
        if delta > 0 and seat == stick_taker and table_sticks:
            note = f"takes {table_sticks} riichi stick{'' if table_sticks == 1 else 's'}"
        out.append(PaymentRow(seat, delta, note))
    return out


def result_rows(deltas: Sequence[int], scores: Sequence[int], first: int) -> list[PaymentRow]:
    """Cells for a finished hand, in wind order from ``first`` (the winner), each with the
    sticks handed over and the new score.

    >>> [(r.seat, r.note, r.now) for r in result_rows((1500, -1500, 0, 0),
    ...                                               (26500, 23500, 25000, 25000), 0)][:2]
    [(0, '', 'now 26,500'), (1, 'gives 1k×1 100×5', 'now 23,500')]
    """
    return [PaymentRow(seat, deltas[seat], sticks_note(deltas[seat]) if deltas[seat] < 0
                       else "", f"now {theme.points_text(scores[seat])}")
            for seat in wind_order(first, len(deltas))]


def _first_gainer(deltas: Sequence[int]) -> int:
    return max(range(len(deltas)), key=lambda seat: deltas[seat])


def payments_height(unit: float, payment_rows: Sequence[PaymentRow]) -> float:
    """The band's height: three lines per cell, four with the new scores."""
    return unit * (19 if any(row.now for row in payment_rows) else 13.5)


def draw_payments(canvas: Canvas, area: pygame.Rect, payment_rows: Sequence[PaymentRow],
                  winds: Sequence[int], names: Sequence[str]) -> None:
    """The cells side by side across ``area``."""
    unit = canvas.unit
    for box, row in zip(columns(area, [1] * len(payment_rows), unit * 1.5), payment_rows,
                        strict=True):
        canvas.box(box, theme.PANEL, f"pay.cell{row.seat}", unit)
        _cell(canvas, inset(box, unit * 0.6), row, seat_label(row.seat, winds, names))


def _cell(canvas: Canvas, box: pygame.Rect, row: PaymentRow, label: str) -> None:
    weights = (1, 1.25, 0.85, 0.85) if row.now else (1, 1.25, 0.85)
    lines = rows(box, weights)
    canvas.text(lines[0], label, lines[0].height, theme.TEXT, "left", f"pay.seat{row.seat}")
    canvas.text(lines[1], theme.signed(row.delta), lines[1].height,
                theme.delta_colour(row.delta), "left", f"pay.delta{row.seat}", 0.5)
    canvas.text(lines[2], row.note, lines[2].height, theme.MUTED, "left",
                f"pay.note{row.seat}")
    if row.now:
        canvas.text(lines[3], row.now, lines[3].height, theme.TEXT, "left",
                    f"pay.now{row.seat}")
