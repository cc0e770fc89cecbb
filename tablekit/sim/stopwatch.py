"""How long the scoreboard takes to show what happened at the simulated table, on its clock.

A :class:`Stopwatch` watches the app's steps during a simulated game
(:mod:`tablekit.sim.simulate` keeps one for every game):

* ``placed_to_shown``: from the first camera frame in which a discard lies in its pond (the
  player's hand may still be over it) to the first screen showing it in that seat's pond;
* ``still_to_shown``: from the first frame in which it lies still, the player's arm gone
  from over the table (what the latency budget counts from: a camera cannot be asked to
  see a tile under a hand), to the same screen;
* ``win_to_scored_ron`` and ``win_to_scored_tsumo``: from the WIN button going down to the
  first screen with the scored hand (a ron waits out the 1.5 s window for a second WIN; a
  tsumo is a WIN held 1 s).

Times are the simulated clock's (the loop steps 20 times a second, the camera gives its
frames a second), so they show the loop's and the tracker's delays, not the machine's
speed. Samples are kept as counts per time (:func:`counts`), which add up over games
(:func:`merge_counts`) into p50 and p95 (:func:`figures`).

>>> figures([0.25, 0.5, 0.5, 0.75])
{'n': 4, 'p50': 0.5, 'p95': 0.71, 'max': 0.75}
>>> merged = merge_counts([counts([0.5, 0.25]), counts([0.5])])
>>> merged, figures(samples(merged))["p50"]
({'0.25': 1, '0.5': 2}, 0.5)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

from tablekit.display.model import Mode, ScreenModel
from tablekit.game.events import Discard
from tablekit.game.state import Phase
from tablekit.io.presses import ButtonName, ButtonPress
from tablekit.sim.script import Moment, Script

BUDGET = 0.5   # seconds from lying still to shown
KINDS = ("placed_to_shown", "still_to_shown", "win_to_scored_ron", "win_to_scored_tsumo")


class Stopwatch:
    """When each discard first lies in a camera frame, when it first lies there with the
    discarder's arm gone, and when the screen first shows it; when each WIN went down and
    when the scored hand showed.

    Call :meth:`frame` with each new camera frame and :meth:`step` after each step of the
    loop; :meth:`samples` gives the delays (s) by kind (:data:`KINDS`)."""

    def __init__(self, script: Script) -> None:
        self.placed: dict[tuple[int, int, int], float] = {}
        self.still: dict[tuple[int, int, int], float] = {}
        self.shown: dict[tuple[int, int, int], float] = {}
        self.wins: dict[str, list[float]] = {"ron": [], "tsumo": []}
        self._ponds = pond_indexes(script.moments)
        self._presses = 0
        self._win_down: tuple[float, bool] | None = None
        self._previewed = False
        self._hands_started = 0   # hands the screen has shown in play
        self._in_play = False

    def frame(self, frame: Any, now: float) -> None:
        """A new camera frame at ``now``: the discard its moment lays (kept frames have none),
        and whether the discarder's arm is still over the table (the frame's truth)."""
        moment = getattr(frame, "moment", None)
        if moment is not None and isinstance(moment.event, Discard):
            seat = moment.event.seat
            key = (moment.hand, seat, self._ponds[moment.hand, moment.turn])
            self.placed.setdefault(key, now)
            arms = getattr(getattr(frame, "truth", None), "arms", ())
            if not any(arm.get("seat") == seat for arm in arms):
                self.still.setdefault(key, now)

    def step(self, screen: ScreenModel | None, shown_at: float, now: float,
             pressed: Sequence[tuple[float, ButtonPress]]) -> None:
        """After a step at ``now``: ``screen`` shown since ``shown_at``; ``pressed``: every
        press so far with when it went down."""
        in_play = screen is not None and screen.state.phase is Phase.HAND_IN_PLAY
        self._hands_started += in_play and not self._in_play
        self._in_play = in_play
        if screen is not None and in_play and shown_at == now:
            hand = self._hands_started - 1
            for seat, seat_state in enumerate(screen.state.seats):
                for index in range(len(seat_state.pond)):
                    self.shown.setdefault((hand, seat, index), now)
        self._win_presses(screen, now, pressed)

    def _win_presses(self, screen: ScreenModel | None, now: float,
                     pressed: Sequence[tuple[float, ButtonPress]]) -> None:
        on_scoreboard = screen is not None and screen.mode is Mode.SCOREBOARD
        for at, press in pressed[self._presses:]:
            if press.name is ButtonName.WIN and self._win_down is None and on_scoreboard:
                self._win_down = (at, press.long)
        self._presses = len(pressed)
        previewed = screen is not None and screen.preview is not None
        if screen is not None and not previewed and screen.state.phase is not Phase.HAND_IN_PLAY:
            self._win_down = None   # a WIN that scored nothing (a draw's tenpai entry took it)
        if previewed and not self._previewed and self._win_down is not None:
            at, long = self._win_down
            self.wins["tsumo" if long else "ron"].append(round(now - at, 3))
            self._win_down = None
        self._previewed = previewed

    def discards(self, since: dict[tuple[int, int, int], float] | None = None) -> list[float]:
        """Placed (or ``since``: another start, as :attr:`still`) -> shown of each discard
        the screen showed; 0 for one shown before that start (read under a moving hand)."""
        starts = self.placed if since is None else since
        return [max(0.0, round(self.shown[key] - at, 3)) for key, at in starts.items()
                if key in self.shown]

    def never_shown(self) -> int:
        """Discards placed in a frame that no screen showed after (a called tile)."""
        return len(self.placed) - len(self.discards())

    def samples(self) -> dict[str, list[float]]:
        return {"placed_to_shown": self.discards(), "still_to_shown": self.discards(self.still),
                "win_to_scored_ron": self.wins["ron"], "win_to_scored_tsumo": self.wins["tsumo"]}


def pond_indexes(moments: Sequence[Moment]) -> dict[tuple[int, int], int]:
    """For each discard's moment (hand, turn): its place in the discarder's pond."""
    out, seen = {}, Counter[tuple[int, int]]()
    for moment in moments:
        if isinstance(moment.event, Discard):
            key = (moment.hand, moment.event.seat)
            out[moment.hand, moment.turn] = seen[key]
            seen[key] += 1
    return out


def counts(values: Iterable[float]) -> dict[str, int]:
    """Samples as counts per time (s), for JSON, in time order."""
    counted = Counter(round(value, 3) for value in values)
    return {f"{value:g}": counted[value] for value in sorted(counted)}


def merge_counts(many: Iterable[dict[str, int]]) -> dict[str, int]:
    """The counts of several games together."""
    total: Counter[str] = Counter()
    for one in many:
        total.update(one)
    return {key: total[key] for key in sorted(total, key=float)}


def samples(counted: dict[str, int]) -> list[float]:
    """The samples counts stand for."""
    return [float(key) for key, number in counted.items() for _ in range(number)]


def figures(values: Sequence[float]) -> dict[str, Any]:
    """How many, p50, p95 and the largest (s)."""
    if not values:
        return {"n": 0}
    array = np.asarray(values)
    return {"n": len(values), "p50": round(float(np.percentile(array, 50)), 2),
            "p95": round(float(np.percentile(array, 95)), 2),
            "max": round(float(array.max()), 2)}
