"""The game as read compared with a record kept of it (``tablekit recording check``).

Both games are lists of events in force (the recording's journal; a record kept by a
person or another system, read by :mod:`tablekit.formats`). Each is walked hand by hand
through the reducer (:func:`tablekit.game.hands.walk`); hands are paired by their label
(round, hand, honba) and compared as they stood when their result came
(:func:`tablekit.game.hands.compare`): the result and score changes, each seat's discards
in order, its calls, the dora indicators, the winners' revealed hands. Every difference
is one readable line, and the tiles are counted: ``tiles`` those the record has,
``tiles_right`` those read the same (a discard or an indicator in its place; a call's or
a revealed hand's tiles as a set of tiles, whatever their order).
A recording of a part of the game is checked on the hands it holds: the record's hands
after the last one read (and beyond as many as were read) were not recorded; they are
named in ``not_recorded``, and neither their hands nor their tiles are counted.

>>> from pathlib import Path
>>> from tablekit.formats.tenhou import import_file
>>> from tablekit.game.events import HandStarted
>>> game = import_file(Path("tablekit/data/tenhou-python-bot-28.xml")).events
>>> check = compare(game, game)
>>> check.hands, check.hands_exact, check.tiles, check.tiles_right, check.lines
(6, 6, 446, 446, [])
>>> third = [i for i, event in enumerate(game) if isinstance(event, HandStarted)][2]
>>> part = compare(game[:third], game)   # two hands recorded
>>> part.hands, part.hands_exact, part.tiles, part.not_recorded, part.lines
(2, 2, 160, ['E2-2', 'E2-3', 'E3-0', 'E4-0'], [])
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from tablekit.errors import BadInput
from tablekit.game.events import BadEvent, Event, to_json
from tablekit.game.hands import Hand, HandReport, last_game, tiles_in, walk
from tablekit.game.hands import compare as compare_hand


@dataclass
class Check:
    """What comparing two games found."""

    hands: int = 0          # the record's hands
    hands_exact: int = 0    # read exactly as the record has them
    tiles: int = 0          # the record's tiles compared
    tiles_right: int = 0    # of them, read the same
    hands_read: int = 0     # the hands of the game as read
    lines: list[str] = field(default_factory=list)
    not_recorded: list[str] = field(default_factory=list)  # the record's hands after them

    def add_hand(self, report: HandReport) -> None:
        """One of the record's hands, as compared."""
        self.hands_exact += report.exact
        self.tiles += report.tiles
        self.tiles_right += report.tiles_right
        self.lines.extend(report.lines)

    def summary(self) -> dict[str, Any]:
        return {"hands": self.hands, "hands_exact": self.hands_exact, "tiles": self.tiles,
                "tiles_right": self.tiles_right, "hands_read": self.hands_read,
                "differences": len(self.lines), "not_recorded": list(self.not_recorded)}

    def text(self, name: str) -> str:
        """The summary line, under the recording's ``name``.

        >>> Check(2, 2, 139, 139, 2, not_recorded=["E3-0", "E4-0"]).text("rec")
        'rec: 2/2 hands exact, 139/139 tiles right, 0 differences (2 hands read; not \
recorded: E3-0, E4-0)'
        """
        rest = f"; not recorded: {', '.join(self.not_recorded)}" if self.not_recorded else ""
        return (f"{name}: {self.hands_exact}/{self.hands} hands exact, {self.tiles_right}/"
                f"{self.tiles} tiles right, {len(self.lines)} differences "
                f"({self.hands_read} hand{'' if self.hands_read == 1 else 's'} read{rest})")


def hands_seen(events: Iterable[Event]) -> list[Hand]:
    """Each hand of the last game in ``events`` that came to its result; raises
    :class:`~tablekit.game.events.BadEvent` where the game does not play."""
    hands = []
    for hand in walk(last_game(events)):
        if hand.refused:
            raise BadEvent(hand.refused)
        if hand.ended:
            hands.append(hand)
    return hands


def compare(read: Iterable[Event], record: Iterable[Event]) -> Check:
    """The game as read (``read``) against the record kept of it (``record``)."""
    check = Check()
    mine = {hand.label: hand for hand in _played(read, "the game as read")}
    theirs = _played(record, "the record")
    read_last = max((i + 1 for i, hand in enumerate(theirs) if hand.label in mine), default=0)
    recorded = max(read_last, min(len(mine), len(theirs)))
    theirs, check.not_recorded = theirs[:recorded], [h.label for h in theirs[recorded:]]
    check.hands, check.hands_read = len(theirs), len(mine)
    for hand in theirs:
        got = mine.pop(hand.label, None)
        check.add_hand(compare_hand(got, hand) if got is not None else HandReport(
            hand.label, ("in the record, not read",), tiles_in(hand)))
    check.lines.extend(f"{label}: read, not in the record" for label in mine)
    return check


def plain_record(events: Iterable[Event]) -> str:
    """The last game in ``events`` as a record to correct by hand: one event a line, plain
    JSON (a journal of format 1: no numbers, no checksums), which :func:`compare` reads
    back as the record.

    >>> from tablekit.game.events import GameEnded, GameStarted
    >>> plain_record([GameStarted(names=("A", "B", "C", "D")), GameEnded("time")]).splitlines()[1]
    '{"type": "game_ended", "reason": "time"}'
    """
    return "".join(to_json(event) + "\n" for event in last_game(events))


def _played(events: Iterable[Event], name: str) -> list[Hand]:
    try:
        return hands_seen(events)
    except BadEvent as error:
        raise BadInput(f"{name} does not play: {error}") from None
