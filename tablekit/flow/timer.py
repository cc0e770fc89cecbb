"""The game timer's state as the flow keeps it (:mod:`tablekit.flow.timing` runs it): a data
type of its own, below the flow, so that the flow and its handlers share it; frozen, like
the rest of the flow's state (:mod:`tablekit.flow.stages`): a change is a new one.

>>> Timer(game=1, started=0.0, called_at=5).called
True
>>> Timer(game=1, started=0.0).call(3)
Timer(game=1, started=0.0, called_at=3)
"""

from __future__ import annotations

from dataclasses import dataclass, replace


@dataclass(frozen=True)
class Timer:
    """A game's timer: which game (where it started in the journal), its wall-clock start, the
    hands played when time was called (None: not yet)."""

    game: int
    started: float
    called_at: int | None = None

    @property
    def called(self) -> bool:
        return self.called_at is not None

    def call(self, hands_played: int | None) -> Timer:
        """The timer with time called after ``hands_played`` hands (None: not called)."""
        return replace(self, called_at=hands_played)
