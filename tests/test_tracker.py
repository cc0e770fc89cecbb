"""Frames to events: the tracker on the simulated table, and misreads at a win."""

import json

import numpy as np
import pytest
from conftest import DATA

from tablekit.cli import main
from tablekit.formats.tenhou import import_file
from tablekit.game.events import Won
from tablekit.game.reducer import replay
from tablekit.rules.hand import Meld
from tablekit.rules.reading import TileRead
from tablekit.tiles import Tile, to_mpsz
from tablekit.tracking.hand_reading import read_revealed
from tablekit.tracking.meld_events import own_kan
from tablekit.tracking.meld_reading import meld_group, new_reads, read_claimed, read_own_kan
from tablekit.tracking.stable_view import Snapshot
from tablekit.tracking.tracker import Tracker

GAME = DATA / "tenhou-python-bot-28.xml"


def show(tracker: Tracker, *frames: Snapshot) -> None:
    """The tracker's last frames are ``frames``, 4 a second."""
    tracker.view.history.clear()
    for i, frame in enumerate(frames):
        frame.at = i / 4
        tracker.view.add(frame)


def show_win(tracker: Tracker, *frames: Snapshot, keep: bool = False) -> None:
    """The tracker's last frames are ``frames`` (4 a second; ``keep``: after those it
    had, at their own times), its revealed hands' too (the rows a win is read from)."""
    if not keep:
        show(tracker, *frames)
    for frame in frames:
        if keep:
            tracker.view.add(frame)
        tracker.now = frame.at
        tracker.revealed.keep(frame.at, frame.hand_rows, frame.ura)


@pytest.mark.slow
def test_first_hand_of_a_real_game_end_to_end(capsys):
    """CI's short game: frames, tracker, MockFactory presses, confirmation, score."""
    assert main(["simulate", str(GAME), "--hands", "1", "--check", "--misread", "0.05"]) == 0
    summary = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert summary["hands"] == summary["hands_ok"] == 1
    assert summary["tiles_read"] == summary["tiles_ok"] > 30
    assert summary["frames"] > 100 and summary["ms_per_frame"] < 50


@pytest.mark.slow
def test_first_hand_through_the_vision_models(capsys):
    """The same hand with the rendered frames read by the ONNX models, not the truth."""
    assert main(["simulate", str(GAME), "--hands", "1", "--check", "--reader", "vision"]) == 0
    summary = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert summary["hands"] == summary["hands_ok"] == 1
    assert summary["tiles_ok"] >= 0.9 * summary["tiles_read"] > 25


def win_setting():
    """The table just before the fixture's first win, and that win's hand."""
    game = import_file(GAME)
    before = [event for hand in game.hands[:1] for event in hand.events]
    hand = game.hands[1]
    index = next(i for i, e in enumerate(hand.events) if isinstance(e, Won))
    state = replay([game.start, *before, *hand.events[:index]])
    return state, hand.events[index]


def test_every_injected_misread_at_a_win_is_caught_or_flagged():
    state, won = win_setting()
    winner = won.winners[0]
    truth = list(winner.hand)
    rng = np.random.default_rng(7)
    checked = 0
    for _ in range(200):
        reads = [TileRead.sure(t) for t in truth]
        for position in rng.choice(len(truth) - 1, size=rng.integers(1, 3), replace=False):
            right = truth[position]
            wrong = Tile((right.kind + int(rng.integers(1, 34))) % 34)
            confident = rng.random() < 0.5
            p = 0.97 if confident else float(rng.uniform(0.5, 0.75))
            candidates = ((wrong, p),) if confident else ((wrong, p), (right, 1 - p))
            reads[position] = TileRead(candidates)
        hand, doubts = read_revealed(state, winner.seat, reads, won.from_seat)
        caught = hand is not None and sorted(hand.hand) == sorted(truth)
        assert caught or doubts, [r.candidates for r in reads]
        checked += 1
    assert checked == 200


def reads(*options: str) -> list[TileRead]:
    """One read per argument: "3p" sure, or "8s:.6,2p:.3" ranked candidates."""
    out = []
    for option in options:
        parts = [part.split(":") for part in option.split(",")]
        out.append(TileRead(tuple((Tile.from_code(c), float(p[0]) if p else 1.0)
                                  for c, *p in parts)))
    return out


def test_claimed_melds_take_the_exact_discard():
    kind, tiles = read_claimed(reads("4s", "5s", "6s"), Tile.from_code("0s"))
    assert kind == "chi" and Tile.from_code("0s") in tiles
    assert read_claimed(reads("7z", "7z", "7z"), Tile.from_code("7z"))[0] == "pon"
    assert read_claimed(reads("5p", "5p", "5p", "5p"), Tile.from_code("5p"))[0] == "kan"


def test_a_misread_called_tile_still_makes_the_meld():
    """The sideways tile read as 8s, a neighbour unsure: the legal chi wins."""
    kind, tiles = read_claimed(reads("8s:.9", "3p:.5,3s:.4", "4p"), Tile.from_code("2p"))
    assert (kind, to_mpsz(tiles)) == ("chi", "234p")
    assert read_claimed(reads("8s:.9", "3p", "4p"), Tile.from_code("2p"), chi=False) is None
    assert read_claimed(reads("1m", "9s", "5z"), Tile.from_code("2p")) is None


def test_melds_are_the_tiles_together_at_the_right_end():
    row = [(-60.0, "standing"), (211.0, "6s"), (244.0, "4s"), (274.0, "0s"), (317.0, "6m")]
    assert [t for _, t in meld_group(row)] == ["6s", "4s", "0s", "6m"]
    pon = Meld.parse("pon:666m")
    assert len(new_reads(reads("6s", "4s", "0s", "6m", "8s:.6,6m:.3", "6m"), [pon])) == 3
    # a new white dragon pon left of a chi and a pon whose sideways 4z reads as 5p; the
    # dragons' faint 4z candidates must not stand for that misread tile
    melds = [Meld.parse("pon:444z"), Meld.parse("chi:678m")]
    row = reads("5z:.9,4z:.05", "5z:.9,4z:.05", "7m", "6m", "8m", "4z", "5p:.4,1z:.3", "4z")
    assert [r.best[0].code for r in new_reads(row, melds)] == ["5z", "5z"]


def test_own_kans():
    assert own_kan((), 1, Tile.from_code("3z"), added=False).kind == "ankan"
    pon = Meld.parse("pon:777s")
    added = own_kan((pon,), 1, Tile.from_code("7s"), added=True)
    assert added.kind == "shouminkan" and len(added.tiles) == 4
    assert read_own_kan(reads("3z:.6,2z:.3", "2z:.5,3z:.4"), []) == Tile.from_code("3z")
    assert read_own_kan(reads("1s:.6,7s:.35"), [pon.tiles[0].kind]) == Tile.from_code("7s")
    assert read_own_kan(reads("1s:.7,7s:.2"), [pon.tiles[0].kind]) is None
    assert read_own_kan(reads("1s"), [pon.tiles[0].kind]) is None


