"""The stages outside a win: between hands, a hand in play, the tenpai declarations at a
draw, the menu and the final standings; and what the camera's events do in play."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from tablekit.flow import correct
from tablekit.flow.menu import HELD, Action, MenuItem, end_items, penalty_items
from tablekit.flow.model import (
    Effects,
    ExpectCall,
    FlowData,
    RenewPhones,
    Settings,
    Step,
    Table,
    rested,
    standing_riichi,
    submitted,
)
from tablekit.flow.proposal import implied_draw
from tablekit.flow.stage import MISSED_AT_END, WIN_WINDOW, Stage
from tablekit.flow.stages import CollectWins, Menu, Tenpai
from tablekit.flow.steps import choose, common, open_menu, open_submenu, start_game, undo
from tablekit.flow.win import WinInProgress
from tablekit.game.events import (
    AbortiveDraw,
    Chombo,
    Discard,
    DoraRevealed,
    Event,
    ExhaustiveDraw,
    GameEnded,
    HandStarted,
    Kita,
    Penalty,
    RiichiDeclared,
)
from tablekit.game.state import seat_name
from tablekit.game.summary import CANCELLED
from tablekit.io.presses import ButtonName, ButtonPress
from tablekit.rules.presets import PRESETS


def on_between_hands(data: FlowData, table: Table, press: ButtonPress, now: float,
                     settings: Settings) -> Step:
    if press.name is ButtonName.OK:
        data, after, effects = submitted(data, table, [HandStarted(tracked=settings.camera)])
        if effects:
            data = replace(data, pending=data.pending.no_riichi())  # the last hand's
        return rested(data, after, settings), effects  # presses: they stand no more
    return common(data, table, press, now, settings)


def on_play(data: FlowData, table: Table, press: ButtonPress, now: float, settings: Settings
            ) -> Step:
    state = table.state
    if press.name is ButtonName.RIICHI and press.seat is not None:
        return riichi(data, table, press.seat)
    if press.name is ButtonName.WIN and press.seat is not None:
        return replace(data, place=CollectWins(WinInProgress(
            ((press.seat, press.long),), now + (0 if press.long else WIN_WINDOW)))), ()
    if press.name is ButtonName.OK and (not state.tracked or state.wall <= MISSED_AT_END or (
            settings.camera and table.behind)):  # a camera behind the table
        return open_tenpai(data, table), ()
    if press.name is ButtonName.OK:
        return data.said(f"the camera counts {state.wall} tiles left in the wall"), ()
    if press.name is ButtonName.CALL and not press.long and press.seat is not None and (
            state.players == 3 and not state.tracked):
        return kita(data, table, press.seat)
    if press.name is ButtonName.CALL and not press.long and state.tracked and (
            press.seat is not None):
        seat = press.seat
        return replace(
            data, message=f"{seat_name(state, seat)} calls: lay the meld down for the camera",
            pending=data.pending.call_pressed(seat, state.events, state.seats[seat].calls),
        ), (ExpectCall(seat),) if settings.camera else ()
    return common(data, table, press, now, settings)


def on_tenpai(data: FlowData, table: Table, press: ButtonPress, now: float, settings: Settings
              ) -> Step:
    tenpai = data.place
    assert isinstance(tenpai, Tenpai)
    if press.seat is not None:
        return replace(data, place=tenpai.toggled(press.seat)), ()
    if press.name is ButtonName.OK:
        ready = tuple(s for s, flag in enumerate(tenpai.flags) if flag)
        wall = table.state.wall if table.state.tracked else 0
        data, after, effects = submitted(data, table, [ExhaustiveDraw(tenpai=ready,
                                                                      wall_left=wall)],
                                         refused=rested(data, table, settings))
        return rested(data, after, settings), effects
    return rested(data, table, settings), ()


def on_menu(data: FlowData, table: Table, press: ButtonPress, now: float, settings: Settings
            ) -> Step:
    menu = data.place
    assert isinstance(menu, Menu)
    if press.name is ButtonName.UNDO and press.long:
        return rested(data, table, settings), ()
    if press.name is ButtonName.UNDO or press.seat is not None:
        return replace(data, place=menu.moved(-1 if press.name is ButtonName.RIICHI else 1)), ()
    if press.name is ButtonName.OK:
        item = menu.chosen
        if item.action in HELD and not press.long:
            return data.said(f"hold OK to choose '{item.label}'"), ()
        return CHOICES[item.action](rested(data, table, settings), table, item, settings)
    return data, ()


def camera_event(data: FlowData, table: Table, event: Event, now: float, settings: Settings
                 ) -> Step:
    """A draw, discard, call or dora the camera saw; a seat's discard after its draw, and
    a dora indicator after what turned it, are part of the same action (one UNDO)."""
    first: Effects = ()
    if isinstance(event, Discard) and event.seat in standing_riichi(data.pending, table):
        data = replace(data, pending=data.pending.riichi_taken(event.seat))
        data, table, first = submitted(data, table, [RiichiDeclared(event.seat)],
                                       joins=table.turn_started(event.seat))
    joins = isinstance(event, DoraRevealed) or (isinstance(event, Discard) and (
        table.turn_started(event.seat)  # its draw, or a riichi pressed after the draw:
        or table.last_action == (RiichiDeclared(event.seat),)))  # one UNDO
    data, _, effects = submitted(data, table, [event], joins)
    return (data.said("") if effects else data), (*first, *effects)


def riichi(data: FlowData, table: Table, seat: int) -> Step:
    """Declare riichi; if the camera has not caught up with the turns before this
    seat's, the declaration waits for the seat's discard."""
    state = table.state
    if state.tracked and state.turn != seat and not state.seats[seat].riichi_declared:
        return replace(data, pending=data.pending.riichi_pressed(seat, table.span[1]),
                       message=f"riichi by {seat_name(state, seat)}: taken with its next "
                               "discard"), ()
    # a riichi is its own action, with the draw it implies: both, or (refused) neither
    data, _, effects = submitted(data, table, [*implied_draw(state, seat), RiichiDeclared(seat)])
    return data, effects


def kita(data: FlowData, table: Table, seat: int) -> Step:
    """Three players without a camera: CALL sets a North aside for ``seat`` (an action of
    its own: one UNDO takes it back)."""
    data, after, effects = submitted(data, table, [Kita(seat)])
    if effects:
        count = after.state.seats[seat].kita
        data = data.said(f"kita by {seat_name(after.state, seat)}: {count} North"
                         f"{'s' * (count > 1)} set aside (UNDO takes it back)")
    return data, effects


def open_tenpai(data: FlowData, table: Table) -> FlowData:
    state = table.state
    message = "each tenpai player presses a button; OK when done"
    if state.tracked and state.wall > 0:
        message = (f"the camera still counts {state.wall} tiles in the wall (discards "
                   f"missed?): {message}; UNDO if the hand goes on")
    return replace(data, place=Tenpai(tuple(seat.riichi for seat in state.seats)),
                   message=message)


Choice = Callable[[FlowData, Table, MenuItem, Settings], Step]


def _renew_phones(data: FlowData, table: Table, _: MenuItem, settings: Settings) -> Step:
    """New seat addresses for the phones: the old ones are refused from now on."""
    if not settings.phones:
        return data.said("no phones are seat buttons in this run"), ()
    shown = open_menu(data, table.state, settings, selected=-1)  # the new codes shown at
    return shown.said("new seat addresses: open them from the codes (the old ones are "  # once
                      "refused)"), (RenewPhones(),)


def _penalty(data: FlowData, table: Table, item: MenuItem, _: Settings) -> Step:
    seat = int(item.argument or 0)
    return open_submenu(data, f"Penalty: {seat_name(table.state, seat)}",
                        penalty_items(table.state, seat)), ()


def _penalty_amount(data: FlowData, table: Table, item: MenuItem, _: Settings) -> Step:
    seat, points = (int(part) for part in str(item.argument).split(":"))
    shared = table.state.rules.penalties_shared
    data, _after, effects = submitted(data, table, [Penalty(seat, points,
                                                            "penalty from the menu", shared)])
    if effects:
        data = data.said(f"{points:,} off {seat_name(table.state, seat)}" + (
            " to the others" if shared else "") + " (UNDO takes it back)")
    return data, effects


def _submit_and_rest(event: Event) -> Choice:
    """The menu item that journals ``event`` (an action of its own) and rests."""
    def choice(data: FlowData, table: Table, _: MenuItem, settings: Settings) -> Step:
        data, after, effects = submitted(data, table, [event])
        return rested(data, after, settings), effects
    return choice


def _next_rules(data: FlowData, table: Table, _: MenuItem, settings: Settings) -> Step:
    names = list(PRESETS)
    data = replace(data, next_rules=names[(names.index(data.next_rules) + 1) % len(names)])
    return open_menu(data, table.state, settings), ()


def _correct(data: FlowData, table: Table, item: MenuItem, _: Settings) -> Step:
    """A step of putting a registered tile right (:mod:`tablekit.flow.correct`): the next
    step's menu, or the correction submitted (one action: UNDO takes it back)."""
    state, argument = table.state, str(item.argument or "")
    if not correct.is_last(argument):
        items = correct.step(state, argument)
        if len(items) > 1:
            return open_submenu(data, correct.title(state, argument), items, 1), ()
        return data.said("no tile registered yet to put right"), ()
    data, _after, effects = submitted(data, table, [correct.correction(state, argument)])
    if effects:
        data = data.said(f"{correct.where(state, argument.partition('|')[0])} put right as "
                         f"{argument.partition('|')[2]} (UNDO takes it back)")
    return data, effects


