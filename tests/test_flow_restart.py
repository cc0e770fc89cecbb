"""A power cut at any moment: the app reopened from its journal (a fresh session and a
fresh flow) shows the screen the uninterrupted run showed at that point, and goes on
the same way: at every input of a fixture game, and in the middle of a riichi waiting
for its discard, a win's tiles being put right and the tenpai declarations."""

from __future__ import annotations

from pathlib import Path

import pytest

from tablekit.flow import WIN_WINDOW, Flow, Stage
from tablekit.flow.tile_fix import ORDER
from tablekit.formats.tenhou import import_file
from tablekit.game.events import (
    Call,
    Discard,
    DiscardCorrected,
    DoraRevealed,
    Draw,
    Event,
    ExhaustiveDraw,
    HandStarted,
    RiichiDeclared,
    WinnerHand,
    Won,
)
from tablekit.game.session import Session
from tablekit.game.win_reading import WinReading
from tablekit.io.presses import ButtonName, ButtonPress
from tablekit.rules.presets import TENHOU
from tablekit.tiles import Tile, parse_tiles

GAME = Path(__file__).parents[1] / "tablekit" / "data" / "tenhou-python-bot-28.xml"
CAMERA = (Draw, Discard, Call, DoraRevealed, DiscardCorrected)


class TruthCamera:
    """The camera side faked whole: it reads each win as the log has it."""

    def __init__(self) -> None:
        self.truth: Won | None = None
        self.reads: dict[int, tuple[Tile | None, ...]] = {}   # a seat's row as read instead
        self.calls: list[int] = []                      # the seats it was told to wait for

    def look_at_win(self):
        pass

    def read_win(self, state, seats, from_seat):
        if self.reads:
            return WinReading((), (), ("not a complete hand; check the tiles",),
                              tuple((s, self.reads[s]) for s in seats))
        assert self.truth is not None
        winners = {w.seat: w for w in self.truth.winners}
        return WinReading(tuple(winners[s] for s in seats if s in winners), self.truth.ura)

    def behind(self, state):
        return False


    def expect_call(self, state, seat):
        self.calls.append(seat)


class Table:
    """One flow on a journal, fed as the table would feed it, reopened after each input."""

    def __init__(self, folder: Path, rules=TENHOU, names=(), first_dealer=0) -> None:
        self.path = folder / "game.jsonl"
        self.now = 0.0
        self.camera = TruthCamera()
        self.flow = self._open()
        self.flow.start_game(rules, names, first_dealer)
        self.restarts = 0

    def _open(self) -> Flow:
        return Flow(Session.open(self.path), reader=self.camera, clock=lambda: self.now)

    def press(self, name: ButtonName, seat: int | None = None, long: bool = False) -> None:
        self.flow.handle(ButtonPress(name, seat, long, self.now))
        self.check()

    def see(self, event: Event) -> None:
        self.flow.handle(event)
        self.check()

    def wait(self, seconds: float) -> None:
        self.now += seconds
        self.flow.tick()
        self.check()

    def check(self) -> None:
        """The power is cut now: the reopened app shows the same screen."""
        again = self._open()
        try:
            assert again.screen() == self.flow.screen()
        finally:
            again.session.close()
        self.restarts += 1

    def restart(self) -> None:
        """Carry on with the reopened app, the old one gone."""
        self.flow.session.close()
        self.flow = self._open()

    def play(self, event: Event) -> None:
        """What people and the camera do for one event of a log."""
        if isinstance(event, HandStarted):
            self.press(ButtonName.OK)
            if event.dora is not None:
                self.see(DoraRevealed(event.dora))
        elif isinstance(event, CAMERA):
            self.see(event)
        elif isinstance(event, RiichiDeclared):
            self.press(ButtonName.RIICHI, event.seat)
        elif isinstance(event, Won):
            self.win(event)
        elif isinstance(event, ExhaustiveDraw):
            self.press(ButtonName.OK)
            shown = self.flow.screen().tenpai
            for seat in range(len(shown)):   # three seats with three players
                if shown[seat] != (seat in event.tenpai):
                    self.press(ButtonName.WIN, seat)
            self.press(ButtonName.OK)
        else:
            raise AssertionError(f"no presses for {event}")

    def win(self, event: Won) -> None:
        self.camera.truth = event
        tsumo = event.from_seat is None
        for winner in event.winners:
            self.press(ButtonName.WIN, winner.seat, long=tsumo)
        self.wait(0.0 if tsumo else WIN_WINDOW + 0.1)
        assert self.flow.screen().preview is not None
        self.press(ButtonName.OK)


@pytest.mark.parametrize("hands", [
    1, pytest.param(None, marks=pytest.mark.slow, id="whole-game")])
