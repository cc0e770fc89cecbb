"""Button flows end to end: gpiozero MockFactory pins -> ButtonBoard -> Flow -> engine."""

import queue
from dataclasses import replace

import pytest
from gpiozero.pins.mock import MockFactory

from tablekit.display import legend
from tablekit.display.legend import confirm_legend, strip_legend
from tablekit.flow import CATCH_UP_WAIT, SETTLE, CameraSide, Flow, Stage, abort_item
from tablekit.game.events import Discard, DoraRevealed, Draw, WinnerHand, Won
from tablekit.game.reducer import apply
from tablekit.game.session import Session
from tablekit.game.win_reading import WinReading
from tablekit.io.buttons import ButtonBoard
from tablekit.io.pinmap import load_pinmap
from tablekit.io.presses import ButtonName
from tablekit.rules.presets import TENHOU, with_options
from tablekit.tiles import Tile, parse_tiles

PINFU = "234567m234p67899s"
RON_ON_6S = "234567m234p7899s6s"   # the same hand as read at a win: the winning tile last
PINS = load_pinmap()


class FakeCamera:
    """The camera side faked whole (the flow's ``CameraSide``): it reads nothing and is
    behind while ``lagging``; what the flow asked of it is kept."""

    lagging = False

    def __init__(self) -> None:
        self.asked: list[tuple] = []
        self.calls: list[int] = []
        self.looked = 0

    def look_at_win(self):
        self.looked += 1

    def read_win(self, state, seats, from_seat):
        self.asked.append((seats, from_seat))
        return WinReading(())

    def behind(self, state):
        return self.lagging


    def expect_call(self, state, seat):
        self.calls.append(seat)


class FakeReader(FakeCamera):
    """The camera's reading of revealed hands, scripted per seat."""

    def __init__(self, hands: dict[int, str]) -> None:
        super().__init__()
        self.hands = hands

    def read_win(self, state, seats, from_seat):
        self.asked.append((seats, from_seat))
        tile = Tile.from_code("6s")
        return WinReading(tuple(WinnerHand(s, tuple(parse_tiles(self.hands[s])), tile)
                                for s in seats))


class Rig:
    """Mock pins, a fake clock, the board and the flow, wired like the app."""

    def __init__(self, tmp_path, reader=None, rules=TENHOU):
        self.now = 0.0
        self.presses: queue.Queue = queue.Queue()
        self.factory = MockFactory()
        self.board = ButtonBoard(self.presses, pin_factory=self.factory, clock=lambda: self.now)
        self.flow = Flow(Session.open(tmp_path / "game.jsonl"), reader=reader,
                         clock=lambda: self.now)
        self.flow.start_game(rules)

    def press(self, name: ButtonName, seat=None, hold=0.1):
        pin = self.factory.pin(PINS.pin_for(name, seat))
        pin.drive_low()
        self.advance(hold)
        pin.drive_high()
        self.advance(0.05)

    def advance(self, seconds: float):
        self.now += seconds
        self.board.poll()
        self.pump()

    def pump(self):
        while not self.presses.empty():
            self.flow.handle(self.presses.get_nowait())
        self.flow.tick()

    def camera(self, *events):
        for event in events:
            self.flow.handle(event)

    @property
    def state(self):
        return self.flow.session.state

    def close(self):
        self.board.close()
        self.flow.session.close()


@pytest.fixture
def rig(tmp_path):
    made = []

    def build(**kwargs):
        made.append(Rig(tmp_path, **kwargs))
        return made[-1]

    try:
        yield build
    finally:
        for item in made:
            item.close()


def play_to_seat_discarding(r: Rig, discarder: int, tile: str):
    """Camera events: draws and discards until ``discarder`` throws ``tile``."""
    fillers = iter(Tile(k) for k in range(33, 0, -1))
    while r.state.turn != discarder:
        seat = r.state.turn
        r.camera(Draw(seat), Discard(seat, next(fillers)))
    r.camera(Draw(discarder), Discard(discarder, Tile.from_code(tile)))


def play_until_wall(r: Rig, left: int):
    """Camera events: draws and discards (no fifth of a kind) until ``left`` tiles remain."""
    while r.state.wall > left:
        seat = r.state.turn
        r.camera(Draw(seat), Discard(seat, Tile(r.state.wall % 34)))


