"""The centre of the scoreboard: round and hand, honba, riichi deposits, dora indicators,
the wall and the rules' title (or, while tenpai is entered, what to do; between hands,
what OK deals in place of the dora).

Names: ``centre.round``, ``centre.honba``, ``centre.deposits``, ``centre.dora`` (the row of
indicators) and ``centre.doraN``, ``centre.deal``, ``centre.wall``, ``centre.rules``,
``centre.promptN``.
"""

from __future__ import annotations

import pygame

from tablekit.display import theme
from tablekit.display.canvas import Canvas
from tablekit.display.geometry import columns, inset, rows
from tablekit.display.legend import TENPAI, deal_prompt
from tablekit.display.model import Mode, ScreenModel
from tablekit.display.tile_images import tile_width
from tablekit.game.state import Phase, TableState


def draw_centre(canvas: Canvas, area: pygame.Rect, model: ScreenModel) -> None:
    state = model.state
    inner = inset(area, max(area.height * 0.05, canvas.unit * 0.5))
    top, counters, dora, footer = rows(inner, (0.24, 0.15, 0.32, 0.13), area.height * 0.04)
    canvas.text(top, state.round_label, top.height, theme.TEXT, name="centre.round")
    if model.mode is Mode.TENPAI_ENTRY:
        _prompt(canvas, pygame.Rect(counters.left, counters.top, counters.width,
                                    footer.bottom - counters.top))
        return
    _counters(canvas, counters, state)
    if state.phase in (Phase.HAND_OVER, Phase.NOT_STARTED):
        canvas.text(dora, deal_prompt(state), dora.height * 0.5, theme.GOLD, name="centre.deal")
    else:
        _dora_row(canvas, dora, state)
    _footer(canvas, footer, state)


def _counters(canvas: Canvas, row: pygame.Rect, state: TableState) -> None:
    left, right = columns(row, (1, 1), row.height)
    sticks = f"{state.sticks} riichi stick{'' if state.sticks == 1 else 's'}"
    canvas.text(left, f"{state.honba} honba", row.height, theme.TEXT, name="centre.honba")
    canvas.text(right, sticks, row.height, theme.TEXT, name="centre.deposits")


def _dora_row(canvas: Canvas, row: pygame.Rect, state: TableState) -> None:
    """``Dora`` and the indicator tiles, centred together."""
    label_font = canvas.fonts.get(row.height * 0.4)
    label_width = label_font.size("Dora")[0]
    height = row.height
    gap = round(height * 0.08)
    count = max(len(state.dora), 1)
    width = label_width + gap * 2 + count * (tile_width(height) + gap)
    if width > row.width:  # five indicators on a narrow centre: smaller tiles
        height = int(height * row.width / width)
        width = row.width
    left = row.left + (row.width - width) // 2
    label = pygame.Rect(left, row.top, label_width, row.height)
    canvas.text(label, "Dora", row.height * 0.4, theme.MUTED, "left", "centre.dora_label")
    x = label.right + gap * 2
    if not state.dora:
        canvas.text(pygame.Rect(x, row.top, row.right - x, row.height), "none shown",
                    row.height * 0.35, theme.MUTED, "left", "centre.dora_none")
        return
    top = row.top + (row.height - height) // 2
    drawn = [canvas.tile(t, (x + i * (tile_width(height) + gap), top), height, f"centre.dora{i}")
             for i, t in enumerate(state.dora)]
    canvas.record("shape", "centre.dora", drawn[0].unionall(drawn[1:]))


def _footer(canvas: Canvas, row: pygame.Rect, state: TableState) -> None:
    gap = row.height
    wall = canvas.text(row, f"Wall {state.wall}", row.height, theme.MUTED, "left",
                       "centre.wall")
    rules = pygame.Rect(wall.right + gap, row.top, row.right - wall.right - gap, row.height)
    canvas.text(rules, state.rules.title, row.height, theme.MUTED, "right", "centre.rules")


def _prompt(canvas: Canvas, area: pygame.Rect) -> None:
    for index, (line, row) in enumerate(zip(TENPAI, rows(area, (1.3, 1, 1), area.height
                                                                     * 0.06), strict=True)):
        colour = theme.GOLD if index == 0 else theme.TEXT
        canvas.text(row, line, row.height * 0.8, colour, name=f"centre.prompt{index}")
