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
import math
import mmap
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from tablekit.game.events import BadEvent, Event, GameStarted, from_dict, to_dict
from tablekit.game.journal import unseal
from tablekit.game.state import TableState
from tablekit.game.summary import GameSummary, default_name
from tablekit.rules.presets import Rules, rules_to_dict
from tablekit.rules.schema import RulesSchema, refusal
from tablekit.untrusted.wire import SCORE_LIMIT, GameRecord


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


def record_events(record: GameRecord) -> list[Event]:
    """The events of a :func:`game_record` checked by its model: one game, from its start,
    its names one per player of its rules, and its rules within the limits of the rules'
    schema (:func:`rules_problem`); a :class:`~tablekit.game.events.BadEvent` says why not.

    >>> from tablekit.untrusted.wire import read_game
    >>> start = {"type": "game_started", "names": ["Ana", "Ben", "Cho"]}
    >>> try:
    ...     record_events(read_game({"game_id": "A-0-1-0000", "table": "A",
    ...                              "events": [start]}))
    ... except BadEvent as error:
    ...     print(error)
    the game names 3 players for rules of 4
    """
    events = [from_dict(data) for data in record.event_dicts()]
    start = events[0]
    if not isinstance(start, GameStarted):
        raise BadEvent("the game's events do not start with its start")
    if any(isinstance(event, GameStarted) for event in events[1:]):
        raise BadEvent("the game's events hold more than one game")
    players = start.rules.players
    if start.names and len(start.names) != players:
        raise BadEvent(f"the game names {len(start.names)} players for rules of {players}")
    problem = rules_problem(start.rules)
    if problem is not None:
        raise BadEvent(f"its rules: {problem}")
    return events


TAKEN_AS_PLAYED = ("multiple_of",)  # an older tablekit's steps (honba in 100s), as played
LONG_TEXT = ("name", "title", "source")  # and its longer names, up to LONGEST_TEXT
LONGEST_TEXT = 300


def rules_problem(rules: Rules) -> str | None:
    """Why a game's ``rules`` are past the limits of the rules' schema, in one line (None:
    they are within them). A game played under an older tablekit's options (honba in 100s,
    a long name) is read as played, as its journal is; a number past the schema's bounds
    (start points of 10**12) is not.

    >>> from dataclasses import replace
    >>> from tablekit.rules.presets import TENHOU
    >>> rules_problem(replace(TENHOU, honba_value=100, name="n" * 100)) is None
    True
    >>> rules_problem(replace(TENHOU, name="n" * 5000))
    'name is over 300 characters'

    >>> rules_problem(replace(TENHOU, start_points=10 ** 12))
    'start_points must be at most 1,000,000, not 1000000000000'
    """
    try:
        RulesSchema.model_validate(rules_to_dict(rules))
    except ValidationError as error:
        for problem in error.errors(include_url=False):
            if problem["type"] in TAKEN_AS_PLAYED:
                continue
            if problem["type"] == "string_too_long" and problem["loc"][0] in LONG_TEXT:
                if len(problem["input"]) <= LONGEST_TEXT:
                    continue
                return f"{problem['loc'][0]} is over {LONGEST_TEXT} characters"
            return refusal(problem)
    return None


def summary_problem(summary: GameSummary) -> str | None:
    """Why a game's result is past what the league keeps, in one line (None: it is not):
    a seat's points or penalties past :data:`~tablekit.untrusted.wire.SCORE_LIMIT`."""
    for player in summary.players:
        if abs(player.points) > SCORE_LIMIT or abs(player.penalty) > SCORE_LIMIT:
            return (f"{player.name}'s points or penalties are past "
                    f"{SCORE_LIMIT:,} either way")
        if not math.isfinite(player.score) or abs(player.score) > SCORE_LIMIT:
            return f"{player.name}'s game points are past {SCORE_LIMIT:,}"
    return None


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
