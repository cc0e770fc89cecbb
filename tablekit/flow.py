"""The app's flow: an explicit state machine from button presses and camera events to
engine events, and to the screen the display draws.

Stages (pibooth's states, as an Enum): between hands, in play, collecting wins
(a short window so that simultaneous WIN presses make a multiple ron), entering a
value by hand (no camera), choosing who dealt in (no camera), confirming a win,
tenpai declarations, the menu, and the final standings. Points never move before
OK: a win is scored on a copy of the state and shown first.

Buttons: RIICHI declares riichi; WIN claims ron, held WIN is tsumo; CALL held shows
the seat's point differences; OK starts a hand, confirms, or (at an empty wall, or
without a camera) opens the tenpai declarations; UNDO takes back the last action,
held UNDO opens the menu. On a win read by the camera, CALL opens the tiles to be put
right by hand (:mod:`tablekit.tile_fix`): RIICHI moves, CALL and WIN change the tile;
held CALL enters the han and fu by hand instead.

The camera may lag the buttons: the discard a WIN claims may arrive in the WIN window,
the turns before a tsumo while it waits for OK, and OK declares the draw while the
camera still counts a few tiles in the wall (its last discards missed; shown).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from enum import Enum

from tablekit.display.model import Layout, Menu, Mode, ScreenModel, WinPreview
from tablekit.game.events import (
    AbortiveDraw,
    BadEvent,
    Chombo,
    Discard,
    DiscardCorrected,
    DoraCorrected,
    Draw,
    Event,
    ExhaustiveDraw,
    GameEnded,
    GameStarted,
    HandStarted,
    RiichiDeclared,
    WinnerHand,
    Won,
)
from tablekit.game.reducer import apply
from tablekit.game.session import Session
from tablekit.game.state import SEATS, Phase, TableState, seat_name
from tablekit.game.win_reading import WinReader, WinReading
from tablekit.io.presses import ButtonName, ButtonPress
from tablekit.rules.hand import concealed_count
from tablekit.rules.presets import PRESETS, Rules, rules_to_dict
from tablekit.tile_fix import TileFix

WIN_WINDOW = 1.5  # seconds to wait for a second WIN press on the same discard
REREAD = 0.5      # seconds between readings of a revealed hand while it waits for OK
DIFFERENCES_SHOWN = 6.0
SETTLE = 2.5      # seconds after the WIN a hand with tiles not seen waits for a clearer view
CATCH_UP_WAIT = 3.0  # seconds a tsumo waits for discards the camera shows but has not taken
MISSED_AT_END = 4  # OK opens the draw while the camera still counts this many tiles or fewer
HAN_STEPS = (*range(1, 14), "yakuman", "2x yakuman")
FU_STEPS = (30, 40, 50, 60, 70, 80, 90, 100, 110, 20, 25)
FIX_HINT = " (CALL: fix the tiles by hand; held: enter han and fu)"
ABORTS = ("nine_terminals", "four_winds", "four_riichi", "four_kans", "triple_ron")


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


@dataclass
class Entry:
    """A value being entered by hand for one winner."""

    seat: int
    han_step: int = 0
    fu_step: int = 0

    def winner(self) -> WinnerHand:
        step = HAN_STEPS[self.han_step]
        if isinstance(step, str):
            return WinnerHand(self.seat, yakuman=2 if step.startswith("2x") else 1)
        return WinnerHand(self.seat, han=step, fu=FU_STEPS[self.fu_step])


@dataclass
class Flow:
    """The live app: feed it presses and camera events, draw :meth:`screen`."""

    session: Session
    reader: WinReader | None = None
    clock: Callable[[], float] = time.monotonic
    layout: Layout = "facing"
    stage: Stage = Stage.BETWEEN_HANDS
    message: str = ""
    warnings: tuple[str, ...] = ()
    claims: list[tuple[int, bool]] = field(default_factory=list)
    claim_deadline: float = 0.0
    discarder: int | None = None
    win_seats: tuple[int, ...] = ()
    riichi_waiting: set[int] = field(default_factory=set)
    entries: list[Entry] = field(default_factory=list)
    pending: Won | None = None
    preview: WinPreview | None = None
    reading: WinReading | None = None
    fix: TileFix | None = None
    fixed: bool = False
    corrections: tuple[Event, ...] = ()   # applied before the pending win on OK
    tenpai: list[bool] = field(default_factory=lambda: [False] * SEATS)
    menu: Menu | None = None
    differences_for: int | None = None
    differences_until: float = 0.0
    reread_at: float = 0.0
    next_rules: str = "tenhou"

    def __post_init__(self) -> None:
        self.stage = self._resting_stage()
        self.next_rules = self.session.state.rules.name if (
            self.session.state.rules.name in PRESETS) else "tenhou"

    # -- inputs -------------------------------------------------------------------------

    def start_game(self, rules: Rules, names: tuple[str, ...] = (), first_dealer: int = 0
                   ) -> None:
        """Begin a new game under ``rules`` (the journal keeps the old one's history)."""
        self._submit(GameStarted(rules_to_dict(rules), names, first_dealer))
        self.stage = self._resting_stage()

    def handle(self, item: ButtonPress | Event) -> None:
        """One input: a button press, or an event the camera saw."""
        if isinstance(item, ButtonPress):
            self.message = ""
            getattr(self, f"_on_{self.stage.name.lower()}")(item)
        elif self.stage is Stage.PLAY or self._camera_behind(item):
            self._camera_event(item)
        else:  # camera events wait while a win or a draw is shown: the camera gives them again
            self._let_wait()
        self.tick()

    def _camera_behind(self, event: Event) -> bool:
        """A WIN pressed before the camera had the turns before it: the discard won on
        (while the WIN window is open), or the other seats' turns before a tsumo (while
        the tsumo cannot be scored yet)."""
        if not isinstance(event, (Draw, Discard)):
            return False
        if self.stage is Stage.COLLECT_WINS:
            return True
        return (self.stage is Stage.CONFIRM_WIN and self._tsumo_seat() is not None
                and self.preview is None and (event.seat != self._tsumo_seat()
                                              or self._discards_unseen()))

    def _discards_unseen(self) -> bool:
        """The camera shows discards the state has not taken yet (a whole turn around the
        table missed before a tsumo): for a few seconds after the WIN, they come first."""
        behind = getattr(self.reader, "behind", None)
        return (behind is not None and self.clock() < self.claim_deadline + CATCH_UP_WAIT
                and behind())

    def _tsumo_seat(self) -> int | None:
        return next((seat for seat, long in self.claims if long), None)

    def _let_wait(self) -> None:
        again = getattr(self.reader, "offer_again", None)
        if again is not None:
            again()

    def _camera_event(self, event: Event) -> None:
        seat = getattr(event, "seat", None)
        if isinstance(event, Discard) and seat in self.riichi_waiting:
            self.riichi_waiting.discard(seat)
            self._submit(RiichiDeclared(seat))
        if self._submit(event):
            self.message = ""
        if self.session.state.result is not None:
            self.riichi_waiting.clear()

    def tick(self) -> None:
        """Time-based steps: the end of the WIN window, hiding point differences."""
        now = self.clock()
        if self.stage is Stage.COLLECT_WINS and now >= self.claim_deadline:
            self._resolve_claims()
        if self.differences_for is not None and now >= self.differences_until:
            self.differences_for = None
        if self.stage is Stage.CONFIRM_WIN and self.reader is not None and (
                now >= self.reread_at):
            self._reread()

    def warn(self, *warnings: str) -> None:
        """Show warnings from the camera (lost, uncertain read, low confidence)."""
        self.warnings = tuple(warnings)

    # -- the screen ---------------------------------------------------------------------

    def screen(self) -> ScreenModel:
        state = self.session.state
        mode = {
            Stage.CONFIRM_WIN: Mode.WIN_CONFIRM, Stage.ENTER_VALUE: Mode.WIN_CONFIRM,
            Stage.TENPAI: Mode.TENPAI_ENTRY, Stage.MENU: Mode.MENU, Stage.FINAL: Mode.FINAL,
            Stage.FIX_TILES: Mode.FIX_TILES,
        }.get(self.stage, Mode.SCOREBOARD)
        if self.stage is Stage.BETWEEN_HANDS and state.result is not None:
            mode = Mode.HAND_RESULT
        return ScreenModel(
            state=state, mode=mode, layout=self.layout, preview=self.preview,
            tenpai=tuple(self.tenpai) if self.stage is Stage.TENPAI else None,
            menu=self.menu if self.stage is Stage.MENU else None, warnings=self.warnings,
            message=self.message, differences_for=self.differences_for,
            fix=self.fix.view() if self.stage is Stage.FIX_TILES and self.fix else None)

    # -- stages -------------------------------------------------------------------------

    def _on_between_hands(self, press: ButtonPress) -> None:
        if press.name is ButtonName.OK:
            self._submit(HandStarted(tracked=self.reader is not None))
            self.stage = self._resting_stage()
        else:
            self._common(press)

    def _on_play(self, press: ButtonPress) -> None:
        state = self.session.state
        if press.name is ButtonName.RIICHI:
            self._riichi(press.seat)  # type: ignore[arg-type]
        elif press.name is ButtonName.WIN:
            if press.long:
                self._ensure_drawn(press.seat)
            self.claims = [(press.seat, press.long)]  # type: ignore[list-item]
            self.claim_deadline = self.clock() + (0 if press.long else WIN_WINDOW)
            self.stage = Stage.COLLECT_WINS
        elif press.name is ButtonName.OK and (not state.tracked or state.wall <= MISSED_AT_END):
            self._open_tenpai()
        elif press.name is ButtonName.OK:
            self.message = f"the camera counts {state.wall} tiles left in the wall"
        elif press.name is ButtonName.CALL and not press.long and state.tracked:
            self.message = f"{seat_name(state, press.seat)} calls: lay the meld down for the camera"
            expect = getattr(self.reader, "expect_call", None)
            if expect is not None:
                expect(press.seat)
        else:
            self._common(press)

    def _on_collect_wins(self, press: ButtonPress) -> None:
        if press.name is ButtonName.WIN and press.seat not in [s for s, _ in self.claims]:
            if any(tsumo for _, tsumo in self.claims) or press.long:
                self.message = "a tsumo has one winner"
                return
            self.claims.append((press.seat, False))  # type: ignore[arg-type]
        elif press.name is ButtonName.OK:
            self._resolve_claims()
        elif press.name is ButtonName.UNDO:
            self._back_to_play("win cancelled")

    def _on_choose_discarder(self, press: ButtonPress) -> None:
        claimed = [s for s, _ in self.claims]
        if press.seat is not None and press.seat not in claimed:
            self.discarder = press.seat
            self._read_or_enter()
        elif press.name is ButtonName.UNDO:
            self._back_to_play("win cancelled")
        else:
            self.message = "who dealt in? that player presses any of their buttons"

    def _on_enter_value(self, press: ButtonPress) -> None:
        """Each winner sets their own value with their seat's buttons (a double ron too);
        a press from another seat sets the first winner's."""
        entry = next((e for e in self.entries if e.seat == press.seat), self.entries[0])
        if press.name is ButtonName.RIICHI:
            entry.han_step = (entry.han_step + 1) % len(HAN_STEPS)
        elif press.name is ButtonName.CALL:
            entry.fu_step = (entry.fu_step + 1) % len(FU_STEPS)
        elif press.name is ButtonName.OK:
            self._preview_entries(confirm=True)
            return
        elif press.name is ButtonName.UNDO:
            self._back_to_play("win cancelled")
            return
        self._preview_entries(confirm=False)

    def _on_confirm_win(self, press: ButtonPress) -> None:
        if press.name is ButtonName.OK and self.pending is not None:
            if not all(self._submit(event) for event in self.corrections):
                return
            self._submit(self.pending)
            self.pending, self.preview, self.fixed, self.corrections = None, None, False, ()
            self.stage = self._resting_stage()
        elif press.name is ButtonName.UNDO:
            self._back_to_play("win cancelled: no points moved")
        elif press.name is ButtonName.CALL and press.long:
            self._enter_values()
        elif press.name is ButtonName.CALL and self.reader is not None:
            self._start_fix()

    def _on_fix_tiles(self, press: ButtonPress) -> None:
        fix = self.fix
        assert fix is not None
        step = -1 if press.long else 1
        if press.name is ButtonName.RIICHI:
            fix.move(step)
        elif press.name is ButtonName.CALL:
            fix.turn(step)
        elif press.name is ButtonName.WIN:
            fix.suit()
        elif press.name is ButtonName.OK:
            self._score_fixed(fix)
        elif press.name is ButtonName.UNDO:
            self.fix, self.fixed, self.reread_at, self.corrections = None, False, 0.0, ()
            self.pending, self.preview = None, None
            self.stage = Stage.CONFIRM_WIN
            self.message = "reading the revealed hand again"

    def _on_tenpai(self, press: ButtonPress) -> None:
        if press.seat is not None:
            self.tenpai[press.seat] = not self.tenpai[press.seat]
        elif press.name is ButtonName.OK:
            ready = tuple(s for s in range(SEATS) if self.tenpai[s])
            wall = self.session.state.wall if self.session.state.tracked else 0
            self._submit(ExhaustiveDraw(tenpai=ready, wall_left=wall))
            self.stage = self._resting_stage()
        else:
            self.stage = self._resting_stage()

    def _on_menu(self, press: ButtonPress) -> None:
        assert self.menu is not None
        if press.name is ButtonName.UNDO and press.long:
            self.stage = self._resting_stage()
        elif press.name is ButtonName.UNDO or press.seat is not None:
            step = -1 if press.name is ButtonName.RIICHI else 1
            selected = (self.menu.selected + step) % len(self.menu.items)
            self.menu = Menu(self.menu.title, self.menu.items, selected)
        elif press.name is ButtonName.OK:
            self.stage = self._resting_stage()
            self._choose(self.menu.items[self.menu.selected])

    def _on_final(self, press: ButtonPress) -> None:
        self._common(press)

    # -- shared steps -------------------------------------------------------------------

    def _common(self, press: ButtonPress) -> None:
        if press.name is ButtonName.UNDO and press.long:
            self._open_menu()
        elif press.name is ButtonName.UNDO:
            self._undo()
        elif press.name is ButtonName.CALL and press.long:
            self.differences_for = press.seat
            self.differences_until = self.clock() + DIFFERENCES_SHOWN
        elif press.name is not ButtonName.OK:
            self.message = (f"{press_name(self.session.state, press)} does nothing now "
                            f"({self.stage.value})")

    def _riichi(self, seat: int) -> None:
        """Declare riichi; if the camera has not caught up with the turns before this
        seat's, the declaration waits for the seat's discard."""
        state = self.session.state
        if state.tracked and state.turn != seat and not state.seats[seat].riichi_declared:
            self.riichi_waiting.add(seat)
            self.message = f"riichi by {seat_name(state, seat)}: taken with its next discard"
            return
        self._ensure_drawn(seat)
        self._submit(RiichiDeclared(seat))

    def _ensure_drawn(self, seat: int | None) -> None:
        """The camera cannot see a draw: the seat acting on its turn has drawn."""
        state = self.session.state
        if state.tracked and seat == state.turn and state.to_draw and state.wall > 0:
            self._submit(Draw(seat, rinshan=state.kan_draw))

    def _undo(self, redo: bool = False) -> None:
        try:
            self.session.redo() if redo else self.session.undo()
            self.message = "put back the last action" if redo else "took back the last action"
        except BadEvent as error:
            self.message = str(error)
        self.stage = self._resting_stage()

    def _submit(self, event: Event) -> bool:
        try:
            self.session.submit(event)
        except BadEvent as error:
            self.message = str(error)
            return False
        return True

    def _resting_stage(self) -> Stage:
        phase = self.session.state.phase
        if phase is Phase.GAME_OVER:
            return Stage.FINAL
        return Stage.PLAY if phase is Phase.HAND_IN_PLAY else Stage.BETWEEN_HANDS

    def _back_to_play(self, message: str) -> None:
        self.claims, self.entries, self.pending, self.preview = [], [], None, None
        self.reading, self.fix, self.fixed, self.corrections = None, None, False, ()
        self.discarder = None
        self.stage = self._resting_stage()
        self.message = message

    # -- wins ---------------------------------------------------------------------------

    def _resolve_claims(self) -> None:
        state = self.session.state
        tsumo = any(long for _, long in self.claims)
        if tsumo:
            self.discarder = None
        elif state.tracked:
            self.discarder = self._tracked_discarder()
            if self.discarder is None:
                self._back_to_play("no discard to win on: hold WIN for tsumo")
                return
        else:
            self.stage = Stage.CHOOSE_DISCARDER
            self.message = "who dealt in? that player presses any of their buttons"
            return
        self._read_or_enter()

    def _tracked_discarder(self) -> int | None:
        state = self.session.state
        if state.chankan_tile is not None:
            return state.turn
        return state.last_discard[0] if state.last_discard else None

    def _read_or_enter(self) -> None:
        seats = tuple(sorted((s for s, _ in self.claims),
                             key=lambda s: (s - (self.discarder or 0)) % SEATS))
        if self.reader is None:
            self.entries = [Entry(seat) for seat in seats]
            self.stage = Stage.ENTER_VALUE
            self._preview_entries(confirm=False)
            return
        self.win_seats = seats
        self.stage = Stage.CONFIRM_WIN
        self._reread()

    def _reread(self) -> None:
        """Read the revealed hands (again): a hand hidden by an arm is read once it shows."""
        assert self.reader is not None
        self.reread_at = self.clock() + REREAD
        if self.fixed:
            return  # a person put the tiles right: the camera does not overrule them
        if self._tsumo_seat() is not None and self.preview is None:
            if self._discards_unseen():
                self.message = "the camera is catching up with the last discards..."
                return
            self._ensure_drawn(self._tsumo_seat())  # the camera has caught up with the turn
        reading = self.reader.read_win(self.win_seats, self.discarder)
        if self.pending is not None and self.reading is not None and (
                reading.unseen > self.reading.unseen):
            return  # an arm over a hand: what a fuller view read stands
        self.reading = reading
        if self.pending is None and reading.unseen and self.clock() < (
                self.claim_deadline + SETTLE):
            self.message = f"reading the revealed hand: {reading.unseen} tile(s) not seen yet..."
            return  # an arm still over a hand: a clearer view comes before a guess
        won = Won(reading.winners, self.discarder, reading.ura)
        if won == self.pending:
            return
        complete = len(reading.winners) == len(self.win_seats)
        corrections = self._ron_tile_fix(won) if complete else ()
        preview = self._preview(won, reading.doubts, corrections) if complete else None
        if preview is None:
            self.message = "; ".join(reading.doubts) or self.message.removesuffix(FIX_HINT)
            self.message = (self.message or "reading the revealed hand...") + FIX_HINT
            return
        self.pending, self.preview, self.corrections = won, preview, corrections

    def _enter_values(self) -> None:
        """Held CALL on a win waiting for OK: its han and fu entered by hand instead (what
        tiles alone cannot put right, such as a meld the camera took wrongly)."""
        self.entries = [Entry(seat) for seat in self.win_seats]
        self.pending, self.fixed, self.corrections = None, True, ()
        self.stage = Stage.ENTER_VALUE
        self._preview_entries(confirm=False)

    def _start_fix(self) -> None:
        """CALL on a win waiting for OK: put its tiles right with the buttons, starting
        from the camera's best reading (complete or not)."""
        state, reading = self.session.state, self.reading or WinReading(())
        known = {w.seat: w.hand for w in (self.pending or reading).winners}
        drafts = dict(reading.drafts)
        hands = [(seat, known.get(seat) or drafts.get(seat)
                  or (None,) * concealed_count(len(state.seats[seat].melds)))
                 for seat in self.win_seats]
        want = max(1, len(state.dora)) if any(
            state.seats[seat].riichi for seat in self.win_seats) else 0
        ura = (self.pending or reading).ura
        dora = [*state.dora]
        for event in self.corrections:  # a dora indicator already put right stays so
            if isinstance(event, DoraCorrected):
                dora[event.index] = event.tile
        self.fix = TileFix.start(hands, [*ura, *[None] * want][:want], dora)
        self.stage = Stage.FIX_TILES
        self.message = "put the framed tile right; OK scores the hand"

    def _score_fixed(self, fix: TileFix) -> None:
        if fix.unknown:
            self.message = (f"{fix.unknown} tile{'s' * (fix.unknown > 1)} not set yet: "
                            "CALL sets the framed one")
            return
        won = Won(fix.winners(), self.discarder, tuple(fix.ura))  # type: ignore[arg-type]
        dora = self.session.state.dora
        corrections = (*self._ron_tile_fix(won), *(
            DoraCorrected(index, tile) for index, (tile, was) in enumerate(zip(
                fix.dora, dora, strict=True)) if tile != was and tile is not None))
        preview = self._preview(won, ("tiles put right by hand",), corrections)
        if preview is None:
            return  # the engine's reason is the message; the tiles stay to be fixed
        self.pending, self.preview, self.fixed, self.fix = won, preview, True, None
        self.corrections = corrections
        self.stage = Stage.CONFIRM_WIN
        self.message = ""

    def _preview_entries(self, confirm: bool) -> None:
        won = Won(tuple(e.winner() for e in self.entries), self.discarder)
        if not confirm:
            preview = self._preview(won, ())   # the screen's footer says what the buttons do
            self.preview = preview and replace(preview, entering=True)
            return
        self._propose(won, ())

    def _propose(self, won: Won, doubts: tuple[str, ...]) -> None:
        preview = self._preview(won, doubts)
        if preview is None:
            self._back_to_play(self.message)
            return
        self.pending, self.preview = won, preview
        self.stage = Stage.CONFIRM_WIN

    def _ron_tile_fix(self, won: Won) -> tuple[DiscardCorrected, ...]:
        """A ron tile (put right by hand, or read in the winner's row) other than the
        discard the camera registered: that discard is corrected too."""
        state, tile = self.session.state, won.winners[0].win_tile
        last = state.last_discard
        if won.from_seat is None or last is None or tile is None or last[1] == tile or (
                last[0] != won.from_seat or state.chankan_tile is not None):
            return ()
        return (DiscardCorrected(last[0], len(state.seats[last[0]].pond) - 1, tile),)

    def _preview(self, won: Won, doubts: tuple[str, ...], first: Sequence[Event] = ()
                 ) -> WinPreview | None:
        """``won`` scored on a copy of the state (after the corrections ``first``)."""
        try:
            state = self.session.state
            for event in (*first, won):
                state = apply(state, event)
            after = state
        except BadEvent as error:
            self.message = str(error)
            return None
        result = after.result
        assert result is not None
        return WinPreview(result.wins, result.deltas, doubts, fixable=self.reader is not None)

    # -- draws and the menu -------------------------------------------------------------

    def _open_tenpai(self) -> None:
        seats = self.session.state.seats
        self.tenpai = [seat.riichi for seat in seats]
        self.stage = Stage.TENPAI
        self.message = "each tenpai player presses a button; OK when done"
        state = self.session.state
        if state.tracked and state.wall > 0:
            self.message = (f"the camera still counts {state.wall} tiles in the wall (discards "
                            f"missed?): {self.message}; UNDO if the hand goes on")

    def _open_menu(self) -> None:
        items = menu_items(self.session.state, self.layout, self.next_rules)
        self.menu = Menu("Menu", items)
        self.stage = Stage.MENU

    def _choose(self, item: str) -> None:
        if item == "Undo":
            self._undo()
        elif item == "Redo":
            self._undo(redo=True)
        elif item.startswith("Exhaustive"):
            self._open_tenpai()
        elif item.startswith("Abortive draw: "):
            kind = item.removeprefix("Abortive draw: ").replace(" ", "_")
            self._submit(AbortiveDraw(kind))  # type: ignore[arg-type]
            self.stage = self._resting_stage()
        elif item.startswith("Chombo: "):
            self._submit(Chombo(chombo_seat(self.session.state, item)))
            self.stage = self._resting_stage()
        elif item.startswith("Layout: "):
            self.layout = item.removeprefix("Layout: ")  # type: ignore[assignment]
        elif item == "End the game now":
            self._submit(GameEnded("ended from the menu"))
            self.stage = self._resting_stage()
        elif item.startswith("New game"):
            self.start_game(PRESETS[self.next_rules])
        elif item == "Rules for a new game":
            names = list(PRESETS)
            self.next_rules = names[(names.index(self.next_rules) + 1) % len(names)]
            self._open_menu()


def menu_items(state: TableState, layout: str = "facing", next_rules: str = "tenhou"
               ) -> tuple[str, ...]:
    """The menu held UNDO opens, for this table (UNDO moves down, OK chooses).

    >>> from tablekit.game.state import TableState
    >>> menu_items(TableState.new())[:3]
    ('Close', 'Undo', 'Redo')
    """
    items = ["Close", "Undo", "Redo"]
    if state.phase is Phase.HAND_IN_PLAY:
        items.append("Exhaustive draw (tenpai)")
        if state.rules.abortive_draws:
            items += [abort_item(kind) for kind in ABORTS]
        items += [chombo_item(state, s) for s in range(SEATS)]
    items += [f"Layout: {'centre' if layout == 'facing' else 'facing'}",
              "End the game now", f"New game ({next_rules})", "Rules for a new game"]
    return tuple(items)


def abort_item(kind: str) -> str:
    """The menu line for an abortive draw kind (``four_winds`` -> ``Abortive draw: four winds``)."""
    return f"Abortive draw: {kind.replace('_', ' ')}"



def chombo_item(state: TableState, seat: int) -> str:
    """The menu line for a chombo by ``seat``: ``Chombo: East (Ana)``."""
    return f"Chombo: {seat_name(state, seat)}"


def chombo_seat(state: TableState, item: str) -> int:
    """The seat a chombo menu line names.

    >>> state = TableState.new(names=("Ana", "Ben", "Chie", "Dan"))
    >>> chombo_seat(state, chombo_item(state, 2))
    2
    """
    return next(seat for seat in range(SEATS) if chombo_item(state, seat) == item)


def press_name(state: TableState, press: ButtonPress) -> str:
    """A press as players say it, the seat by wind and name.

    >>> state = TableState.new(names=("Ana", "Ben", "Chie", "Dan"))
    >>> press_name(state, ButtonPress(ButtonName.RIICHI, 1, long=True))
    'South (Ben) RIICHI (held)'
    >>> press_name(state, ButtonPress(ButtonName.OK))
    'OK'
    """
    who = f"{seat_name(state, press.seat)} " if press.seat is not None else ""
    return f"{who}{press.name.value.upper()}{' (held)' if press.long else ''}"
