"""The tournament timer in the flow: started with the game, shown on the screen (time left,
hands left estimated), and the rules' end-of-time policy applied when a hand ends.

The timer counts wall-clock time from the game's start and is kept in the flow's note, so a
power cut does not reset it. When time is called in a hand, that hand is the one the policy
lets finish (``finish_hand``) or the first of two (``one_more_hand``); called between hands,
the hand just played counts as that one. The game ends with a ``GameEnded`` joined to the
hand's end, so one UNDO on the final standings takes both back.

>>> Timer(game=1, started=0.0).called
False
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from tablekit.flow.model import FlowData, Settings, Step, Table, rested, submitted
from tablekit.flow.timer import Timer
from tablekit.game.events import HAND_ENDS, GameEnded
from tablekit.game.state import Phase
from tablekit.game.timer import GameClock, game_clock

if TYPE_CHECKING:
    from tablekit.flow.host import FlowState
    from tablekit.game.state import TableState

TIME_UP = "time is up"


def tick(flow: FlowState) -> None:
    """:func:`ticked` on the flow, its effects run (the loop asks every step: a game
    without a time limit costs nothing more)."""
    state = flow.session.state
    if not state.rules.time_limit or state.phase is Phase.NOT_STARTED:
        return
    flow.run(ticked(flow.data, flow.table(), flow.wall(), _counts(flow), flow.settings()))


def ticked(data: FlowData, table: Table, wall: float, counts: tuple[int, int],
           settings: Settings) -> Step:
    """Start the game's timer, call time, and end the game when the policy says so
    (``wall``: the time now; ``counts``: the game in play and its hands ended)."""
    state = table.state
    if not state.rules.time_limit or state.phase is Phase.NOT_STARTED:
        return data, ()
    game, played = counts
    if data.timer is None or data.timer.game != game:
        data = replace(data, timer=Timer(game, wall))
    timer = data.timer
    assert timer is not None
    clock = clock_of(timer, state, wall, played)
    if clock is None or state.phase is Phase.GAME_OVER:
        return data, ()
    if clock.remaining <= 0 and not timer.called:
        timer = timer.call(played if state.phase is Phase.HAND_IN_PLAY else max(played - 1, 0))
        data = replace(data, timer=timer)
        clock = clock_of(timer, state, wall, played)
    last = table.last_action
    if clock is not None and clock.ends_now and state.phase is Phase.HAND_OVER and last and (
            isinstance(last[-1], HAND_ENDS)):
        data, after, effects = submitted(data, table, [GameEnded(TIME_UP)], joins=True,
                                         refused=rested(data, table, settings))
        return rested(data, after, settings), effects
    return data, ()


def clock_of(timer: Timer | None, state: TableState, wall: float, played: int
             ) -> GameClock | None:
    """The game's clock at ``wall`` (None: no timer, or no time limit)."""
    if timer is None or not state.rules.time_limit:
        return None
    after = played - timer.called_at if timer.called_at is not None else 0
    return game_clock(state.rules, wall - timer.started, played, after)


def game_clock_of(flow: FlowState) -> GameClock | None:
    """The game's clock now (None: no time limit, or not started)."""
    timer = flow.data.timer
    if timer is None or not flow.session.state.rules.time_limit:
        return None
    return clock_of(timer, flow.session.state, flow.wall(), hands_played(flow))


def text(flow: FlowState) -> str:
    """What the screen shows: ``30:00 left, about 5 hands`` ('' without a time limit)."""
    clock = game_clock_of(flow)
    if clock is None or flow.session.state.phase is Phase.GAME_OVER:
        return ""
    return clock.text


def hands_played(flow: FlowState) -> int:
    """The hands of the game in play that have ended."""
    return _counts(flow)[1]


def game_in_play(flow: FlowState) -> int:
    """Which game is in play: where it started in the journal (the timer belongs to it)."""
    return _counts(flow)[0]


def _counts(flow: FlowState) -> tuple[int, int]:
    """The game in play and its hands ended, worked out only when the journal grows (the
    loop asks every step)."""
    session = flow.session
    if flow.hands_cache is None or flow.hands_cache[0] != session.length:
        ended = sum(isinstance(e, HAND_ENDS) for e in session.game_events())
        flow.hands_cache = (session.length, session.game_id, ended)
    return flow.hands_cache[1], flow.hands_cache[2]