def test_a_ron_tile_read_otherwise_than_the_discard_corrects_the_discard_on_ok(rig):
    r = rig(reader=FakeReader({1: RON_ON_6S}))     # the winner's row shows 6s
    r.press(ButtonName.OK)
    play_to_seat_discarding(r, 0, "1z")            # the camera took the discard as 1z
    before = r.state.scores
    r.press(ButtonName.WIN, 1)
    r.advance(2.0)
    assert r.flow.stage is Stage.CONFIRM_WIN and r.flow.preview is not None
    assert r.state.scores == before                # nothing moved before OK
    r.press(ButtonName.OK)
    assert r.state.result.kind == "win"
    assert r.state.seats[0].pond[-1].tile == Tile.from_code("6s")


def test_riichi_refused_under_1000_points(rig):
    r = rig(reader=FakeReader({}), rules=with_options(TENHOU, start_points=900,
                                                      return_points=900))
    r.press(ButtonName.OK)
    assert r.flow.stage is Stage.PLAY
    r.camera(Draw(0))
    r.press(ButtonName.RIICHI, 0)
    assert "needs 1,000 points" in r.flow.data.message
    assert r.state.seats[0].riichi_declared is False


def test_riichi_refused_with_an_empty_wall(rig):
    r = rig(reader=FakeReader({}))
    r.press(ButtonName.OK)
    play_until_wall(r, 2)
    r.camera(Draw(r.state.turn))
    r.press(ButtonName.RIICHI, r.state.turn)
    assert "too few tiles" in r.flow.data.message


def test_a_win_is_shown_first_then_confirmed_then_undone(rig):
    reader = FakeReader({1: PINFU})
    r = rig(reader=reader)
    r.press(ButtonName.OK)
    play_to_seat_discarding(r, 0, "6s")
    before = r.state.scores
    r.press(ButtonName.WIN, 1)
    assert r.flow.stage is Stage.COLLECT_WINS
    r.advance(2.0)                                   # the WIN window closes
    assert r.flow.stage is Stage.CONFIRM_WIN and reader.asked == [((1,), 0)]
    assert reader.looked == 1  # each reading after a look at the win
    assert r.state.scores == before                  # nothing moved yet
    screen = r.flow.screen()
    assert screen.mode.value == "win confirm" and screen.preview.deltas[1] > 0
    r.press(ButtonName.OK)
    assert r.state.scores != before and r.state.result.kind == "win"
    r.press(ButtonName.UNDO)
    assert r.state.scores == before and r.flow.stage is Stage.PLAY


class UnsureReader(FakeCamera):
    """A camera that cannot make the revealed hands complete: only its best reads."""

    def __init__(self, drafts: dict[int, tuple]) -> None:
        super().__init__()
        self.drafts = drafts

    def read_win(self, state, seats, from_seat):
        return WinReading((), (), ("not a complete hand; check the tiles",),
                          tuple((s, self.drafts[s]) for s in seats))


class ChangingReader(FakeCamera):
    """A camera whose reading of seat 1's ron changes from one look to the next: each
    ``(hand, unseen)`` in turn, the last one kept."""

    def __init__(self, *looks: tuple[str, int]) -> None:
        super().__init__()
        self.looks = list(looks)

    def read_win(self, state, seats, from_seat):
        hand, unseen = self.looks.pop(0) if len(self.looks) > 1 else self.looks[0]
        tiles = tuple(parse_tiles(hand))
        return WinReading((WinnerHand(1, tiles, tiles[-1]),), unseen=unseen)


def test_a_reading_that_saw_less_of_the_hand_does_not_replace_the_proposal(rig):
    iipeikou = "223344m234p7899s6s"   # also ron on 6s, but worth more
    r = rig(reader=ChangingReader((RON_ON_6S, 0), (iipeikou, 2), (iipeikou, 2),
                                  (iipeikou, 0)))
    r.press(ButtonName.OK)
    play_to_seat_discarding(r, 0, "6s")
    r.press(ButtonName.WIN, 1)
    r.advance(1.6)                                     # the first look: the whole hand
    shown = r.flow.preview.deltas
    assert shown == ron_value(r, 1, RON_ON_6S, 0)
    r.advance(0.5)
    r.advance(0.5)                                     # two looks with an arm over it
    assert r.flow.preview.deltas == shown
    r.advance(0.5)                                     # the whole hand again, read otherwise
    assert r.flow.preview.deltas == ron_value(r, 1, iipeikou, 0) != shown