def test_a_meld_whose_sideways_tile_is_not_seen():
    """Two faces and the called discard: a chi or pon, never a closed kan."""
    assert read_claimed(reads("3s", "4s"), Tile.from_code("0s")) == (
        "chi", (Tile.from_code("3s"), Tile.from_code("4s"), Tile.from_code("0s")))
    assert read_claimed(reads("2s", "2s"), Tile.from_code("2s"))[0] == "pon"
    assert read_claimed(reads("9p", "9p"), Tile.from_code("2s")) is None


def test_a_revealed_hand_with_tiles_unseen_or_misread_still_reads():
    """Tiles an arm or the camera lost become any tile; a face misread beyond its
    candidates is let go: the complete hands the rules allow are offered, with doubts."""
    from collections import Counter

    from tablekit.rules.reading import rank_hands
    from tablekit.tiles import parse_tiles
    from tablekit.tracking.hand_reading import fit_count, widen

    truth = parse_tiles("234678m345p123s55z")
    seen = [TileRead.sure(t) for t in truth if t.code not in ("5p", "1s")]
    reads, doubts = fit_count(seen, 14, "West")
    assert len(reads) == 14 and doubts
    hands = [sorted(h.tiles) for h in rank_hands(reads, 0, Counter(), limit=20)]
    assert sorted(truth) in hands
    wrong = [TileRead.sure(t) for t in truth]
    wrong[9] = TileRead(((Tile.from_code("9s"), 0.7), (Tile.from_code("7s"), 0.2)))
    assert not rank_hands(wrong, 0, Counter())
    wrong[9] = widen(wrong[9])
    assert sorted(rank_hands(wrong, 0, Counter())[0].tiles) == sorted(truth)


def test_a_fifth_tile_corrects_the_discard_the_frames_supported_least():
    from engine_helpers import Table

    from tablekit.game.events import DiscardCorrected
    from tablekit.tracking.hand_reading import visible_counts

    table = Table(dora="9s")
    table.deal()
    for seat in range(4):
        table.turn(seat, "3m")
    state = table.state
    tracker = Tracker()
    strong = {Tile.from_code("3m"): 9.0, Tile.from_code("2m"): 1.0}
    weak = {Tile.from_code("3m"): 4.0, Tile.from_code("8m"): 6.0}
    tracker.votes.votes = [[dict(strong)], [dict(weak)], [dict(strong)], [dict(strong)]]
    counts = visible_counts(state, exclude_last_discard=False)
    share, fix = tracker.votes.weakest(state, Tile.from_code("3m").kind, counts)
    assert fix == DiscardCorrected(1, 0, Tile.from_code("8m")) and share == 0.4


def test_ura_indicators_are_voted_over_frames_and_a_hidden_one_is_doubted():
    from engine_helpers import Table

    from tablekit.game.events import Discard, Draw, RiichiDeclared
    from tablekit.sim.geometry import URA_Y
    from tablekit.vision.table_reading import SeenTile

    table = Table(dora="9s")
    table.deal()
    state = table(Draw(0), RiichiDeclared(0), Discard(0, Tile.from_code("1z")))
    table.turn(1)
    state = table.state
    assert state.seats[0].riichi

    def frame(*codes: str) -> Snapshot:
        ura = [SeenTile((-20.0 + 30 * i, URA_Y), 0.0, True, ((Tile.from_code(c), 0.9),))
               for i, c in enumerate(codes)]
        return Snapshot([[] for _ in range(4)], [[] for _ in range(4)], [], ura)

    tracker = Tracker()
    show_win(tracker, frame("4p"), frame("4p"), frame(), frame("5p"), frame("4p"))
    assert tracker.read_win(state, (0,), 1).ura == (Tile.from_code("4p"),)
    tracker = Tracker()   # a win no frame showed the ura indicator of
    show_win(tracker, frame(), frame(), frame(), frame())
    reading = tracker.read_win(state, (0,), 1)
    assert reading.ura == () and "ura dora: 1 indicator not seen" in reading.doubts
    assert reading.drafts == ((0, (*[None] * 13, state.last_discard[1])),)  # to fix by hand
    assert reading.unseen == 14

    def unsure(*candidates: tuple[str, float]) -> Snapshot:
        read = tuple((Tile.from_code(c), p) for c, p in candidates)
        return Snapshot([[] for _ in range(4)], [[] for _ in range(4)], [],
                        [SeenTile((-20.0, URA_Y), 0.0, True, read)])

    tracker = Tracker()
    show_win(tracker, *(unsure(("5p", 0.5), ("6p", 0.4)) for _ in range(4)))
    reading = tracker.read_win(state, (0,), 1)
    assert reading.ura == (Tile.from_code("5p"),)
    assert "ura dora: camera only 50% sure of the 5p" in reading.doubts


def test_an_ura_indicator_read_about_as_often_as_another_is_voted_over_the_whole_look():
    """The demo's second hand (seed 0, the fallback art): its ura indicator, an 8m, read
    frame by frame as below (p of 8m, p of 1m) from 0.75 s before the win was first looked
    at; the win screen read then was the last four frames' vote, which leaned to 1m, and
    a person had to put the ura right (``wins_put_right`` 1). Voted over the whole look it
    is the 8m at each read."""
    from engine_helpers import Table

    from tablekit.game.events import Discard, Draw, RiichiDeclared
    from tablekit.sim.geometry import URA_Y
    from tablekit.vision.table_reading import SeenTile

    table = Table(dora="9s")
    table.deal()
    state = table(Draw(0), RiichiDeclared(0), Discard(0, Tile.from_code("1z")))
    table.turn(1)
    state = table.state
    eight, one = Tile.from_code("8m"), Tile.from_code("1m")
    seen = [(0.485, 0.435), (0.485, 0.473), (0.426, 0.515), (0.512, 0.425), (0.701, 0.245),
            (0.643, 0.297), (0.564, 0.373), (0.604, 0.337), (0.546, 0.386), (0.636, 0.305),
            (0.438, 0.511), (0.553, 0.407), (0.441, 0.493), (0.38, 0.562)]
    tracker = Tracker()
    for i, (p8, p1) in enumerate(seen):
        candidates = tuple(sorted(((eight, p8), (one, p1)), key=lambda c: -c[1]))
        frame = Snapshot([[] for _ in range(4)], [[] for _ in range(4)], [],
                         [SeenTile((-20.0, URA_Y), 270.8, True, candidates)], at=i / 4)
        show_win(tracker, frame, keep=True)
        if i == 3:
            tracker.look_at_win()   # the flow looks at the win from the fourth frame on
        if i >= 3:
            assert tracker.read_win(state, (0,), 1).ura == (eight,), i


