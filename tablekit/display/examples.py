"""Example screens from a real game: the committed Tenhou fixture replayed through the engine.

Every state comes from :func:`tablekit.game.reducer.apply` over real events: the game's
hands as recorded, plus two short branches the game did not have (an abortive draw and a
double ron) written as events. A three-player (sanma) game gives the screens for three:
:data:`SANMA_GAME` is the one ``tablekit screens --players 3`` shows. Win previews are the
engine's own scoring of the ``Won`` event, before it is applied. No pygame here: the app and
tests can build these freely.

>>> names = [example.name for example in example_screens()]
>>> names[:4], names[-3:]
(['scoreboard', 'differences', 'warnings', 'timed'], ['evening', 'league', 'choose-players'])
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass, replace
from pathlib import Path

from tablekit.display.model import (
    Layout,
    Menu,
    Mode,
    ScreenModel,
    SeatingView,
    TileFixView,
    WinPreview,
    league_lines,
)
from tablekit.files.resources import packaged
from tablekit.formats.tenhou import ImportedGame, UnsupportedGame, import_file
from tablekit.game.evening import Evening
from tablekit.game.events import (
    AbortiveDraw,
    BadEvent,
    Discard,
    Draw,
    Event,
    ExhaustiveDraw,
    GameStarted,
    HandStarted,
    Penalty,
    RiichiDeclared,
    WinnerHand,
    Won,
)
from tablekit.game.reducer import apply, replay
from tablekit.game.state import TableState, seat_name
from tablekit.game.timer import game_clock
from tablekit.game.win_reading import unsure
from tablekit.league.database import migrate
from tablekit.league.record import record_game
from tablekit.league.roster import seating_text
from tablekit.league.standings import league_table
from tablekit.rules.presets import Rules, with_options
from tablekit.tiles import Tile, parse_tiles

FIXTURE_GAME = packaged("data", "tenhou-python-bot-28.xml")
SANMA_GAME = packaged("data", "tenhou-sanma-00b9.xml")
# the two hands that ron the 6s in the double-ron example (and a tile of the second read
# unsure), four players and three
DOUBLE_RON = {4: ("234567m234p67899s", "222m345p567p678s88s", "2m"),
              3: ("666z999m234p67899s", "555z345p567p678s88s", "5p")}
# the camera's warning when many faces read unsure (tablekit.vision.familiar)
UNFAMILIAR = "these tiles look unfamiliar: enroll your set with `tablekit enroll`"


@dataclass(frozen=True)
class Example:
    name: str
    model: ScreenModel


@dataclass(frozen=True)
class HandStates:
    """One replayed hand: the state before its last event, that event, and the state after."""

    before: TableState
    last: Event
    after: TableState


def replay_hands(game: ImportedGame) -> list[HandStates]:
    state = apply(TableState.new(), game.start)
    hands = []
    for hand in game.hands:
        state = replay(hand.events[:-1], state)
        after = apply(state, hand.events[-1])
        hands.append(HandStates(state, hand.events[-1], after))
        state = after
    return hands


def preview(state: TableState, won: Won, doubts: tuple[str, ...] = ()) -> WinPreview:
    """What WIN_CONFIRM shows: the engine's result of ``won``, not applied to ``state``."""
    result = apply(state, won).result
    assert result is not None
    return WinPreview(result.wins, result.deltas, doubts)