def test_a_hand_with_tiles_not_seen_waits_a_moment_for_a_clearer_view(rig):
    guess = "223344m234p7899s6s"   # what the search filled in where an arm hid two tiles
    r = rig(reader=ChangingReader((guess, 2), (guess, 2), (RON_ON_6S, 0)))
    r.press(ButtonName.OK)
    play_to_seat_discarding(r, 0, "6s")
    r.press(ButtonName.WIN, 1)
    r.advance(1.6)                                     # the WIN window closed: an arm over it
    assert r.flow.preview is None and "2 tile(s) not seen yet" in r.flow.data.message
    r.advance(0.5)
    assert r.flow.preview is None
    r.advance(0.5)                                     # the arm has gone
    assert r.flow.preview.deltas == ron_value(r, 1, RON_ON_6S, 0)

    r = rig(reader=ChangingReader((guess, 1)))         # the tile stays hidden: the best
    r.press(ButtonName.OK)                             # guess, once the wait is over
    play_to_seat_discarding(r, 0, "6s")
    r.press(ButtonName.WIN, 1)
    r.advance(1.6)
    assert r.flow.preview is None
    r.advance(SETTLE)
    assert r.flow.preview.deltas == ron_value(r, 1, guess, 0)


def ron_value(r: Rig, seat: int, hand: str, from_seat: int) -> tuple[int, ...]:
    """The score changes of ``seat``'s ron with ``hand``, scored on a copy of the state."""
    tiles = tuple(parse_tiles(hand))
    won = Won((WinnerHand(seat, tiles, tiles[-1]),), from_seat)
    return apply(r.state, won).result.deltas


def test_a_misread_win_is_put_right_with_the_buttons(rig):
    misread = (Tile.from_code("3m"), *parse_tiles(RON_ON_6S)[1:])   # the 2m read as 3m
    r = rig(reader=UnsureReader({1: misread}))
    r.press(ButtonName.OK)
    play_to_seat_discarding(r, 0, "6s")
    expected = ron_value(r, 1, RON_ON_6S, 0)
    r.press(ButtonName.WIN, 1)
    r.advance(2.0)
    assert r.flow.stage is Stage.CONFIRM_WIN and r.flow.preview is None
    assert "CALL: fix the tiles" in r.flow.data.message
    r.press(ButtonName.CALL, 1)
    screen = r.flow.screen()
    assert r.flow.stage is Stage.FIX_TILES and screen.mode.value == "fix tiles"
    assert screen.fix.hands[0][1][0] == Tile.from_code("3m") and screen.fix.cursor == 0
    r.press(ButtonName.CALL, 2, hold=1.3)            # held: the kind before, 3m -> 2m
    r.advance(2.0)
    assert r.flow.stage is Stage.FIX_TILES           # no reading overrules the fix
    r.press(ButtonName.OK)
    assert r.flow.stage is Stage.CONFIRM_WIN
    assert r.flow.preview.deltas == expected and "by hand" in r.flow.preview.doubts[0]
    r.advance(2.0)                                   # rereads keep the fixed hand
    r.press(ButtonName.OK)
    assert r.state.result.deltas == expected


def test_an_unseen_tile_is_set_and_a_wrong_hand_refused(rig):
    unseen = (*parse_tiles(RON_ON_6S)[:3], None, *parse_tiles(RON_ON_6S)[4:])  # 5m not seen
    r = rig(reader=UnsureReader({1: unseen}))
    r.press(ButtonName.OK)
    play_to_seat_discarding(r, 0, "6s")
    r.press(ButtonName.WIN, 1)
    r.advance(2.0)
    r.press(ButtonName.CALL, 0)
    r.press(ButtonName.OK)
    assert r.flow.stage is Stage.FIX_TILES and "1 tile not set" in r.flow.data.message
    for _ in range(3):
        r.press(ButtonName.RIICHI, 3)                # to the unseen slot
    for _ in range(4):
        r.press(ButtonName.CALL, 3)                  # none -> 1m -> ... -> 4m
    r.press(ButtonName.OK)                           # 2344m...: not a winning hand
    assert r.flow.stage is Stage.FIX_TILES and r.flow.screen().fix.cursor == 3
    r.press(ButtonName.CALL, 3)                      # 5m
    r.press(ButtonName.OK)
    assert r.flow.stage is Stage.CONFIRM_WIN and r.flow.preview is not None
    r.press(ButtonName.CALL, 1)                      # open again from the fixed hand ...
    assert r.flow.screen().fix.hands[0][1][3] == Tile.from_code("5m")
    r.press(ButtonName.UNDO)                         # ... and back to the camera's reading
    assert r.flow.stage is Stage.CONFIRM_WIN and r.flow.preview is None