def test_a_dora_indicator_read_otherwise_at_the_win_is_a_doubt():
    from engine_helpers import Table

    from tablekit.game.events import Discard, Draw
    from tablekit.vision.table_reading import SeenTile

    table = Table(dora="9s")
    table.deal()
    state = table(Draw(0), Discard(0, Tile.from_code("1z")))

    def frame(code: str, p: float) -> Snapshot:
        seen = [SeenTile((0.0, 0.0), 0.0, True, ((Tile.from_code(code), p),))]
        return Snapshot([[] for _ in range(4)], [[] for _ in range(4)], seen, [])

    tracker = Tracker()
    show(tracker, *(frame("9s", 0.95) for _ in range(4)))
    assert not any("dora" in d for d in tracker.read_win(state, (1,), 0).doubts)
    show(tracker, *(frame("8s", 0.6) for _ in range(4)))  # unsure: no doubt about the indicator
    assert not any("dora" in d for d in tracker.read_win(state, (1,), 0).doubts)
    show(tracker, *(frame("8s", 0.95) for _ in range(4)))
    doubts = tracker.read_win(state, (1,), 0).doubts
    assert "dora indicator: reads as 8s now, 9s when it was registered" in doubts


def test_a_dora_indicator_many_frames_read_otherwise_is_corrected():
    from engine_helpers import Table

    from tablekit.game.events import DoraCorrected
    from tablekit.tracking.dora_watch import DoraWatch
    from tablekit.tracking.pond_votes import CORRECTION_SECONDS
    from tablekit.vision.table_reading import SeenTile

    table = Table(dora="9s")
    table.deal()
    state = table.turn(0, "1z")

    def frame(code: str, p: float) -> list[SeenTile]:
        return [SeenTile((0.0, 0.0), 0.0, True, ((Tile.from_code(code), p),))]

    watch = DoraWatch()

    def show(shown: list[SeenTile], times: int) -> list:
        for _ in range(times):  # frames at 4 a second
            watch.learn(state, shown, 0.25)
        return watch.corrections(state)

    six = round(CORRECTION_SECONDS * 4)               # frames' worth of seconds
    assert show(frame("9s", 0.95), 4) == []
    assert show(frame("8s", 0.6), 9) == []            # unsure reads: no votes
    assert show(frame("8s", 0.95), six - 1) == []
    assert show(frame("8s", 0.95), 1) == []           # 6 frames, not yet twice the 4
    assert show(frame("8s", 0.95), 2) == [DoraCorrected(0, Tile.from_code("8s"))]
    fixed = table(DoraCorrected(0, Tile.from_code("8s")))
    watch.learn(fixed, None, 0.25)                    # the votes were for the old indicator
    assert watch.corrections(fixed) == []


def test_a_second_dora_indicator_needs_a_kan():
    from dataclasses import replace

    from engine_helpers import Table

    from tablekit.game.events import DoraRevealed
    from tablekit.sim.geometry import WALL_Y
    from tablekit.vision.table_reading import SeenTile

    table = Table(dora="9s")
    state = table.deal()
    shown = [SeenTile((-20.0 + 30 * i, WALL_Y), 0.0, True, ((Tile.from_code(c), 0.9),))
             for i, c in enumerate(("9s", "3m"))]
    frame = Snapshot([[] for _ in range(4)], [[] for _ in range(4)], shown, [])
    tracker = Tracker()
    show(tracker, frame, replace(frame))
    assert tracker._dora(state) == []
    assert tracker._dora(replace(state, kans=1)) == [DoraRevealed(Tile.from_code("3m"))]


@pytest.mark.slow
def test_a_win_the_camera_cannot_read_is_put_right_by_a_person_and_the_game_goes_on():
    """The revealed hand's tiles are hidden from the camera: the app cannot score the
    tsumo, the simulated person puts the tiles right with the buttons (through the pins),
    and it counts as fixed, not as read."""
    from dataclasses import replace

    from tablekit.sim.perfect_reading import PerfectReader
    from tablekit.sim.simulate import simulate_game

    def hiding_revealed_hands(frame, _faint):
        reading = PerfectReader().read(frame.truth, frame.timestamp)
        hidden = [t.table_xy for t in frame.truth.tiles
                  if t.zone == "hand" and t.face_up and t.role != "win"][:4]
        return replace(reading, tiles=tuple(
            t for t in reading.tiles
            if all(np.hypot(t.xy[0] - x, t.xy[1] - y) > 5 for x, y in hidden)))

    report = simulate_game(GAME, hiding_revealed_hands, max_hands=2, fps=2.0)
    assert (report.hands, report.hands_ok, report.hands_fixed) == (2, 1, 1)
    assert report.mismatches == ["hand 1 (E2-1): right once a person put the tiles right"]


def test_a_person_enters_han_and_fu_when_tiles_cannot_fix_the_hand():
    """A meld taken wrongly leaves the hand the wrong size: the person enters the value."""
    from types import SimpleNamespace

    from tablekit.display.model import Mode, ScreenModel
    from tablekit.flow.tile_fix import TileFix
    from tablekit.game.events import WinnerHand
    from tablekit.game.state import TableState
    from tablekit.rules.scoring import HandValue
    from tablekit.sim.person import put_right
    from tablekit.tiles import parse_tiles

    fix = TileFix.start([(1, (None,) * 11)], []).view()
    flow = SimpleNamespace(screen=lambda: ScreenModel(TableState.new(), Mode.FIX_TILES, fix=fix))
    hand = tuple(parse_tiles("234567m234p7899s6s"))
    truth = Won((WinnerHand(1, hand, hand[-1]),), 0)
    value = HandValue(2, 30, (), (), "", 0, 0, False, False)
    presses = [(p.name.value, p.long) for p in put_right(flow, truth, 1, {1: value})]
    assert presses == [("call", False), ("undo", False), ("call", True), ("riichi", False),
                       ("ok", False)]


def test_the_tracker_says_when_the_ponds_show_discards_the_state_has_not_taken():
    from engine_helpers import Table

    from tablekit.vision.table_reading import SeenTile

    table = Table(dora="9s")
    table.deal()
    state = table.state
    one = SeenTile((0.0, -150.0), 0.0, True, ((Tile.from_code("1z"), 0.9),))

    def frame(*pond):
        return Snapshot([list(pond), [], [], []], [[] for _ in range(4)], [], [])

    tracker = Tracker()
    show(tracker, frame(), frame())
    assert not tracker.behind(state)
    show(tracker, frame(one), frame(one))
    assert tracker.behind(state)


