"""What the stage handlers see of the flow: :class:`FlowState`, the members of
:class:`~tablekit.flow.core.Flow` that the handlers (:mod:`~tablekit.flow.play`,
:mod:`~tablekit.flow.claims`, :mod:`~tablekit.flow.confirm`, :mod:`~tablekit.flow.by_hand`,
:mod:`~tablekit.flow.seats`, :mod:`~tablekit.flow.between`, ...) and the flow's note
(:mod:`~tablekit.flow.saved`) read, set and call.

The handlers name this protocol, not ``Flow``: ``Flow`` dispatches to them, so they sit below
it, and this module imports only what sits below them too. ``Flow`` has every member here
(its ``HANDLERS`` are called with it, which the type checker checks against this protocol;
``tests/test_flow_host.py`` checks it at run time).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol, runtime_checkable

from tablekit.display.model import Layout, LeagueLine, WinPreview
from tablekit.flow.camera_side import CameraSide
from tablekit.flow.pending import Pending
from tablekit.flow.stage import Stage
from tablekit.flow.stages import Place
from tablekit.flow.timer import Timer
from tablekit.flow.win import WinInProgress
from tablekit.game.events import Event
from tablekit.game.session import Session
from tablekit.io.presses import ButtonPress
from tablekit.rules.presets import Rules


@runtime_checkable
class FlowState(Protocol):
    """The flow as its stage handlers use it (see :class:`~tablekit.flow.core.Flow` for what
    each member means)."""

    # -- the table and its inputs
    session: Session
    reader: CameraSide | None
    layout: Layout
    boxes: tuple[int, ...]
    phones: Any

    # -- where the flow is and what it shows
    place: Place
    message: str
    pending: Pending
    next_rules: str
    timer: Timer | None

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

    @win.setter
    def win(self, win: WinInProgress) -> None:
        """The win stage the flow is at, holding ``win`` instead (a new place)."""

    @property
    def preview(self) -> WinPreview | None:
        """The win waiting for OK, scored on a copy of the state (None: none)."""

    def start_game(self, rules: Rules, names: tuple[str, ...] = (), first_dealer: int = 0
                   ) -> None:
        """Begin a new game under ``rules``."""

    def submit(self, event: Event, joins: bool = False) -> bool:
        """Submit one event (``joins``: as part of the last action); a refusal is the message."""

    def submit_action(self, events: Sequence[Event], joins: bool = False) -> bool:
        """Submit the events of one action; a refusal is the message."""

    def turn_started(self, seat: int) -> bool:
        """Whether the last action is ``seat``'s turn begun (its draw, a riichi)."""

    def resting_stage(self) -> Stage:
        """The stage the table's phase calls for."""

    def rest(self) -> None:
        """Back to the stage the table's phase calls for; a win in progress is dropped."""

    def back_to_play(self, message: str) -> None:
        """:meth:`rest`, with ``message`` shown."""

    def common(self, press: ButtonPress) -> None:
        """What the buttons do wherever nothing else is asked of them."""

    def undo(self, redo: bool = False) -> None:
        """Take back (or put back) the last action."""