def test_a_ron_tile_put_right_corrects_the_discard_too(rig):
    draft = (*parse_tiles(RON_ON_6S)[:-1], Tile.from_code("7s"))   # the camera's discard
    r = rig(reader=UnsureReader({1: draft}))
    r.press(ButtonName.OK)
    play_to_seat_discarding(r, 0, "7s")                # the 6s thrown, read as 7s
    r.press(ButtonName.WIN, 1)
    r.advance(2.0)
    r.press(ButtonName.CALL, 1)
    r.press(ButtonName.RIICHI, 1, hold=1.3)            # held: back to the last slot
    r.press(ButtonName.CALL, 1, hold=1.3)              # 7s -> 6s
    r.press(ButtonName.OK)
    assert r.flow.stage is Stage.CONFIRM_WIN and r.flow.preview is not None
    assert r.state.seats[0].pond[-1].tile == Tile.from_code("7s")   # nothing applied yet
    r.press(ButtonName.OK)
    assert r.state.seats[0].pond[-1].tile == Tile.from_code("6s")
    assert r.state.result.deltas[1] > 0


def test_a_dora_indicator_put_right_by_hand_is_corrected_before_the_win(rig):
    r = rig(reader=FakeReader({1: RON_ON_6S}))
    r.press(ButtonName.OK)
    r.camera(DoraRevealed(Tile.from_code("7s")))      # an 8s turned, read as 7s
    play_to_seat_discarding(r, 0, "6s")
    r.press(ButtonName.WIN, 1)
    r.advance(2.0)
    assert r.flow.preview.deltas == (-2000, 2000, 0, 0)   # pinfu, one dora (8s)
    r.press(ButtonName.CALL, 1)
    assert r.flow.screen().fix.dora == (Tile.from_code("7s"),)
    r.press(ButtonName.RIICHI, 1, hold=1.3)            # held: back to the last slot
    r.press(ButtonName.CALL, 1)                        # 7s -> 8s
    r.press(ButtonName.OK)
    assert r.flow.preview.deltas == (-3900, 3900, 0, 0)   # dora 9s: the pair
    assert r.state.dora == (Tile.from_code("7s"),)        # nothing applied yet
    r.press(ButtonName.OK)
    assert r.state.dora == (Tile.from_code("8s"),)
    assert r.state.result.deltas == (-3900, 3900, 0, 0)


def test_held_call_enters_han_and_fu_for_a_win_the_camera_cannot_read(rig):
    r = rig(reader=UnsureReader({1: (None,) * 14}))
    r.press(ButtonName.OK)
    play_to_seat_discarding(r, 0, "6s")
    r.press(ButtonName.WIN, 1)
    r.advance(2.0)
    r.press(ButtonName.CALL, 1, hold=1.3)
    assert r.flow.stage is Stage.ENTER_VALUE
    r.press(ButtonName.RIICHI, 1)                      # 2 han 30 fu
    r.press(ButtonName.OK)
    r.advance(2.0)                                     # the camera does not overrule it
    assert r.flow.preview.deltas == (-2000, 2000, 0, 0)
    r.press(ButtonName.OK)
    assert r.state.result.deltas == (-2000, 2000, 0, 0)


def test_a_discard_the_camera_sees_after_the_win_press_is_the_one_won_on(rig):
    reader = FakeReader({2: PINFU})
    r = rig(reader=reader)
    r.press(ButtonName.OK)
    play_to_seat_discarding(r, 0, "1z")
    r.camera(Draw(1))
    r.press(ButtonName.WIN, 2)                       # before the camera has the discard
    r.camera(Discard(1, Tile.from_code("6s")))
    r.advance(2.0)
    assert r.flow.stage is Stage.CONFIRM_WIN and reader.asked == [((2,), 1)]


def test_a_tsumo_claimed_before_the_camera_has_the_turns_before_it(rig):
    reader = FakeReader({2: PINFU})
    r = rig(reader=reader)
    r.press(ButtonName.OK)
    play_to_seat_discarding(r, 0, "1z")              # seat 1 is to draw; the camera lags
    r.press(ButtonName.WIN, 2, hold=1.5)             # tsumo by seat 2
    assert r.flow.stage is Stage.CONFIRM_WIN and r.flow.preview is None
    r.camera(Draw(1), Discard(1, Tile.from_code("2z")))
    r.advance(1.0)
    assert r.flow.preview is not None and r.state.turn == 2
    r.press(ButtonName.OK)
    assert r.state.result.deltas[2] > 0 and sum(r.state.result.deltas) == 0