def test_a_discard_seen_only_faintly_is_taken_once_the_next_seat_has_discarded():
    from engine_helpers import Table

    from tablekit.game.events import Discard
    from tablekit.game.reducer import apply
    from tablekit.sim.geometry import POND_FIRST_ROW_Y, seat_to_table
    from tablekit.tracking.faint_discards import FIRST_X
    from tablekit.vision.table_reading import SeenTile, TableReading

    table = Table(dora="9s")
    table.deal()
    state = [table.state]
    tracker = Tracker()

    def tile(seat: int, slot: int, code: str) -> SeenTile:
        xy = seat_to_table(seat, FIRST_X + 27.0 * slot, POND_FIRST_ROW_Y)
        return SeenTile(xy, 90.0 * seat, True, ((Tile.from_code(code), 0.9),))

    white = tile(0, 0, "5z")  # seat 0's discard: the detector barely sees it
    taken = []
    for time, later in enumerate([()] * 3 + [(tile(1, 0, "1m"),)] * 5):
        for event in tracker.update(TableReading(later, (), float(time), faint=(white,)), state[0]):
            state[0] = apply(state[0], event)
            taken.append(event)
        if time == 2:
            assert taken == []  # no sign yet that a discard must be there
            assert not tracker.wants_faint(state[0])  # so the frames need not read faint peaks
        if time == 4:
            assert tracker.wants_faint(state[0])  # seat 1 has discarded: seat 0's must lie there
    assert [e for e in taken if isinstance(e, Discard)] == [
        Discard(0, Tile.from_code("5z")), Discard(1, Tile.from_code("1m"))]
    drawn = tile(0, 1, "9p")  # seat 0's next discard: its white dragon still counts
    for time in range(8, 10):
        events = tracker.update(TableReading((tile(1, 0, "1m"), drawn), (), float(time),
                                             faint=(white,)), state[0])
        for event in events:
            state[0] = apply(state[0], event)
    assert state[0].seats[0].pond[-1].tile == Tile.from_code("5z")
    assert tracker.wants_faint(state[0])  # the white dragon's place stays read for the hand

    refused = Tracker()  # the same frames, every event refused
    for time, later in enumerate([()] * 3 + [(tile(1, 0, "1m"),)] * 5):
        refused.update(TableReading(later, (), float(time), faint=(white,)), table.state)
    assert refused.discards.faint_taken is not None and not refused.discards.faint_spots


def test_a_call_whose_meld_is_never_seen_is_shown_until_the_meld_appears():
    """After CALL the caller's meld is awaited; once the tracker's patience runs out it goes
    on in turn order and says so on the screen, until the meld shows or CALL is pressed."""
    from engine_helpers import Table

    from tablekit.game.events import Call
    from tablekit.tracking.calls import CALL_PATIENCE
    from tablekit.vision.table_reading import TableReading

    table = Table(dora="9s")
    table.deal()
    state = [table.state]
    tracker = Tracker()
    clock = iter(range(1000, 10_000))  # frames at 4 a second, from 250 s on

    def frame() -> None:
        tracker.update(TableReading((), (), next(clock) / 4), state[0])

    frame()
    tracker.expect_call(state[0], 2)
    for _ in range(int(CALL_PATIENCE * 4)):  # patience is seconds, whatever the frame rate
        frame()
        assert tracker.warnings(state[0]) == []
    frame()
    assert tracker.warnings(state[0]) == [
        "West called but no meld is seen: lay it face up by the hand, or UNDO"]
    tracker.expect_call(state[0], 2)  # pressed again: waiting for the meld once more
    assert tracker.warnings(state[0]) == [] and tracker.calls.holds_back(2)
    slow = Tracker()  # a camera at 2 frames a second waits as long
    slow.update(TableReading((), (), 0.0), state[0])
    slow.expect_call(state[0], 2)
    for time in range(1, int(CALL_PATIENCE * 2) + 1):
        slow.update(TableReading((), (), time / 2), state[0])
    assert slow.warnings(state[0]) == []
    slow.update(TableReading((), (), CALL_PATIENCE + 0.5), state[0])
    assert slow.warnings(state[0])
    for _ in range(int(CALL_PATIENCE * 4) + 1):
        frame()
    assert tracker.warnings(state[0])
    table.turn(0, "7z")
    dragon = Tile.from_code("7z")
    state[0] = table(Call(2, "pon", (dragon,) * 3, dragon, 0))  # the meld shows up after all
    frame()
    assert tracker.warnings(state[0]) == []


def test_a_ron_tile_the_winner_shows_as_another_tile_than_the_discard_registered():
    """The discard was misread (1z): the winner's row shows 6s, which completes the hand:
    that is taken, with a doubt, however unsure the row's read; where the discard also
    completes a hand, an unsure row read leaves the discard."""
    from dataclasses import replace

    from tablekit.game.state import TableState
    from tablekit.tiles import parse_tiles

    state = replace(TableState.new(), last_discard=(0, Tile.from_code("1z")))
    reads = [TileRead.sure(t) for t in parse_tiles("234567m234p7899s6s")]
    hand, doubts = read_revealed(state, 1, reads, 0)
    assert hand is not None and hand.win_tile == Tile.from_code("6s")
    assert any("reads as 6s in the hand" in d for d in doubts)
    reads[-1] = TileRead(((Tile.from_code("6s"), 0.6), (Tile.from_code("1z"), 0.3)))
    hand, doubts = read_revealed(state, 1, reads, 0)
    assert hand is not None and hand.win_tile == Tile.from_code("6s")
    assert any("reads as 6s in the hand (camera 60% sure)" in d for d in doubts)
    assert not any("camera only" in d for d in doubts)
    nobetan = replace(state, last_discard=(0, Tile.from_code("5s")))   # waits 5s and 8s
    reads = [TileRead.sure(t) for t in parse_tiles("234567m234p5678s")]
    reads.append(TileRead(((Tile.from_code("8s"), 0.6), (Tile.from_code("5s"), 0.3))))
    hand, doubts = read_revealed(nobetan, 1, reads, 0)
    assert hand is not None and hand.win_tile == Tile.from_code("5s")


def test_a_revealed_row_is_voted_by_where_its_tiles_lie():
    """Frames that miss a tile (a finger over it, a weak peak) do not shift the others:
    the row is voted by place, the tile taken from the frames that saw it; the melds at
    the row's far end are the ones the state holds, however their reads flicker."""
    from dataclasses import replace

    from tablekit.game.state import TableState
    from tablekit.tiles import parse_tiles
    from tablekit.vision.table_reading import SeenTile

    new = TableState.new()
    seats = list(new.seats)
    seats[1] = replace(seats[1], melds=(Meld.parse("pon:777z"),))
    state = replace(new, seats=tuple(seats), last_discard=(0, Tile.from_code("9s")))
    hand = parse_tiles("234567m234p99s")
    places = [-256.0 + 27 * i for i in range(10)] + [23.0]
    meld = [(302.0 + 31 * i, Tile.from_code("7z")) for i in range(3)]

    def frame(skip: set[int], meld_seen: int) -> Snapshot:
        row = [(x, SeenTile((x, 0.0), 0.0, True, ((t, 0.95),)))
               for i, (x, t) in enumerate(zip(places, hand, strict=True)) if i not in skip]
        row += [(x, SeenTile((x, 0.0), 0.0, True, ((t, 0.9),))) for x, t in meld[:meld_seen]]
        rows = [None, row, None, None]
        return Snapshot([[] for _ in range(4)], rows, [], [])

    tracker = Tracker()
    for skip, seen in (({4}, 3), ({4, 7}, 2), (set(), 1), ({7}, 3), ({4}, 2)):
        tracker.revealed.rows.append((0.0, frame(skip, seen).hand_rows))
    reading = tracker.read_win(state, (1,), 0)
    assert [to_mpsz(w.hand) for w in reading.winners] == ["234567m234p99s"]
    assert reading.unseen == 0


