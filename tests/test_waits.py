import pytest

from tablekit.errors import InvalidHand
from tablekit.rules.waits import is_furiten, is_tenpai, shanten, waits
from tablekit.tiles import parse_tiles, to_mpsz


@pytest.mark.parametrize("hand, expected", [
    ("1112345678999m", "123456789m"),   # nine gates: every tile of the suit
    ("19m19p19s1234567z", "19m19p19s1234567z"),   # kokushi 13-sided
    ("112233m445566p7z", "7z"),          # seven pairs tanki
    ("234567m234p6899s", "7s"),          # kanchan
    ("234567m234p7899s", "69s"),         # ryanmen plus shanpon
    ("123m456p789s1134z", ""),            # noten
])
def test_waits(hand, expected):
    tiles = parse_tiles(hand)[:13]
    assert to_mpsz(waits(tiles)) == expected
    assert is_tenpai(tiles) == bool(expected)


def test_waiting_on_a_tile_you_hold_four_of_is_not_tenpai():
    assert "1m" not in to_mpsz(waits(parse_tiles("1111234m5678999m")[:13]))
    assert not is_tenpai(parse_tiles("1m"), held=parse_tiles("111m"))
    assert is_tenpai(parse_tiles("2m"), held=parse_tiles("111m"))


def test_furiten_and_shanten():
    assert is_furiten(parse_tiles("69s"), parse_tiles("1z9s"))
    assert not is_furiten(parse_tiles("69s"), parse_tiles("1z8s"))
    assert shanten(parse_tiles("123m456p789s1134z")) == 1


def test_wrong_tile_count_is_refused():
    with pytest.raises(InvalidHand, match="waits need"):
        waits(parse_tiles("123m"))
