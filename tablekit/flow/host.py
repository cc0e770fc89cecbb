"""What is still written against the flow itself sees of it: :class:`FlowState`, the
members of :class:`~tablekit.flow.core.Flow` that the flow's note (:mod:`~tablekit.flow.saved`),
the game timer's tick (:mod:`~tablekit.flow.timing`), the club's seating
(:mod:`~tablekit.flow.sent_seats`) and the shell's caches (:func:`tablekit.flow.between.evening`)
read, set and call. The stage handlers do not: they are pure functions of the flow's value
(:mod:`tablekit.flow.model`), which the shell runs.

These modules name this protocol, not ``Flow``: ``Flow`` calls them, so they sit below it,
and this module imports only what sits below them too. ``Flow`` has every member here
(``tests/test_flow_host.py`` checks it at run time).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol, runtime_checkable

from tablekit.display.model import LeagueLine
from tablekit.flow.camera_side import CameraSide
from tablekit.flow.model import FlowData, Settings, Step, Table
from tablekit.flow.stage import Stage
from tablekit.flow.win import WinInProgress
from tablekit.game.events import Event
from tablekit.game.session import Session
from tablekit.rules.presets import Rules


@runtime_checkable
class FlowState(Protocol):
    """The flow as its stage handlers use it (see :class:`~tablekit.flow.core.Flow` for what
    each member means)."""

    # -- the shell: the flow's value (read as ``flow.data.place``, ...; changed by putting a
    # new one here, ``dataclasses.replace``), and running a handler's answer
    data: FlowData

    def run(self, step: Step) -> None:
        """Take a handler's new value and run its effects."""

    def table(self, behind: bool = False) -> Table:
        """The table as the handlers read it."""

    def settings(self) -> Settings:
        """What of the run the handlers read."""

    # -- the table and its inputs
    session: Session
    reader: CameraSide | None
    boxes: tuple[int, ...]
    phones: Any

    # -- the league, the players and the seats
    league: Callable[[], tuple[LeagueLine, ...]] | None
    roster: tuple[str, ...]
    rules: Rules | None
    seed: int | None

    # -- what is kept between inputs: caches and the note as last written
    hands_cache: tuple[int, int, int] | None
    saved: dict[str, Any]
    evening_cache: tuple[int, Any] | None
    league_cache: tuple[Any, Any] | None
    note_damaged: str

    @property
    def clock(self) -> Callable[[], float]:
        """The clock of the flow's waits (seconds, monotonic)."""

    @property
    def wall(self) -> Callable[[], float]:
        """The game timer's clock (wall-clock seconds: it survives a restart)."""

    @property
    def stage(self) -> Stage:
        """Which stage the flow is at (its place's kind)."""

    @property
    def win(self) -> WinInProgress | None:
        """The win in progress (None: the flow is at no stage of a win)."""

    def say(self, line: str) -> None:
        """Show ``line`` as the message (the status line; "": none)."""

    def submit(self, event: Event, joins: bool = False) -> bool:
        """Submit one event (``joins``: as part of the last action); a refusal is the message."""

    def resting_stage(self) -> Stage:
        """The stage the table's phase calls for."""

    def rest(self) -> None:
        """Back to the stage the table's phase calls for; a win in progress is dropped."""