def test_faces_read_in_a_hand_rows_gaps_count_only_while_a_win_is_read():
    """During play a gap look could name a meld's tile twice; at a win it finds the tile
    the detector merged into its neighbour."""
    from tablekit.game.state import TableState
    from tablekit.sim.geometry import HAND_Y, seat_to_table
    from tablekit.vision.table_reading import SeenTile, TableReading

    def tile(x: float, code: str) -> SeenTile:
        return SeenTile(seat_to_table(1, x, HAND_Y), 90.0, True, ((Tile.from_code(code), 0.9),))

    reading = TableReading((tile(-257, "5s"), tile(-203, "6s")), gaps=(tile(-230, "0s"),))
    tracker = Tracker()
    tracker.update(reading, TableState.new())
    assert [t.best.code for _, t in tracker.revealed.rows[-1][1][1]] == ["5s", "6s"]
    tracker.look_at_win()
    tracker.update(reading, TableState.new())
    assert [t.best.code for _, t in tracker.revealed.rows[-1][1][1]] == ["5s", "0s", "6s"]


def test_a_face_found_off_its_place_gives_way_at_a_win_to_the_read_at_its_place():
    """fluffystuff-black's 14 px faces (the 20-game check's game 9): the detector put a 5s's
    box 11 mm off, half on its 0s neighbour, and it read 4s; the read at its place is 5s."""
    from tablekit.game.state import TableState
    from tablekit.sim.geometry import HAND_Y, seat_to_table
    from tablekit.vision.table_reading import SeenTile, TableReading

    def tile(x: float, code: str, p: float = 0.9) -> SeenTile:
        return SeenTile(seat_to_table(1, x, HAND_Y), 90.0, True, ((Tile.from_code(code), p),))

    off = tile(-165, "4s", 0.66)
    reading = TableReading((tile(-257, "3s"), tile(-230, "4s"), off, tile(-149, "0s")),
                           gaps=(tile(-176, "5s"),), moved=(off,))
    tracker = Tracker()
    tracker.update(reading, TableState.new())
    assert [t.best.code for _, t in tracker.revealed.rows[-1][1][1]] == ["3s", "4s", "4s", "0s"]
    tracker.look_at_win()
    tracker.update(reading, TableState.new())
    assert [t.best.code for _, t in tracker.revealed.rows[-1][1][1]] == ["3s", "4s", "5s", "0s"]


def test_a_tile_not_seen_is_one_doubt_not_a_read_at_three_percent():
    from tablekit.game.state import TableState
    from tablekit.tiles import parse_tiles

    reads = [TileRead.sure(t) for t in parse_tiles("234567m234p7899s")]  # a tile missed
    hand, doubts = read_revealed(TableState.new(), 1, reads, None)
    assert hand is not None and doubts[0] == "South: 1 tile of the hand not seen"
    assert not any("sure of the" in d or "taken as" in d for d in doubts)


def test_a_revealed_hand_is_read_from_the_frames_since_the_win_was_first_read():
    """Before the WIN the row shows the standing hand, whose tops can read as faces:
    those frames do not vote (here they would outvote the revealed tiles)."""
    from dataclasses import replace

    from tablekit.game.state import TableState
    from tablekit.sim.geometry import HAND_Y, seat_to_table
    from tablekit.tiles import parse_tiles
    from tablekit.vision.table_reading import SeenTile, TableReading

    def row(codes: str, *xs: float) -> tuple[SeenTile, ...]:
        return tuple(SeenTile(seat_to_table(1, x, HAND_Y), 90.0, True, ((t, 0.9),))
                     for x, t in zip(xs, parse_tiles(codes), strict=True))

    new = TableState.new()
    seats = list(new.seats)
    seats[1] = replace(seats[1], melds=tuple(Meld.parse(f"pon:{m}") for m in ("555z", "777z",
                                                                              "999s")))
    state = replace(new, seats=tuple(seats))
    melds = row("555777z999s", *(98 + 33.5 * i for i in range(9)))
    standing = TableReading((*row("576s", -100, -73, -46), *melds))  # tops misread
    revealed = TableReading((*row("33m99p9p", -262, -235, -208, -181, -145), *melds), (), 2.0)
    tracker = Tracker()
    for frame in range(8):
        tracker.update(replace(standing, timestamp=frame / 4), state)
    tracker.update(revealed, state)
    tracker.look_at_win()
    reading = tracker.read_win(state, (1,), None)
    assert [to_mpsz(w.hand) for w in reading.winners] == ["33m999p"]


def test_a_pon_of_a_discard_the_camera_never_saw():
    """Seat 1's white dragon lay in its pond too briefly (or too dark) to be read, and
    seat 3 called it: the meld's faces say what was discarded; the draw, the discard and
    the pon are given together."""
    from engine_helpers import Table

    from tablekit.game.events import Call, Discard, Draw
    from tablekit.game.reducer import apply
    from tablekit.sim.geometry import HAND_Y, POND_FIRST_ROW_Y, seat_to_table
    from tablekit.tracking.faint_discards import FIRST_X
    from tablekit.vision.table_reading import SeenTile, TableReading

    table = Table(dora="9s")
    table.deal()
    table.turn(0, "1m")
    state = [table.state]
    tracker = Tracker()
    tracker.expect_call(state[0], 3)
    white = ((Tile.from_code("5z"), 0.6), (Tile.from_code("7s"), 0.2))
    faces = tuple(SeenTile(seat_to_table(3, x, HAND_Y), 270.0, True, white)
                  for x in (300.0, 327.0))
    pond = SeenTile(seat_to_table(0, FIRST_X, POND_FIRST_ROW_Y), 0.0, True,
                    ((Tile.from_code("1m"), 0.95),))   # East's 1m still lies in its pond
    taken = []
    for time in range(3):
        for event in tracker.update(TableReading((*faces, pond), (), float(time)), state[0]):
            state[0] = apply(state[0], event)
            taken.append(event)
    dragon = Tile.from_code("5z")
    assert taken == [Draw(1), Discard(1, dragon), Call(3, "pon", (dragon,) * 3, dragon, 1)]
    assert state[0].turn == 3 and not state[0].to_draw


def test_a_winning_tile_glimpsed_in_two_frames_of_eight_gives_way_to_the_rules():
    """A dealer's tsumo: 33m99p and the 9p set apart, which two of eight frames read as 8p
    (sure) and the others missed. The faint candidates of the sure 9p reads must not make
    the hand (33m576s once did, with no doubt): the glimpsed tile is the one let go, and
    a read overruled is a doubt."""
    from dataclasses import replace

    from tablekit.game.state import TableState
    from tablekit.vision.table_reading import SeenTile

    new = TableState.new()
    seats = list(new.seats)
    seats[3] = replace(seats[3], melds=tuple(
        Meld.parse(m) for m in ("pon:999s", "pon:777z", "pon:555z")))
    state = replace(new, seats=tuple(seats))

    def seen(code: str, *faint: str) -> SeenTile:
        rest = tuple((Tile.from_code(c), 0.001) for c in faint)
        return SeenTile((0.0, 0.0), 0.0, True, ((Tile.from_code(code), 0.997), *rest))

    hand = [(-262.0, seen("3m")), (-233.0, seen("3m")), (-205.0, seen("9p", "5s")),
            (-178.0, seen("9p", "7s"))]
    codes = ["5z"] * 3 + ["7z"] * 3 + ["9s"] * 3
    melds = [(98.0 + 31 * i, seen(code)) for i, code in enumerate(codes)]
    tracker = Tracker()
    for frame in range(8):
        row = [*hand, *([(-142.0, seen("8p", "6s"))] if frame in (2, 5) else []), *melds]
        tracker.revealed.rows.append((frame / 4, Snapshot(
            [[] for _ in range(4)], [None, None, None, row], [], []).hand_rows))
    reading = tracker.read_win(state, (3,), None)
    assert [to_mpsz(w.hand) for w in reading.winners] == ["33m999p"]
    assert any("8p" in doubt for doubt in reading.doubts)


