"""What the club's tables send over MQTT, as pydantic models with limits: a table's live
state, a finished game (its id, table, time and events) and an outbox file. The board and
the table's publisher check every payload here, after :func:`~tablekit.untrusted.json_text.
parse_json`, so that nothing from the wire reaches the league or the page unchecked.

>>> state = read_state({"round": "East 1", "scores": [25000, 25000, 25000, 25000],
...                     "names": ["Ana", "Ben", "Cho", "Dai"], "dealer": 0})
>>> state["round"], state["names"][0], "honba" in state  # what it did not say, left out
('East 1', 'Ana', False)
>>> def refused(read, data):
...     try:
...         read(data)
...     except Untrusted as error:
...         return str(error)
>>> refused(read_state, {"names": ["Ana\\u202e"]})
'names[0]: holds an invisible format character (U+202E)'
>>> refused(read_state, {"scores": [10 ** 12]})
'scores[0]: at most 10,000,000, not 1000000000000'

A finished game's id names its table: ``TABLE-YYYYMMDDTHHMMSS-INDEX-XXXX`` (``0`` for a
start not known, the journal's hash last):

>>> id_table("table-2-20261203T154000-3-3fa2"), id_table("A-0-7-0000")
('table-2', 'A')
>>> id_table("A-1") is None, id_table("A-0-7-0000/#") is None
(True, True)
"""

from __future__ import annotations

import math
import re
from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    StrictFloat,
    StrictInt,
    StrictStr,
    ValidationError,
)

from tablekit.untrusted import Untrusted
from tablekit.untrusted.fields import POINTS_LIMIT, PlayerName, Text
from tablekit.untrusted.shapes import said

SCORE_LIMIT = 10 * POINTS_LIMIT  # a seat's points in a game, either way: four starts and more
TABLE_PATTERN = r"[A-Za-z0-9_.-]{1,40}"
GAME_ID = re.compile(
    rf"(?P<table>{TABLE_PATTERN})-(?:[0-9]{{8}}T[0-9]{{6}}|0)-[0-9]{{1,9}}-[0-9a-f]{{4}}")
EVENTS_LIMIT = 20_000  # a long game has about 2,000 events
TIME_LIMIT = 1e11      # seconds since the epoch: past the year 5000


def id_table(game_id: str) -> str | None:
    """The table a finished game's id names (None: it is no game id)."""
    match = GAME_ID.fullmatch(game_id)
    return match.group("table") if match else None


def _game_id(value: str) -> str:
    if id_table(value) is None:
        raise ValueError("is no game id (TABLE-YYYYMMDDTHHMMSS-INDEX-XXXX)")
    return value


def _iso_time(value: str) -> str:
    try:
        when = datetime.fromisoformat(value)
    except ValueError:
        raise ValueError("is no ISO date and time (2026-12-03T15:40:00+00:00)") from None
    return when.isoformat()


def _topic(value: str) -> str:
    if any(char in value for char in "#+\x00"):
        raise ValueError("holds an MQTT wildcard (# or +) or a NUL")
    return value


def _finite(value: float) -> float:
    if not math.isfinite(value):
        raise ValueError("is not a finite number")
    return value


Seat = Annotated[StrictInt, Field(ge=0, le=3)]
Count = Annotated[StrictInt, Field(ge=0, le=100_000)]
Score = Annotated[StrictInt, Field(ge=-SCORE_LIMIT, le=SCORE_LIMIT)]
TableName = Annotated[StrictStr, Field(pattern=rf"^{TABLE_PATTERN}$")]
GameId = Annotated[StrictStr, Field(max_length=80), AfterValidator(_game_id)]
PlayedAt = Annotated[StrictStr, Field(min_length=10, max_length=40), AfterValidator(_iso_time)]
Seconds = Annotated[StrictInt | StrictFloat, Field(ge=0, le=TIME_LIMIT), AfterValidator(_finite)]
TileCode = Annotated[StrictStr, Field(pattern=r"^([0-9][mps]|[1-7]z)$")]
Tiles = Annotated[StrictStr, Field(max_length=40, pattern=r"^[0-9mpsz]*$")] | Annotated[
    list[TileCode], Field(max_length=18)]
Reason = Text(200)


