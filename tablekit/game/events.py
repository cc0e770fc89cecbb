"""The events that change a game: a closed set of small frozen dataclasses.

Camera, buttons and record importers produce them; :func:`tablekit.game.reducer.apply`
consumes them; the journal writes them as tagged JSON lines, tiles in mpsz.

>>> event = Discard(seat=2, tile=Tile.from_code("0p"))
>>> to_json(event)
'{"type": "discard", "seat": 2, "tile": "0p", "tsumogiri": false}'
>>> from_json(to_json(event)) == event
True
>>> call = Call(1, "pon", tuple(parse_tiles("666m")), Tile.from_code("6m"), 0)
>>> won = Won((WinnerHand(1, tuple(parse_tiles("123m456p789s11z22z")), Tile(27)),), 0)
>>> from_json(to_json(call)) == call, from_json(to_json(won)) == won
(True, True)
"""

from __future__ import annotations

import dataclasses
import functools
import json
from dataclasses import dataclass
from typing import Any, Literal, Union, get_args, get_origin, get_type_hints

from tablekit.errors import TablekitError
from tablekit.rules.hand import Meld, MeldKind
from tablekit.rules.presets import TENHOU, Rules, rules_as_played, rules_to_dict
from tablekit.tiles import Tile, parse_tiles, to_mpsz
from tablekit.untrusted import Untrusted
from tablekit.untrusted.json_text import parse_json

AbortKind = Literal["nine_terminals", "four_winds", "four_riichi", "four_kans", "triple_ron"]


class BadEvent(TablekitError, ValueError):
    """An event that cannot be read, or that contradicts the table (named in the message)."""


@dataclass(frozen=True)
class GameStarted:
    """A new game: its rules and optional names. The journal writes the rules as every
    option (:func:`~tablekit.rules.presets.rules_to_dict`) and reads a preset's name with
    overrides too (``{"base": "wrc2025", ...}``, as older journals have it).

    >>> started = from_json('{"type": "game_started", "rules": {"base": "wrc2025"}}')
    >>> started.rules.name, from_json(to_json(started)) == started
    ('wrc2025', True)
    """

    rules: Rules = TENHOU
    names: tuple[str, ...] = ()
    first_dealer: int = 0


@dataclass(frozen=True)
class HandStarted:
    """The deal of the next hand; ``dora`` is the first indicator when it is known.

    ``tracked`` False scores the hand from buttons alone: no draws or discards are
    followed, riichi sticks go down at once, wins are entered as han and fu.
    """

    dora: Tile | None = None
    tracked: bool = True


@dataclass(frozen=True)
class TrackingStopped:
    """The camera stops following the hand in play (it cannot read the tiles: a set the
    models never saw): the rest of the hand is kept from the buttons, as a hand dealt
    with ``tracked`` False; what the camera registered stays.

    >>> to_json(TrackingStopped())
    '{"type": "tracking_stopped"}'
    """


@dataclass(frozen=True)
class Draw:
    """A seat draws (``tile`` None when nobody saw it); ``rinshan`` after a kan."""

    seat: int
    tile: Tile | None = None
    rinshan: bool = False


@dataclass(frozen=True)
class Discard:
    seat: int
    tile: Tile
    tsumogiri: bool = False


@dataclass(frozen=True)
class DiscardCorrected:
    """A discard read wrong is put right: ``index`` in the seat's pond (claimed tiles
    counted), ``tile`` what it really is (the camera saw it better later, or a person)."""

    seat: int
    index: int
    tile: Tile


@dataclass(frozen=True)
class MeldCorrected:
    """A meld read wrong is put right in place: ``meld`` the seat's meld (0 the first laid),
    ``tiles`` what it really is, in the order laid (a pon read as another tile changes all
    three); what came after stands. The claimed tile is put right in the discarder's pond too.

    >>> fix = MeldCorrected(1, 0, tuple(parse_tiles("340p")))
    >>> to_json(fix), from_json(to_json(fix)) == fix
    ('{"type": "meld_corrected", "seat": 1, "meld": 0, "tiles": "340p"}', True)
    """

    seat: int
    meld: int
    tiles: tuple[Tile, ...]


