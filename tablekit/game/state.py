"""The table state the reducer folds events into (immutable; each event makes a new one).

>>> state = TableState.new(TENHOU)
>>> state.scores, state.round_label
((25000, 25000, 25000, 25000), 'East 1')
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import Enum, StrEnum
from typing import NamedTuple, TypeVar

from tablekit.rules.hand import WINDS, Meld
from tablekit.rules.presets import TENHOU, Rules
from tablekit.rules.scoring import HandValue
from tablekit.tiles import WIND_NAMES, Tile

SEATS = 4  # the most seats a table has; a three-player (sanma) game plays three
LIVE_WALL = 70  # 136 tiles - 14 dead wall - 4 x 13 dealt
SANMA_LIVE_WALL = 55  # 108 tiles (no 2m-8m) - 14 dead wall - 3 x 13 dealt
KINDS = 34
NORTH = 30  # the kind a three-player seat sets aside as kita


def live_wall(players: int) -> int:
    """The tiles left to draw after the deal, for a table of ``players``.

    >>> live_wall(4), live_wall(3)
    (70, 55)
    """
    return LIVE_WALL if players == 4 else SANMA_LIVE_WALL

Frozen = TypeVar("Frozen")


def evolve(obj: Frozen, **changes: object) -> Frozen:
    """``dataclasses.replace`` for the frozen states of this module, without its cost (no
    ``__init__`` call): a copy of ``obj`` with ``changes``. The reducer makes a few per event.

    >>> seat = evolve(SeatState(draws=1), riichi=True)
    >>> seat == SeatState(draws=1, riichi=True), seat.draws
    (True, 1)
    >>> evolve(SeatState(), draw=2)
    Traceback (most recent call last):
    ...
    TypeError: SeatState has no field draw
    """
    return _evolved(obj, changes)


def _evolved(obj: Frozen, changes: dict[str, object]) -> Frozen:
    fields = obj.__dict__
    values = fields.copy()
    values.update(changes)
    if len(values) != len(fields):  # every field is in __dict__: a new key is no field
        unknown = ", ".join(sorted(changes.keys() - fields.keys()))
        raise TypeError(f"{type(obj).__name__} has no field {unknown}")
    new = object.__new__(type(obj))
    object.__setattr__(new, "__dict__", values)  # frozen: the fields are set once, here
    return new


class Phase(Enum):
    """Where the game stands."""

    NOT_STARTED = "not started"
    HAND_IN_PLAY = "hand in play"
    HAND_OVER = "hand over"
    GAME_OVER = "game over"


@dataclass(frozen=True)
class PondTile:
    tile: Tile
    riichi: bool = False
    tsumogiri: bool = False
    claimed: bool = False


@dataclass(frozen=True)
class SeatState:
    """One player's side of the table during a hand."""

    pond: tuple[PondTile, ...] = ()
    melds: tuple[Meld, ...] = ()
    riichi: bool = False
    double_riichi: bool = False
    ippatsu: bool = False
    draws: int = 0
    riichi_declared: bool = False
    kita: int = 0  # Norths set aside (three players): each a dora for this seat

    @property
    def discards(self) -> tuple[Tile, ...]:
        return tuple(p.tile for p in self.pond)

    @property
    def calls(self) -> int:
        """How many calls the seat's melds stand for: one each, and one more for an added
        kan (its fourth tile turns a pon into a kan: one CALL more, the melds as many).

        >>> from tablekit.rules.hand import Meld
        >>> SeatState(melds=(Meld.parse("shouminkan:2222m"), Meld.parse("pon:777z"))).calls
        3
        """
        return len(self.melds) + sum(meld.kind == "shouminkan" for meld in self.melds)


@dataclass(frozen=True)
class WinResult:
    """One scored win of a hand result, for the display and the journal check."""

    seat: int
    value: HandValue
    from_seat: int | None
    pao_seat: int | None
    hand: tuple[Tile, ...]
    win_tile: Tile
    melds: tuple[Meld, ...]
    dora: tuple[Tile, ...] = ()  # the indicators the hand was scored with
    ura: tuple[Tile, ...] = ()


class ResultKind(StrEnum):
    """How a hand ended (each equal to its name as a string: ``ResultKind.WIN == "win"``)."""

    WIN = "win"
    EXHAUSTIVE_DRAW = "exhaustive_draw"
    ABORTIVE_DRAW = "abortive_draw"
    CHOMBO = "chombo"