def example_screens(game: Path = FIXTURE_GAME, layout: Layout = "facing") -> list[Example]:
    """Every screen the scoreboard has, from the game in ``game`` (a Tenhou mjlog file,
    four players or three).

    >>> [e.model.state.players for e in example_screens(SANMA_GAME)][:2]
    [3, 3]
    """
    imported = import_file(game, three_players=True)
    hands = replay_hands(imported)
    draw, ron, big_tsumo, last = pick_hands(hands)
    assert isinstance(last.last, Won) and isinstance(ron.last, Won)
    players = imported.rules.players
    examples = [
        Example("scoreboard", ScreenModel(last.before)),
        Example("differences", ScreenModel(big_tsumo.before, differences_for=2)),
        Example("warnings", ScreenModel(
            big_tsumo.before, warnings=("Camera lost: check the cable", UNFAMILIAR),
            message=_refusal(big_tsumo.before))),
        Example("timed", ScreenModel(big_tsumo.before, timer=game_clock(
            with_options(big_tsumo.before.rules, time_limit=90), elapsed=58 * 60,
            hands_played=5, time_up_hands=0).text)),
        Example("win-confirm", ScreenModel(last.before, Mode.WIN_CONFIRM, preview=preview(
            last.before, last.last, (_unsure_read(last),)))),
        Example("win-confirm-double-ron", _double_ron(imported.rules)),
        Example("who-dealt-in", ScreenModel(ron.before, Mode.WHO_DEALT_IN)),
        Example("win-entry", _entered(ron)),
        Example("hand-result-win", ScreenModel(ron.after, Mode.HAND_RESULT)),
        Example("tenpai-entry", ScreenModel(draw.before, Mode.TENPAI_ENTRY,
                                            tenpai=(False, False, True, False)[:players])),
        Example("hand-result-draw", ScreenModel(draw.after, Mode.HAND_RESULT)),
        Example("hand-result-abortive", ScreenModel(_abortive(draw.after), Mode.HAND_RESULT)),
        Example("final", ScreenModel(last.after, Mode.FINAL)),
        Example("final-penalties", ScreenModel(replay(
            [Penalty(last.before.dealer, 8000, "penalty from the menu"), last.last],
            last.before), Mode.FINAL)),
        Example("menu", ScreenModel(big_tsumo.before, Mode.MENU, menu=_menu(big_tsumo.before))),
        Example("fix-tiles", ScreenModel(last.before, Mode.FIX_TILES,
                                         fix=_fixing(last.last, last.before.dora))),
        Example("new-game", ScreenModel(apply(TableState.new(), GameStarted(
            names=hands[0].before.names)))),
        *_between_games(imported, last.after),
        Example("choose-players", _choosing(last.after)),
    ]
    return [Example(e.name, replace(e.model, layout=layout)) for e in examples]


def pick_hands(hands: list[HandStates]) -> tuple[HandStates, HandStates, HandStates,
                                                HandStates]:
    """The hands the examples show: the first exhaustive draw, the first ron, the first
    tsumo after it (else the biggest win) and the last hand, which must be a win (else
    :class:`UnsupportedGame`)."""
    wins = [hand for hand in hands if isinstance(hand.last, Won)]
    rons = [hand for hand in wins if hand.last.from_seat is not None]  # type: ignore[union-attr]
    if not rons or hands[-1] not in wins:
        raise UnsupportedGame("the example screens need a game with a ron that ends on a win")
    draw = next((h for h in hands if isinstance(h.last, ExhaustiveDraw)), hands[0])
    later = wins[wins.index(rons[0]) + 1:]
    big = next((h for h in later if h.last.from_seat is None),  # type: ignore[union-attr]
               max(wins, key=lambda h: max(h.after.result.deltas)))  # type: ignore[union-attr]
    return draw, rons[0], big, hands[-1]


def _between_games(game: ImportedGame, final: TableState) -> list[Example]:
    """An evening of the game played three times, the players changing seats and one of
    them giving hers to a fifth player in the third; and the league of those games."""
    names = final.names
    seatings = [names, (*names[1:], names[0]), ("Emi", *names[2:], names[1])]
    games = [[replace(game.start, names=tuple(seating)), *game.events[1:]]
             for seating in seatings]
    evening = Evening.of([event for events in games for event in events])
    db = sqlite3.connect(":memory:", isolation_level=None)
    migrate(db)
    for events in games:
        record_game(db, events)
    return [Example("evening", ScreenModel(final, Mode.EVENING, evening=evening, league=())),
            Example("league", ScreenModel(final, Mode.LEAGUE,
                                          league=league_lines(league_table(db))))]


