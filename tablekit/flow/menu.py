"""The menu held UNDO opens: each item a label and the action it stands for (three
players: their three seats, and the abortive draws three can have).

>>> from tablekit.game.state import TableState
>>> [item.label for item in menu_items(TableState.new())[:3]]
['Close', 'Undo', 'Redo']
>>> [item.label for item in penalty_items(TableState.new(), 1)][:3]
['Back', '1,000 off South', '2,000 off South']
>>> abort_item("four_winds")
MenuItem(label='Abortive draw: four winds', action=<Action.ABORTIVE_DRAW: 'abortive draw'>, \
argument='four_winds')
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from tablekit.game.reducer import THREE_SEAT_ABORTS
from tablekit.game.state import SEATS, Phase, TableState, seat_name

ABORTS = ("nine_terminals", "four_winds", "four_riichi", "four_kans", "triple_ron")


class Action(Enum):
    CLOSE = "close"
    UNDO = "undo"
    REDO = "redo"
    EXHAUSTIVE_DRAW = "exhaustive draw"
    ABORTIVE_DRAW = "abortive draw"   # argument: the kind
    CHOMBO = "chombo"                 # argument: the seat
    LAYOUT = "layout"                 # argument: the layout to switch to
    PENALTY = "penalty"               # argument: the seat; opens the amounts
    PENALTY_AMOUNT = "penalty amount"  # argument: "seat:points"
    END_GAME = "end game"             # held OK: opens the confirmation
    END_COUNTED = "end counted"       # the game ends, the points as they stand count
    END_CANCELLED = "end cancelled"   # the game ends and does not count
    NEW_GAME = "new game"             # argument: the preset's name
    NEXT_RULES = "next rules"
    CHOOSE_PLAYERS = "choose players"  # with a roster, between games: the seat buttons
    CORRECT = "correct"               # argument: the step (tablekit.flow.correct)
    PHONE_KEYS = "phone keys"         # the phones' seat addresses made anew


HELD = frozenset({Action.END_GAME})
"""The items only a held OK chooses (a plain OK says so): ending a game early."""
PENALTY_STEPS = (1000, 2000, 4000, 8000)
"""The amounts a penalty from the menu may have (in points; three times as much when the
rules share penalties among the other three, so that each of them gets a whole amount)."""


@dataclass(frozen=True)
class MenuItem:
    """One line of the menu: what it says and what choosing it does."""

    label: str
    action: Action
    argument: str | int | None = None


def menu_items(state: TableState, layout: str = "facing", next_rules: str = "tenhou",
               roster: bool = False, phones: bool = False) -> tuple[MenuItem, ...]:
    """The menu for this table (UNDO moves down, OK chooses); ``roster``: players may be
    chosen from one for the next game; ``phones``: the phones are seat buttons (their
    addresses may be made anew).

    >>> menu_items(TableState.new(), phones=True)[-1].label
    'Phones: new seat addresses'
    """
    items = [MenuItem("Close", Action.CLOSE), MenuItem("Undo", Action.UNDO),
             MenuItem("Redo", Action.REDO)]
    if state.phase is Phase.HAND_IN_PLAY:
        if state.tracked:
            items.append(MenuItem("Put a tile right", Action.CORRECT, ""))
        items.append(MenuItem("Exhaustive draw (tenpai)", Action.EXHAUSTIVE_DRAW))
        if state.rules.abortive_draws:
            items += [abort_item(kind) for kind in ABORTS
                      if state.players == SEATS or kind not in THREE_SEAT_ABORTS]
        items += [MenuItem(f"Chombo: {seat_name(state, s)}", Action.CHOMBO, s)
                  for s in range(state.players)]
    if state.phase in (Phase.HAND_IN_PLAY, Phase.HAND_OVER):
        items += [MenuItem(f"Penalty: {seat_name(state, s)}", Action.PENALTY, s)
                  for s in range(state.players)]
    other = "centre" if layout == "facing" else "facing"
    items.append(MenuItem(f"Layout: {other}", Action.LAYOUT, other))
    if state.phase in (Phase.HAND_IN_PLAY, Phase.HAND_OVER):
        items.append(MenuItem("End the game now (hold OK)", Action.END_GAME))
    if roster and state.phase is Phase.GAME_OVER:
        items.append(MenuItem("Choose the players again", Action.CHOOSE_PLAYERS))
    items += [MenuItem(f"New game ({next_rules})", Action.NEW_GAME, next_rules),
              MenuItem("Rules for a new game", Action.NEXT_RULES)]
    if phones:
        items.append(MenuItem("Phones: new seat addresses", Action.PHONE_KEYS))
    return tuple(items)


def penalty_items(state: TableState, seat: int) -> tuple[MenuItem, ...]:
    """The amounts a penalty against ``seat`` may have, after a way back."""
    share = 3 if state.rules.penalties_shared else 1
    to = " to the others" if share > 1 else ""
    return (MenuItem("Back", Action.CLOSE), *(
        MenuItem(f"{points * share:,} off {seat_name(state, seat)}{to}", Action.PENALTY_AMOUNT,
                 f"{seat}:{points * share}") for points in PENALTY_STEPS))


def end_items() -> tuple[MenuItem, ...]:
    """The confirmation of a game ended early: play on first (an OK too many changes
    nothing), then end it and count it, or cancel it (see :data:`CANCELLED`)."""
    return (MenuItem("No: play on", Action.CLOSE),
            MenuItem("End it: the points as they stand count", Action.END_COUNTED),
            MenuItem("Cancel it: the game does not count", Action.END_CANCELLED))


def abort_item(kind: str) -> MenuItem:
    """The menu item for an abortive draw kind."""
    return MenuItem(f"Abortive draw: {kind.replace('_', ' ')}", Action.ABORTIVE_DRAW, kind)
