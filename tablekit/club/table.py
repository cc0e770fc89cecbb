"""A table in the club: a hook for the game loop that hands the publisher the table's live
state whenever the journal changes, and each game once it is over (by its stable id: a game
handed over again, after a restart, replaces the one waiting and is recorded once)."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from tablekit.club.records import game_id, game_record, live_state
from tablekit.game.events import HAND_ENDS
from tablekit.game.state import Phase


def club_hook(publisher: Any, clock: Callable[[], float] = time.time
              ) -> Callable[[Any], None]:
    """``hook(app)`` for the app's loop (``App.hooks``; the simulator's ``on_step``): cheap
    while nothing changed (one comparison), never waits on the network. ``publisher``: a
    :class:`~tablekit.club.publisher.Publisher` (or anything with its two ``send_``)."""
    seen: list[int | None] = [None]     # the journal length last sent
    finished: set[str] = set()          # the games handed over by this process

    def hook(app: Any) -> None:
        session = app.flow.session
        if session.length == seen[0]:
            return
        seen[0] = session.length
        events = session.game_events()
        state = session.state
        hands = sum(isinstance(event, HAND_ENDS) for event in events)  # finished ones
        publisher.send_state(live_state(state, hands, clock()))
        if state.phase is Phase.GAME_OVER:
            key = game_id(publisher.table, session.path, session.game_id)
            if key not in finished:
                finished.add(key)
                publisher.send_game(key, game_record(key, publisher.table, events, clock()))
    return hook

