"""The tenhou.net/6 round trip: a record replayed, written as tenhou.net/6, read back and
replayed again must give the same hands, results and final scores.

>>> from pathlib import Path
>>> trip = round_trip(Path("tablekit/data/tenhou-python-bot-28.xml"))
>>> trip.same, trip.first.ok, trip.problem
(True, True, '')
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from tablekit.errors import TablekitError
from tablekit.formats.replay_check import GameReport, check_imported
from tablekit.formats.tenhou import ImportedGame, import_file
from tablekit.formats.tenhou6_read import read_tenhou6
from tablekit.formats.tenhou6_write import to_tenhou6


@dataclass
class RoundTrip:
    first: GameReport
    second: GameReport | None = None
    problem: str = ""

    @property
    def same(self) -> bool:
        return not self.problem


def export(game: ImportedGame) -> dict:
    """An imported game as tenhou.net/6 JSON (through a JSON string, as a file would be)."""
    data = to_tenhou6(game.events, [hand.init.hands for hand in game.hands])
    return json.loads(json.dumps(data, ensure_ascii=False))


def round_trip(path: Path) -> RoundTrip:
    """Replay ``path``, export it, read the export back and replay that."""
    game = import_file(path, three_players=True)
    trip = RoundTrip(check_imported(game, path))
    try:
        data = export(game)
        again = read_tenhou6(data)
    except TablekitError as error:
        trip.problem = f"export or re-import failed: {error}"
        return trip
    trip.second = check_imported(again, path)
    trip.problem = _difference(game, again, trip.first, trip.second, data)
    return trip


def _difference(game: ImportedGame, again: ImportedGame, first: GameReport,
                second: GameReport, data: dict) -> str:
    if first.table != second.table:
        hand = next(i for i, (a, b) in enumerate(zip(first.table, second.table, strict=False))
                    if a != b) if first.table and second.table else 0
        return f"hand {hand + 1} replays differently"
    if (first.ok, first.final_ok) != (second.ok, second.final_ok):
        return f"the check differs: {second.mismatches[:2]}"
    if again.events != game.events:
        return "the events read back differ from the record's"
    if export(again) != data:
        return "exporting the re-read game gives another file"
    return ""
