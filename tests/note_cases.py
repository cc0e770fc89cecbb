"""Flows left at every kind of stage, for the tests of the flow's note
(``tests/test_flow_note.py``): each case plays a few inputs into a flow on a journal in a
folder, which leaves the flow's note beside it. ``python tests/note_cases.py FOLDER`` writes
each case's journal, note and screen (its repr) under FOLDER/<case>/: that is how the
fixtures in ``tests/fixtures/notes/`` were made (by the tablekit of before the note was one
declared shape, so that they are notes of the format it wrote).
"""

from __future__ import annotations

import json
import shutil
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from tablekit.flow import Flow
from tablekit.game.events import Discard, DoraRevealed, Draw, HandStarted, WinnerHand
from tablekit.game.session import Session
from tablekit.game.win_reading import WinReading
from tablekit.io.presses import ButtonName, ButtonPress
from tablekit.rules.presets import TENHOU, TENHOU_SANMA, with_options
from tablekit.tiles import Tile, parse_tiles

OK, UNDO, WIN, CALL, RIICHI = (ButtonName.OK, ButtonName.UNDO, ButtonName.WIN,
                               ButtonName.CALL, ButtonName.RIICHI)
RON_ON_6S = "234567m234p7899s6s"
ROSTER = ("Aki", "Ben", "Cho", "Dai", "Emi")
WALL = 1_000_000.0  # the game timer's wall clock, fixed


class Reader:
    """The camera side faked: each seat's hand as read (a complete one: a win read; one
    with tiles unknown or wrong: a draft, with a doubt), the ura indicators none."""

    def __init__(self, hands: dict[int, tuple[Tile | None, ...]]) -> None:
        self.hands = hands
        self.calls: list[int] = []

    def look_at_win(self) -> None:
        pass

    def read_win(self, state, seats, from_seat):
        drafts = tuple((s, self.hands[s]) for s in seats
                       if None in self.hands[s] or self.hands[s][-1] != Tile.from_code("6s"))
        if drafts:
            return WinReading((), (), ("not a complete hand; check the tiles",), drafts,
                              unseen=sum(tile is None for _, hand in drafts for tile in hand))
        return WinReading(tuple(WinnerHand(s, self.hands[s], self.hands[s][-1])
                                for s in seats), (), ("camera only 64% sure of the 6s",))

    def behind(self, state):
        return False

    def expect_call(self, state, seat):
        self.calls.append(seat)


def ron(text: str = RON_ON_6S) -> tuple[Tile | None, ...]:
    return tuple(parse_tiles(text))


@dataclass
class Table:
    """A flow on ``folder/game.jsonl`` with a clock moved by hand."""

    folder: Path
    case: Case
    now: float = 0.0
    flow: Flow = field(init=False)

    def __post_init__(self) -> None:
        self.flow = self.open()

    def open(self) -> Flow:
        return Flow(Session.open(self.folder / "game.jsonl"), reader=self.case.reader(),
                    clock=lambda: self.now, wall=lambda: WALL, roster=self.case.roster,
                    rules=self.case.rules if self.case.roster else None, seed=3)

    def press(self, name: ButtonName, seat: int | None = None, long: bool = False) -> None:
        self.flow.handle(ButtonPress(name, seat, long, self.now))

    def see(self, *events) -> None:
        for event in events:
            self.flow.handle(event)

    def wait(self, seconds: float) -> None:
        self.now += seconds
        self.flow.tick()

    def to_discard(self, discarder: int, tile: str) -> None:
        """Draws and discards until ``discarder`` throws ``tile``."""
        fillers = iter(Tile(k) for k in range(33, 0, -1))
        state = self.flow.session.state
        while (state := self.flow.session.state).turn != discarder:
            self.see(Draw(state.turn), Discard(state.turn, next(fillers)))
        self.see(Draw(discarder), Discard(discarder, Tile.from_code(tile)))

    def menu_to(self, label: str) -> None:
        """UNDO down the menu to the item whose label starts with ``label``, then OK."""
        while not self.flow.data.place.chosen.label.startswith(label):  # type: ignore[union-attr]
            self.press(UNDO)
        self.press(OK)


