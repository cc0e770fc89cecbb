"""The stages outside a win: between hands, a hand in play, the tenpai declarations at a
draw, the menu and the final standings; and what the camera's events do in play."""

from __future__ import annotations

from typing import TYPE_CHECKING

from tablekit.flow import correct, seats
from tablekit.flow.menu import HELD, Action, MenuItem, end_items, menu_items, penalty_items
from tablekit.flow.proposal import implied_draw
from tablekit.flow.saved import hand_span, standing_riichi
from tablekit.flow.stage import MISSED_AT_END, WIN_WINDOW, Stage
from tablekit.flow.stages import ChoosePlayers, CollectWins, Menu, Tenpai
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

if TYPE_CHECKING:
    from collections.abc import Callable

    from tablekit.flow.host import FlowState


def on_between_hands(flow: FlowState, press: ButtonPress) -> None:
    if press.name is ButtonName.OK:
        if flow.submit(HandStarted(tracked=flow.reader is not None)):
            flow.pending = flow.pending.no_riichi()  # the last hand's: they stand no more
        flow.rest()
    else:
        flow.common(press)


def on_play(flow: FlowState, press: ButtonPress) -> None:
    state = flow.session.state
    if press.name is ButtonName.RIICHI and press.seat is not None:
        riichi(flow, press.seat)
    elif press.name is ButtonName.WIN and press.seat is not None:
        flow.place = CollectWins(WinInProgress(
            ((press.seat, press.long),), flow.clock() + (0 if press.long else WIN_WINDOW)))
    elif press.name is ButtonName.OK and (not state.tracked or state.wall <= MISSED_AT_END or (
            flow.reader is not None and flow.reader.behind(state))):  # a camera behind the table
        open_tenpai(flow)
    elif press.name is ButtonName.OK:
        flow.message = f"the camera counts {state.wall} tiles left in the wall"
    elif press.name is ButtonName.CALL and not press.long and press.seat is not None and (
            state.players == 3 and not state.tracked):
        kita(flow, press.seat)
    elif press.name is ButtonName.CALL and not press.long and state.tracked and (
            press.seat is not None):
        flow.message = f"{seat_name(state, press.seat)} calls: lay the meld down for the camera"
        flow.pending = flow.pending.call_pressed(press.seat, flow.session.active_count,
                                                 state.seats[press.seat].calls)
        if flow.reader is not None:
            flow.reader.expect_call(state, press.seat)
    else:
        flow.common(press)


def on_tenpai(flow: FlowState, press: ButtonPress) -> None:
    tenpai = flow.place
    assert isinstance(tenpai, Tenpai)
    if press.seat is not None:
        flow.place = tenpai.toggled(press.seat)
    elif press.name is ButtonName.OK:
        ready = tuple(s for s, flag in enumerate(tenpai.flags) if flag)
        wall = flow.session.state.wall if flow.session.state.tracked else 0
        flow.submit(ExhaustiveDraw(tenpai=ready, wall_left=wall))
        flow.rest()
    else:
        flow.rest()


def on_menu(flow: FlowState, press: ButtonPress) -> None:
    menu = flow.place
    assert isinstance(menu, Menu)
    if press.name is ButtonName.UNDO and press.long:
        flow.rest()
    elif press.name is ButtonName.UNDO or press.seat is not None:
        flow.place = menu.moved(-1 if press.name is ButtonName.RIICHI else 1)
    elif press.name is ButtonName.OK:
        item = menu.chosen
        if item.action in HELD and not press.long:
            flow.message = f"hold OK to choose '{item.label}'"
            return
        flow.rest()
        CHOICES[item.action](flow, item)


def camera_event(flow: FlowState, event: Event) -> None:
    """A draw, discard, call or dora the camera saw; a seat's discard after its draw, and
    a dora indicator after what turned it, are part of the same action (one UNDO)."""
    if isinstance(event, Discard) and event.seat in standing_riichi(flow):
        flow.pending = flow.pending.riichi_taken(event.seat)
        flow.submit(RiichiDeclared(event.seat), joins=flow.turn_started(event.seat))
    joins = isinstance(event, DoraRevealed) or (isinstance(event, Discard) and (
        flow.turn_started(event.seat)  # its draw, or a riichi pressed after the draw:
        or flow.session.last_action() == (RiichiDeclared(event.seat),)))  # one UNDO
    if flow.submit(event, joins):
        flow.message = ""


def riichi(flow: FlowState, seat: int) -> None:
    """Declare riichi; if the camera has not caught up with the turns before this
    seat's, the declaration waits for the seat's discard."""
    state = flow.session.state
    if state.tracked and state.turn != seat and not state.seats[seat].riichi_declared:
        flow.pending = flow.pending.riichi_pressed(seat, hand_span(flow)[1])  # the latest
        flow.message = f"riichi by {seat_name(state, seat)}: taken with its next discard"
        return
    # a riichi is its own action, with the draw it implies: both, or (refused) neither
    flow.submit_action([*implied_draw(state, seat), RiichiDeclared(seat)])



def kita(flow: FlowState, seat: int) -> None:
    """Three players without a camera: CALL sets a North aside for ``seat`` (an action of
    its own: one UNDO takes it back)."""
    if flow.submit(Kita(seat)):
        count = flow.session.state.seats[seat].kita
        flow.message = (f"kita by {seat_name(flow.session.state, seat)}: {count} North"
                        f"{'s' * (count > 1)} set aside (UNDO takes it back)")