def test_a_tsumo_waits_for_a_turn_around_the_table_the_camera_shows_but_has_not_taken(rig):
    reader = FakeReader({3: PINFU})
    reader.lagging = True                            # behind(): the ponds show more
    r = rig(reader=reader)
    r.press(ButtonName.OK)
    play_to_seat_discarding(r, 2, "1z")              # seat 3's turn as the camera has it
    r.press(ButtonName.WIN, 3, hold=1.5)             # tsumo: but a whole turn was missed
    r.advance(1.0)
    assert r.flow.preview is None and "catching up" in r.flow.data.message
    r.camera(Draw(3), Discard(3, Tile.from_code("2z")))  # seat 3's own turn comes in too
    for seat, tile in ((0, "3z"), (1, "4z"), (2, "5z")):
        r.camera(Draw(seat), Discard(seat, Tile.from_code(tile)))
    reader.lagging = False
    r.advance(1.0)
    assert r.flow.preview is not None and r.state.turn == 3
    assert r.state.seats[3].pond[-1].tile == Tile.from_code("2z")


def test_a_tsumo_cancelled_journals_nothing_not_even_the_draw_it_implied(rig):
    r = rig(reader=FakeReader({2: PINFU}))
    r.press(ButtonName.OK)
    play_to_seat_discarding(r, 1, "1z")              # seat 2's draw is not seen
    before, history = r.state, len(r.flow.session.history)
    r.press(ButtonName.WIN, 2, hold=1.5)
    r.advance(1.0)
    assert r.flow.preview is not None and r.flow.preview.deltas[2] > 0
    r.press(ButtonName.UNDO)
    assert "win cancelled" in r.flow.data.message
    assert r.state == before and len(r.flow.session.history) == history
    r.press(ButtonName.WIN, 2, hold=1.5)             # claimed again: the draw goes with it
    r.advance(1.0)
    r.press(ButtonName.OK)
    assert r.state.result.deltas[2] > 0
    r.press(ButtonName.UNDO)
    assert r.state == before


def test_undo_of_a_tsumo_leaves_the_draw_the_camera_saw_before_it(rig):
    """The tsumo confirmed by OK is an action of its own: one UNDO brings back the table
    OK found (it used to take the camera's draw back too)."""
    r = rig(reader=FakeReader({2: PINFU}))
    r.press(ButtonName.OK)
    play_to_seat_discarding(r, 1, "1z")
    r.camera(Draw(2))
    drawn = r.state
    r.press(ButtonName.WIN, 2, hold=1.5)
    r.advance(1.0)
    r.press(ButtonName.OK)
    assert r.state.result.deltas[2] > 0
    r.press(ButtonName.UNDO)
    assert r.state == drawn


def test_camera_events_wait_while_the_menu_is_open(rig):
    reader = FakeReader({})
    r = rig(reader=reader)
    r.press(ButtonName.OK)
    r.press(ButtonName.UNDO, hold=1.5)               # the menu
    assert r.flow.stage is Stage.MENU
    assert not r.flow.takes(Draw(0))
    r.camera(Draw(0))
    assert r.state.to_draw                           # not taken: the camera gives it again


def test_the_flow_asks_the_camera_side_only_through_its_protocol(rig):
    reader = FakeReader({})
    assert isinstance(reader, CameraSide)
    r = rig(reader=reader)
    r.press(ButtonName.OK)
    r.camera(Draw(0), Discard(0, Tile.from_code("1z")))
    r.press(ButtonName.CALL, 2)                      # a call: the camera waits for the meld
    assert reader.calls == [2] and "lay the meld down" in r.flow.data.message
    r.press(ButtonName.CALL, 1, hold=1.5)            # held: point differences, no call
    assert reader.calls == [2] and r.flow.screen().differences_for == 1


def test_a_tsumo_goes_ahead_once_the_catch_up_wait_is_over_though_the_camera_lags(rig):
    reader = FakeReader({3: PINFU})
    reader.lagging = True
    r = rig(reader=reader)
    r.press(ButtonName.OK)
    play_to_seat_discarding(r, 2, "1z")
    r.press(ButtonName.WIN, 3, hold=1.5)
    r.advance(1.0)
    assert r.flow.preview is None and r.flow.waiting_for_score()
    r.advance(CATCH_UP_WAIT)                         # the camera never catches up
    assert r.flow.preview is not None and not r.flow.waiting_for_score()
    assert reader.asked[-1] == ((3,), None)


def test_undo_at_confirmation_cancels_the_win(rig):
    r = rig(reader=FakeReader({2: PINFU}))
    r.press(ButtonName.OK)
    play_to_seat_discarding(r, 1, "6s")
    r.press(ButtonName.WIN, 2)
    r.advance(2.0)
    r.press(ButtonName.UNDO)
    assert r.flow.stage is Stage.PLAY and "no points moved" in r.flow.data.message
    assert r.state.result is None


