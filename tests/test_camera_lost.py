"""A camera that cannot follow the hand (tiles it cannot read) never stops the game: a ron
asks who dealt in, a tsumo and a draw go ahead, a win the camera's record refuses is scored
from the tiles a person put right, and the screen says why in one line."""

import pytest
import test_flow
from test_flow import PINFU, RON_ON_6S, FakeReader, play_to_seat_discarding, play_until_wall

from tablekit.display.legend import SAY_DEALT_IN, confirm_legend
from tablekit.flow import CATCH_UP_WAIT, Stage
from tablekit.flow.camera_lost import LOST, LOST_SCORED
from tablekit.flow.proposal import CATCHING_UP
from tablekit.game.events import Discard, Draw, TrackingStopped
from tablekit.game.reducer import apply
from tablekit.io.presses import ButtonName
from tablekit.sim.geometry import POND_FIRST_ROW_Y, seat_to_table
from tablekit.tiles import Tile
from tablekit.tracking.faint_discards import FIRST_X
from tablekit.tracking.tracker import LAG_SECONDS, LAGGING, Tracker
from tablekit.vision.table_reading import SeenTile, TableReading

t = Tile.from_code
rig = test_flow.rig   # the fixture: a flow on a fake table, closed after the test


def test_a_ron_on_the_winners_own_discard_as_the_camera_has_it_asks_who_dealt_in(rig):
    """The camera fell so far behind that its last discard is the winner's own: the ron
    cannot be on it. The camera's record of the hand stops, the players say who dealt in,
    and the win is scored from the revealed tiles."""
    r = rig(reader=FakeReader({2: PINFU}))
    r.press(ButtonName.OK)
    play_to_seat_discarding(r, 2, "1z")
    r.press(ButtonName.WIN, 2)
    r.advance(2.0)
    assert r.flow.stage is Stage.CHOOSE_DISCARDER and not r.state.tracked
    assert r.flow.data.message == f"{LOST}: who dealt in?"
    r.press(ButtonName.RIICHI, 1)                    # South dealt in
    r.advance(1.0)
    assert r.flow.stage is Stage.CONFIRM_WIN and r.flow.preview is not None
    r.press(ButtonName.OK)
    deltas = r.state.result.deltas
    assert deltas[1] < 0 < deltas[2] and deltas[0] == deltas[3] == 0


def test_a_ron_while_the_camera_lags_behind_the_table_asks_who_dealt_in(rig):
    """The ponds show discards the camera has not taken: it has a few seconds to catch up
    (the discard won on may be among them), then the players say who dealt in."""
    reader = FakeReader({2: PINFU})
    r = rig(reader=reader)
    r.press(ButtonName.OK)
    play_to_seat_discarding(r, 0, "6s")
    reader.lagging = True                            # the ponds show discards not taken
    r.press(ButtonName.WIN, 2)
    r.advance(2.0)
    assert r.flow.stage is Stage.COLLECT_WINS and r.flow.data.message == CATCHING_UP
    r.advance(CATCH_UP_WAIT)
    assert r.flow.stage is Stage.CHOOSE_DISCARDER and reader.asked == []
    r.press(ButtonName.UNDO)                         # cancelled: the hand goes on
    assert r.flow.stage is Stage.PLAY and r.state.result is None


def test_a_ron_waits_for_the_discard_won_on_that_the_camera_has_not_taken_yet(rig):
    """West rons on East's 6s while the camera still shows East's and South's last
    discards untaken (kde-jade, 2026-12-07: a slow set's discards came 5 s late, and the
    players were asked who dealt in): they come in within the catch-up wait, and the win
    is on South's 6s, asked of nobody."""
    reader = FakeReader({2: PINFU})
    r = rig(reader=reader)
    r.press(ButtonName.OK)
    play_to_seat_discarding(r, 3, "1z")              # the camera has North's discard
    reader.lagging = True                            # East's and South's lie untaken
    r.press(ButtonName.WIN, 2)
    r.advance(2.0)
    assert r.flow.stage is Stage.COLLECT_WINS and r.flow.data.message == CATCHING_UP
    r.camera(Draw(0), Discard(0, t("1p")), Draw(1), Discard(1, t("6s")))
    reader.lagging = False
    r.advance(0.5)
    assert r.flow.stage is Stage.CONFIRM_WIN and r.state.tracked
    assert reader.asked[-1] == ((2,), 1)
    r.press(ButtonName.OK)
    deltas = r.state.result.deltas
    assert deltas[1] < 0 < deltas[2] and deltas[0] == deltas[3] == 0


