"""Where things go: the banner and status strips, and the seat panels of both layouts.

``facing``: every panel upright, seats placed like the table seen from seat 0 (0 bottom,
1 right, 2 top, 3 left) around the centre information. ``centre``: a pinwheel of panels
along the edges, each turned to face its player (seat 0 upright at the bottom, 1 on the
right turned 90 degrees, 2 at the top 180, 3 on the left 270), like an automatic table's
centre display.

The sides are the seat boxes' (:mod:`tablekit.flow.boxes`: the East box's at the bottom, the
South's on the right, the West's at the top, the North's on the left). Three players (sanma)
sit at three of the boxes, East, South and West unless ``tablekit run --seat-boxes`` says
otherwise: each player's panel is on the side of the box they press, and the centre
information (round, dora, deposits) takes the empty side's room in both layouts.

>>> board = centre_board(pygame.Rect(0, 0, 800, 480), unit=4.8)
>>> [(p.seat, p.turns, p.upright_size) for p in board.seats]
[(0, 0, (651, 139)), (1, 1, (331, 139)), (2, 2, (651, 139)), (3, 3, (331, 139))]
>>> tuple(board.centre)
(146, 146, 507, 187)
>>> sanma = centre_board(pygame.Rect(0, 0, 800, 480), unit=4.8, boxes=(0, 1, 2))
>>> [p.seat for p in sanma.seats], tuple(sanma.centre)
([0, 1, 2], (2, 146, 651, 187))
>>> at_east_west_north = centre_board(pygame.Rect(0, 0, 800, 480), unit=4.8, boxes=(0, 2, 3))
>>> [(p.seat, p.turns) for p in at_east_west_north.seats], tuple(at_east_west_north.centre)
([(0, 0), (1, 2), (2, 3)], (146, 146, 651, 187))
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import pygame

from tablekit.display.geometry import columns, inset, rows, turned_size
from tablekit.display.model import Layout

SEATS = 4
FOUR = (0, 1, 2, 3)  # four players: player N at box N
BANNER = 8.0      # units: the warnings banner's height
STATUS = 6.5      # the status line's height
LEGEND = 5.0      # the button legend's height
THICKNESS = 30.0  # a centre-layout seat panel's depth


@dataclass(frozen=True, eq=False)
class Placement:
    """One seat panel: its rectangle on screen and its quarter turns counter-clockwise."""

    seat: int
    rect: pygame.Rect
    turns: int = 0

    @property
    def upright_size(self) -> tuple[int, int]:
        """The panel's size before it is turned (the size to draw it at)."""
        return turned_size(self.rect.size, self.turns)


@dataclass(frozen=True, eq=False)
class Board:
    seats: tuple[Placement, ...]
    centre: pygame.Rect


def screen_areas(size: tuple[int, int], unit: float, banner: bool, status: bool,
                 legend: bool = False) -> tuple[pygame.Rect | None, pygame.Rect,
                                                pygame.Rect | None, pygame.Rect | None]:
    """The warnings banner (top), the content, the status line and the button legend
    (bottom); absent strips give their room to the content.

    >>> [tuple(r) if r else None for r in screen_areas((800, 480), 4.8, True, False, True)]
    [(0, 0, 800, 38), (0, 38, 800, 418), None, (0, 456, 800, 24)]
    """
    screen = pygame.Rect((0, 0), size)
    top = round(BANNER * unit) if banner else 0
    low = round(LEGEND * unit) if legend else 0
    bottom = round(STATUS * unit) if status else 0
    content = pygame.Rect(0, top, screen.width, screen.height - top - bottom - low)
    banner_rect = pygame.Rect(0, 0, screen.width, top) if banner else None
    status_rect = pygame.Rect(0, content.bottom, screen.width, bottom) if status else None
    legend_rect = pygame.Rect(0, screen.height - low, screen.width, low) if legend else None
    return banner_rect, content, status_rect, legend_rect


