"""Rules-aware hand reading: constraints catch misreads or mark them uncertain."""

from collections import Counter

from tablekit.rules.reading import TileRead, rank_hands
from tablekit.tiles import Tile, parse_tiles, to_mpsz

T = Tile.from_code


def reads_for(hand: str) -> list[TileRead]:
    return [TileRead.sure(t) for t in parse_tiles(hand)]


def test_a_misread_that_breaks_the_hand_is_corrected_by_completeness():
    reads = reads_for("234567m234p67899s")
    reads[3] = TileRead(((T("6p"), 0.7), (T("5m"), 0.3)))    # 5m misread as 6p
    ranked = rank_hands(reads)
    assert to_mpsz(ranked[0].tiles) == "234567m234p67899s"


def test_four_of_a_kind_limit_removes_impossible_readings():
    reads = reads_for("234567m234p67899s")
    reads[0] = TileRead(((T("1z"), 0.6), (T("2m"), 0.4)))
    assert rank_hands(reads)[0].tiles[0] == T("2m")
    # with all four 2m already visible elsewhere no reading is possible
    assert rank_hands(reads, visible=Counter({T("2m").kind: 4})) == []


def test_two_complete_readings_are_ranked_with_their_shares():
    reads = reads_for("234567m234p67899s")
    reads[9] = TileRead(((T("6s"), 0.6), (T("9s"), 0.4)))    # 6s or 9s: both complete
    ranked = rank_hands(reads)
    assert [to_mpsz(r.tiles) for r in ranked[:2]] == ["234567m234p67899s", "234567m234p97899s"]
    assert 0.55 < ranked[0].share < 0.65 and abs(sum(r.share for r in ranked) - 1) < 1e-9


def test_melds_change_the_tile_count():
    assert rank_hands(reads_for("234m567p345s11s"), melds=1)
    assert rank_hands(reads_for("234m567p345s11s"), melds=0) == []