def test_a_restart_at_every_input_of_a_fixture_game_shows_the_same_screen(tmp_path, hands):
    game = import_file(GAME)
    table = Table(tmp_path, game.rules, game.start.names, game.start.first_dealer)
    for hand in game.hands[:hands]:
        for event in hand.events:
            table.play(event)
        assert table.flow.session.state.result.deltas == hand.deltas
    assert table.restarts > 150


def test_a_restart_keeps_a_riichi_waiting_for_its_discard(tmp_path):
    table = Table(tmp_path)
    table.press(ButtonName.OK)
    table.see(Draw(0))
    table.see(Discard(0, Tile.from_code("1z")))
    table.press(ButtonName.RIICHI, 2)              # before the camera has seat 1's turn
    assert "taken with its next discard" in table.flow.data.message
    table.restart()
    for seat, tile in ((1, "2z"), (2, "3z")):
        table.see(Draw(seat))
        table.see(Discard(seat, Tile.from_code(tile)))
    state = table.flow.session.state
    assert state.seats[2].riichi_declared and state.pending_riichi == 2


def test_a_restart_keeps_when_a_riichi_waiting_was_pressed(tmp_path):
    """UNDO takes back what came last: after a restart too, the turn the camera saw
    after the RIICHI press, then the press."""
    table = Table(tmp_path)
    table.press(ButtonName.OK)
    table.see(Draw(0))
    table.see(Discard(0, Tile.from_code("1z")))
    table.press(ButtonName.RIICHI, 2)
    table.see(Draw(1))
    table.restart()
    table.press(ButtonName.UNDO)
    assert table.flow.data.message == "took back the last action"
    assert table.flow.session.state.to_draw and table.flow.session.state.turn == 1
    table.restart()
    table.press(ButtonName.UNDO)
    assert table.flow.data.message == "riichi by West taken back"


def test_a_restart_keeps_a_call_waiting_for_its_meld(tmp_path):
    table = Table(tmp_path)
    table.press(ButtonName.OK)
    table.see(Draw(0))
    table.see(Discard(0, Tile.from_code("5z")))
    table.press(ButtonName.CALL, 2)                # the meld is not down yet
    table.camera.calls.clear()
    table.restart()
    assert table.camera.calls == [2]               # the camera waits for the meld again
    table.see(Call(2, "pon", tuple(parse_tiles("555z")), Tile.from_code("5z"), 0))
    table.camera.calls.clear()
    table.restart()
    assert table.camera.calls == []                # laid: nothing waits any more


def test_a_restart_keeps_a_win_s_tiles_being_put_right(tmp_path):
    hand = tuple(parse_tiles("234567m234p7899s6s"))
    table = Table(tmp_path)
    table.press(ButtonName.OK)
    for seat, tile in ((0, "1z"), (1, "2z"), (2, "6s")):
        table.see(Draw(seat))
        table.see(Discard(seat, Tile.from_code(tile)))
    table.camera.reads = {3: (Tile.from_code("3m"), *hand[1:-1], None)}  # 2m misread, ron unseen
    table.camera.truth = Won((WinnerHand(3, hand, hand[-1]),), 2)
    table.press(ButtonName.WIN, 3)
    table.wait(WIN_WINDOW + 0.1)
    assert table.flow.screen().preview is None
    table.press(ButtonName.CALL, 3)                # the tiles, to be put right
    table.press(ButtonName.CALL, 3, long=True)     # 3m back to 2m
    table.restart()
    assert table.flow.stage is Stage.FIX_TILES
    table.press(ButtonName.RIICHI, 3, long=True)   # back to the unseen winning tile
    for _ in range(ORDER.index(Tile.from_code("6s")) + 1):   # from empty: 1m, 2m, ... 6s
        table.press(ButtonName.CALL, 3)
    table.restart()
    table.press(ButtonName.OK)                     # scored from the tiles: shown, then OK
    table.restart()
    assert table.flow.stage is Stage.CONFIRM_WIN and table.flow.screen().preview is not None
    table.press(ButtonName.OK)
    assert table.flow.session.state.result.deltas == (0, 0, -1000, 1000)   # pinfu, 30 fu


def test_a_restart_keeps_the_tenpai_declarations_being_entered(tmp_path):
    table = Table(tmp_path)
    table.flow.session.submit(HandStarted(tracked=False))
    table.restart()
    table.press(ButtonName.OK)                     # no camera: OK opens the declarations
    table.press(ButtonName.WIN, 1)
    table.press(ButtonName.RIICHI, 3)
    table.restart()
    assert table.flow.screen().tenpai == (False, True, False, True)
    table.press(ButtonName.OK)
    assert table.flow.session.state.result.deltas == (-1500, 1500, -1500, 1500)
