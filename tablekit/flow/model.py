"""The flow as a reducer, like the engine (:mod:`tablekit.game.reducer`): what the flow
knows is one frozen value (:class:`FlowData`), a stage handler is a pure function of it,
the table as the journal has it (:class:`Table`), the input, the time and the run's
settings (:class:`Settings`), and returns the new value with the effects it asks for
(:data:`Effect`: events for the journal, an UNDO, a call the camera should expect, the
phones' new keys). The :class:`~tablekit.flow.core.Flow` is the thin shell that runs them.

An event is tried on the engine's state here first (:func:`submitted`), as the session
does before it journals one: a refusal is the new value's message and no effect, so the
shell only runs what the engine takes. A journal that cannot be written (a full card)
is the one answer the shell reports back: the flow is then what the effect says
(``refused``: by default, as it was when the events were tried) with the journal's reason
as its message, and the effects after it are not run.

>>> from tablekit.game.events import GameStarted, HandStarted
>>> from tablekit.game.state import TableState
>>> table = Table(TableState.new()).after([GameStarted()])
>>> data, after, effects = submitted(FlowData(), table, [HandStarted(tracked=False)])
>>> effects, after.state.phase.name, after.hand_started
((Submit(events=(HandStarted(dora=None, tracked=False),), joins=False),), 'HAND_IN_PLAY', 1)
>>> data, after, effects = submitted(FlowData(), after, [HandStarted(tracked=False)])
>>> effects, data.message
((), "hand started: the game is at 'hand in play'")
>>> rested(data, after, Settings()).place
Play()
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from tablekit.display.model import Layout
from tablekit.flow.pending import Pending
from tablekit.flow.seating import Seating
from tablekit.flow.stage import Stage
from tablekit.flow.stages import BetweenHands, ChoosePlayers, Menu, Place, plain, win_of
from tablekit.flow.timer import Timer
from tablekit.flow.win import WinInProgress
from tablekit.game.events import BadEvent, Draw, Event, HandStarted, RiichiDeclared
from tablekit.game.reducer import apply
from tablekit.game.state import Phase, TableState
from tablekit.rules.presets import TENHOU, Rules


@dataclass(frozen=True)
class FlowData:
    """What the flow itself knows, beyond the journal: where it is (its ``place``, the
    stage with its own data), what the screen says, what waits for the camera, the point
    differences shown, the next game's rules, the layout and the game timer."""

    place: Place = field(default_factory=BetweenHands)
    message: str = ""
    warnings: tuple[str, ...] = ()
    pending: Pending = field(default_factory=Pending)
    differences_for: int | None = None
    differences_until: float = 0.0
    next_rules: str = "tenhou"
    layout: Layout = "facing"
    timer: Timer | None = None

    @property
    def stage(self) -> Stage:
        """Which stage the flow is at (its place's kind)."""
        return self.place.kind

    def said(self, message: str) -> FlowData:
        """The same, the screen saying ``message``."""
        return replace(self, message=message)


@dataclass(frozen=True)
class Settings:
    """What the run says and a handler reads, never changes: the club's roster (the seat
    buttons choose the players), the first game's rules, the seating draw's seed, whether
    a camera reads the table, a league is kept and the phones are seat buttons."""

    roster: tuple[str, ...] = ()
    rules: Rules | None = None
    seed: int | None = None
    camera: bool = False
    league: bool = False
    phones: bool = False


@dataclass(frozen=True)
class Table:
    """The table as the flow reads it: the engine's state, and of the journal what a
    handler needs (the action one UNDO takes back, where the hand in force started,
    whether a REDO has something to put back); ``behind``: the camera sees discards the
    state has not taken yet (asked only where a handler needs it)."""

    state: TableState
    last_action: tuple[Event, ...] = ()
    hand_started: int = -1
    can_redo: bool = False
    behind: bool = False

    @property
    def span(self) -> tuple[int, int]:
        """Where the hand in force started and how many events are in force: a press
        noted at ``at`` events belongs to the hand while ``started < at <= length``."""
        return max(self.hand_started, 0), self.state.events

    def after(self, events: Sequence[Event], joins: bool = False) -> Table:
        """The table once ``events`` are journalled as one action (``joins``: part of the
        last one), as the session would have it; a refused event raises
        :class:`~tablekit.game.events.BadEvent`."""
        state, started = self.state, self.hand_started
        for event in events:
            if isinstance(event, HandStarted):
                started = state.events
            state = apply(state, event)
        last = (*self.last_action, *events) if joins else tuple(events)
        return replace(self, state=state, last_action=last, hand_started=started,
                       can_redo=False)

    def turn_started(self, seat: int) -> bool:
        """Whether the last action is ``seat``'s turn begun (its draw, a riichi): the
        seat's discard completes it, and one UNDO takes the whole back."""
        last = self.last_action
        return bool(last) and isinstance(last[0], Draw) and all(
            isinstance(e, (Draw, RiichiDeclared)) and e.seat == seat for e in last)


# -- effects: what a handler asks of the outside ------------------------------------------