@dataclass(frozen=True)
class Case:
    play: Callable[[Table], None]
    hands: dict[int, tuple[Tile | None, ...]] | None = None  # None: no camera
    rules: object = TENHOU
    roster: tuple[str, ...] = ()

    def reader(self) -> Reader | None:
        return None if self.hands is None else Reader(self.hands)

    def table(self, folder: Path) -> Table:
        """The flow played to the case's stage (its note written)."""
        table = Table(folder, self)
        if not self.roster:
            table.flow.start_game(self.rules)  # type: ignore[arg-type]
        self.play(table)
        return table


def _waiting(t: Table) -> None:
    t.press(OK)
    t.see(Draw(0), Discard(0, Tile.from_code("1z")))
    t.press(RIICHI, 2)              # before the camera has seat 1's turn: it waits
    t.press(CALL, 3)                # no meld yet: the camera waits for it


def _centre(t: Table) -> None:
    _waiting(t)
    t.press(UNDO, long=True)
    t.menu_to("Layout")


def _menu(t: Table) -> None:
    t.press(OK)
    t.see(Draw(0), Discard(0, Tile.from_code("1z")))
    t.press(UNDO, long=True)
    t.press(UNDO)
    t.press(UNDO)                   # the third item selected


def _penalty(t: Table) -> None:
    t.press(OK)
    t.press(UNDO, long=True)
    t.menu_to("Penalty: South")
    t.press(UNDO)


def _end(t: Table) -> None:
    t.press(OK)
    t.press(UNDO, long=True)
    while not t.flow.data.place.chosen.label.startswith("End"):  # type: ignore[union-attr]
        t.press(UNDO)
    t.press(OK, long=True)


def _tenpai(t: Table) -> None:
    t.flow.session.submit(HandStarted(tracked=False))
    t.flow.rest()
    t.press(OK)                     # no camera: OK opens the declarations
    t.press(WIN, 1)
    t.press(RIICHI, 2)


def _seating(t: Table) -> None:
    for seat in range(4):
        t.press(RIICHI, seat)
    t.press(OK, long=True)          # drawn over the seats
    t.press(CALL, 1)


def _collect(t: Table) -> None:
    t.press(OK)
    t.to_discard(0, "6s")
    t.press(WIN, 3)
    t.press(WIN, 1)                 # the window still open


def _confirm(t: Table) -> None:
    _collect(t)
    t.wait(2.0)


def _tsumo(t: Table) -> None:
    t.press(OK)
    t.to_discard(0, "6s")
    t.see(Draw(1))
    t.press(WIN, 1, long=True)


def _fix(t: Table) -> None:
    t.press(OK)
    t.see(DoraRevealed(Tile.from_code("7s")))
    t.to_discard(0, "6s")
    t.press(WIN, 1)
    t.wait(2.0)
    t.press(CALL, 1)                # the tiles, to be put right
    t.press(CALL, 1, long=True)     # 3m back to 2m
    t.press(RIICHI, 1)


def _fixed(t: Table) -> None:
    t.press(OK)
    t.to_discard(0, "7s")           # the 6s thrown, read as 7s
    t.press(WIN, 1)
    t.wait(2.0)
    t.press(CALL, 1)
    t.press(RIICHI, 1, long=True)   # back to the last slot
    t.press(CALL, 1, long=True)     # 7s -> 6s: the discard corrected too
    t.press(OK)


def _enter(t: Table) -> None:
    t.press(OK)
    t.to_discard(0, "6s")
    t.press(WIN, 1)
    t.press(WIN, 3)
    t.wait(2.0)
    t.press(CALL, 1, long=True)     # the values by hand
    t.press(RIICHI, 1)
    t.press(RIICHI, 1)
    t.press(CALL, 1)


def _discarder(t: Table) -> None:
    t.press(OK)
    t.press(RIICHI, 2)
    t.press(WIN, 2)
    t.wait(2.0)