def test_windows_and_evidence_are_seconds_whatever_the_frame_rate():
    """A zone is steady after STABLE_SECONDS, a faint read after FAINT_SECONDS, and a
    discard is corrected after CORRECTION_SECONDS of reads, at any frame rate (at 4 frames
    a second: 2, 3 and 6 frames, as when they were counted in frames)."""
    from engine_helpers import Table

    from tablekit.game.events import DiscardCorrected
    from tablekit.tracking.faint_discards import FAINT_SECONDS
    from tablekit.tracking.pond_votes import PondVotes
    from tablekit.tracking.stable_view import STABLE_SECONDS, StableView
    from tablekit.vision.table_reading import SeenTile

    empty = [[] for _ in range(4)]
    for fps, steady, faint, period in ((4, 2, 3, 0.25), (8, 3, 5, 0.125), (2, 2, 2, 0.5)):
        view = StableView()
        for i in range(12):
            view.add(Snapshot(empty, empty, [], [], at=100 + i / fps))
        assert len(view.covering(STABLE_SECONDS)) == steady
        assert len(view.covering(FAINT_SECONDS)) == faint
        assert view.period() == period

    table = Table(dora="9s")
    table.deal()
    table.turn(0, "3m")
    state = table.turn(1, "4m")
    misread = [SeenTile((0.0, 0.0), 0.0, True, ((Tile.from_code("8m"), 1.0),))]
    for fps, frames in ((4, 6), (2, 3)):
        votes = PondVotes()
        for _ in range(frames - 1):
            votes.learn(state, [misread, None, None, None], 1 / fps)
        assert votes.corrections(state) == []
        votes.learn(state, [misread, None, None, None], 1 / fps)
        assert votes.corrections(state) == [DiscardCorrected(0, 0, Tile.from_code("8m"))]


def test_a_call_pressed_before_the_first_frame_waits_from_that_frame():
    """A restart tells the tracker of a CALL before any frame: its patience starts with
    the first frame, not at the clock's zero (it would have run out at once)."""
    from tablekit.game.events import Discard, Draw, GameStarted, HandStarted
    from tablekit.vision.table_reading import TableReading

    state = replay([GameStarted(), HandStarted(Tile.from_code("1z")), Draw(0),
                    Discard(0, Tile.from_code("5z"))])
    tracker = Tracker()
    tracker.expect_call(state, 2)
    tracker.update(TableReading((), (), 5000.0), state)
    assert tracker.calls.waiting is not None and tracker.calls.waiting.at == 5000.0
    tracker.update(TableReading((), (), 5001.0), state)
    assert tracker.warnings(state) == []                # still within its patience


def test_a_frame_that_shows_several_turns_gives_them_as_the_flow_takes_them():
    """The camera fell behind (three discards appeared at once): the frame gives the first
    turn against the state handed, the next ones only against the state the flow made of
    them (the tracker reduces nothing itself), and nothing more when they are not taken."""
    from dataclasses import replace

    from engine_helpers import Table

    from tablekit.game.events import Discard, Draw
    from tablekit.game.reducer import apply
    from tablekit.sim.geometry import POND_FIRST_ROW_Y, seat_to_table
    from tablekit.tracking.faint_discards import FIRST_X
    from tablekit.vision.table_reading import SeenTile, TableReading

    def tile(seat: int, code: str) -> SeenTile:
        xy = seat_to_table(seat, FIRST_X, POND_FIRST_ROW_Y)
        return SeenTile(xy, 90.0 * seat, True, ((Tile.from_code(code), 0.95),))

    table = Table(dora="9s")
    table.deal()
    ponds = TableReading((tile(0, "1z"), tile(1, "2z"), tile(2, "3z")), (), 0.0)
    tracker, state, batches = Tracker(), table.state, []
    for n in range(8):   # as the app's loop does
        events = tracker.update(replace(ponds, timestamp=n / 4), state)
        while events:
            batches.append((n, events))
            for event in events:
                state = apply(state, event)
            events = tracker.catch_up(state)
    frame = batches[0][0]
    assert [(n, events) for n, events in batches] == [
        (frame, [Draw(seat), Discard(seat, Tile.from_code(code))])
        for seat, code in enumerate(("1z", "2z", "3z"))]   # one frame, three turns
    assert state.turn == 3

    ignored, state = Tracker(), table.state
    for n in range(frame + 1):
        events = ignored.update(replace(ponds, timestamp=n / 4), state)
    assert events == batches[0][1] and ignored.catch_up(state) == []   # none taken: no more



def kan_table(kind: str, added: str = "2m"):
    """Seat 1 about to make a kan of 2m of ``kind``: ``shouminkan``: it pons West's 2m
    and discards, the others discard, and it is to draw the fourth 2m (its face read as
    ``added``); ``kan``: West has
    just discarded the fourth 2m; ``ankan``: it is to draw the fourth 2m after East's
    first discard. ``frame(now, kan=..., dora=..., more=...)`` is a reading of the table
    at ``now``: the ponds, seat 1's melds (``kan``: the kan laid), the dora indicators and
    ``more`` tiles of seat 1's pond."""
    from engine_helpers import Table

    from tablekit.game.events import Call, Discard
    from tablekit.sim.geometry import HAND_Y, MELD_RIGHT_X, POND_FIRST_ROW_Y, seat_to_table
    from tablekit.tracking.faint_discards import FIRST_X
    from tablekit.vision.table_reading import SeenTile, TableReading

    def seen(xy, angle: float, code: str | None) -> SeenTile:
        return SeenTile(xy, angle, code is not None,
                        ((Tile.from_code(code), 0.95),) if code else ())

    table = Table(dora="9s")
    table.deal()
    two = Tile.from_code("2m")
    if kind == "ankan":
        table.turn(0, "1z")
        ponds: dict[int, list[str]] = {0: ["1z"], 1: []}
    else:
        for seat, code in enumerate(("1z", "2z", "3z", "2m")):
            table.turn(seat, code)
        ponds = {0: ["1z"], 1: ["2z"], 2: ["3z"], 3: []}
    if kind == "shouminkan":
        table(Call(1, "pon", (two,) * 3, two, 3), Discard(1, Tile.from_code("4z")))
        for seat, code in ((2, "5z"), (3, "6z"), (0, "7z")):
            table.turn(seat, code)
        ponds = {0: ["1z", "7z"], 1: ["2z", "4z"], 2: ["3z", "5z"], 3: ["6z"]}
    right = MELD_RIGHT_X - 13.0
    row = [seat_to_table(1, right - 27.0 * i, HAND_Y) for i in range(4)]
    upright, sideways = 90.0, 180.0  # seat 1's faces; West's tile lies sideways
    laid = {  # each kind's meld row before the kan and with it
        "shouminkan": ([seen(xy, sideways if i == 1 else upright, "2m")
                        for i, xy in enumerate(row[:3])],
                       [seen(seat_to_table(1, right - 27.0, HAND_Y + 26.0), sideways, added)]),
        "kan": ([], [seen(xy, sideways if i == 1 else upright, "2m")
                     for i, xy in enumerate(row)]),
        "ankan": ([], [seen(xy, upright, None if i in (0, 3) else "2m")
                       for i, xy in enumerate(row)]),
    }[kind]

    def frame(now: float, kan: bool = False, dora: tuple[str, ...] = ("9s",),
              more: tuple[str, ...] = ()) -> TableReading:
        tiles = [seen(seat_to_table(seat, FIRST_X + 27.0 * slot, POND_FIRST_ROW_Y),
                      90.0 * seat, code)
                 for seat, pond in ponds.items()
                 for slot, code in enumerate([*pond, *(more if seat == 1 else ())])]
        tiles += laid[0] + (laid[1] if kan else [])
        tiles += [seen((-250.0, 13.0 - 26.0 * i), 0.0, code) for i, code in enumerate(dora)]
        return TableReading(tuple(tiles), (), now)

    return table, frame