def _layout(data: FlowData, _: Table, item: MenuItem, __: Settings) -> Step:
    return replace(data, layout="centre" if item.argument == "centre" else "facing"), ()


def _by_item(make: Callable[[MenuItem], Event]) -> Choice:
    """The menu item that journals the event ``make`` makes of it, and rests."""
    return lambda data, table, item, settings: _submit_and_rest(make(item))(
        data, table, item, settings)


CHOICES: dict[Action, Choice] = {
    Action.CLOSE: lambda data, table, item, settings: (data, ()),
    Action.UNDO: lambda data, table, item, settings: undo(data, table, settings),
    Action.REDO: lambda data, table, item, settings: undo(data, table, settings, redo=True),
    Action.EXHAUSTIVE_DRAW: lambda data, table, item, settings: (open_tenpai(data, table), ()),
    Action.ABORTIVE_DRAW: _by_item(lambda item: AbortiveDraw(item.argument)),  # type: ignore[arg-type]
    Action.CHOMBO: _by_item(lambda item: Chombo(item.argument)),  # type: ignore[arg-type]
    Action.LAYOUT: _layout,
    Action.CORRECT: _correct,
    Action.PHONE_KEYS: _renew_phones,
    Action.PENALTY: _penalty,
    Action.PENALTY_AMOUNT: _penalty_amount,
    Action.END_GAME: lambda data, table, item, settings: (
        open_submenu(data, "End the game now?", end_items()), ()),
    Action.END_COUNTED: _submit_and_rest(GameEnded("ended early by the players")),
    Action.END_CANCELLED: _submit_and_rest(GameEnded(CANCELLED)),
    Action.NEW_GAME: lambda data, table, item, settings: start_game(  # the same players,
        data, table, settings, PRESETS[str(item.argument)], table.state.names),  # new rules
    Action.NEXT_RULES: _next_rules,
    Action.CHOOSE_PLAYERS: lambda data, table, item, settings: (choose(
        data, table.state, settings, Stage.FINAL, table.state.names), ()),
}
"""What choosing each kind of menu item does (on the flow's value as it rests: the menu
closed first)."""