@dataclass(frozen=True)
class RiichiDeclared:
    """The seat declares riichi; its next discard is the riichi tile, the stick goes
    down when that discard is not ronned."""

    seat: int


@dataclass(frozen=True)
class Call:
    """chi, pon, kan (open, from a discard), shouminkan (added) or ankan (closed)."""

    seat: int
    kind: MeldKind
    tiles: tuple[Tile, ...]
    called: Tile | None = None
    from_seat: int | None = None

    def meld(self) -> Meld:
        return Meld(self.kind, self.tiles, self.from_seat, self.called)


@dataclass(frozen=True)
class Kita:
    """Three players: ``seat`` sets a North aside after drawing (nuki-dora, a dora for that
    seat at its win). It is no discard and no kan: a replacement is drawn next
    (``Draw(seat, rinshan=True)``), and another seat may ron on the North before that.

    >>> from_json(to_json(Kita(2))) == Kita(2), to_json(Kita(2))
    (True, '{"type": "kita", "seat": 2}')
    """

    seat: int


@dataclass(frozen=True)
class DoraRevealed:
    indicator: Tile


@dataclass(frozen=True)
class DoraCorrected:
    """A dora indicator read wrong is put right: ``index`` in the order they were turned
    (0 the first of the hand), ``tile`` what it really is."""

    index: int
    tile: Tile


@dataclass(frozen=True)
class WinnerHand:
    """One winner: the revealed concealed tiles with the winning tile (melds come from
    the table), or, for a hand scored without tile tracking, the han and fu people
    entered (``hand`` empty, ``win_tile`` None)."""

    seat: int
    hand: tuple[Tile, ...] = ()
    win_tile: Tile | None = None
    han: int | None = None
    fu: int | None = None
    yakuman: int = 0


@dataclass(frozen=True)
class Won:
    """One tsumo (``from_seat`` None) or one or more ron on the same tile."""

    winners: tuple[WinnerHand, ...]
    from_seat: int | None = None
    ura: tuple[Tile, ...] = ()


@dataclass(frozen=True)
class ExhaustiveDraw:
    """The wall ran out; ``tenpai`` seats declared, ``nagashi`` seats made nagashi mangan.
    ``wall_left``: the tiles the camera still counted in the wall when the players declared
    the draw (its last discards missed); a draw is refused unless it matches the count."""

    tenpai: tuple[int, ...] = ()
    nagashi: tuple[int, ...] = ()
    wall_left: int = 0


@dataclass(frozen=True)
class AbortiveDraw:
    kind: AbortKind
    seat: int | None = None


@dataclass(frozen=True)
class Chombo:
    """A penalty against ``seat``; the preset says what it costs."""

    seat: int


@dataclass(frozen=True)
class Penalty:
    """``points`` off ``seat``'s final score, for ``reason``, written in the game's ledger;
    ``shared``: paid to the other three in equal parts, so the ledger sums to zero."""

    seat: int
    points: int
    reason: str = "penalty"
    shared: bool = False


@dataclass(frozen=True)
class GameEnded:
    """Ends the game now (time called); otherwise the rules end it by themselves."""

    reason: str = "ended by the players"


@dataclass(frozen=True)
class Undo:
    """Takes back the last ``count`` actions that are still in force."""

    count: int = 1


@dataclass(frozen=True)
class Redo:
    """Puts back the last action taken back by :class:`Undo`."""

    count: int = 1


