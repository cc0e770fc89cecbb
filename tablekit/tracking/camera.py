"""The app's one camera side: the camera's frames read by the feed and its pipeline
(:class:`~tablekit.vision.feed.CameraFeed`, perception) and followed by the
:class:`~tablekit.tracking.tracker.Tracker`, as one object handed the engine's state.

The loop hands it the state to poll a frame against (:meth:`Camera.poll`) and, when the
camera fell behind, the state the flow made of those events to take the frame's next
ones against (:meth:`Camera.catch_up`); the flow hands it the state when it asks at a
win, about a CALL, or whether the camera is behind (:class:`tablekit.flow.CameraSide`).
It keeps no state of the engine's and never reduces one itself.

>>> from tablekit.game.state import TableState
>>> class Feed:  # frames read as an empty, calibrated table
...     warnings, source, fps = [], None, 4.0
...     def poll(self, faint, gaps): return TableReading(())
...     def tracking(self, lines): self.warnings = lines
...     def close(self): pass
>>> camera = Camera(Feed())
>>> camera.poll(TableState.new()), camera.warnings  # no hand in play: nothing to follow
([], [])
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from tablekit.tracking.tracker import Tracker
from tablekit.vision.table_reading import TableReading

if TYPE_CHECKING:
    from tablekit.game.events import Event
    from tablekit.game.state import TableState
    from tablekit.game.win_reading import WinReading


class Readings(Protocol):
    """Frames read into readings (:class:`~tablekit.vision.feed.CameraFeed`): the newest
    due, with its warnings for the screen; its frame source and rate (a recording taps
    them)."""

    warnings: list[str]
    source: Any
    fps: float

    def poll(self, faint: Callable[[], bool], gaps: Callable[[], bool]
             ) -> TableReading | None: ...

    def tracking(self, lines: list[str]) -> None:
        """The tracking's lines about the last reading, for ``warnings``."""
        ...

    def close(self) -> None: ...


@dataclass
class Camera:
    """The feed and the tracker as one: frames to the events the state handed lacks."""

    feed: Readings
    tracker: Tracker = field(default_factory=Tracker)
    read_against: TableState | None = None
    """The state the last frame was read against (its warnings are about that state)."""

    @property
    def warnings(self) -> list[str]:
        """What the screen should say about the camera now (a few lines at most)."""
        return self.feed.warnings

    def poll(self, state: TableState) -> list[Event]:
        """The events the newest frame (when one is due) makes certain against ``state``."""
        reading = self.feed.poll(lambda: self.tracker.wants_faint(state),
                                 self.tracker.wants_gaps)
        if reading is None:
            return []
        events = self.tracker.update(reading, state)
        self.read_against = state
        self.feed.tracking(self.tracker.warnings(state))
        return events

    def catch_up(self, state: TableState) -> list[Event]:
        """What else the last frame shows, against ``state``: the state once the flow took
        the events last given ([] when it took none of them); the frame's warnings say
        what the tracking made of it all (a tile it doubts)."""
        events = self.tracker.catch_up(state)
        if events and self.read_against is not None:
            self.feed.tracking(self.tracker.warnings(self.read_against))
        return events

    def offer_again(self) -> None:
        """The flow let the last events wait (a win or a draw on the screen): the next frame
        gives them again (not refused ones)."""
        self.tracker.offer_again()

    # -- what the flow asks (tablekit.flow.CameraSide) -------------------------------------

    def look_at_win(self) -> None:
        self.tracker.look_at_win()

    def read_win(self, state: TableState, seats: tuple[int, ...], from_seat: int | None
                 ) -> WinReading:
        return self.tracker.read_win(state, seats, from_seat)

    def behind(self, state: TableState) -> bool:
        return self.tracker.behind(state)

    def expect_call(self, state: TableState, seat: int) -> None:
        self.tracker.expect_call(state, seat)

    def close(self) -> None:
        self.feed.close()