@dataclass(frozen=True)
class Submit:
    """Journal ``events`` as one action (``joins``: part of the last one); the engine
    took them already (:func:`submitted`). ``refused``: what the flow is if the journal
    cannot be written (the journal's reason its message)."""

    events: tuple[Event, ...]
    joins: bool = False
    refused: FlowData = field(default_factory=FlowData, repr=False, compare=False)


@dataclass(frozen=True)
class Undo:
    """Take back the journal's last action (``redo``: put back the last taken back);
    ``refused``: what the flow is if the journal cannot (the journal's reason its
    message)."""

    redo: bool = False
    refused: FlowData = field(default_factory=FlowData, repr=False, compare=False)


@dataclass(frozen=True)
class Rest:
    """After the effects before it: the flow goes to the stage the table's phase calls
    for (the table an UNDO leaves is the journal's to say)."""


@dataclass(frozen=True)
class ExpectCall:
    """The camera side: ``seat`` pressed CALL, its meld comes before its next discard."""

    seat: int


@dataclass(frozen=True)
class ReadWin:
    """The camera side: look at the win on the table and read its revealed hands; the
    shell hands the reading to :func:`tablekit.flow.confirm.on_reading` (the one effect
    whose answer comes back to a handler)."""


@dataclass(frozen=True)
class RenewPhones:
    """The phones' seat addresses made anew (the old ones refused from then on)."""


Effect = Submit | Undo | Rest | ExpectCall | ReadWin | RenewPhones
"""What a handler asks the shell to do."""
Effects = tuple[Effect, ...]
Step = tuple[FlowData, Effects]
"""What a handler returns: the flow's new value, and the effects to run."""


def submitted(data: FlowData, table: Table, events: Sequence[Event], joins: bool = False,
              refused: FlowData | None = None) -> tuple[FlowData, Table, Effects]:
    """``events`` tried on the table as one action: taken, the table after them and the
    :class:`Submit` that journals them; refused, the engine's reason as the message, the
    table as it was and no effect (so ``effects`` says which). ``refused``: the flow if
    the journal cannot be written after all (None: ``data``, as it was when they were
    tried)."""
    try:
        after = table.after(events, joins)
    except BadEvent as error:
        return data.said(str(error)), table, ()
    return data, after, (Submit(tuple(events), joins, data if refused is None else refused),)


# -- where the flow rests -----------------------------------------------------------------

def game_rules(state: TableState, settings: Settings) -> Rules:
    """The rules of the game the seats are chosen for: the journal's game's, or before a
    first game those ``tablekit run`` was given."""
    return state.rules if state.phase is not Phase.NOT_STARTED else settings.rules or TENHOU


def fresh_seating(state: TableState, settings: Settings) -> Seating:
    """A choice of the players with no one chosen yet."""
    return Seating(settings.roster, (None,) * game_rules(state, settings).players)


def resting_stage(state: TableState, settings: Settings) -> Stage:
    """The stage the table's phase calls for."""
    phase = state.phase
    if phase is Phase.GAME_OVER:
        return Stage.FINAL
    if phase is Phase.NOT_STARTED and settings.roster:
        return Stage.CHOOSE_PLAYERS
    return Stage.PLAY if phase is Phase.HAND_IN_PLAY else Stage.BETWEEN_HANDS


def resting_place(place: Place, state: TableState, settings: Settings) -> Place:
    """The place of :func:`resting_stage`: the players being chosen go on where the flow
    left them (their stage, or a menu opened over it), else a fresh choice."""
    kind = resting_stage(state, settings)
    if kind is not Stage.CHOOSE_PLAYERS:
        return plain(kind)
    kept = place.seating if isinstance(place, (ChoosePlayers, Menu)) else None
    return ChoosePlayers(kept or fresh_seating(state, settings))


def rested(data: FlowData, table: Table, settings: Settings) -> FlowData:
    """``data`` back at the stage the table's phase calls for (a win in progress dropped)."""
    return replace(data, place=resting_place(data.place, table.state, settings))


def back_to_play(data: FlowData, table: Table, settings: Settings, message: str) -> FlowData:
    """:func:`rested`, saying ``message`` (a win cancelled, a discard not to win on)."""
    return rested(data, table, settings).said(message)


def with_win(data: FlowData, win: WinInProgress) -> FlowData:
    """The win stage the flow is at, holding ``win`` instead (a ValueError elsewhere)."""
    if win_of(data.place) is None:
        raise ValueError(f"no win in progress at {data.stage.value}")
    return replace(data, place=replace(data.place, win=win))  # type: ignore[type-var]


def the_win(data: FlowData) -> WinInProgress:
    """The win in progress (the handlers of a win's stages are called only there)."""
    win = win_of(data.place)
    assert win is not None, f"no win in progress at {data.stage.value}"
    return win


def standing_riichi(pending: Pending, table: Table) -> dict[int, int]:
    """The RIICHI presses still waiting for their seat's discard (seat: the events in
    force at the press, latest press last): pressed in this hand, which goes on (no win
    or draw since), the seat not in riichi yet; an UNDO past the win brings them back."""
    state = table.state
    if not pending.riichi or state.phase is not Phase.HAND_IN_PLAY:
        return {}
    started, length = table.span
    return {seat: at for seat, at in pending.riichi
            if started < at <= length and not state.seats[seat].riichi_declared}
