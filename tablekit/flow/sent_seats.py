"""The organiser's seating and clock at a table in the club: the round's seats are shown
("Round 3, table 2: East Ana, South Ben, West Cho, North Dan") and OK starts that game
under the round's time limit; the club's clock (one for every table, with this table's
extra time) sets the game's timer.

Seats are offered between games, or over a game that has only started (a table joined
without players starts one of nameless seats); never over the game of those players.

The hook reads an ``orders`` object (the club's :class:`~tablekit.club.orders.Orders`: its
``version``, ``seating`` and ``clock_for()``); a seating that comes while a game is in play
waits for its end.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from tablekit.flow import timing
from tablekit.flow.seating import Seating
from tablekit.flow.stages import ChoosePlayers
from tablekit.flow.timer import Timer
from tablekit.game.events import GameStarted, HandStarted
from tablekit.game.state import Phase
from tablekit.rules.presets import TENHOU, with_options

if TYPE_CHECKING:
    from tablekit.flow.host import FlowState

BETWEEN_GAMES = (Phase.NOT_STARTED, Phase.GAME_OVER)


def offer(flow: FlowState, seating: dict[str, Any]) -> bool | None:
    """Show the organiser's seats, OK to play them: True when shown, None when a game is in
    play (later), False when these players' game is the one started or played (never)."""
    state = flow.session.state
    names = tuple(seating["seats"])
    if state.phase is not Phase.NOT_STARTED and (
            tuple(state.names) == names
            or (state.phase is Phase.GAME_OVER and set(state.names) == set(names))):
        return False
    if state.phase not in BETWEEN_GAMES:
        if not untouched(flow):
            return None
        for _ in range(len(flow.session.game_events())):  # the empty game taken back
            flow.session.undo()
            if flow.session.state.phase in BETWEEN_GAMES:
                break
        state = flow.session.state
    rules = flow.rules or state.rules or TENHOU
    minutes = int(seating.get("minutes") or 0)
    if minutes:
        rules = with_options(rules, time_limit=minutes,
                             end_of_time=seating.get("end_of_time") or "finish_hand")
    flow.data = replace(flow.data, place=ChoosePlayers(Seating(names, names, rules=rules)),
                        message=f"{seating.get('text') or ', '.join(names)}: OK to play")
    return True


def untouched(flow: FlowState) -> bool:
    """Whether the game in play has only started (a table joined without players starts a
    game of nameless seats, which the organiser's seats replace)."""
    return all(isinstance(event, (GameStarted, HandStarted))
               for event in flow.session.game_events())


def follow(flow: FlowState, started: float, minutes: int) -> None:
    """Set the game's timer to the club's clock: time is up ``minutes`` after ``started``
    (seconds since the epoch), whatever the game's own start."""
    state = flow.session.state
    if not state.rules.time_limit or state.phase in BETWEEN_GAMES:
        return
    begun = started + (minutes - state.rules.time_limit) * 60  # so that the end falls right
    game = timing.game_in_play(flow)
    timer = flow.data.timer
    if timer is None or timer.game != game:
        flow.data = replace(flow.data, timer=Timer(game, begun))
    elif timer.started != begun:
        moved = replace(timer, started=begun)
        if timer.called and flow.wall() < started + minutes * 60:  # extra time after time up
            moved = moved.call(None)
        flow.data = replace(flow.data, timer=moved)


def orders_hook(orders: Any) -> Callable[[Any], None]:
    """``hook(app)`` for the loop: offers each new seating once, between games, and keeps the
    game's timer on the club's clock (cheap while nothing changed)."""
    seen: dict[str, Any] = {"version": -1, "waiting": None, "length": -1}

    def hook(app: Any) -> None:
        flow = app.flow
        if orders.version != seen["version"]:
            seen.update(version=orders.version, waiting=orders.seating, length=-1)
        length = flow.session.length  # a waiting seating is looked at again when it grows
        if seen["waiting"] is not None and length != seen["length"]:
            seen["length"] = length
            if offer(flow, seen["waiting"]) is not None:
                seen["waiting"] = None
        clock = orders.clock_for()
        if clock is not None:
            follow(flow, clock[0], clock[1])
    return hook