@dataclass(frozen=True)
class HandResult:
    """How the last hand ended and what every seat gained or lost."""

    kind: ResultKind
    deltas: tuple[int, ...]
    wins: tuple[WinResult, ...] = ()
    tenpai: tuple[int, ...] = ()
    detail: str = ""


@dataclass(frozen=True)
class LedgerEntry:
    """One line of a game's penalty ledger: ``points`` off (negative: paid to) ``seat``."""

    seat: int
    points: int
    reason: str


@dataclass(frozen=True)
class Standing:
    seat: int
    rank: int
    points: int
    score: float  # (points - return points) / 1000 + uma (+ oka for first)


class Tally(NamedTuple):
    """The count of each kind showing (34 numbers), valid for the very ``seats`` and ``dora``
    tuples it names: a state copied with other ones (``dataclasses.replace``) recounts."""

    seats: tuple[SeatState, ...]
    dora: tuple[Tile, ...]
    counts: tuple[int, ...]


@dataclass(frozen=True)
class TableState:
    """Everything on the table: points, winds, counters, ponds, melds and the last result."""

    rules: Rules
    phase: Phase = Phase.NOT_STARTED
    scores: tuple[int, ...] = (25000,) * SEATS
    names: tuple[str, ...] = ()
    first_dealer: int = 0
    round_wind: int = 0
    hand_number: int = 0  # 0-3 within the round wind
    honba: int = 0
    sticks: int = 0
    seats: tuple[SeatState, ...] = (SeatState(),) * SEATS
    dora: tuple[Tile, ...] = ()
    wall: int = LIVE_WALL
    turn: int | None = None  # the seat to act next
    to_draw: bool = False  # that seat draws next (else it discards)
    kan_draw: bool = False  # the next draw is a replacement tile after a kan
    last_discard: tuple[int, Tile] | None = None
    pending_riichi: int | None = None
    last_draw_rinshan: bool = False
    chankan_tile: Tile | None = None
    kita_by: int | None = None  # the seat that just set a North aside (it can be ronned)
    interrupted: bool = False  # a call has happened in the hand
    kans: int = 0
    tracked: bool = True  # draws and discards are followed (camera or record)
    result: HandResult | None = None
    standings: tuple[Standing, ...] = ()
    penalties: tuple[int, ...] = (0,) * SEATS  # points taken from each final score
    ledger: tuple[LedgerEntry, ...] = ()  # the penalties line by line
    leftover_sticks: int = 0  # riichi sticks handed to first place at the end
    end_reason: str = ""
    events: int = field(default=0, compare=False)
    # The kinds showing (see kind_counts), kept by the reducer for these seats and dora:
    tally: Tally | None = field(default=None, compare=False, repr=False)

    @classmethod
    def new(cls, rules: Rules = TENHOU, names: tuple[str, ...] = (), first_dealer: int = 0
            ) -> TableState:
        """A game's table before its first deal: one seat per player of the rules.

        >>> from tablekit.rules.presets import TENHOU_SANMA
        >>> sanma = TableState.new(TENHOU_SANMA)
        >>> sanma.scores, len(sanma.seats), sanma.wall, sanma.players
        ((35000, 35000, 35000), 3, 55, 3)
        """
        players = rules.players
        if players == SEATS:  # the class's defaults, shared: a four-player state as it was
            return cls(rules=rules, scores=(rules.start_points,) * SEATS, names=names,
                       first_dealer=first_dealer)
        return cls(rules=rules, scores=(rules.start_points,) * players, names=names,
                   first_dealer=first_dealer, seats=(SeatState(),) * players,
                   wall=live_wall(players), penalties=(0,) * players)

    @property
    def players(self) -> int:
        """The seats at this table: 4, or 3 for sanma."""
        return self.rules.players

    @property
    def dealer(self) -> int:
        return (self.first_dealer + self.hand_number) % self.rules.players

    def seat_wind(self, seat: int) -> int:
        """0-3 for East..North: the dealer is East (three players: East, South, West)."""
        return (seat - self.dealer) % self.rules.players

    @property
    def round_label(self) -> str:
        """``East 1``, ``South 4``..."""
        return f"{WIND_NAMES[self.round_wind]} {self.hand_number + 1}"

    @property
    def short_label(self) -> str:
        """``E1-0`` style label with honba."""
        return f"{WINDS[self.round_wind]}{self.hand_number + 1}-{self.honba}"

    @property
    def total_points(self) -> int:
        """Points plus deposits on the table: constant through a game."""
        return sum(self.scores) + self.sticks * self.rules.riichi_deposit

    def visible_kinds(self) -> Counter[int]:
        """How many of each kind lie face up outside the hands: dora indicators, discards
        not claimed, melds (a kind can show at most four times). Counted afresh."""
        visible: Counter[int] = Counter(t.kind for t in self.dora)
        for seat in self.seats:
            if seat.kita:
                visible[NORTH] += seat.kita
            visible.update(p.tile.kind for p in seat.pond if not p.claimed)
            visible.update(t.kind for m in seat.melds for t in m.tiles)
        return visible

    def kind_counts(self) -> tuple[int, ...]:
        """:meth:`visible_kinds` as 34 counts, kind by kind: the reducer's running tally when
        it was kept for this state's seats and dora, else a recount.

        >>> shown = TableState.new().showing(added=(27,), dora=(Tile(27),))
        >>> shown.kind_counts()[27], TableState(TENHOU, dora=(Tile(27),)).kind_counts()[27]
        (1, 1)
        """
        tally = self.tally
        if tally is not None and tally.seats is self.seats and tally.dora is self.dora:
            return tally.counts
        counts = [0] * KINDS
        for kind in self.visible_kinds().elements():
            counts[kind] += 1
        return tuple(counts)

    def showing(self, added: Sequence[int] = (), removed: Sequence[int] = (),
                **changes: object) -> TableState:
        """A copy with ``changes`` (to seats and dora among others) that put the kinds
        ``added`` face up and turn ``removed`` away: the tally follows without a recount."""
        counts = self.kind_counts()
        if added or removed:
            moved = list(counts)
            for kind in added:
                moved[kind] += 1
            for kind in removed:
                moved[kind] -= 1
            counts = tuple(moved)
        changes["tally"] = Tally(changes.get("seats", self.seats), changes.get("dora", self.dora),
                                 counts)
        return _evolved(self, changes)

    def with_seat(self, seat: int, added: Sequence[int] = (), removed: Sequence[int] = (),
                  **changes: object) -> TableState:
        """A copy with ``changes`` to one seat; ``added`` and ``removed`` as in
        :meth:`showing` (a new discard or meld shows its kinds)."""
        return self.showing(added, removed, seats=self.seats_with(seat, **changes))

    def seats_with(self, seat: int, **changes: object) -> tuple[SeatState, ...]:
        """The seats with ``changes`` to one of them."""
        seats = list(self.seats)
        seats[seat] = evolve(seats[seat], **changes)
        return tuple(seats)

    def starting_wind(self, seat: int) -> int:
        """0-3: the seat's wind in the game's first hand (the final standings name it so)."""
        return (seat - self.first_dealer) % self.rules.players