def test_double_ron_from_two_win_presses(rig):
    r = rig(reader=FakeReader({1: PINFU, 3: PINFU}))
    r.press(ButtonName.OK)
    play_to_seat_discarding(r, 0, "6s")
    r.press(ButtonName.WIN, 3)
    r.press(ButtonName.WIN, 1)
    r.press(ButtonName.WIN, 1)                       # pressed twice: still one claim
    r.advance(2.0)
    assert [w.seat for w in r.flow.preview.wins] == [1, 3]
    r.press(ButtonName.OK)
    deltas = r.state.result.deltas
    assert deltas[0] < 0 and deltas[1] > 0 and deltas[3] > 0 and sum(deltas) == 0


def test_exhaustive_draw_with_tenpai_declarations_without_a_camera(rig):
    r = rig()
    r.press(ButtonName.OK)                           # start the hand (kept from buttons)
    r.press(ButtonName.OK)                           # no camera: OK opens the declarations
    assert r.flow.stage is Stage.TENPAI
    r.press(ButtonName.WIN, 1)
    r.press(ButtonName.RIICHI, 2)
    r.press(ButtonName.OK)
    assert r.state.result.deltas == (-1500, 1500, 1500, -1500)
    assert r.flow.screen().mode.value == "hand result"


def test_a_draw_declared_while_the_camera_counts_a_few_tiles_left(rig):
    """The camera missed the last discards: OK still opens the declarations (the count
    shown, UNDO to go back) when it counts at most four tiles; with more it only says so."""
    r = rig(reader=FakeReader({}))
    r.press(ButtonName.OK)
    play_until_wall(r, 6)
    r.press(ButtonName.OK)
    assert r.flow.stage is Stage.PLAY and "counts 6 tiles" in r.flow.data.message
    play_until_wall(r, 4)
    r.press(ButtonName.OK)
    assert r.flow.stage is Stage.TENPAI and "still counts 4 tiles" in r.flow.data.message
    r.press(ButtonName.UNDO)
    assert r.flow.stage is Stage.PLAY and r.state.result is None
    r.press(ButtonName.OK)
    r.press(ButtonName.WIN, 2)
    r.press(ButtonName.OK)
    assert r.state.result.deltas == (-1000, -1000, 3000, -1000)


def test_a_win_entered_by_hand_without_a_camera(rig):
    r = rig()
    r.press(ButtonName.OK)
    r.press(ButtonName.RIICHI, 2)                    # stick at once without a camera
    assert r.state.sticks == 1
    r.press(ButtonName.WIN, 2)
    r.advance(2.0)
    assert r.flow.stage is Stage.CHOOSE_DISCARDER
    r.press(ButtonName.CALL, 0)                      # seat 0 dealt in
    assert r.flow.stage is Stage.ENTER_VALUE
    r.press(ButtonName.RIICHI, 2)                    # 2 han
    r.press(ButtonName.OK)                           # 2 han 30 fu = 2,000
    r.press(ButtonName.OK)
    assert r.state.result.deltas == (-2000, 0, 3000, 0)


def test_who_dealt_in_shows_only_the_buttons_that_work_then(rig):
    r = rig()
    r.press(ButtonName.OK)
    r.press(ButtonName.WIN, 2)
    r.advance(2.0)
    assert r.flow.stage is Stage.CHOOSE_DISCARDER
    shown = strip_legend(r.flow.screen())
    assert shown == legend.WHO_DEALT_IN and "riichi" not in shown and "draw" not in shown
    r.press(ButtonName.UNDO)                         # UNDO: cancel the win
    assert r.flow.stage is Stage.PLAY and strip_legend(r.flow.screen()) == legend.IN_PLAY
    r.press(ButtonName.WIN, 2)
    r.advance(2.0)
    r.press(ButtonName.RIICHI, 1)                    # any button of the seat that dealt in
    assert r.flow.stage is Stage.ENTER_VALUE and r.flow.win.discarder == 1


def test_bounce_on_every_button_gives_one_press(rig):
    r = rig()
    for (name, seat), pin_number in PINS.buttons.items():
        pin = r.factory.pin(pin_number)
        for _ in range(5):                           # 5 ms of contact bounce
            pin.drive_low()
            r.now += 0.001
            pin.drive_high()
            r.now += 0.001
        pin.drive_low()
        r.now += 0.2
        pin.drive_high()
        r.now += 0.05
        presses = []
        while not r.presses.empty():
            presses.append(r.presses.get_nowait())
        assert [(p.name, p.seat) for p in presses] == [(name, seat)], (name, seat, presses)


