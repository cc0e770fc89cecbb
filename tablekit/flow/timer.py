"""The game timer's state as the flow keeps it (:mod:`tablekit.flow.timing` runs it): a data
type of its own, below the flow, so that the flow and its handlers share it.

>>> Timer(game=1, started=0.0, called_at=5).called
True
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class Timer:
    """A game's timer: which game (where it started in the journal), its wall-clock start, the
    hands played when time was called (None: not yet)."""

    game: int
    started: float
    called_at: int | None = None

    @property
    def called(self) -> bool:
        return self.called_at is not None
