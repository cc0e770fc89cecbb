"""What a table sends: its live state and each finished game, as JSON, and the finished
game's stable id (from the journal: where the game starts in it and when).

>>> from tablekit.game.events import GameStarted
>>> from tablekit.game.reducer import replay
>>> state = live_state(replay([GameStarted(names=("Ana", "Ben", "Cho", "Dai"))]),
...                    hands=0, changed_at=0.0)
>>> state["round"], state["names"], state["scores"], state["dealer"]
('East 1', ['Ana', 'Ben', 'Cho', 'Dai'], [25000, 25000, 25000, 25000], 0)
"""

from __future__ import annotations

import hashlib
import json
import mmap
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from tablekit.game.events import BadEvent, Event, from_dict, to_dict
from tablekit.game.journal import unseal
from tablekit.game.state import TableState
from tablekit.game.summary import default_name


def live_state(state: TableState, hands: int, changed_at: float) -> dict[str, Any]:
    """A table's retained live state: round, scores, names, dealer, honba, deposits, hands
    played and when it last changed (seconds since the epoch)."""
    names = state.names or tuple(default_name(s) for s in range(len(state.scores)))
    return {"round": state.round_label, "phase": state.phase.value,
            "scores": list(state.scores), "names": list(names), "dealer": state.dealer,
            "honba": state.honba, "deposits": state.sticks, "hands": hands,
            "changed_at": round(changed_at, 3)}


def game_record(game_id: str, table: str, events: Sequence[Event], finished_at: float
                ) -> dict[str, Any]:
    """A finished game as the board records it: its events in force (the league's
    :func:`~tablekit.league.record.record_game` takes them as a table's own league does)."""
    return {"game_id": game_id, "table": table,
            "played_at": datetime.fromtimestamp(finished_at, UTC).isoformat(timespec="seconds"),
            "events": [to_dict(event) for event in events]}


def record_events(record: dict[str, Any]) -> list[Event]:
    """The events of a :func:`game_record` (a :class:`~tablekit.game.events.BadEvent` or a
    KeyError/TypeError for one that is not)."""
    return [from_dict(data) for data in record["events"]]


def game_id(table: str, journal: Path | None, index: int) -> str:
    """A finished game's id, the same however often it is worked out: the table, when the
    game started (from its start line in the journal), where it starts in the journal
    (``index``, :attr:`~tablekit.game.session.Session.game_id`) and which journal it is.

    >>> game_id("A", None, 7)
    'A-0-7-0000'
    """
    if journal is None:
        return f"{table}-0-{index}-0000"
    where = hashlib.sha1(str(Path(journal).resolve()).encode()).hexdigest()[:4]
    return f"{table}-{_started(Path(journal), index)}-{index}-{where}"


def _started(journal: Path, index: int) -> str:
    """When the game at ``index`` started, as ``YYYYMMDDTHHMMSS`` (``0``: not said)."""
    mark = json.dumps({"n": index + 1, "type": "game_started"})[:-1].encode()
    try:
        with journal.open("rb") as file, mmap.mmap(file.fileno(), 0,
                                                   access=mmap.ACCESS_READ) as data:
            start = data.rfind(mark)
            if start < 0:
                return "0"
            end = data.find(b"\n", start)
            line = data[start:end if end >= 0 else len(data)]
        at = json.loads(unseal(line))["at"]
        return datetime.fromisoformat(at).strftime("%Y%m%dT%H%M%S")
    except (OSError, BadEvent, ValueError, KeyError, TypeError):
        return "0"