Event = Union[  # noqa: UP007 - the union is read at run time by get_args
    GameStarted, HandStarted, TrackingStopped, Draw, Discard, DiscardCorrected, MeldCorrected,
    RiichiDeclared, Call, Kita,
    DoraRevealed, DoraCorrected, Won,
    ExhaustiveDraw, AbortiveDraw, Chombo, Penalty, GameEnded, Undo, Redo,
]
HAND_ENDS = (Won, ExhaustiveDraw, AbortiveDraw, Chombo)
"""The events that end a hand: hands played are counted by them (the game timer, the
club's live state)."""
EVENT_TYPES: dict[str, type] = {
    "game_started": GameStarted, "hand_started": HandStarted,
    "tracking_stopped": TrackingStopped, "draw": Draw, "discard": Discard,
    "discard_corrected": DiscardCorrected, "meld_corrected": MeldCorrected,
    "riichi": RiichiDeclared, "call": Call, "kita": Kita, "dora": DoraRevealed,
    "dora_corrected": DoraCorrected, "won": Won,
    "exhaustive_draw": ExhaustiveDraw, "abortive_draw": AbortiveDraw, "chombo": Chombo,
    "penalty": Penalty, "game_ended": GameEnded, "undo": Undo, "redo": Redo,
}
TYPE_NAMES = {cls: name for name, cls in EVENT_TYPES.items()}
assert set(EVENT_TYPES.values()) == set(get_args(Event))


@functools.cache
def _hints(cls: type) -> dict[str, Any]:
    """A class's field types, worked out once (a long journal reads many events)."""
    return get_type_hints(cls)


def to_dict(event: Event) -> dict[str, Any]:
    """The event as a JSON-ready dict with a ``type`` tag first."""
    out: dict[str, Any] = {"type": TYPE_NAMES[type(event)]}
    for item in dataclasses.fields(event):
        out[item.name] = _encode(getattr(event, item.name))
    return out


def to_json(event: Event) -> str:
    return json.dumps(to_dict(event), ensure_ascii=False)


def from_dict(data: dict[str, Any]) -> Event:
    """Read an event written by :func:`to_dict`; a bad field raises :class:`BadEvent`."""
    data = dict(data)
    kind = data.pop("type", None)
    cls = EVENT_TYPES.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise BadEvent(f"unknown event type {kind!r}" if kind is not None
                       else f"an event without a type: {data!r}"[:120])
    hints = _hints(cls)
    try:
        return cls(**{k: _decode(v, hints[k]) for k, v in data.items()})
    except (KeyError, TypeError, ValueError) as error:
        raise BadEvent(f"cannot read {cls.__name__} from {data!r}: {error}") from None


def from_json(line: str) -> Event:
    try:
        return from_dict(parse_json(line))
    except Untrusted as error:
        raise BadEvent(f"not a JSON event: {line[:80]!r} ({error})") from None


def _encode(value: Any) -> Any:
    if isinstance(value, Rules):
        return rules_to_dict(value)
    if isinstance(value, Tile):
        return value.code
    if isinstance(value, tuple) and value and all(isinstance(v, Tile) for v in value):
        return to_mpsz(value)
    if isinstance(value, tuple):
        return [_encode(v) for v in value]
    if dataclasses.is_dataclass(value):
        return {f.name: _encode(getattr(value, f.name)) for f in dataclasses.fields(value)}
    return value


def _winner(data: dict[str, Any]) -> WinnerHand:
    hints = _hints(WinnerHand)
    return WinnerHand(**{k: _decode(v, hints[k]) for k, v in data.items()})


def _decode(value: Any, hint: Any) -> Any:
    """A JSON value back as the field's type: tiles from mpsz, tuples from lists.

    >>> _decode("550m", tuple[Tile, ...]) == tuple(parse_tiles("550m"))
    True
    >>> _decode([{"seat": 1, "han": 2, "fu": 30}], tuple[WinnerHand, ...])
    (WinnerHand(seat=1, hand=(), win_tile=None, han=2, fu=30, yakuman=0),)
    """
    if value is None:
        return None
    if hint is Rules:
        if not isinstance(value, dict):
            raise TypeError(f"rules must be an object of options, not {value!r}")
        return rules_as_played(value)
    args = [arg for arg in get_args(hint) if arg is not type(None)]
    if get_origin(hint) is tuple:
        if args and args[0] is Tile:
            return tuple(parse_tiles(value)) if isinstance(value, str) else tuple(
                Tile.from_code(v) for v in value)
        if args and args[0] is WinnerHand:
            return tuple(_winner(v) for v in value)
        return tuple(value)
    if hint is Tile or Tile in args:
        return Tile.from_code(value)
    return value