def player_label(wind: int, name: str = "") -> str:
    """A seat as players say it: its wind, and the player's name when there is one.

    >>> player_label(0, "Alice"), player_label(2)
    ('East (Alice)', 'West')
    """
    return f"{WIND_NAMES[wind]} ({name})" if name else WIND_NAMES[wind]


def seat_name(state: TableState, seat: int | None, wind: int | None = None) -> str:
    """``seat`` named by its wind this hand (or ``wind``) and its player's name: every
    message a player reads names seats so, never by number.

    >>> state = TableState.new(names=("Ana", "Ben", "Chie", "Dan"), first_dealer=1)
    >>> seat_name(state, 2), seat_name(state, 0), seat_name(TableState.new(), 3)
    ('South (Chie)', 'North (Ana)', 'North')
    >>> seat_name(state, 9)
    'seat 9'
    """
    if seat not in range(state.players):
        return f"seat {seat}"  # only in the refusal of a seat that does not exist
    name = state.names[seat] if seat < len(state.names) else ""
    return player_label(state.seat_wind(seat) if wind is None else wind, name)


def ordinal(number: int) -> str:
    """``1st``, ``2nd``, ``3rd``, ``4th`` ... ``11th``, ``21st``.

    >>> [ordinal(n) for n in (1, 2, 3, 4, 11, 12, 21, 22)]
    ['1st', '2nd', '3rd', '4th', '11th', '12th', '21st', '22nd']
    """
    if 10 <= number % 100 <= 20:
        return f"{number}th"
    return f"{number}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(number % 10, 'th')}"

