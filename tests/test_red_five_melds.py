"""Red fives in melds: a red five called (pon, chi, open kan), added to a kan or in a closed
one is the one red five of its kind, never two and never none, wherever it lies."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from engine_helpers import Table

from tablekit.game.events import Call
from tablekit.game.reducer import apply
from tablekit.rules.hand import Meld
from tablekit.rules.reading import TileRead
from tablekit.tiles import Tile, parse_tiles, to_mpsz
from tablekit.tracking.meld_events import four_of, own_kan
from tablekit.tracking.meld_reading import new_reads, read_claimed
from tablekit.tracking.tracker import Tracker


def sure(text: str) -> list[TileRead]:
    return [TileRead.sure(t) for t in parse_tiles(text)]


@pytest.mark.parametrize("row", ["055p", "505p", "550p"])
def test_a_pon_called_on_the_red_five_holds_one_red_five(row: str) -> None:
    """The sideways red five lies left, in the middle or right (called from the left,
    across or the right): the pon is 550p (two plain fives and the red one), never 500p."""
    kind, tiles = read_claimed(sure(row), Tile.from_code("0p"))  # type: ignore[misc]
    assert (kind, to_mpsz(tiles)) == ("pon", "550p")


@pytest.mark.parametrize("row", ["055s", "505s", "550s"])
def test_a_pon_of_a_plain_five_keeps_the_caller_s_red_five(row: str) -> None:
    kind, tiles = read_claimed(sure(row), Tile.from_code("5s"))  # type: ignore[misc]
    assert (kind, to_mpsz(tiles)) == ("pon", "550s")


@pytest.mark.parametrize("row,called,chi", [("406m", "0m", "406m"), ("046m", "0m", "406m"),
                                            ("340m", "3m", "340m"), ("034m", "3m", "340m")])
def test_a_chi_with_a_red_five_called_or_from_the_hand(row: str, called: str, chi: str) -> None:
    kind, tiles = read_claimed(sure(row), Tile.from_code(called))  # type: ignore[misc]
    assert (kind, to_mpsz(tiles)) == ("chi", chi)


def test_an_unsure_five_at_the_called_place_still_makes_one_red_five() -> None:
    reads = [TileRead(((Tile.from_code("5p"), 0.6), (Tile.from_code("0p"), 0.4))),
             *sure("05p")]
    kind, tiles = read_claimed(reads, Tile.from_code("0p"))  # type: ignore[misc]
    assert sum(t.red for t in tiles) == 1 and kind == "pon"


@pytest.mark.parametrize("pon,row,added", [("055p", "5505p", "5p"), ("055p", "0555p", "5p"),
                                           ("555p", "5550p", "0p"), ("555p", "0555p", "0p")])
def test_a_tile_added_to_a_pon_of_fives_completes_the_four(pon: str, row: str, added: str
                                                            ) -> None:
    """The new tile is the one the pon does not account for, red or plain, wherever the
    red five lies; the added kan holds every copy, the red five once."""
    melds = [Meld("pon", tuple(parse_tiles(pon)), 0, Tile.from_code("5p"))]
    new = new_reads(sure(row), melds)
    assert [r.best[0].code for r in new] == [added]
    kan = own_kan(melds, 1, new[0].best[0], added=True)
    assert to_mpsz(kan.tiles) in ("0555p", "5550p") and sum(t.red for t in kan.tiles) == 1
    assert kan.called == Tile.from_code(added)
    misread = own_kan(melds, 1, Tile.from_code("0p" if added == "5p" else "5p"), added=True)
    assert misread.called == Tile.from_code(added)   # a five misread as the other still fits


def test_kans_of_fives_hold_the_red_five_once() -> None:
    assert to_mpsz(four_of(Tile.from_code("0s"), True)) == "5550s"
    assert to_mpsz(four_of(Tile.from_code("5s"), False)) == "5555s"
    assert sum(t.red for t in own_kan((), 2, Tile.from_code("5m"), added=False).tiles) == 1


@pytest.mark.parametrize("from_seat,row", [(1, "505p"), (2, "550p"), (0, "055p")])
def test_the_tracker_journals_a_pon_called_on_the_red_five_with_one_red_five(
        from_seat: int, row: str) -> None:
    """Seat 3 pons a red 5p discarded across (the sideways five in the middle of the
    meld), from its right or its left: the Call holds 550p, called on 0p."""
    from tablekit.sim.geometry import HAND_Y, seat_to_table
    from tablekit.vision.table_reading import SeenTile, TableReading

    table = Table(dora="9s")
    table.deal()
    for seat in range(from_seat):
        table.turn(seat)
    table.turn(from_seat, "0p")
    state = [table.state]
    tracker = Tracker()
    tracker.expect_call(state[0], 3)
    faces = tuple(SeenTile(seat_to_table(3, x, HAND_Y), 270.0, True, ((tile, 1.0),))
                  for x, tile in zip((300.0, 327.0, 354.0), parse_tiles(row), strict=True))
    taken = []
    for time in range(3):
        for event in tracker.update(TableReading(faces, (), float(time)), state[0]):
            state[0] = apply(state[0], event)
            taken.append(event)
    red = Tile.from_code("0p")
    assert taken == [Call(3, "pon", tuple(parse_tiles("550p")), red, from_seat)]


def test_a_win_robbing_an_added_kan_of_fives_reads_the_winner_s_hand() -> None:
    """Seat 3 pons 5m on the red five and adds the last plain 5m; seat 1 robs it. The
    robbed five lies in the kan and in the winner's hand: it is not a fifth 5m."""
    from tablekit.game.events import Discard, Draw
    from tablekit.tracking.hand_reading import read_revealed

    table = Table(dora="9s")
    table.deal()
    table.turn(0)
    table.turn(1)
    table.turn(2, "0m")
    five, red = Tile.from_code("5m"), Tile.from_code("0m")
    table(Call(3, "pon", (five, five, red), red, 2), Discard(3, Tile.from_code("1z")))
    for seat in range(3):
        table.turn(seat)
    table(Draw(3))
    state = table(own_kan(table.state.seats[3].melds, 3, five, added=True))
    assert state.chankan_tile == five
    reads = sure("34m123456789p22s5m")
    hand, doubts = read_revealed(state, 1, reads, from_seat=3)
    assert hand is not None and hand.win_tile == five and not doubts


@pytest.mark.slow
def test_a_real_pon_called_on_the_red_five_end_to_end(shared_data: Path, tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]
                                                      ) -> None:
    """The first hand of a real game on the simulated table, read by the truth reader:
    East pons the red 5p West discarded (the sideways five in the middle); the journal
    holds 550p, never 500p, and the hand is exact."""
    from tablekit.cli import main

    log = (shared_data / "tenhou" / "logs" / "thewaxmango+mahjong-hands"
           / "2022010116gm-00a9-0000-0343ef87.txt")
    journal = tmp_path / "game.jsonl"
    assert main(["simulate", str(log), "--hands", "1", "--check", "--journal",
                 str(journal)]) == 0
    summary = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert summary["hands"] == summary["hands_ok"] == 1
    pons = [e for e in map(json.loads, journal.read_text().splitlines())
            if e.get("type") == "call" and e.get("called") == "0p"]
    assert [(e["kind"], e["tiles"]) for e in pons] == [("pon", "550p")]