def test_held_undo_opens_the_menu_and_abortive_draw_from_it(rig):
    r = rig()
    r.press(ButtonName.OK)
    r.press(ButtonName.UNDO, hold=1.5)
    assert r.flow.stage is Stage.MENU
    items = r.flow.screen().menu.items               # the labels, as the screen shows them
    target = items.index("Abortive draw: nine terminals")
    assert r.flow.data.place.items[target] == abort_item("nine_terminals")
    for _ in range(target):
        r.press(ButtonName.UNDO)
    r.press(ButtonName.OK)
    assert r.state.result.kind == "abortive_draw"


def test_each_winner_of_a_double_ron_enters_their_own_value(rig):
    r = rig()
    r.press(ButtonName.OK)
    r.press(ButtonName.WIN, 1)
    r.press(ButtonName.WIN, 2)
    r.advance(2.0)
    r.press(ButtonName.CALL, 0)                      # seat 0 dealt in
    assert r.flow.stage is Stage.ENTER_VALUE
    assert confirm_legend(r.flow.screen().preview).startswith("Each winner's RIICHI")
    r.press(ButtonName.RIICHI, 2)
    r.press(ButtonName.RIICHI, 2)                    # seat 2: 3 han 30 fu = 3,900
    r.press(ButtonName.RIICHI, 1)                    # seat 1: 2 han 30 fu = 2,000
    r.press(ButtonName.OK)
    r.press(ButtonName.OK)
    assert r.state.result.deltas == (-5900, 2000, 3900, 0)


def without_message(screen):
    return replace(screen, message="")


def test_one_undo_after_a_registered_discard_restores_the_screen_from_before_it(rig):
    r = rig(reader=FakeReader({}))
    r.press(ButtonName.OK)
    dealt = r.state
    r.camera(Draw(0), Discard(0, Tile.from_code("1z")))
    before = r.flow.screen()
    r.camera(Draw(1), Discard(1, Tile.from_code("2z")))   # the camera's draw and discard
    r.press(ButtonName.UNDO)
    assert without_message(r.flow.screen()) == without_message(before)
    assert r.flow.data.message == "took back the last action"
    r.press(ButtonName.UNDO, hold=1.5)                     # the menu's Redo puts both back
    r.press(ButtonName.UNDO)
    r.press(ButtonName.UNDO)
    r.press(ButtonName.OK)
    assert r.state.turn == 2 and r.state.seats[1].pond[-1].tile == Tile.from_code("2z")
    r.flow.session.close()                                 # reopened: the journal keeps
    r.flow = Flow(Session.open(r.flow.session.path), reader=r.flow.reader,  # the actions
                  clock=lambda: r.now)
    r.press(ButtonName.UNDO)
    r.press(ButtonName.UNDO)
    assert r.state == dealt


def test_a_riichi_with_its_draw_and_discard_is_one_action(rig):
    r = rig(reader=FakeReader({}))
    r.press(ButtonName.OK)
    r.press(ButtonName.RIICHI, 0)                          # on its turn: drawn, declared
    r.camera(Discard(0, Tile.from_code("1z")))
    assert r.state.seats[0].riichi_declared
    r.press(ButtonName.UNDO)
    assert r.state.turn == 0 and r.state.to_draw and not r.state.seats[0].riichi_declared


def test_undo_takes_back_a_riichi_still_waiting_for_its_discard_first(rig):
    r = rig(reader=FakeReader({}))
    r.press(ButtonName.OK)
    r.camera(Draw(0), Discard(0, Tile.from_code("1z")))
    r.press(ButtonName.RIICHI, 2)                          # waits for seat 2's discard
    r.press(ButtonName.UNDO)
    assert r.flow.data.message == "riichi by West taken back"
    assert r.state.seats[0].pond                           # the discard stays
    for seat, tile in ((1, "2z"), (2, "3z")):
        r.camera(Draw(seat), Discard(seat, Tile.from_code(tile)))
    assert not r.state.seats[2].riichi_declared