def test_the_wall_end_while_the_camera_lags_opens_the_declarations(rig):
    """The camera counts 30 tiles left (it missed most discards): OK still ends the hand."""
    reader = FakeReader({})
    r = rig(reader=reader)
    r.press(ButtonName.OK)
    play_until_wall(r, 30)
    reader.lagging = True
    r.press(ButtonName.OK)
    assert r.flow.stage is Stage.TENPAI and "still counts 30 tiles" in r.flow.data.message
    r.press(ButtonName.WIN, 2)
    r.press(ButtonName.OK)
    assert r.state.result.deltas == (-1000, -1000, 3000, -1000)


def test_a_tsumo_the_camera_never_catches_up_with_is_scored_from_the_tiles(rig):
    """North's turn as the camera has it, West's tsumo on the table: once the catch-up
    wait is over the record stops and the revealed tiles score the tsumo."""
    r = rig(reader=FakeReader({2: PINFU}))
    r.press(ButtonName.OK)
    play_to_seat_discarding(r, 3, "1z")
    r.press(ButtonName.WIN, 2, hold=1.5)
    r.advance(1.0)
    assert r.flow.preview is None and r.state.tracked
    r.advance(CATCH_UP_WAIT)
    assert r.flow.preview is not None and not r.state.tracked
    r.press(ButtonName.OK)
    deltas = r.state.result.deltas
    assert deltas[2] > 0 and all(d < 0 for s, d in enumerate(deltas) if s != 2)


def test_a_ron_the_cameras_record_refuses_asks_who_dealt_in_then_scores_the_tiles(rig):
    """Four 6s were registered (misreads among them): the ron on a 6s would correct the
    discard into a fifth, which the record refuses. The camera's discarder is not trusted
    then: the record stops, the players say who dealt in, the tiles put right score it."""
    r = rig(reader=FakeReader({2: RON_ON_6S}))
    r.press(ButtonName.OK)
    for seat in range(4):
        r.camera(Draw(seat), Discard(seat, t("6s")))
    r.camera(Draw(0), Discard(0, t("9m")), Draw(1), Discard(1, t("1z")))
    r.press(ButtonName.WIN, 2)
    r.advance(2.0)
    assert r.flow.stage is Stage.CONFIRM_WIN and r.flow.preview is None
    r.press(ButtonName.CALL, 2)                      # fix the tiles: they are right
    assert r.flow.stage is Stage.FIX_TILES
    r.press(ButtonName.OK)
    assert r.flow.stage is Stage.CHOOSE_DISCARDER and not r.state.tracked
    assert r.flow.data.message == f"{LOST}: who dealt in?"
    r.press(ButtonName.CALL, 0)                      # East dealt in, not South
    assert r.flow.stage is Stage.CONFIRM_WIN and r.flow.preview is not None
    r.press(ButtonName.OK)
    deltas = r.state.result.deltas
    assert deltas[0] < 0 < deltas[2] and deltas[1] == deltas[3] == 0


def test_a_tsumo_the_cameras_record_refuses_is_scored_from_the_tiles_put_right(rig):
    """North's turn as the camera has it: West's tsumo, its tiles confirmed by a person
    before the catch-up wait is over, is scored from them, the screen saying so."""
    r = rig(reader=FakeReader({2: PINFU}))
    r.press(ButtonName.OK)
    play_to_seat_discarding(r, 3, "1z")
    r.press(ButtonName.WIN, 2, hold=1.5)
    r.advance(0.5)
    assert r.flow.preview is None
    r.press(ButtonName.CALL, 2)
    r.press(ButtonName.OK)
    assert r.flow.stage is Stage.CONFIRM_WIN and LOST_SCORED in r.flow.preview.doubts
    assert r.state.tracked                           # nothing moves before OK
    r.press(ButtonName.OK)
    assert r.state.result.deltas[2] > 0 and not r.state.tracked


def test_the_record_stops_once_in_a_hand_and_only_while_one_is_in_play():
    from engine_helpers import Table

    table = Table(dora="9s")
    table.deal()
    state = apply(table.state, TrackingStopped())
    assert not state.tracked and state.phase.value == "hand in play"
    with pytest.raises(Exception, match="kept from the buttons"):
        apply(state, TrackingStopped())


def pond_tile(seat: int, slot: int, code: str) -> SeenTile:
    xy = seat_to_table(seat, FIRST_X + 27.0 * slot, POND_FIRST_ROW_Y)
    return SeenTile(xy, 90.0 * seat, True, ((t(code), 0.9),))


