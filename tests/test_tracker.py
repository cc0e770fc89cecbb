"""Frames to events: the tracker on the simulated table, and misreads at a win."""

import json

import numpy as np
from conftest import FIXTURES

from tablekit.cli import main
from tablekit.formats.tenhou import import_file
from tablekit.game.events import Won
from tablekit.game.reducer import replay
from tablekit.rules.reading import TileRead
from tablekit.tiles import Tile
from tablekit.vision.tracker import Tracker, claimed_meld, own_kan

GAME = FIXTURES / "mjlog" / "tenhou-python-bot-28.xml"


def test_first_hand_of_a_real_game_end_to_end(capsys):
    """CI's short game: frames, tracker, MockFactory presses, confirmation, score."""
    assert main(["simulate", str(GAME), "--hands", "1", "--check", "--misread", "0.05"]) == 0
    summary = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert summary["hands"] == summary["hands_ok"] == 1
    assert summary["tiles_read"] == summary["tiles_ok"] > 30
    assert summary["frames"] > 100 and summary["ms_per_frame"] < 50


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
    tracker = Tracker(lambda: state)
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
        hand, doubts = tracker._best_hand(state, winner.seat, reads,
                                          len(state.seats[winner.seat].melds), won.from_seat)
        caught = hand is not None and sorted(hand.hand) == sorted(truth)
        assert caught or doubts, [r.candidates for r in reads]
        checked += 1
    assert checked == 200


def test_claimed_melds_take_the_exact_discard():
    call = claimed_meld(2, [Tile.from_code(c) for c in ("4s", "5s", "6s")],
                        Tile.from_code("0s"), 1)
    assert call.kind == "chi" and Tile.from_code("0s") in call.tiles
    pon = claimed_meld(0, [Tile.from_code("7z")] * 3, Tile.from_code("7z"), 3)
    assert pon.kind == "pon" and pon.from_seat == 3
    kan = claimed_meld(0, [Tile.from_code("5p")] * 4, Tile.from_code("5p"), 1)
    assert kan.kind == "kan" and sum(t.red for t in kan.tiles) == 1


def test_own_kans():
    assert own_kan((), 1, [Tile.from_code("3z")] * 2).kind == "ankan"
    from tablekit.rules.hand import Meld
    pon = Meld.parse("pon:777s")
    added = own_kan((pon,), 1, [Tile.from_code("7s")])
    assert added.kind == "shouminkan" and len(added.tiles) == 4