@pytest.mark.parametrize("kind", ["shouminkan", "kan", "ankan"])
def test_after_a_kan_the_replacement_tiles_discard_is_taken_at_once(kind):
    """Seat 1 presses CALL for a kan before the camera has taken its draw (or the discard
    it calls): the kan is the meld the CALL vouched for, so the discard of its replacement
    tile is taken at once, and the seat vouches for no other meld. An added kan leaves the
    seat's count of melds as it was: its wait went on until the patience ran out, the
    discard held back meanwhile and the ron on the next discard lost (hand E2-0 of
    2022010907gm-00a9-0000-85d38b5d on the simulated table)."""
    from tablekit.game.events import Call, Discard, DoraRevealed, Draw
    from tablekit.game.reducer import apply
    from tablekit.tracking.calls import CALL_PATIENCE

    table, frame = kan_table(kind)
    state, tracker, taken = table.state, Tracker(), []
    two = Tile.from_code("2m")

    def step(now: float, **shown) -> None:
        nonlocal state
        events = tracker.update(frame(now, **shown), state)
        while events:
            for event in events:
                state = apply(state, event)
                taken.append(event)
            events = tracker.catch_up(state)

    step(0.0)
    step(0.25)
    tracker.expect_call(state, 1)
    for n in range(2, 6):
        step(n / 4, kan=True)
    assert taken == {
        "shouminkan": [Draw(1), Call(1, "shouminkan", (two,) * 4, two, 3)],
        "kan": [Call(1, "kan", (two,) * 4, two, 3)],
        "ankan": [Draw(1), Call(1, "ankan", (two,) * 4, None, None)],
    }[kind]
    assert tracker.warnings(state) == [] and not tracker.calls.vouches(state, 1)
    for n in range(6, 10):
        step(n / 4, kan=True, dora=("9s", "4p"))
    for n in range(10, 14):   # the replacement tile discarded
        step(n / 4, kan=True, dora=("9s", "4p"), more=("1m",))
    assert tracker.now < CALL_PATIENCE   # all well within the CALL's patience
    assert taken[-3:] == [DoraRevealed(Tile.from_code("4p")), Draw(1, rinshan=True),
                          Discard(1, Tile.from_code("1m"))]
    assert tracker.warnings(state) == [] and not tracker.calls.vouches(state, 1)


def test_an_added_kan_whose_tile_reads_as_another_kind():
    """The tile seat 1 adds to its pon of 2m lies sideways by the meld and reads surely as
    4m (a set enrolled from the table, kde-classic, game 2022010907gm-00a9-0000-85d38b5d
    hand E2-0): the CALL vouches for a meld, no discard is being claimed (East's 7z still
    lies in its pond), so one new tile by the one pon is its added kan."""
    from tablekit.game.events import Call, Draw
    from tablekit.game.reducer import apply

    table, frame = kan_table("shouminkan", added="4m")
    state, tracker, taken = table.state, Tracker(), []
    for n in range(6):
        if n == 2:
            tracker.expect_call(state, 1)
        for event in tracker.update(frame(n / 4, kan=n >= 2), state):
            state = apply(state, event)
            taken.append(event)
    two = Tile.from_code("2m")
    assert taken == [Draw(1), Call(1, "shouminkan", (two,) * 4, two, 3)]


def test_a_hand_read_surely_is_scored_though_the_ponds_show_a_fifth_of_its_kind():
    """A discard misread as a kind of the winner's hand (here three 4m in a pond, and the
    hand's 44m) must not leave the hand unscored: it is read as the camera saw it, with a
    doubt about the fifth (kde-default, 2026-12-07: "not a complete hand")."""
    from dataclasses import replace

    from tablekit.game.state import PondTile, TableState
    from tablekit.tiles import parse_tiles

    state = TableState.new()
    seats = list(state.seats)
    seats[2] = replace(seats[2], pond=(PondTile(Tile.from_code("4m")),) * 3)
    state = replace(state, seats=tuple(seats))
    reads = [TileRead.sure(t) for t in parse_tiles("44m66778p234678s5p")]
    hand, doubts = read_revealed(state, 0, reads, None)
    assert hand is not None and to_mpsz(sorted(hand.hand)) == "44m566778p234678s"
    assert any("4m would be a fifth" in d for d in doubts)


def test_a_revealed_hand_is_read_in_order():
    """kde-jade, game 1 hand E1-0 (2026-12-07): the fourth tile of 45667888m67p678s + 8p
    read 9m 0.51 / 6m 0.46, and both complete the hand; a 9m between the 6m and the 7m of
    a hand held in order is unlikely, so the 6m is taken. A face read surely stays as
    read, in order or not."""
    from tablekit.game.state import TableState
    from tablekit.tiles import parse_tiles

    reads = [TileRead.sure(t) for t in parse_tiles("45667888m67p678s8p")]
    reads[3] = TileRead(((Tile.from_code("9m"), 0.51), (Tile.from_code("6m"), 0.46)))
    hand, _ = read_revealed(TableState.new(), 3, reads, None)
    assert hand is not None and to_mpsz(hand.hand[:8]) == "45667888m"
    reads[3] = TileRead(((Tile.from_code("9m"), 0.9), (Tile.from_code("6m"), 0.1)))
    hand, _ = read_revealed(TableState.new(), 3, reads, None)
    assert hand is not None and to_mpsz(hand.hand[:8]) == "45697888m"