def _choosing(final: TableState) -> ScreenModel:
    """The players for the next game chosen from a roster of the game's players and one
    more, then drawn to their seats (the seats as a fixed draw gives them)."""
    names = final.names
    drawn = (names[2], "Emi", names[0], *names[3:])
    message = "seats drawn: " + seating_text(drawn) if len(drawn) == 4 else "seats drawn"
    return ScreenModel(final, Mode.CHOOSE_PLAYERS, seating=SeatingView(drawn, 5, drawn=True),
                       message=message, roster=True)


def _fixing(won: Won, dora: tuple[Tile, ...]) -> TileFixView:
    """``won``'s tiles being put right: one tile not seen, the cursor on it, the dora
    indicators, one ura indicator read."""
    winner = won.winners[0]
    tiles = (*winner.hand[:4], None, *winner.hand[5:])
    return TileFixView(((winner.seat, tiles),), (Tile.from_code("7p"),), cursor=4, dora=dora)


def _entered(hand: HandStates) -> ScreenModel:
    """``hand``'s ron with its han and fu being entered by hand (no camera): 3 han 40 fu."""
    assert isinstance(hand.last, Won)
    won = Won(tuple(WinnerHand(w.seat, han=3, fu=40) for w in hand.last.winners),
              hand.last.from_seat)
    return ScreenModel(hand.before, Mode.WIN_CONFIRM,
                       preview=replace(preview(hand.before, won), entering=True))


def _unsure_read(hand: HandStates) -> str:
    """A doubt about ``hand``'s win as the camera gives it: its winner's 8s read unsure."""
    assert isinstance(hand.last, Won)
    return f"{seat_name(hand.before, hand.last.winners[0].seat)}: {unsure('8s', 0.64)}"


def _abortive(state: TableState) -> TableState:
    """The next hand of ``state`` ends at once: all four players discard East (three
    players: the dealer shows nine terminals and honours)."""
    state = apply(state, HandStarted(Tile.from_code("3p")))
    if state.players == 3:
        return replay([Draw(state.dealer), AbortiveDraw("nine_terminals", state.dealer)],
                      state)
    for offset in range(4):
        seat = (state.dealer + offset) % 4
        state = replay([Draw(seat), Discard(seat, Tile.from_code("1z"))], state)
    return apply(state, AbortiveDraw("four_winds", (state.dealer + 3) % 4))


def _double_ron(rules: Rules) -> ScreenModel:
    """A new game: the dealer's first discard is 6s and two players ron on it (hands
    without 2m-8m for three players)."""
    names = ("Ana", "Ben", "Chie", "Dan")[:rules.players]
    state = replay([GameStarted(rules, names=names), HandStarted(Tile.from_code("1m")),
                    Draw(0), Discard(0, Tile.from_code("6s"))])
    first, second, unsure_tile = DOUBLE_RON[rules.players]
    won = Won((WinnerHand(1, tuple(parse_tiles(first)), Tile.from_code("6s")),
               WinnerHand(2, tuple(parse_tiles(second)), Tile.from_code("6s"))), from_seat=0)
    return ScreenModel(state, Mode.WIN_CONFIRM, preview=preview(
        state, won, (f"{seat_name(state, 2)}: {unsure(unsure_tile, 0.58)}",
                     f"{seat_name(state, 1)}: 1 tile of the hand not seen")))


def _refusal(state: TableState) -> str:
    """The message of a riichi the engine refuses: the dealer's, out of turn."""
    try:
        apply(state, RiichiDeclared(state.dealer))
    except BadEvent as error:
        return f"Riichi refused: {error}"
    return ""


def _menu(state: TableState) -> Menu:
    """Some of the menu held UNDO opens in play, a chombo item selected."""
    return Menu("Menu", ("Close", "Undo", "Redo", "Exhaustive draw (tenpai)",
                         f"Chombo: {seat_name(state, state.dealer)}", "End the game now"),
                selected=4)
