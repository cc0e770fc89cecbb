"""``tablekit enroll --from-recording``: the faces a recorded game's players confirmed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tablekit.cli import main
from tablekit.game.events import (
    Call,
    Discard,
    DiscardCorrected,
    DoraCorrected,
    DoraRevealed,
    HandStarted,
    Undo,
    WinnerHand,
    Won,
)
from tablekit.recording.confirmed import when_won, won_hands
from tablekit.recording.manifest import write_manifest
from tablekit.tiles import Tile

WON_FIRST = Path(__file__).resolve().parents[2] / "shared" / "data" / "tenhou" / "logs" / \
    "MahjongRepository+tenhou-python-bot" / "1.txt"
"""A held-out log whose first hand is won (a ron); the bundled game's first hand is a draw."""


def tiles(*codes: str) -> tuple[Tile, ...]:
    return tuple(Tile.from_code(code) for code in codes)


def test_the_confirmed_tiles_are_the_journal_s_in_force_with_its_corrections():
    events = [
        HandStarted(), DoraRevealed(Tile.from_code("3s")), DoraCorrected(0, Tile.from_code("4s")),
        Discard(1, Tile.from_code("9m")), Discard(2, Tile.from_code("1z")),
        DiscardCorrected(2, 0, Tile.from_code("2z")),
        Discard(3, Tile.from_code("5p")),
        Call(0, "pon", tiles("5p", "5p", "5p"), Tile.from_code("5p"), 3),
        Discard(0, Tile.from_code("7s")), Discard(1, Tile.from_code("8s")), Undo(),
        Discard(1, Tile.from_code("6s")),
        Won((WinnerHand(0, tiles("1m", "2m", "3m", "6s")),), from_seat=1, ura=tiles("2p")),
        HandStarted(), Discard(0, Tile.from_code("1m")),
    ]
    [hand] = won_hands(events)
    assert hand.dora == ["4s"] and hand.ura == ["2p"]
    assert hand.winners == {0: ["1m", "2m", "3m", "6s", "5p", "5p", "5p"]}
    assert hand.ponds == {0: ["7s"], 1: ["9m", "6s"], 2: ["2z"], 3: []}   # 5p called away
    assert hand.too_many() == set()


def test_a_shouminkan_replaces_its_pon_and_each_win_finds_its_own_win_press():
    events = [HandStarted(), Discard(1, Tile.from_code("2s")),
              Call(0, "pon", tiles("2s", "2s", "2s"), Tile.from_code("2s"), 1),
              Call(0, "shouminkan", tiles("2s", "2s", "2s", "2s"), Tile.from_code("2s")),
              Won((WinnerHand(0, tiles("1m", "1m")),)),
              HandStarted(), Won((WinnerHand(2, tiles("9p", "9p")),), from_seat=0)]
    first, second = won_hands(events)
    assert first.winners == {0: ["1m", "1m", "2s", "2s", "2s", "2s"]}
    presses = [{"t": 1.0, "button": "win", "seat": 2},     # a tenpai toggle, not a win
               {"t": 5.0, "button": "win", "seat": 0}, {"t": 6.0, "button": "ok"},
               {"t": 9.0, "button": "win", "seat": 2}]
    assert when_won(presses, [first, second]) == [5.0, 9.0]
    assert when_won(presses[:2], [first, second]) == [5.0, None]
    # seat 0 fixing its hand with its buttons before the first win is confirmed (at 7.5):
    # WIN presses that are not the second hand's, which seat 0 won too
    first.winners, second.winners = {0: ["1m"]}, {0: ["9p"]}
    fixing = [{"t": 5.0, "button": "win", "seat": 0}, {"t": 6.5, "button": "win", "seat": 0},
              {"t": 9.0, "button": "win", "seat": 0}]
    assert when_won(fixing, [first, second]) == [5.0, 6.5]   # format 1: no way to tell
    assert when_won(fixing, [first, second], [7.5, 9.5]) == [5.0, 9.0]
    assert when_won(fixing, [first, second], [7.5, 8.5]) == [5.0, None]