def _between(t: Table) -> None:
    _centre(t)
    t.press(OK)                     # no camera reading wins: the draw's declarations
    t.press(WIN, 1)
    t.press(OK)                     # the hand's result: between hands


def _final(t: Table) -> None:
    _end(t)
    t.menu_to("End it")             # the points as they stand count
    t.press(UNDO, long=True)
    t.menu_to("Layout")


def _evening(t: Table) -> None:
    _final(t)
    t.press(OK)                     # the evening's games so far


CASES: dict[str, Case] = {
    "play_waiting": Case(_waiting, {}),
    "play_centre": Case(_centre, {}),
    "menu": Case(_menu, {}, with_options(TENHOU, time_limit=75)),
    "menu_penalty": Case(_penalty, {}),
    "menu_end": Case(_end, {}),
    "tenpai": Case(_tenpai),
    "tenpai_sanma": Case(_tenpai, rules=TENHOU_SANMA),
    "choose_players": Case(_seating, roster=ROSTER),
    "collect_wins": Case(_collect, {1: ron(), 3: ron()}),
    "confirm_win": Case(_confirm, {1: ron(), 3: ron()}),
    "confirm_tsumo": Case(_tsumo, {1: ron("234567m234p7899s6s")}),
    "fix_tiles": Case(_fix, {1: (Tile.from_code("3m"), *ron()[1:-1], None)}),
    "confirm_fixed": Case(_fixed, {1: (*ron()[:-1], Tile.from_code("7s"))}),
    "enter_value": Case(_enter, {1: (None,) * 14, 3: (None,) * 14}),
    "choose_discarder": Case(_discarder),
    "between_hands": Case(_between),
    "final": Case(_final, {}),
    "evening": Case(_evening, {}),
}
"""Every case, by the name of its fixture."""


def _bare_riichi(note: dict) -> dict:
    """A note of an older tablekit: riichi waiting as the seats alone, no CALLs."""
    note = {**note, "riichi_waiting": [seat for seat, _ in note["riichi_waiting"]]}
    del note["calls"]
    return note


def _no_seating(note: dict) -> dict:
    """A note of an older tablekit: the players being chosen, none kept."""
    return {key: value for key, value in note.items() if key != "seating"}


OLD: dict[str, tuple[str, Callable[[dict], dict]]] = {
    "old_bare_riichi": ("play_waiting", _bare_riichi),
    "old_no_seating": ("choose_players", _no_seating),
}
"""Notes in the older forms the reader takes: the case they are made from, and how."""


def reopened(folder: Path, case: Case) -> Flow:
    """A fresh flow on the case's journal in ``folder`` (its note taken up), at time 0."""
    return Flow(Session.open(folder / "game.jsonl"), reader=case.reader(), clock=lambda: 0.0,
                wall=lambda: WALL, roster=case.roster,
                rules=case.rules if case.roster else None, seed=3)  # type: ignore[arg-type]


def screen_of(folder: Path, case: Case) -> str:
    """The screen a fresh flow on the journal and note in ``folder`` shows (its repr)."""
    flow = reopened(folder, case)
    try:
        return repr(flow.screen())
    finally:
        flow.session.close()


def write(folder: Path) -> None:
    """Each case's journal, note and screen after a restart (its repr) under
    ``folder/<case>/``; the older forms of :data:`OLD` too."""
    for name, case in CASES.items():
        where = folder / name
        where.mkdir(parents=True, exist_ok=False)
        case.table(where).flow.session.close()
        (where / "screen.txt").write_text(screen_of(where, case) + "\n")
    for name, (source, change) in OLD.items():
        where = folder / name
        shutil.copytree(folder / source, where)
        note = where / "game.flow.json"
        note.write_text(json.dumps(change(json.loads(note.read_text()))))
        (where / "screen.txt").write_text(screen_of(where, CASES[source]) + "\n")


if __name__ == "__main__":
    write(Path(sys.argv[1]))
