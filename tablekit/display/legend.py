"""What the buttons do, screen by screen: the small legend each screen shows where an action
is possible (on the scoreboard and the final standings a strip at the bottom; on the other
screens their footer). The words follow the flow (:mod:`tablekit.flow`): RIICHI, CALL and
WIN in front of each seat, OK and UNDO shared, each also held for a second.

>>> from tablekit.game.state import TableState
>>> from tablekit.game.events import GameStarted
>>> from tablekit.game.reducer import apply
>>> fresh = apply(TableState.new(), GameStarted())
>>> strip_legend(ScreenModel(fresh))
'OK: start the game (deal East 1)   UNDO held: menu'
>>> strip_legend(ScreenModel(fresh, quit_key="Esc"))  # played with a keyboard
'OK: start the game (deal East 1)   UNDO held: menu   Esc: quit'
"""

from __future__ import annotations

from tablekit.display.model import Mode, ScreenModel, WinPreview
from tablekit.game.state import Phase, TableState

IN_PLAY = ("WIN: ron (held: tsumo)   RIICHI: riichi   CALL held: point differences   "
           "OK: exhaustive draw   UNDO: undo (held: menu)")
IN_PLAY_KITA = ("WIN: ron (held: tsumo)   RIICHI: riichi   CALL: kita (held: point "
                "differences)   OK: exhaustive draw   UNDO: undo (held: menu)")
"""Three players without a camera: CALL sets a North aside (kita)."""
MENU = "UNDO, CALL or WIN: next   RIICHI: back   OK: choose   UNDO held: close"
FINAL = "OK: the evening so far   UNDO: take back the last hand   UNDO held: menu"
NEXT_GAME = "OK: next game (same players)"
CHOOSE_AGAIN = "   CALL: choose the players"
SEATING = ("Seat buttons: RIICHI next name, CALL previous, WIN clear   "
           "OK: play (held: draw the seats)   UNDO: back")
BACK = "   UNDO: back   UNDO held: menu"
APPLY, CANCEL = "OK to apply", "UNDO to cancel"
CONFIRM = f"{APPLY}, {CANCEL}"
FIXABLE = "CALL to fix the tiles (held: han and fu)"
SAY_DEALT_IN = "RIICHI: I dealt in"
"""On a ron: the seat that dealt in, if the screen names another payer, says so."""
ENTERING = "RIICHI: han +1   CALL: next fu   OK: done   UNDO: cancel"
FIX_TILES = ("RIICHI: next tile (held: back)   CALL: next kind (held: back)   "
             "WIN: next suit   OK: score it   UNDO: back")
WHO_DEALT_IN = "Any button of the seat that dealt in   UNDO: cancel the win"
TENPAI = ("Exhaustive draw", "Seat buttons: tenpai or noten", "OK: done   UNDO: play on")


def strip_legend(model: ScreenModel) -> str:
    """The legend under the scoreboard and the final standings ('' on other screens), with
    a keyboard the key that quits at its end; while a ron waits to be told who dealt in,
    only the buttons that work then.

    >>> strip_legend(ScreenModel(TableState.new(), Mode.WHO_DEALT_IN))
    'Any button of the seat that dealt in   UNDO: cancel the win'
    """
    legend = _strip(model)
    return f"{legend}   {model.quit_key}: quit" if legend and model.quit_key else legend


def _strip(model: ScreenModel) -> str:
    if model.mode is Mode.FINAL and model.state.standings:
        return FINAL
    if model.mode is Mode.WHO_DEALT_IN:
        return WHO_DEALT_IN
    if model.mode is not Mode.SCOREBOARD:
        return ""
    state = model.state
    if state.phase is Phase.HAND_IN_PLAY:
        return IN_PLAY_KITA if state.players == 3 and not state.tracked else IN_PLAY
    if state.phase is Phase.GAME_OVER:
        return FINAL
    return f"{deal_prompt(state)}   UNDO held: menu"


