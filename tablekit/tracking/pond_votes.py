"""Second looks at the ponds: every frame votes for each registered discard while the
ponds line up with the state, and a discard that many later frames read as another tile
is corrected (:class:`PondVotes`).

A frame's vote for a tile is its read's probability times the time the frame stands for
(:meth:`~tablekit.tracking.stable_view.StableView.period`), so the evidence needed is
seconds whatever the frame rate.

>>> votes = PondVotes()
>>> votes.votes[0] = [{Tile(4): 1.5, Tile(5): 0.25}]
>>> strong_enough(votes.votes[0][0])
True
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from tablekit.game.events import DiscardCorrected, Event
from tablekit.game.state import SEATS, TableState
from tablekit.tiles import Tile
from tablekit.tracking.hand_reading import visible_counts
from tablekit.vision.table_reading import SeenTile

CORRECTION_SECONDS = 1.5
"""Seconds of frames' votes (each read's probability times its frame's time) before a
registered discard or dora indicator is corrected: 6 frames at 4 a second."""
Tally = dict[Tile, float]


def strong_enough(tally: Tally) -> bool:
    """Whether a discard's votes add up to :data:`CORRECTION_SECONDS`."""
    return sum(tally.values()) >= CORRECTION_SECONDS


@dataclass
class PondVotes:
    """Each seat's registered discards still lying in its pond, each with its votes."""

    votes: list[list[Tally]] = field(default_factory=lambda: [[] for _ in range(SEATS)])

    def learn(self, state: TableState, ponds: Sequence[list[SeenTile] | None],
              weight: float) -> None:
        """Add this frame's reads (``ponds``, weighed ``weight`` s) to every registered
        discard while the ponds line up."""
        for seat in range(state.players):
            lies = lying(state, seat)
            votes = self.votes[seat][:lies]
            votes += [defaultdict(float) for _ in range(lies - len(votes))]
            self.votes[seat] = votes
            seen = ponds[seat]
            if seen is None or len(seen) != lies or not weight:
                continue
            if claimable(state, seat):  # a call may have taken it: the next tile takes its place
                seen, votes = seen[:-1], votes[:-1]
            if not _lines_up(seen, [state.seats[seat].pond[i].tile for i in lying_at(state, seat)]):
                continue
            for tally, tile in zip(votes, seen, strict=True):
                for candidate, p in tile.candidates:
                    tally[candidate] += p * weight

    def corrections(self, state: TableState) -> list[Event]:
        """A registered discard that many later frames read as another tile is corrected
        (unless that would make a fifth of its kind: then another read is the wrong one)."""
        counts = visible_counts(state, exclude_last_discard=False)
        for seat in range(state.players):
            for index, tally in zip(lying_at(state, seat), self.votes[seat], strict=False):
                if not strong_enough(tally):
                    continue
                best = max(tally, key=tally.__getitem__)
                registered = state.seats[seat].pond[index].tile
                if (best != registered and tally[best] >= 2 * tally.get(registered, 0.0)
                        and (best.kind == registered.kind or counts[best.kind] < 4)):
                    return [DiscardCorrected(seat, index, best)]
        return []

    def doubts(self, state: TableState) -> dict[int, float]:
        """Each kind's greatest doubt among its registered discards still lying in a pond:
        the share of the frames' votes for other tiles (a read the frames split 0.64 / 0.34
        is doubted 0.36), for a revealed hand that would hold a fifth of it
        (:func:`~tablekit.tracking.hand_reading.beyond_four`).

        >>> from dataclasses import replace
        >>> from tablekit.game.state import PondTile
        >>> state = TableState.new()
        >>> seats = list(state.seats)
        >>> seats[3] = replace(seats[3], pond=(PondTile(Tile.from_code("5m")),))
        >>> state = replace(state, seats=tuple(seats))
        >>> votes = PondVotes()
        >>> votes.votes[3] = [{Tile.from_code("5m"): 1.28, Tile.from_code("3m"): 0.72}]
        >>> {kind: round(doubt, 2) for kind, doubt in votes.doubts(state).items()}
        {4: 0.36}
        """
        found: dict[int, float] = {}
        for _, _, registered, _, share in self.voted(state):
            found[registered.kind] = max(found.get(registered.kind, 0.0), 1 - share)
        return found

    def weakest(self, state: TableState, kind: int, counts: Counter[int]
                ) -> tuple[float, DiscardCorrected] | None:
        """The registered discard of ``kind`` the frames supported least (its share of the
        votes) and its correction to the likeliest other tile that fits on the table."""
        found: tuple[float, DiscardCorrected] | None = None
        for seat, index, registered, tally, share in self.voted(state):
            others = [(m, t) for t, m in tally.items() if t.kind != kind and counts[t.kind] < 4]
            if registered.kind != kind or not others:
                continue
            best = max(others, key=lambda item: item[0])[1]
            if found is None or share < found[0]:
                found = (share, DiscardCorrected(seat, index, best))
        return found

    def voted(self, state: TableState) -> Iterator[tuple[int, int, Tile, Tally, float]]:
        """Each registered discard still lying in a pond that frames voted for: its seat,
        its index in the state's pond, the tile, its votes and their share for that tile."""
        for seat in range(state.players):
            for index, tally in zip(lying_at(state, seat), self.votes[seat], strict=False):
                total = sum(tally.values())
                if total:
                    registered = state.seats[seat].pond[index].tile
                    yield seat, index, registered, tally, tally.get(registered, 0.0) / total


def _lines_up(seen: list[SeenTile], registered: list[Tile]) -> bool:
    """Whether a pond as seen is the registered one with at most a few tiles read otherwise
    (a third): one that differs more is another table (a new deal while the camera was
    blind, something over the pond), whose reads must not correct the registered discards."""
    differ = sum(1 for tile, was in zip(seen, registered, strict=False) if tile.candidates
                 and max(tile.candidates, key=lambda c: c[1])[0] != was)
    return differ <= max(1, len(seen) // 3)


def lying_at(state: TableState, seat: int) -> list[int]:
    """The indices (in the state's pond) of the seat's discards still lying in its pond,
    in the order they lie there: claimed ones were taken."""
    return [i for i, p in enumerate(state.seats[seat].pond) if not p.claimed]


def lying(state: TableState, seat: int) -> int:
    """How many of the seat's discards still lie in its pond (claimed ones were taken)."""
    return len(lying_at(state, seat))


def claimable(state: TableState, seat: int) -> bool:
    """Whether the seat's last discard may still be called (nobody has drawn since)."""
    return state.to_draw and state.last_discard is not None and state.last_discard[0] == seat

