"""The win screens: a scored win waiting for OK (WIN_CONFIRM) and the last hand's result
(HAND_RESULT: a win, an exhaustive or abortive draw, or a chombo).

Like the final standings and the menu, they fill the screen upright in both layouts: they
are read up close by whoever checks them, not from every seat.

The winners' hands fill the width (:mod:`~tablekit.display.win_block`), the payments run
along the bottom in wind order from the winner (:mod:`~tablekit.display.payment_list`), the
footer says what the buttons do. Names besides theirs: ``doubtN``; for draws (rows in wind
order from East) ``result.seatN``, ``result.statusN``, ``result.deltaN``,
``result.sticksN``, ``result.pointsN`` and ``result.note``.
"""

from __future__ import annotations

from collections.abc import Sequence

import pygame

from tablekit.display import theme
from tablekit.display.canvas import Canvas
from tablekit.display.geometry import rows
from tablekit.display.legend import confirm_legend, result_legend
from tablekit.display.model import ScreenModel
from tablekit.display.overlay_frame import hand_label, hand_winds, overlay_frame, table_row
from tablekit.display.payment_list import (
    PaymentRow,
    confirm_rows,
    draw_payments,
    payments_height,
    result_rows,
    sticks_note,
    wind_order,
)
from tablekit.display.win_block import draw_win_block, seat_label
from tablekit.game.state import SEATS, HandResult, TableState, WinResult

MULTIPLE = {2: "Double ron", 3: "Triple ron"}
DRAW_COLUMNS = (0.3, 0.14, 0.15, 0.23, 0.18)


def win_title(wins: Sequence[WinResult], winds: Sequence[int], names: Sequence[str]) -> str:
    """``Tsumo``, ``Ron on West's discard``, ``Double ron on West's discard`` (each winner
    is named in their own block)."""
    first = wins[0]
    if first.from_seat is None:
        return "Tsumo"
    discarder = seat_label(first.from_seat, winds, names)
    return f"{MULTIPLE.get(len(wins), 'Ron')} on {discarder}'s discard"


def stick_taker(wins: Sequence[WinResult]) -> int | None:
    """The winner who takes the riichi sticks: the tsumo winner, or the first winner
    counter-clockwise from the discarder."""
    if not wins:
        return None
    first = wins[0]
    if first.from_seat is None:
        return first.seat
    return min((w.seat for w in wins), key=lambda seat: (seat - first.from_seat) % SEATS)


def draw_win_confirm(canvas: Canvas, model: ScreenModel, area: pygame.Rect) -> None:
    state, preview = model.state, model.preview
    assert preview is not None
    winds = tuple(state.seat_wind(seat) for seat in range(state.players))
    subtitle = f"{state.round_label}, {state.honba} honba"
    body = overlay_frame(canvas, area, win_title(preview.wins, winds, state.names), subtitle,
                         confirm_legend(preview))
    body = _doubts(canvas, body, preview.doubts)
    payments = confirm_rows(preview, state.sticks, stick_taker(preview.wins))
    _wins_and_payments(canvas, body, preview.wins, payments, winds, state)


def draw_hand_result(canvas: Canvas, model: ScreenModel, area: pygame.Rect) -> None:
    state = model.state
    result = state.result
    assert result is not None
    winds = hand_winds(state)
    if result.kind == "win" and result.wins:
        body = overlay_frame(canvas, area, win_title(result.wins, winds, state.names),
                             hand_label(result.detail), result_legend(state))
        first = stick_taker(result.wins)
        assert first is not None  # there are wins
        payments = result_rows(result.deltas, state.scores, first)
        _wins_and_payments(canvas, body, result.wins, payments, winds, state)
        return
    body = overlay_frame(canvas, area, _draw_title(result, winds, state.names),
                         hand_label(result.detail), result_legend(state))
    _draw_table(canvas, body, state, result, winds)


