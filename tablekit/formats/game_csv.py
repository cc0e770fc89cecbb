"""A game as one CSV row: the rules, how it ended, and each seat's name, place, points and
game points, for a club's spreadsheet.

>>> from tablekit.game.summary import GameSummary, PlayerResult
>>> game = GameSummary("tenhou", True, 8, "the last hand was played", tuple(
...     PlayerResult(s, n, r, p, g) for s, n, r, p, g in [(0, "Aki", 1, 56400, 67.0),
...     (1, "Ben", 2, 18800, -1.0), (2, "Cho", 3, 15400, -25.0), (3, "Dai", 4, 9400, -41.0)]))
>>> header, row = csv_text([game_row(game)]).splitlines()
>>> header.split(",")[:8]
['rules', 'hands', 'end', 'leftover_sticks', 'name1', 'place1', 'points1', 'score1']
>>> row.split(",")[:8]
['tenhou', '8', 'the last hand was played', '0', 'Aki', '1', '56400', '67.0']
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable
from typing import Any

from tablekit.game.summary import GameSummary

SEAT_FIELDS = ("name", "place", "points", "score")
COLUMNS = ("rules", "hands", "end", "leftover_sticks",
           *(f"{field}{seat}" for seat in range(1, 5) for field in SEAT_FIELDS))


def game_row(game: GameSummary) -> dict[str, Any]:
    """The CSV row of a game, seats in seat order (seat 1 dealt first). A game not
    finished has the points so far, and its places and game points left empty (it has
    none):

    >>> from tablekit.game.summary import GameSummary, PlayerResult
    >>> game = GameSummary("tenhou", False, 3, "in progress", (PlayerResult(0, "Aki", 0,
    ...     31000, 0.0),))
    >>> row = csv_text([game_row(game)], header=False).split(",")
    >>> row[4:8]
    ['Aki', '', '31000', '']
    """
    row: dict[str, Any] = {"rules": game.rules, "hands": game.hands, "end": game.end_reason,
                           "leftover_sticks": game.leftover_sticks}
    for player in game.players:
        number = player.seat + 1
        place, score = (player.rank, f"{player.score:.1f}") if game.finished else ("", "")
        row.update({f"name{number}": player.name, f"place{number}": place,
                    f"points{number}": player.points, f"score{number}": score})
    return row


def csv_text(rows: Iterable[dict[str, Any]], header: bool = True) -> str:
    out = io.StringIO()
    writer = csv.DictWriter(out, COLUMNS, lineterminator="\n")
    if header:
        writer.writeheader()
    writer.writerows(rows)
    return out.getvalue()
