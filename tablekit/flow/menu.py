"""The menu held UNDO opens: each item a label and the action it stands for.

>>> from tablekit.game.state import TableState
>>> [item.label for item in menu_items(TableState.new())[:3]]
['Close', 'Undo', 'Redo']
>>> abort_item("four_winds")
MenuItem(label='Abortive draw: four winds', action=<Action.ABORTIVE_DRAW: 'abortive draw'>, \
argument='four_winds')
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

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
    END_GAME = "end game"
    NEW_GAME = "new game"             # argument: the preset's name
    NEXT_RULES = "next rules"


@dataclass(frozen=True)
class MenuItem:
    """One line of the menu: what it says and what choosing it does."""

    label: str
    action: Action
    argument: str | int | None = None


def menu_items(state: TableState, layout: str = "facing", next_rules: str = "tenhou"
               ) -> tuple[MenuItem, ...]:
    """The menu for this table (UNDO moves down, OK chooses)."""
    items = [MenuItem("Close", Action.CLOSE), MenuItem("Undo", Action.UNDO),
             MenuItem("Redo", Action.REDO)]
    if state.phase is Phase.HAND_IN_PLAY:
        items.append(MenuItem("Exhaustive draw (tenpai)", Action.EXHAUSTIVE_DRAW))
        if state.rules.abortive_draws:
            items += [abort_item(kind) for kind in ABORTS]
        items += [MenuItem(f"Chombo: {seat_name(state, s)}", Action.CHOMBO, s)
                  for s in range(SEATS)]
    other = "centre" if layout == "facing" else "facing"
    items += [MenuItem(f"Layout: {other}", Action.LAYOUT, other),
              MenuItem("End the game now", Action.END_GAME),
              MenuItem(f"New game ({next_rules})", Action.NEW_GAME, next_rules),
              MenuItem("Rules for a new game", Action.NEXT_RULES)]
    return tuple(items)


def abort_item(kind: str) -> MenuItem:
    """The menu item for an abortive draw kind."""
    return MenuItem(f"Abortive draw: {kind.replace('_', ' ')}", Action.ABORTIVE_DRAW, kind)