def _wins_and_payments(canvas: Canvas, body: pygame.Rect, wins: Sequence[WinResult],
                       payments: Sequence[PaymentRow], winds: Sequence[int],
                       state: TableState) -> None:
    """The winners one under another across the whole width (each with the Norths they
    set aside, three players), the payments below them."""
    names = state.names
    unit = canvas.unit
    band = round(min(payments_height(unit, payments), body.height * 0.3))
    gap = round(unit * 2)
    winners = pygame.Rect(body.left, body.top, body.width, body.height - band - gap)
    for index, (win, box) in enumerate(zip(wins, rows(winners, [1] * len(wins), gap),
                                           strict=True)):
        if index:
            canvas.box(pygame.Rect(box.left, box.top - gap // 2, box.width, 1),
                       theme.PANEL_EDGE)
        draw_win_block(canvas, box, win, index, winds, names, _kita(state, win.seat))
    draw_payments(canvas, pygame.Rect(body.left, body.bottom - band, body.width, band),
                  payments, winds, names)


def _kita(state: TableState, seat: int) -> int:
    """The Norths ``seat`` set aside this hand (0 with four players)."""
    return state.seats[seat].kita if state.players == 3 else 0


def _doubts(canvas: Canvas, body: pygame.Rect, doubts: Sequence[str]) -> pygame.Rect:
    """Doubtful reads listed under the body; returns what is left of the body."""
    if not doubts:
        return body
    height = round(canvas.unit * 5)
    top = body.bottom - height * len(doubts)
    for index, doubt in enumerate(doubts):
        row = pygame.Rect(body.left, top + index * height, body.width, height)
        canvas.text(row, f"Check: {doubt}", height * 0.8, theme.WARNING, "left",
                    f"doubt{index}")
    return pygame.Rect(body.left, body.top, body.width, top - body.top - round(canvas.unit))


def _draw_title(result: HandResult, winds: Sequence[int], names: Sequence[str]) -> str:
    if result.kind == "exhaustive_draw":
        return "Exhaustive draw" + (": nagashi mangan" if "nagashi" in result.detail else "")
    if result.kind == "abortive_draw":
        return f"Abortive draw: {result.detail}"
    return f"Chombo by {result.detail}" if result.detail else "Chombo"


def _draw_table(canvas: Canvas, body: pygame.Rect, state: TableState, result: HandResult,
                winds: Sequence[int]) -> None:
    height = min(body.height / (SEATS + 2), canvas.unit * 11)
    header = pygame.Rect(body.left, body.top, body.width, round(height * 0.7))
    table_row(canvas, header, [("", "left", ""), ("", "centre", ""),
                               ("change", "right", "result.head_delta"),
                               ("sticks", "right", "result.head_sticks"),
                               ("points", "right", "result.head_points")],
              DRAW_COLUMNS, [theme.MUTED] * 5)
    east = winds.index(0)
    for line, seat in enumerate(wind_order(east, state.players)):
        row = pygame.Rect(body.left, round(header.bottom + line * height), body.width,
                          round(height))
        _draw_row(canvas, row, state, result, seat, winds)
    if state.sticks:
        note = pygame.Rect(body.left, round(header.bottom + state.players * height),
                           body.width,
                           round(height * 0.6))
        plural = "stick stays" if state.sticks == 1 else "sticks stay"
        canvas.text(note, f"{state.sticks} riichi {plural} on the table", note.height * 0.9,
                    theme.MUTED, "left", "result.note")


def _draw_row(canvas: Canvas, row: pygame.Rect, state: TableState, result: HandResult,
              seat: int, winds: Sequence[int]) -> None:
    canvas.box(row.inflate(0, -round(row.height * 0.12)), theme.PANEL, "", canvas.unit)
    status = ""
    if result.kind == "exhaustive_draw":
        status = "TENPAI" if seat in result.tenpai else "NOTEN"
    delta = result.deltas[seat]
    cells = [(seat_label(seat, winds, state.names), "left", f"result.seat{seat}"),
             (status, "centre", f"result.status{seat}"),
             (theme.signed(delta), "right", f"result.delta{seat}"),
             (sticks_note(delta), "right", f"result.sticks{seat}"),
             (theme.points_text(state.scores[seat]), "right", f"result.points{seat}")]
    status_colour = theme.TENPAI if status == "TENPAI" else theme.MUTED
    colours = [theme.TEXT, status_colour, theme.delta_colour(delta), theme.MUTED, theme.TEXT]
    table_row(canvas, row.inflate(-round(canvas.unit * 3), 0), cells, DRAW_COLUMNS, colours,
              row.height * 0.5)