def test_undo_takes_back_a_riichi_declared_after_another_began_to_wait(rig):
    """UNDO takes back what came last: seat 1's riichi on its turn, not seat 3's RIICHI
    pressed before it (still waiting for its discard; it used to be taken back first)."""
    r = rig(reader=FakeReader({}))
    r.press(ButtonName.OK)
    r.camera(Draw(0), Discard(0, Tile.from_code("1z")))
    r.press(ButtonName.RIICHI, 3)                          # waits for seat 3's discard
    r.camera(Draw(1))
    before = r.state
    r.press(ButtonName.RIICHI, 1)                          # on its turn: declared
    r.press(ButtonName.UNDO)
    assert r.state == before and r.flow.data.message == "took back the last action"
    for seat, tile in ((1, "2z"), (2, "3z")):
        r.camera(Discard(seat, Tile.from_code(tile)), Draw(seat + 1))
    r.camera(Discard(3, Tile.from_code("4z")))
    assert r.state.seats[3].riichi_declared and not r.state.seats[1].riichi_declared


def test_undo_of_a_riichi_pressed_again_on_its_turn_leaves_the_first_press_waiting(rig):
    r = rig(reader=FakeReader({}))
    r.press(ButtonName.OK)
    r.camera(Draw(0), Discard(0, Tile.from_code("1z")))
    r.press(ButtonName.RIICHI, 2)                          # waits for seat 2's discard
    r.camera(Draw(1), Discard(1, Tile.from_code("2z")), Draw(2))
    before = r.state
    r.press(ButtonName.RIICHI, 2)                          # again, on its turn: declared
    assert r.state.seats[2].riichi_declared
    r.press(ButtonName.UNDO)
    assert r.state == before
    r.camera(Discard(2, Tile.from_code("3z")))            # the first press still stands
    assert r.state.seats[2].riichi_declared


def test_a_riichi_refused_journals_nothing_not_even_the_draw_it_implied(rig):
    r = rig(reader=FakeReader({}))
    r.press(ButtonName.OK)
    r.camera(Draw(0))
    r.press(ButtonName.RIICHI, 0)
    r.camera(Discard(0, Tile.from_code("1z")))
    for seat, tile in ((1, "2z"), (2, "3z"), (3, "4z")):
        r.camera(Draw(seat), Discard(seat, Tile.from_code(tile)))
    before, history = r.state, len(r.flow.session.history)
    r.press(ButtonName.RIICHI, 0)                          # its draw not seen yet
    assert "already in riichi" in r.flow.data.message
    assert r.state == before and len(r.flow.session.history) == history


def test_a_riichi_pressed_after_the_draw_is_one_action_with_its_discard(rig):
    r = rig(reader=FakeReader({}))
    r.press(ButtonName.OK)
    r.camera(Draw(0))
    drawn = r.state
    r.press(ButtonName.RIICHI, 0)
    r.camera(Discard(0, Tile.from_code("1z")))
    r.press(ButtonName.UNDO)
    assert r.state == drawn


def test_a_riichi_waiting_does_not_outlive_its_hand(rig):
    """A win confirmed while a RIICHI waits: UNDO takes the win back (it used to take
    back the waiting riichi), and the next hand's discard declares nothing."""
    r = rig(reader=FakeReader({1: PINFU}))
    r.press(ButtonName.OK)
    r.press(ButtonName.RIICHI, 3)                          # waits for seat 3's discard
    play_to_seat_discarding(r, 0, "6s")
    r.press(ButtonName.WIN, 1)
    r.advance(2.0)
    before = r.state
    r.press(ButtonName.OK)
    assert r.state.result.kind == "win"
    r.press(ButtonName.UNDO)
    assert r.state == before and r.flow.stage is Stage.PLAY
    r.press(ButtonName.WIN, 1)                             # the win again, then a new hand
    r.advance(2.0)
    r.press(ButtonName.OK)
    r.press(ButtonName.OK)
    assert r.state.result is None and r.state.hand_number == 1
    dealer = r.state.turn
    while r.state.turn != 3:
        r.camera(Draw(r.state.turn), Discard(r.state.turn, Tile.from_code("1z")))
    r.camera(Draw(3), Discard(3, Tile.from_code("2z")))
    assert dealer != 3 and not r.state.seats[3].riichi_declared


def test_a_win_and_its_corrections_are_taken_back_together(rig):
    r = rig(reader=FakeReader({1: RON_ON_6S}))     # the winner's row shows 6s
    r.press(ButtonName.OK)
    play_to_seat_discarding(r, 0, "1z")            # the camera took the discard as 1z
    before = r.flow.screen()
    r.press(ButtonName.WIN, 1)
    r.advance(2.0)
    r.press(ButtonName.OK)
    assert r.state.seats[0].pond[-1].tile == Tile.from_code("6s")
    r.press(ButtonName.UNDO)
    assert without_message(r.flow.screen()) == without_message(before)
    assert r.state.seats[0].pond[-1].tile == Tile.from_code("1z")