def test_a_fifth_of_a_kind_whose_discard_the_frames_doubted_is_likelier():
    """kde-default, game 2 hand E2-1 (2026-12-07): a 3m in North's pond was registered 5m
    (its frames' votes 5m 0.64 / 3m 0.36) beside a pon of 5m, so the hand's 5m would be a
    fifth; its row read 11234 4 [3m 0.77 / 5m 0.23] [6m 0.74 / 2m 0.23]m. Unless the discard
    is doubted, the reading without the fifth wins (11234432m, out of order twice); doubted
    as the frames doubted it, the hand is read right, with a doubt naming the fifth."""
    from dataclasses import replace

    from tablekit.game.state import PondTile, TableState
    from tablekit.rules.hand import Meld
    from tablekit.tiles import parse_tiles

    state = TableState.new()
    seats = list(state.seats)
    seats[1] = replace(seats[1], melds=(Meld.parse("pon:555m"),))
    seats[3] = replace(seats[3], pond=(PondTile(Tile.from_code("5m")),))
    state = replace(state, seats=tuple(seats), last_discard=(2, Tile.from_code("3p")))
    reads = [TileRead.sure(t) for t in parse_tiles("112344m24p340s3p")]
    reads[6:6] = [TileRead(((Tile.from_code("3m"), 0.77), (Tile.from_code("5m"), 0.23))),
                  TileRead(((Tile.from_code("6m"), 0.74), (Tile.from_code("2m"), 0.23)))]
    hand, _ = read_revealed(state, 0, reads, 2)
    assert hand is not None and to_mpsz(hand.hand[:8]) == "11234432m"
    hand, doubts = read_revealed(state, 0, reads, 2, doubted={Tile.from_code("5m").kind: 0.36})
    assert hand is not None and to_mpsz(hand.hand) == "11234456m24p340s3p"
    assert any("5m would be a fifth" in d for d in doubts)


def test_a_winning_tile_set_apart_and_never_seen_is_the_one_missing():
    """The row's last tile lies beside the one before it and a tile is missing: the tile
    set apart was not seen, so the winning tile is the missing one (on a tsumo whatever the
    hand needs, on a ron the discard), not the row's last read (game 14 hand E4-2 of the
    20-game check showed its 7s as the winning tile for an unseen 9p)."""
    from dataclasses import replace

    from tablekit.game.state import TableState
    from tablekit.tiles import parse_tiles

    reads = [TileRead.sure(t) for t in parse_tiles("123m456p789s11z24s")]
    hand, doubts = read_revealed(TableState.new(), 0, reads, None, win_seen=False)
    assert hand is not None and hand.win_tile == Tile.from_code("3s")
    assert any("winning tile set apart not seen" in d for d in doubts)
    seen, _ = read_revealed(TableState.new(), 0, reads, None)   # the last read taken as it
    assert seen is None or seen.win_tile != Tile.from_code("3s")
    ron = replace(TableState.new(), last_discard=(1, Tile.from_code("3s")))
    hand, _ = read_revealed(ron, 0, reads, 1, win_seen=False)
    assert hand is not None and hand.win_tile == Tile.from_code("3s")
    assert to_mpsz(sorted(hand.hand)) == "123m456p234789s11z"


def test_a_tile_not_seen_is_the_kind_with_more_copies_left():
    """Two kinds complete the hand for the tile not seen (78p waits 6p or 9p): with three
    6p in the ponds, the 9p is taken (game 14 hand E4-2 of the 20-game check)."""
    from dataclasses import replace

    from tablekit.game.state import PondTile, TableState
    from tablekit.tiles import parse_tiles

    reads = [TileRead.sure(t) for t in parse_tiles("406m2278p123067s")]
    state = TableState.new()
    seats = list(state.seats)
    seats[1] = replace(seats[1], pond=(PondTile(Tile.from_code("6p")),) * 3)
    hand, _ = read_revealed(replace(state, seats=tuple(seats)), 0, reads, None, win_seen=False)
    assert hand is not None and hand.win_tile == Tile.from_code("9p")
    seats[1] = replace(seats[1], pond=(PondTile(Tile.from_code("9p")),) * 3)
    hand, _ = read_revealed(replace(state, seats=tuple(seats)), 0, reads, None, win_seen=False)
    assert hand is not None and hand.win_tile == Tile.from_code("6p")


def test_a_face_read_two_ways_is_the_kind_with_more_copies_left():
    """kde-jade, game 0 hand E1-0 (2026-12-07): the first tile of 3456789m234s + 3m read
    9m 0.38 / 3m 0.32, and both complete the hand (33m 456m 789m, or 345m 678m 99m); with
    a 9m in a pond and the hand's own 9m, one 9m is left for it against three 3m, so the
    3m is taken. With no 9m seen elsewhere the camera's 9m stands. (The face lies here
    before the sou, where either kind would be in order: the order prior does not count.)"""
    from dataclasses import replace

    from tablekit.game.state import PondTile, TableState
    from tablekit.rules.hand import Meld
    from tablekit.tiles import parse_tiles

    nine, three = Tile.from_code("9m"), Tile.from_code("3m")
    reads = [TileRead(((nine, 0.38), (three, 0.32))),
             *(TileRead.sure(t) for t in parse_tiles("234s456789m3m666z"))]
    state = TableState.new()
    seats = list(state.seats)
    seats[0] = replace(seats[0], pond=(PondTile(three),))
    seats[2] = replace(seats[2], melds=(Meld.parse("pon:666z"),))
    state = replace(state, seats=tuple(seats), last_discard=(0, three))
    hand, _ = read_revealed(state, 2, reads, 0)
    assert hand is not None and hand.hand[0] == nine
    seats[3] = replace(seats[3], pond=(PondTile(nine),))
    hand, _ = read_revealed(replace(state, seats=tuple(seats)), 2, reads, 0)
    assert hand is not None and hand.hand[0] == three
    assert to_mpsz(sorted(hand.hand)) == "33456789m234s"


def test_a_pon_of_a_discard_misread_in_the_pond_puts_the_discard_right():
    """North's green dragon was registered as a west wind (kde-jade, 2026-12-07); West
    pons it, and the tile leaves North's pond: the discard is put right and the pon is on
    it, not on a discard of East's the camera never saw (the turns went one seat wrong)."""
    from engine_helpers import Table

    from tablekit.game.events import Call, DiscardCorrected
    from tablekit.game.reducer import apply
    from tablekit.sim.geometry import HAND_Y, seat_to_table
    from tablekit.vision.table_reading import SeenTile, TableReading

    table = Table(dora="9s")
    table.deal()
    for seat, tile in ((0, "1m"), (1, "9p"), (2, "1s"), (3, "3z")):
        table.turn(seat, tile)
    state = [table.state]
    tracker = Tracker()
    tracker.expect_call(state[0], 2)
    green = ((Tile.from_code("6z"), 0.9), (Tile.from_code("7z"), 0.05))
    faces = tuple(SeenTile(seat_to_table(2, x, HAND_Y), 180.0, True, green)
                  for x in (300.0, 327.0, 354.0))
    taken = []
    for time in range(3):
        for event in tracker.update(TableReading(faces, (), float(time)), state[0]):
            state[0] = apply(state[0], event)
            taken.append(event)
    dragon = Tile.from_code("6z")
    assert taken == [DiscardCorrected(3, 0, dragon), Call(2, "pon", (dragon,) * 3, dragon, 3)]
    assert state[0].turn == 2 and state[0].seats[3].pond[0].tile == dragon
