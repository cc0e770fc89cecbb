"""Who pays what: one row per seat with its score change and a note (the sticks to hand
over, the riichi sticks taken from the table, or the new score).

Names: ``pay.title``, ``pay.seatN`` (the seat), ``pay.deltaN``, ``pay.noteN``.

>>> from tablekit.display.model import WinPreview
>>> rows = confirm_rows(WinPreview(wins=(), deltas=(-7700, 8700, 0, -1000)), table_sticks=1,
...                     stick_taker=1)
>>> [(r.seat, r.delta, r.note) for r in rows]  # doctest: +NORMALIZE_WHITESPACE
[(1, 8700, 'with 1 riichi stick from the table'), (0, -7700, 'hands over 5k×1 1k×2 100×7'),
 (3, -1000, 'hands over 1k×1'), (2, 0, 'pays nothing')]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import pygame

from tablekit.display import theme
from tablekit.display.canvas import Canvas
from tablekit.display.geometry import rows
from tablekit.display.model import WinPreview
from tablekit.display.sticks import handing_over
from tablekit.display.win_block import seat_label


@dataclass(frozen=True)
class PaymentRow:
    seat: int
    delta: int
    note: str = ""


def confirm_rows(preview: WinPreview, table_sticks: int, stick_taker: int | None
                 ) -> list[PaymentRow]:
    """Rows for a win waiting for OK: winners first, then the payers, largest first."""
    out = []
    for seat, delta in enumerate(preview.deltas):
        if delta > 0:
            note = ""
            if seat == stick_taker and table_sticks:
                plural = "" if table_sticks == 1 else "s"
                note = f"with {table_sticks} riichi stick{plural} from the table"
        elif delta < 0:
            note = f"hands over {handing_over(delta).label()}"
        else:
            note = "pays nothing"
        out.append(PaymentRow(seat, delta, note))
    return sorted(out, key=lambda r: (0 if r.delta > 0 else 2 if r.delta == 0 else 1,
                                      -abs(r.delta), r.seat))


def result_rows(deltas: Sequence[int], scores: Sequence[int]) -> list[PaymentRow]:
    """Rows for a finished hand, in seat order, each with the new score.

    >>> [r.note for r in result_rows((1500, -1500, 0, 0), (26500, 23500, 25000, 25000))][:2]
    ['now 26,500', 'now 23,500']
    """
    return [PaymentRow(seat, delta, f"now {theme.points_text(scores[seat])}")
            for seat, delta in enumerate(deltas)]


def draw_payments(canvas: Canvas, area: pygame.Rect, payment_rows: Sequence[PaymentRow],
                  winds: Sequence[int], names: Sequence[str], title: str = "Payments") -> None:
    unit = canvas.unit
    title_box = pygame.Rect(area.left, area.top, area.width, round(min(unit * 5,
                                                                        area.height / 6)))
    body = pygame.Rect(area.left, title_box.bottom + round(unit), area.width,
                       area.bottom - title_box.bottom - round(unit))
    canvas.text(title_box, title, title_box.height, theme.MUTED, "left", "pay.title")
    height = min(body.height / max(len(payment_rows), 1), unit * 12)
    for i, row in enumerate(payment_rows):
        box = pygame.Rect(body.left, round(body.top + i * height), body.width, round(height))
        _row(canvas, box, row, seat_label(row.seat, winds, names))


def _row(canvas: Canvas, box: pygame.Rect, row: PaymentRow, label: str) -> None:
    first, second = rows(box.inflate(0, -round(box.height * 0.1)), (1.2, 1))
    delta = canvas.text(first, theme.signed(row.delta), first.height * 0.95,
                        theme.delta_colour(row.delta), "right", f"pay.delta{row.seat}", 0.5)
    canvas.text(pygame.Rect(first.left, first.top, delta.left - first.left - canvas.unit,
                            first.height), label, first.height * 0.8, theme.TEXT, "left",
                f"pay.seat{row.seat}")
    canvas.text(second, row.note, second.height * 0.85, theme.MUTED, "left",
                f"pay.note{row.seat}")