def test_refusals_are_one_line(tmp_path, capsys):
    assert main(["enroll", "--from-recording", str(tmp_path / "nowhere"), "--out",
                 str(tmp_path / "set")]) == 2
    err = capsys.readouterr().err.strip()
    assert err == (f"tablekit enroll: {tmp_path / 'nowhere'}: no such recording "
                   "(no recording.json in it)")
    empty = tmp_path / "empty"
    empty.mkdir()
    write_manifest(empty, {"format": 1, "journal_start": 0})
    (empty / "journal.jsonl").write_text('{"type": "journal", "format": 3}\n')
    assert main(["enroll", "--from-recording", str(empty), "--out", str(tmp_path / "set")]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and err.startswith(f"tablekit enroll: {empty}: no confirmed faces")
    assert not (tmp_path / "set").exists()
    assert main(["enroll", "--on", str(empty), "--out", str(tmp_path / "set")]) == 2
    assert capsys.readouterr().err.strip() == (
        "tablekit enroll: --on SET enrolls recordings on top of a set: give --from-recording "
        "DIR too")
    assert main(["enroll", "--from-recording", str(empty), "--on", str(tmp_path / "nowhere"),
                 "--out", str(tmp_path / "set")]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and err.startswith(f"tablekit enroll: no tile set at {tmp_path}")


@pytest.mark.slow
@pytest.mark.skipif(not WON_FIRST.is_file(), reason="shared data absent")
def test_faces_harvested_from_a_recorded_hand_are_its_confirmed_tiles(tmp_path, capsys):
    """A held-out game's first hand (a ron) recorded with the truth reader: its win, dora and
    discards are cut from the frames as the reader cuts them, each named as the journal
    has it, and a tile set is enrolled from them."""
    from tablekit.recording.faces import KINDS, harvest, recorded_hands
    from tablekit.vision.classes import CLASSES
    from tablekit.vision.enroll import FeatureModel

    folder = tmp_path / "rec"
    assert main(["simulate", str(WON_FIRST), "--hands", "1", "--record", str(folder)]) == 0
    [(hand, start)] = recorded_hands(folder)
    assert start > 0 and hand.winners
    found = harvest([folder], FeatureModel().size)
    assert found.hands == 1 and found.frames >= 2
    assert all(found.used[kind] > 0 for kind in KINDS), found.used
    confirmed = {code for codes in (*hand.winners.values(), hand.dora, hand.ura,
                                    *hand.ponds.values()) for code in codes}
    assert set(found.samples.counts()) <= confirmed | {"none"}
    capsys.readouterr()
    assert main(["enroll", "--from-recording", str(folder), "--out", str(tmp_path / "set")]) == 0
    out = capsys.readouterr().out
    assert "faces used: winning hands" in out and "dora indicators" in out
    info = json.loads((tmp_path / "set" / "tileset.json").read_text())
    assert set(info["recorded_faces"]) == set(KINDS)
    assert set(info["faces"]) <= set(CLASSES)
    # on top of a set enrolled before: its head is the start, its reader names the faces
    assert main(["enroll", "--from-recording", str(folder), "--on", str(tmp_path / "set"),
                 "--out", str(tmp_path / "on")]) == 0
    info = json.loads((tmp_path / "on" / "tileset.json").read_text())
    assert info["source"].endswith("on top of tile set 'set'") and info["on"].startswith(
        "recordings")


def test_a_recording_whose_reader_misread_the_confirmed_faces_gives_no_discards():
    """Nobody confirmed a discard: a game whose reader named under 90% of the faces people
    confirmed (its wins put right) as they confirmed them registered misreads that the same
    reader reads again, so its discards are left out, and the line says so."""
    from collections import Counter

    import numpy as np

    from tablekit.recording.faces import Harvest
    from tablekit.vision.enroll import FaceSamples

    def part(kind: str, faces: int, read: int = 0, confirmed: int = 0) -> Harvest:
        samples = FaceSamples()
        samples.add(np.zeros((faces, 3, 4, 4), np.float32), 1)
        return Harvest(samples, Counter({kind: faces}), 1, 3, read, confirmed)

    found = Harvest(FaceSamples())
    found.take(part("winning hands", 10, 6, 10), part("discards", 5), "bad")
    found.take(part("winning hands", 10, 10, 10), part("discards", 4), "good")
    assert found.used == {"winning hands": 20, "discards": 4}
    assert len(found.samples.labels) == 24 and (found.read, found.confirmed) == (16, 20)
    assert found.left_out == ["bad: 6 of 10 confirmed faces read so"]
    assert found.report().endswith("; discards left out of bad: 6 of 10 confirmed faces read "
                                   "so (under 90%)")


def test_a_revealed_hand_is_paired_with_its_faces_in_the_order_it_lies():
    """A weak reader likes 2p for the 1p face and 1p for the 2p face: the likeliest pairing
    swaps them, the hand's order does not; an arm hides the 9m, and the melds' faces lie
    to the right."""
    import numpy as np

    from tablekit.recording.confirmed import WonHand
    from tablekit.recording.faces import assign, winner_pairs
    from tablekit.vision.classes import CLASSES, class_index

    hand = ["1p", "2p", "3p", "9m", "9m", "5z", "5z", "3p", "7s", "7s", "7s"]  # 3p won
    won = WonHand({1: hand}, win_tiles={1: "3p"}, revealed={1: 8})
    lying = ["1p", "2p", "3p", "9m", "5z", "5z", "3p", "7s", "7s", "7s"]     # one 9m hidden
    probs = np.full((len(lying), len(CLASSES)), 0.01)
    for face, code in enumerate(lying):
        probs[face, class_index(code)] = 0.5
    probs[0, class_index("2p")], probs[1, class_index("1p")] = 0.9, 0.9   # the swap
    xs = [10.0 * face + (30 if face >= 7 else 0) for face in range(len(lying))]
    named = {face: hand[at] for face, at in winner_pairs(probs, xs, won, 1)}
    assert named == dict(enumerate(lying))
    likeliest = {face: hand[at] for face, at in
                 assign(probs, [class_index(code) for code in hand], 1e-3)}
    assert likeliest[0] == "2p" and likeliest[1] == "1p"   # what the order put right