def test_a_pond_ahead_of_the_state_for_long_makes_the_camera_lagging_and_says_so():
    """East's discard is never seen but West's pond shows one: the tracker cannot take it
    (not West's turn). After LAG_SECONDS the camera counts as behind, in one line."""
    from engine_helpers import Table

    table = Table(dora="9s")
    table.deal()
    holder = [table.state]
    tracker = Tracker()
    frames = int(LAG_SECONDS * 4) + 8
    for n in range(frames):
        assert tracker.update(TableReading((pond_tile(2, 0, "5p"),), (), n / 4), holder[0]) == []
        if n == 8:
            assert not tracker.lagging() and LAGGING not in tracker.warnings(holder[0])
    assert tracker.lagging() and tracker.behind(holder[0])
    assert tracker.warnings(holder[0])[0] == LAGGING


def test_a_hand_the_camera_takes_nothing_in_for_long_counts_as_behind():
    """East's first discard is never seen (no pond shows anything): after STALL_SECONDS
    the flow no longer waits for the camera (the wall's end goes by the buttons), without
    the lagging line (nothing was seen to be missed)."""
    from engine_helpers import Table

    from tablekit.tracking.tracker import STALL_SECONDS

    table = Table(dora="9s")
    table.deal()
    tracker = Tracker()
    for n in range(int(STALL_SECONDS * 4) + 4):
        tracker.update(TableReading((), (), n / 4), table.state)
        if n == 40:
            assert not tracker.behind(table.state)
    assert tracker.behind(table.state) and not tracker.lagging()
    assert tracker.warnings(table.state) == []


def test_a_hand_the_camera_stopped_following_is_refused_by_tenhou6_in_one_line():
    from tablekit.formats.tenhou6_write import BadTenhou6, to_tenhou6
    from tablekit.game.events import GameStarted, HandStarted

    events = [GameStarted(), HandStarted(dora=t("1m")), TrackingStopped()]
    with pytest.raises(BadTenhou6, match="East 1: the camera stopped following this hand"):
        to_tenhou6(events, [[list(range(13 * s, 13 * s + 13)) for s in range(4)]])


def camera_has_east_dealing_in(rig):
    """West's ron on a 6s the camera registered as East's discard: the preview's payer."""
    r = rig(reader=FakeReader({2: PINFU}))
    r.press(ButtonName.OK)
    play_to_seat_discarding(r, 0, "6s")
    r.press(ButtonName.WIN, 2)
    r.advance(2.0)
    assert r.flow.stage is Stage.CONFIRM_WIN and r.flow.preview is not None
    assert r.flow.win.discarder == 0
    assert SAY_DEALT_IN in confirm_legend(r.flow.preview)
    return r


def test_a_player_who_dealt_in_says_so_on_the_confirm_screen_and_pays(rig):
    """The camera misread who discarded: North's RIICHI says "I dealt in". The record of
    the hand stops, the win is scored again with North paying; one UNDO takes all back."""
    r = camera_has_east_dealing_in(rig)
    before = r.state.scores
    r.press(ButtonName.RIICHI, 3)                    # North: "no, I dealt in"
    assert r.flow.stage is Stage.CONFIRM_WIN and r.flow.preview is not None
    assert r.flow.data.message == "North dealt in: the camera's record of this hand stops"
    assert not r.state.tracked and r.flow.win.discarder == 3
    r.press(ButtonName.OK)
    deltas = r.state.result.deltas
    assert deltas[3] < 0 < deltas[2] and deltas[0] == deltas[1] == 0
    r.press(ButtonName.UNDO)                         # the win and the stop: one action
    assert r.state.result is None and r.state.tracked
    assert r.state.scores == before


def test_undo_after_i_dealt_in_cancels_the_win_and_the_record_goes_on(rig):
    r = camera_has_east_dealing_in(rig)
    r.press(ButtonName.RIICHI, 3)
    r.press(ButtonName.UNDO)
    assert r.flow.stage is Stage.PLAY and r.state.result is None and r.state.tracked
    assert r.flow.data.message.startswith("win cancelled")


def test_riichi_by_the_winner_or_the_cameras_discarder_changes_no_payer(rig):
    r = camera_has_east_dealing_in(rig)
    r.press(ButtonName.RIICHI, 2)                    # the winner
    r.press(ButtonName.RIICHI, 0)                    # already the payer
    assert r.state.tracked and r.flow.win.discarder == 0
    r.press(ButtonName.OK)
    deltas = r.state.result.deltas
    assert deltas[0] < 0 < deltas[2]
