"""What must hold on the table after every event, whatever came in: the checks the property
tests and the fault benchmark run.

>>> from tablekit.game.events import GameStarted, HandStarted, Draw
>>> from tablekit.game.reducer import replay
>>> broken(replay([GameStarted(), HandStarted(), Draw(0)]))
[]
"""

from __future__ import annotations

from tablekit.game.state import KINDS, Phase, TableState, live_wall

FROM_HAND = {"chi": 2, "pon": 2, "kan": 3, "ankan": 4, "shouminkan": 3}


def broken(state: TableState) -> list[str]:
    """Every invariant ``state`` breaks, in words (empty: all hold)."""
    problems = []
    if state.phase is not Phase.NOT_STARTED and (
            state.total_points != state.rules.start_points * state.players):
        problems.append(f"points plus deposits are {state.total_points:,}")
    visible = state.visible_kinds()
    over = [k for k, n in visible.items() if n > 4]
    if over:
        problems.append(f"more than four of kind {over} showing")
    if state.kind_counts() != tuple(visible[k] for k in range(KINDS)):
        problems.append("the reducer's running count of kinds showing is not a recount")
    if not 0 <= state.wall <= live_wall(state.players) or state.sticks < 0:
        problems.append(f"wall {state.wall}, sticks {state.sticks}")
    if state.phase is Phase.HAND_IN_PLAY and state.tracked:
        problems.extend(_hand_sizes(state))
    return problems


def _hand_sizes(state: TableState) -> list[str]:
    """Each hand holds 13 tiles (melds counted as three), 14 for the seat about to discard;
    a North set aside (kita) leaves the hand."""
    problems = []
    for index, seat in enumerate(state.seats):
        concealed = 13 + seat.draws - len(seat.pond) - sum(FROM_HAND[m.kind] for m in seat.melds)
        concealed -= seat.kita
        size = concealed + 3 * len(seat.melds)
        due = 14 if state.turn == index and not state.to_draw else 13
        if size != due or len(seat.melds) > 4:
            problems.append(f"seat {index} holds {size} tiles, {due} due")
    return problems
