"""What a club keeps of one game: each player's place, points and game points, and counts.

A summary folds the events through the engine, so it says what the scoreboard said:

>>> from pathlib import Path
>>> from tablekit.formats.tenhou import import_file
>>> game = summarise(import_file(Path("tablekit/data/tenhou-python-bot-28.xml")).events)
>>> game.finished, game.hands, [(p.rank, p.points, p.score) for p in game.players]
(True, 6, [(3, 24000, -16.0), (1, 38500, 48.0), (4, 9700, -40.0), (2, 27800, 8.0)])
>>> [(p.wins, p.deal_ins, p.riichi) for p in game.players]
[(1, 0, 1), (3, 0, 3), (0, 1, 1), (1, 0, 1)]
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace

from tablekit.game.events import Chombo, Event
from tablekit.game.reducer import apply
from tablekit.game.state import SEATS, LedgerEntry, Phase, TableState

CANCELLED = "cancelled by the players"
"""The reason of a ``GameEnded`` that cancels the game: it ends, but it does not count
(no league record, no place in the evening's totals)."""


@dataclass(frozen=True)
class PlayerResult:
    """One seat's game: ``score`` is the game points (uma and oka, in thousands)."""

    seat: int
    name: str
    rank: int
    points: int
    score: float
    wins: int = 0
    deal_ins: int = 0
    riichi: int = 0
    chombo: int = 0
    penalty: int = 0  # points taken off the final score (the ledger's total for the seat)


@dataclass(frozen=True)
class GameSummary:
    """One game; ``finished`` only when the rules (or the players) ended it, and not
    when the players cancelled it (see :data:`CANCELLED`)."""

    rules: str
    finished: bool
    hands: int
    end_reason: str
    players: tuple[PlayerResult, ...] = field(default_factory=tuple)
    leftover_sticks: int = 0  # riichi sticks on the table at the end, given to first place
    ledger: tuple[LedgerEntry, ...] = ()  # penalties, line by line

    @property
    def cancelled(self) -> bool:
        return self.end_reason == CANCELLED

    def with_names(self, names: Sequence[str]) -> GameSummary:
        """The same game under other names (seat order)."""
        players = tuple(replace(p, name=names[p.seat]) for p in self.players)
        return replace(self, players=players)


def default_name(seat: int) -> str:
    return f"Seat {seat + 1}"


def summarise(events: Iterable[Event]) -> GameSummary:
    """The summary of a game's events (undo/redo already resolved)."""
    state = TableState.new()
    counts = [[0, 0, 0, 0] for _ in range(SEATS)]  # wins, deal-ins, riichi, chombo
    hands = 0
    for event in events:
        before, state = state, apply(state, event)
        if before.phase is Phase.HAND_IN_PLAY and state.phase is not Phase.HAND_IN_PLAY:
            hands += 1
            _count(counts, before, state, event)
    return _summary(state, counts, hands)


def _count(counts: list[list[int]], before: TableState, after: TableState, event: Event) -> None:
    result = after.result
    if result is None:
        return
    for win in result.wins:
        counts[win.seat][0] += 1
        if win.from_seat is not None:
            counts[win.from_seat][1] += 1
    for seat in range(before.players):
        counts[seat][2] += before.seats[seat].riichi
    if isinstance(event, Chombo):
        counts[event.seat][3] += 1


def _summary(state: TableState, counts: list[list[int]], hands: int) -> GameSummary:
    finished = state.phase is Phase.GAME_OVER and state.end_reason != CANCELLED
    names = state.names or tuple(default_name(s) for s in range(state.players))
    ranks = {s.seat: s for s in state.standings}
    players = []
    for seat in range(state.players):  # three with sanma
        standing = ranks.get(seat)
        wins, deal_ins, riichi, chombo = counts[seat]
        players.append(PlayerResult(
            seat, names[seat], standing.rank if standing else 0,
            standing.points if standing else state.scores[seat],
            standing.score if standing else 0.0, wins, deal_ins, riichi, chombo,
            state.penalties[seat]))
    return GameSummary(state.rules.name, finished, hands, state.end_reason, tuple(players),
                       state.leftover_sticks, state.ledger)
