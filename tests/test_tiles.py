import pytest

from tablekit.errors import InvalidTile, TooManyCopies
from tablekit.tiles import Tile, check_counts, dora_kind, parse_tiles, to_136, to_mpsz


def codes(text):
    return [t.code for t in parse_tiles(text)]


def test_mpsz_round_trip_keeps_red_fives():
    assert to_mpsz(parse_tiles("123m0p55z")) == "123m0p55z"
    assert codes("0m0p0s") == ["0m", "0p", "0s"]
    assert Tile.from_code("0s").red and Tile.from_code("0s").kind == Tile.from_code("5s").kind


@pytest.mark.parametrize("bad, words", [
    ("8z", "honours are 1z..7z"), ("0z", "honours are 1z..7z"), ("123", "suit letter"),
    ("12x", "cannot read"), ("m", "cannot read"),
])
def test_bad_notation_names_the_problem(bad, words):
    with pytest.raises(InvalidTile, match=words):
        parse_tiles(bad)


def test_fifth_copy_and_second_red_five_are_refused():
    with pytest.raises(TooManyCopies, match="5 copies of 1z"):
        check_counts(parse_tiles("11111z"))
    with pytest.raises(TooManyCopies, match="2 red 5p"):
        check_counts(parse_tiles("00p"))
    check_counts(parse_tiles("5550m"))


@pytest.mark.parametrize("indicator, dora", [
    ("1m", "2m"), ("9m", "1m"), ("9p", "1p"), ("9s", "1s"), ("0p", "6p"), ("1z", "2z"),
    ("4z", "1z"), ("5z", "6z"), ("6z", "7z"), ("7z", "5z"),
])
def test_dora_successor(indicator, dora):
    assert Tile.from_code(indicator).dora.code == dora


def test_dora_kind_covers_every_kind_once_per_group():
    assert sorted(dora_kind(k) for k in range(34)) == list(range(34))


def test_136_ids_put_red_fives_on_the_first_copy_only():
    ids = to_136(parse_tiles("5550m"))
    assert ids == [17, 18, 19, 16]
    assert to_136(parse_tiles("555m")) == [17, 18, 19]
    assert [Tile.from_136(i).code for i in ids] == ["5m", "5m", "5m", "0m"]
    with pytest.raises(TooManyCopies):
        to_136(parse_tiles("5555m"))


def test_glyphs_and_names():
    assert Tile.from_code("1z").glyph == "\U0001F000"
    assert Tile.from_code("7z").glyph == "\U0001F004"
    assert Tile.from_code("1m").glyph == "\U0001F007"
    assert Tile.from_code("9p").glyph == "\U0001F021"
    assert Tile.from_code("0s").name == "5 sou (red)"
    assert Tile.from_code("6z").name == "Green"


def test_sorting_and_tile_checks():
    assert to_mpsz(parse_tiles("7z1m0m5m"), sort=True) == "150m7z"
    with pytest.raises(InvalidTile):
        Tile(34)
    with pytest.raises(InvalidTile, match="only fives"):
        Tile(0, red=True)