def board(layout: Layout, area: pygame.Rect, unit: float, players: int = SEATS,
          boxes: Sequence[int] = FOUR) -> Board:
    """The panels of ``players`` seats (4, or 3 for sanma) and the centre, in ``layout``;
    three players sit at ``boxes`` (each seat's box, the first dealer's first).

    >>> area = pygame.Rect(0, 0, 800, 480)
    >>> [p.rect.center for p in board("facing", area, 4.8, 3).seats]
    [(400, 398), (678, 240), (400, 81)]
    >>> [p.rect.center for p in board("facing", area, 4.8, 3, boxes=(0, 2, 3)).seats]
    [(400, 398), (400, 81), (122, 240)]
    """
    sides = seat_sides(players, boxes)
    if layout == "centre":
        return centre_board(area, unit, sides)
    return facing_board(area, unit, sides)


def seat_sides(players: int, boxes: Sequence[int]) -> tuple[int, ...]:
    """The side of each seat's panel: its box's (three players), else seat N's side N.

    >>> seat_sides(3, (1, 3, 0)), seat_sides(3, FOUR), seat_sides(4, (0, 2, 3))
    ((1, 3, 0), (0, 1, 2), (0, 1, 2, 3))
    """
    if players == SEATS or len(set(boxes[:players])) < players:
        return FOUR[:players]
    return tuple(boxes[:players])


def facing_board(area: pygame.Rect, unit: float, boxes: Sequence[int] = FOUR) -> Board:
    """A cross: the West box's seat top middle, the North's and the South's left and right
    of the centre, the East's bottom middle (three players: the centre runs over the empty
    box's cell).

    >>> fb = facing_board(pygame.Rect(0, 0, 800, 480), 4.8)
    >>> [tuple(p.rect) for p in fb.seats][:2], tuple(fb.centre)
    ([(283, 322, 234, 153), (561, 163, 234, 154)], (244, 163, 312, 154))
    >>> tuple(facing_board(pygame.Rect(0, 0, 800, 480), 4.8, boxes=(0, 1, 2)).centre)
    (5, 163, 551, 154)
    >>> tuple(facing_board(pygame.Rect(0, 0, 800, 480), 4.8, boxes=(1, 2, 3)).centre)
    (244, 163, 312, 312)
    """
    gap = unit
    grid = [columns(row, (3, 4, 3), gap) for row in rows(inset(area, unit), (1, 1, 1), gap)]
    cells = (grid[2][1], grid[1][2], grid[0][1], grid[1][0])
    centre = grid[1][1].unionall([cells[box] for box in FOUR if box not in boxes])
    seats = tuple(Placement(seat, _same_size(cells[box], grid[1][0]))
                  for seat, box in enumerate(boxes))
    return Board(seats, centre)


def _same_size(cell: pygame.Rect, model: pygame.Rect) -> pygame.Rect:
    """A panel as big as the side cells, centred in ``cell`` (all seats read the same)."""
    rect = pygame.Rect(0, 0, min(model.width, cell.width), min(model.height, cell.height))
    rect.center = cell.center
    return rect


def centre_board(area: pygame.Rect, unit: float, boxes: Sequence[int] = FOUR) -> Board:
    """A pinwheel: each panel runs along its box's edge, shifted to its player's left, and
    turned to face them (three players: the empty box's edge is the centre's)."""
    depth = round(min(THICKNESS * unit, area.height / 3, area.width / 3))
    x0, y0, x1, y1 = area.left, area.top, area.right, area.bottom
    width, height = area.width, area.height
    rects = (
        pygame.Rect(x0, y1 - depth, width - depth, depth),
        pygame.Rect(x1 - depth, y0 + depth, depth, height - depth),
        pygame.Rect(x0 + depth, y0, width - depth, depth),
        pygame.Rect(x0, y0, depth, height - depth),
    )
    margin = unit / 2
    seats = tuple(Placement(seat, inset(rects[box], margin), box)
                  for seat, box in enumerate(boxes))
    bottom, right, top, left = ((depth if box in boxes else 0) for box in FOUR)
    centre = inset(pygame.Rect(x0 + left, y0 + top, width - left - right,
                               height - top - bottom), margin)
    return Board(seats, centre)
