"""Where the flow is (its :class:`Stage`) and the times it waits.

>>> Stage.CONFIRM_WIN.value, Stage.CONFIRM_WIN in WIN_STAGES
('confirm win', True)
"""

from __future__ import annotations

from enum import Enum

WIN_WINDOW = 1.5  # seconds to wait for a second WIN press on the same discard
REREAD = 0.5      # seconds between readings of a revealed hand while it waits for OK
DIFFERENCES_SHOWN = 6.0
SETTLE = 2.5      # seconds after the WIN a hand with tiles not seen waits for a clearer view
CATCH_UP_WAIT = 3.0  # seconds a win waits for discards the camera shows but has not taken
MISSED_AT_END = 4  # OK opens the draw while the camera still counts this many tiles or fewer


class Stage(Enum):
    BETWEEN_HANDS = "between hands"
    PLAY = "play"
    COLLECT_WINS = "collect wins"
    CHOOSE_DISCARDER = "choose discarder"
    ENTER_VALUE = "enter value"
    CONFIRM_WIN = "confirm win"
    FIX_TILES = "fix tiles"
    TENPAI = "tenpai"
    MENU = "menu"
    FINAL = "final"
    EVENING = "evening"
    LEAGUE = "league"
    CHOOSE_PLAYERS = "choose players"


WIN_STAGES = frozenset({Stage.COLLECT_WINS, Stage.CHOOSE_DISCARDER, Stage.ENTER_VALUE,
                        Stage.CONFIRM_WIN, Stage.FIX_TILES})
"""The stages of a win in progress (the flow holds a :class:`~tablekit.flow.win.WinInProgress`)."""
