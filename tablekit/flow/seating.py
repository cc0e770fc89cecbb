"""The players being chosen with the seat buttons (:mod:`tablekit.flow.seats` handles the
buttons): a data type of its own, below the flow, so that the flow and its handlers share it.
Frozen, like the rest of the flow's state (:mod:`tablekit.flow.stages`): each step is a new one.

>>> seating = Seating(("Aki", "Ben", "Cho"), (None,) * 3).cycle(0, 1)
>>> seating.names[0], seating.chosen, seating.steps
('Aki', ('Aki',), ((None, None, None),))
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from tablekit.display.model import SeatingView
from tablekit.flow.stage import Stage
from tablekit.game.state import SEATS
from tablekit.league.roster import draw_seats
from tablekit.rules.presets import Rules

Names = tuple[str | None, ...]


@dataclass(frozen=True)
class Seating:
    """The players being chosen: the roster, each seat's name so far (None: nobody), the
    earlier choices (for UNDO), the screen the choice came from (None: before the first
    game) and how many draws were made (each draw has a seed of its own)."""

    roster: tuple[str, ...]
    names: Names = (None,) * SEATS
    steps: tuple[Names, ...] = ()
    back: Stage | None = None
    draws: int = 0
    drawn: bool = False
    rules: Rules | None = None  # the game's rules when the organiser sent the seats

    def cycle(self, seat: int, step: int) -> Seating | None:
        """``seat`` given the next (``step`` 1) or previous (-1) roster name no other seat
        holds (None: every name is taken)."""
        taken = {name for other, name in enumerate(self.names) if other != seat and name}
        free = [name for name in self.roster if name not in taken]
        if not free:
            return None
        current = self.names[seat]
        order = list(self.roster)
        start = order.index(current) if current in order else (-1 if step > 0 else 0)
        for offset in range(1, len(order) + 1):
            name = order[(start + step * offset) % len(order)]
            if name in free:
                return self._change(seat, name)
        return None

    def clear(self, seat: int) -> Seating:
        return self if self.names[seat] is None else self._change(seat, None)

    def draw(self, seed: int | None) -> Seating:
        """The chosen names shuffled over the seats (``seed`` + the draws so far, when given)."""
        names = tuple(draw_seats(self.chosen, None if seed is None else seed + self.draws))
        return replace(self, steps=(*self.steps, self.names), names=names,
                       draws=self.draws + 1, drawn=True)

    def back_one(self) -> Seating | None:
        """The last step taken back (None: there was none)."""
        if not self.steps:
            return None
        return replace(self, names=self.steps[-1], steps=self.steps[:-1], drawn=False)

    @property
    def ready(self) -> bool:
        return all(self.names)

    @property
    def chosen(self) -> tuple[str, ...]:
        return tuple(name for name in self.names if name)

    def view(self) -> SeatingView:
        return SeatingView(self.names, len(self.roster), self.drawn)

    def _change(self, seat: int, name: str | None) -> Seating:
        names = (*self.names[:seat], name, *self.names[seat + 1:])
        return replace(self, steps=(*self.steps, self.names), names=names, drawn=False)
