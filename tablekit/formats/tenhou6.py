"""What the tenhou.net/6 JSON format writes: tile numbers, yaku names, limit and draw names.

tenhou.net/6 (read by mjai-reviewer, Tenhou's own viewer and most online tools) numbers tiles
``11``-``19`` man, ``21``-``29`` pin, ``31``-``39`` sou, ``41``-``47`` East..North, White,
Green, Red, and ``51``-``53`` the red fives; ``60`` in a discard list is a tsumogiri, and
``f44`` a North set aside (kita, three players).
:mod:`tablekit.formats.tenhou6_write` writes games, :mod:`tablekit.formats.tenhou6_read`
reads them back.

>>> [code(Tile.from_code(c)) for c in ("1m", "9p", "0s", "7z")]
[11, 29, 53, 47]
>>> tile(53), tile(41)
(Tile('0s'), Tile('1z'))
"""

from __future__ import annotations

from tablekit.errors import TablekitError
from tablekit.tiles import Tile

TSUMOGIRI = 60
KITA = "f44"  # three players: a North set aside, written among its player's discards
YAKU_NAMES = (  # Tenhou's yaku ids 0-54, as tenhou.net/6 writes them
    "門前清自摸和", "立直", "一発", "槍槓", "嶺上開花", "海底摸月", "河底撈魚", "平和", "断幺九",
    "一盃口", "自風 東", "自風 南", "自風 西", "自風 北", "場風 東", "場風 南", "場風 西",
    "場風 北", "役牌 白", "役牌 發", "役牌 中", "両立直", "七対子", "混全帯幺九", "一気通貫",
    "三色同順", "三色同刻", "三槓子", "対々和", "三暗刻", "小三元", "混老頭", "二盃口",
    "純全帯幺九", "混一色", "清一色", "人和", "天和", "地和", "大三元", "四暗刻", "四暗刻単騎",
    "字一色", "緑一色", "清老頭", "九蓮宝燈", "純正九蓮宝燈", "国士無双", "国士無双１３面",
    "大四喜", "小四喜", "四槓子", "ドラ", "裏ドラ", "赤ドラ",
)
LIMIT_NAMES = {"mangan": "満貫", "haneman": "跳満", "baiman": "倍満", "sanbaiman": "三倍満"}
YAKUMAN_NAME = "役満"
WIN = "和了"
DRAW = "流局"
ALL_TENPAI = "全員聴牌"
NONE_TENPAI = "全員不聴"
NAGASHI = "流し満貫"
CHOMBO = "チョンボ"  # not Tenhou's: tablekit writes a chombo this way
ABORT_NAMES = {"nine_terminals": "九種九牌", "four_winds": "四風連打", "four_riichi": "四家立直",
               "four_kans": "四槓散了", "triple_ron": "三家和了"}


class BadTenhou6(TablekitError, ValueError):
    """A tenhou.net/6 record that cannot be read, or a game it cannot hold (named)."""


def code(value: Tile) -> int:
    """The tenhou.net/6 number of a tile."""
    if value.red:
        return 51 + value.kind // 9
    if value.is_honor:
        return 41 + value.kind - 27
    return 10 * (value.kind // 9 + 1) + value.kind % 9 + 1


def tile(number: int) -> Tile:
    """The tile of a tenhou.net/6 number; anything else raises :class:`BadTenhou6`."""
    if number in (51, 52, 53):
        return Tile(9 * (number - 51) + 4, red=True)
    suit, digit = divmod(number, 10)
    if suit in (1, 2, 3) and 1 <= digit <= 9:
        return Tile(9 * (suit - 1) + digit - 1)
    if suit == 4 and 1 <= digit <= 7:
        return Tile(27 + digit - 1)
    raise BadTenhou6(f"{number!r} is not a tenhou.net/6 tile number")