class _Wire(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid", frozen=True)


class LiveState(BaseModel):
    """A table's retained live state (:func:`tablekit.club.records.live_state`); an option
    an older or newer table adds is left out, not refused."""

    model_config = ConfigDict(strict=True, extra="ignore", frozen=True)

    round: Text(40, shortest=0) = ""
    phase: Text(40, shortest=0) = ""
    scores: Annotated[list[Score], Field(max_length=4)] = []
    names: Annotated[list[PlayerName], Field(max_length=4)] = []
    dealer: Seat = 0
    honba: Count = 0
    deposits: Count = 0
    hands: Count = 0
    changed_at: Seconds = 0.0


# --- a finished game's events, as the journal writes them (tablekit.game.events) ---------

class GameStartedWire(_Wire):
    type: Literal["game_started"]
    rules: dict[str, Any] = {}  # checked against the rules' schema where the rules are read
    names: Annotated[list[PlayerName], Field(max_length=4)] = []
    first_dealer: Seat = 0


class HandStartedWire(_Wire):
    type: Literal["hand_started"]
    dora: TileCode | None = None
    tracked: StrictBool = True


class TrackingStoppedWire(_Wire):
    type: Literal["tracking_stopped"]


class DrawWire(_Wire):
    type: Literal["draw"]
    seat: Seat
    tile: TileCode | None = None
    rinshan: StrictBool = False


class DiscardWire(_Wire):
    type: Literal["discard"]
    seat: Seat
    tile: TileCode
    tsumogiri: StrictBool = False


class DiscardCorrectedWire(_Wire):
    type: Literal["discard_corrected"]
    seat: Seat
    index: Annotated[StrictInt, Field(ge=0, le=200)]
    tile: TileCode


class MeldCorrectedWire(_Wire):
    type: Literal["meld_corrected"]
    seat: Seat
    meld: Annotated[StrictInt, Field(ge=0, le=4)]
    tiles: Tiles


class SeatOnlyWire(_Wire):
    type: Literal["riichi", "kita", "chombo"]
    seat: Seat


class CallWire(_Wire):
    type: Literal["call"]
    seat: Seat
    kind: Literal["chi", "pon", "kan", "ankan", "shouminkan"]
    tiles: Tiles
    called: TileCode | None = None
    from_seat: Seat | None = None


class DoraWire(_Wire):
    type: Literal["dora"]
    indicator: TileCode


class DoraCorrectedWire(_Wire):
    type: Literal["dora_corrected"]
    index: Annotated[StrictInt, Field(ge=0, le=10)]
    tile: TileCode


class WinnerHandWire(_Wire):
    seat: Seat
    hand: Tiles = ""
    win_tile: TileCode | None = None
    han: Annotated[StrictInt, Field(ge=0, le=200)] | None = None
    fu: Annotated[StrictInt, Field(ge=0, le=200)] | None = None
    yakuman: Annotated[StrictInt, Field(ge=0, le=10)] = 0


class WonWire(_Wire):
    type: Literal["won"]
    winners: Annotated[list[WinnerHandWire], Field(min_length=1, max_length=3)]
    from_seat: Seat | None = None
    ura: Tiles = ""


class ExhaustiveDrawWire(_Wire):
    type: Literal["exhaustive_draw"]
    tenpai: Annotated[list[Seat], Field(max_length=4)] = []
    nagashi: Annotated[list[Seat], Field(max_length=4)] = []
    wall_left: Annotated[StrictInt, Field(ge=0, le=136)] = 0


class AbortiveDrawWire(_Wire):
    type: Literal["abortive_draw"]
    kind: Literal["nine_terminals", "four_winds", "four_riichi", "four_kans", "triple_ron"]
    seat: Seat | None = None


class PenaltyWire(_Wire):
    type: Literal["penalty"]
    seat: Seat
    points: Annotated[StrictInt, Field(ge=1, le=POINTS_LIMIT)]
    reason: Reason = "penalty"
    shared: StrictBool = False


class GameEndedWire(_Wire):
    type: Literal["game_ended"]
    reason: Reason = "ended by the players"


class UndoWire(_Wire):
    type: Literal["undo", "redo"]
    count: Annotated[StrictInt, Field(ge=1, le=EVENTS_LIMIT)] = 1


EventWire = Annotated[
    GameStartedWire | HandStartedWire | TrackingStoppedWire | DrawWire | DiscardWire
    | DiscardCorrectedWire | MeldCorrectedWire | SeatOnlyWire | CallWire | DoraWire
    | DoraCorrectedWire | WonWire | ExhaustiveDrawWire | AbortiveDrawWire | PenaltyWire
    | GameEndedWire | UndoWire, Field(discriminator="type")]


class GameRecord(_Wire):
    """A finished game as a table sends it (:func:`tablekit.club.records.game_record`):
    the events start with the game's start."""

    game_id: GameId
    table: TableName
    played_at: PlayedAt | None = None
    events: Annotated[list[EventWire], Field(min_length=1, max_length=EVENTS_LIMIT)]

    def event_dicts(self) -> list[dict[str, Any]]:
        """The events as :func:`tablekit.game.events.from_dict` reads them (text cleaned)."""
        return [event.model_dump(exclude_unset=True) for event in self.events]


class OutboxFile(_Wire):
    """One file of a table's outbox: the topic it is sent on (no MQTT wildcard) and the
    game."""

    topic: Annotated[StrictStr, Field(min_length=1, max_length=200), AfterValidator(_topic)]
    payload: GameRecord


def _read(model: type[BaseModel], data: Any) -> Any:
    if not isinstance(data, dict):
        raise Untrusted(f"not a JSON object but {type(data).__name__}")
    try:
        return model.model_validate(data)
    except ValidationError as error:
        raise Untrusted(said(error)) from None


def read_state(data: Any) -> dict[str, Any]:
    """A table's live state, checked: the fields the page shows that the table said, or
    :class:`Untrusted`."""
    return _read(LiveState, data).model_dump(exclude_unset=True)


def read_game(data: Any) -> GameRecord:
    """A finished game, checked, or :class:`Untrusted` naming the first field at fault."""
    return _read(GameRecord, data)


def read_outbox_file(data: Any) -> OutboxFile:
    """An outbox file, checked, or :class:`Untrusted` naming the first field at fault."""
    return _read(OutboxFile, data)
