"""The win screens: a scored win waiting for OK (WIN_CONFIRM) and the last hand's result
(HAND_RESULT: a win, an exhaustive or abortive draw, or a chombo).

Like the final standings and the menu, they fill the screen upright in both layouts: they
are read up close by whoever checks them, not from every seat.

Names besides the winners' (:mod:`~tablekit.display.win_block`) and the payments'
(:mod:`~tablekit.display.payment_list`): ``doubtN``; for draws ``result.seatN``,
``result.statusN``, ``result.deltaN``, ``result.pointsN`` and ``result.note``.
"""

from __future__ import annotations

from collections.abc import Sequence

import pygame

from tablekit.display import theme
from tablekit.display.canvas import Canvas
from tablekit.display.geometry import columns, rows
from tablekit.display.model import ScreenModel
from tablekit.display.overlay_frame import hand_label, hand_winds, overlay_frame, table_row
from tablekit.display.payment_list import confirm_rows, draw_payments, result_rows
from tablekit.display.win_block import draw_win_block, seat_label
from tablekit.game.state import SEATS, HandResult, Phase, TableState, WinResult

CONFIRM_FOOTER = "OK to apply, UNDO to cancel"
FIXABLE_FOOTER = "OK to apply, CALL to fix the tiles (held: han and fu), UNDO to cancel"
MULTIPLE = {2: "Double ron", 3: "Triple ron"}
DRAW_COLUMNS = (0.36, 0.2, 0.2, 0.24)


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
    winds = tuple(state.seat_wind(seat) for seat in range(SEATS))
    subtitle = f"{state.round_label}, {state.honba} honba"
    body = overlay_frame(canvas, area, win_title(preview.wins, winds, state.names), subtitle,
                         FIXABLE_FOOTER if preview.fixable else CONFIRM_FOOTER)
    body = _doubts(canvas, body, preview.doubts)
    payments = confirm_rows(preview, state.sticks, stick_taker(preview.wins))
    _wins_and_payments(canvas, body, preview.wins, winds, state.names)
    draw_payments(canvas, _payments_box(canvas, body), payments, winds, state.names)


def draw_hand_result(canvas: Canvas, model: ScreenModel, area: pygame.Rect) -> None:
    state = model.state
    result = state.result
    assert result is not None
    winds = hand_winds(state)
    if result.kind == "win" and result.wins:
        body = overlay_frame(canvas, area, win_title(result.wins, winds, state.names),
                             hand_label(result.detail), _next_hand(state))
        _wins_and_payments(canvas, body, result.wins, winds, state.names)
        draw_payments(canvas, _payments_box(canvas, body),
                      result_rows(result.deltas, state.scores), winds, state.names,
                      "Score changes")
        return
    body = overlay_frame(canvas, area, _draw_title(result, winds, state.names),
                         hand_label(result.detail), _next_hand(state))
    _draw_table(canvas, body, state, result, winds)


def _wins_and_payments(canvas: Canvas, body: pygame.Rect, wins: Sequence[WinResult],
                       winds: Sequence[int], names: Sequence[str]) -> None:
    left = columns(body, (0.65, 0.35), canvas.unit * 3)[0]
    for index, (win, box) in enumerate(zip(wins, rows(left, [1] * len(wins), canvas.unit * 2),
                                           strict=True)):
        if index:
            canvas.box(pygame.Rect(box.left, box.top - round(canvas.unit), box.width, 1),
                       theme.PANEL_EDGE)
        draw_win_block(canvas, box, win, index, winds, names)


def _payments_box(canvas: Canvas, body: pygame.Rect) -> pygame.Rect:
    return columns(body, (0.65, 0.35), canvas.unit * 3)[1]


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


def _next_hand(state: TableState) -> str:
    if state.phase is Phase.GAME_OVER:
        return f"Game over: {state.end_reason}"
    return f"Next: {state.round_label}, {state.honba} honba"


def _draw_title(result: HandResult, winds: Sequence[int], names: Sequence[str]) -> str:
    if result.kind == "exhaustive_draw":
        return "Exhaustive draw" + (": nagashi mangan" if "nagashi" in result.detail else "")
    if result.kind == "abortive_draw":
        return f"Abortive draw: {result.detail}"
    return f"Chombo ({result.detail})" if result.detail else "Chombo"


def _draw_table(canvas: Canvas, body: pygame.Rect, state: TableState, result: HandResult,
                winds: Sequence[int]) -> None:
    height = min(body.height / (SEATS + 2), canvas.unit * 11)
    header = pygame.Rect(body.left, body.top, body.width, round(height * 0.7))
    table_row(canvas, header, [("", "left", ""), ("", "centre", ""),
                               ("change", "right", "result.head_delta"),
                               ("points", "right", "result.head_points")],
              DRAW_COLUMNS, [theme.MUTED] * 4)
    for seat in range(SEATS):
        row = pygame.Rect(body.left, round(header.bottom + seat * height), body.width,
                          round(height))
        _draw_row(canvas, row, state, result, seat, winds)
    if state.sticks:
        note = pygame.Rect(body.left, round(header.bottom + SEATS * height), body.width,
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
             (theme.points_text(state.scores[seat]), "right", f"result.points{seat}")]
    status_colour = theme.TENPAI if status == "TENPAI" else theme.MUTED
    colours = [theme.TEXT, status_colour, theme.delta_colour(delta), theme.TEXT]
    table_row(canvas, row.inflate(-round(canvas.unit * 3), 0), cells, DRAW_COLUMNS, colours,
              row.height * 0.5)