def open_tenpai(flow: FlowState) -> None:
    state = flow.session.state
    flow.place = Tenpai(tuple(seat.riichi for seat in state.seats))
    flow.message = "each tenpai player presses a button; OK when done"
    if state.tracked and state.wall > 0:
        flow.message = (f"the camera still counts {state.wall} tiles in the wall (discards "
                        f"missed?): {flow.message}; UNDO if the hand goes on")


def open_menu(flow: FlowState, selected: int = 0) -> None:
    open_submenu(flow, "Menu", menu_items(flow.session.state, flow.layout, flow.next_rules,
                                           bool(flow.roster), flow.phones is not None),
                 selected)


def _renew_phones(flow: FlowState) -> None:
    """New seat addresses for the phones: the old ones are refused from now on."""
    if flow.phones is None:
        flow.message = "no phones are seat buttons in this run"
        return
    flow.phones.renew()
    open_menu(flow, selected=-1)  # the new codes shown at once, the renewal still chosen
    flow.message = "new seat addresses: open them from the codes (the old ones are refused)"


def open_submenu(flow: FlowState, title: str, items: tuple[MenuItem, ...], selected: int = 0
                 ) -> None:
    """A menu of its own (a penalty's amounts, a confirmation): the same buttons (over
    the players being chosen, the choice goes on when it closes)."""
    under = flow.place.seating if isinstance(flow.place, (ChoosePlayers, Menu)) else None
    flow.place = Menu(title, items, selected, under)


def _penalty(flow: FlowState, item: MenuItem) -> None:
    seat = int(item.argument or 0)
    open_submenu(flow, f"Penalty: {seat_name(flow.session.state, seat)}",
                 penalty_items(flow.session.state, seat))


def _penalty_amount(flow: FlowState, item: MenuItem) -> None:
    seat, points = (int(part) for part in str(item.argument).split(":"))
    shared = flow.session.state.rules.penalties_shared
    if flow.submit(Penalty(seat, points, "penalty from the menu", shared)):
        flow.message = f"{points:,} off {seat_name(flow.session.state, seat)}" + (
            " to the others" if shared else "") + " (UNDO takes it back)"


def _end(flow: FlowState, reason: str) -> None:
    """End the game now, an action of its own: UNDO on the final standings takes the end
    back and the game goes on."""
    _submit_and_rest(flow, GameEnded(reason))


def _next_rules(flow: FlowState, _: MenuItem) -> None:
    names = list(PRESETS)
    flow.next_rules = names[(names.index(flow.next_rules) + 1) % len(names)]
    open_menu(flow)


def _submit_and_rest(flow: FlowState, event: Event) -> None:
    flow.submit(event)
    flow.rest()


def _correct(flow: FlowState, item: MenuItem) -> None:
    """A step of putting a registered tile right (:mod:`tablekit.flow.correct`): the next
    step's menu, or the correction submitted (one action: UNDO takes it back)."""
    state, argument = flow.session.state, str(item.argument or "")
    if not correct.is_last(argument):
        items = correct.step(state, argument)
        if len(items) > 1:
            open_submenu(flow, correct.title(state, argument), items, 1)
        else:
            flow.message = "no tile registered yet to put right"
        return
    fix = correct.correction(state, argument)
    if flow.submit(fix):
        flow.message = (f"{correct.where(state, argument.partition('|')[0])} put right as "
                        f"{argument.partition('|')[2]} (UNDO takes it back)")


def _layout(flow: FlowState, item: MenuItem) -> None:
    flow.layout = "centre" if item.argument == "centre" else "facing"


CHOICES: dict[Action, Callable[[FlowState, MenuItem], None]] = {
    Action.CLOSE: lambda flow, _: None,
    Action.UNDO: lambda flow, _: flow.undo(),
    Action.REDO: lambda flow, _: flow.undo(redo=True),
    Action.EXHAUSTIVE_DRAW: lambda flow, _: open_tenpai(flow),
    Action.ABORTIVE_DRAW: lambda flow, item: _submit_and_rest(
        flow, AbortiveDraw(item.argument)),  # type: ignore[arg-type]
    Action.CHOMBO: lambda flow, item: _submit_and_rest(
        flow, Chombo(item.argument)),  # type: ignore[arg-type]
    Action.LAYOUT: _layout,
    Action.CORRECT: _correct,
    Action.PHONE_KEYS: lambda flow, _: _renew_phones(flow),
    Action.PENALTY: _penalty,
    Action.PENALTY_AMOUNT: _penalty_amount,
    Action.END_GAME: lambda flow, _: open_submenu(flow, "End the game now?", end_items()),
    Action.END_COUNTED: lambda flow, _: _end(flow, "ended early by the players"),
    Action.END_CANCELLED: lambda flow, _: _end(flow, CANCELLED),
    Action.NEW_GAME: lambda flow, item: flow.start_game(  # the same players, new rules
        PRESETS[str(item.argument)], flow.session.state.names),
    Action.NEXT_RULES: _next_rules,
    Action.CHOOSE_PLAYERS: lambda flow, _: seats.choose(
        flow, Stage.FINAL, flow.session.state.names),
}
"""What choosing each kind of menu item does."""