def screen_legend(model: ScreenModel) -> str:
    """What the screen says the buttons do now, whichever screen it is: the strip under the
    scoreboard, or the footer of the screen shown over it (a seat's phone shows it).

    >>> screen_legend(ScreenModel(TableState.new(), Mode.MENU))
    'UNDO, CALL or WIN: next   RIICHI: back   OK: choose   UNDO held: close'
    >>> screen_legend(ScreenModel(TableState.new(), Mode.TENPAI_ENTRY))
    'Seat buttons: tenpai or noten   OK: done   UNDO: play on'
    """
    if model.mode is Mode.WIN_CONFIRM and model.preview is not None:
        return confirm_legend(model.preview)
    if model.mode is Mode.HAND_RESULT and model.state.result is not None:
        return result_legend(model.state)
    footers = {Mode.MENU: MENU, Mode.FIX_TILES: FIX_TILES, Mode.CHOOSE_PLAYERS: SEATING,
               Mode.TENPAI_ENTRY: "   ".join(TENPAI[1:])}
    if model.mode in footers:
        return footers[model.mode]
    if model.mode in (Mode.EVENING, Mode.LEAGUE):
        return between_legend(model)
    return strip_legend(model)


def between_legend(model: ScreenModel) -> str:
    """The footer between games: the evening so far leads to the league table (when one
    is kept), and that to the next game; with a roster, CALL chooses the players again.

    >>> from tablekit.game.state import TableState
    >>> between_legend(ScreenModel(TableState.new(), Mode.EVENING, league=()))
    'OK: the league table   UNDO: back   UNDO held: menu'
    >>> between_legend(ScreenModel(TableState.new(), Mode.LEAGUE, league=(), roster=True))
    'OK: next game (same players)   CALL: choose the players   UNDO: back   UNDO held: menu'
    """
    again = CHOOSE_AGAIN if model.roster else ""
    if model.mode is Mode.EVENING and model.league is not None:
        return "OK: the league table" + again + BACK
    return NEXT_GAME + again + BACK


def deal_prompt(state: TableState) -> str:
    """What OK does between hands: ``OK: deal South 2, 1 honba``; on a fresh game, how to
    start it.

    >>> deal_prompt(TableState.new())
    'OK: start the game (deal East 1)'
    """
    honba = f", {state.honba} honba" if state.honba else ""
    if is_fresh(state):
        return f"OK: start the game (deal {state.round_label})"
    return f"OK: deal {state.round_label}{honba}"


def is_fresh(state: TableState) -> bool:
    """No hand of the game has been dealt yet."""
    return state.phase in (Phase.NOT_STARTED, Phase.HAND_OVER) and state.result is None and (
        state.round_wind, state.hand_number, state.honba) == (0, 0, 0)


def result_legend(state: TableState) -> str:
    """The footer of a hand's result: what OK deals next, what UNDO takes back."""
    if state.phase is Phase.GAME_OVER:
        return f"Game over: {state.end_reason}   UNDO: take the hand back"
    return f"{deal_prompt(state)}   UNDO: take the hand back   UNDO held: menu"


def confirm_legend(preview: WinPreview) -> str:
    """The footer of a win waiting for OK (on a ron, RIICHI by the seat that dealt in when
    the screen names another payer), or of its han and fu being entered by hand (each
    winner of a double ron with their own seat's buttons).

    >>> confirm_legend(WinPreview((), (0, 0, 0, 0), entering=True))
    'RIICHI: han +1   CALL: next fu   OK: done   UNDO: cancel'
    >>> confirm_legend(WinPreview((), (0, 0, 0, 0), fixable=True))
    'OK to apply, CALL to fix the tiles (held: han and fu), UNDO to cancel'
    """
    if preview.entering:
        return f"Each winner's {ENTERING}" if len(preview.wins) > 1 else ENTERING
    ron = any(win.from_seat is not None for win in preview.wins)
    return ", ".join((APPLY, *[FIXABLE] * preview.fixable, *[SAY_DEALT_IN] * ron, CANCEL))
