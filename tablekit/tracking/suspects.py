"""A contradiction on the table (a fifth of a kind, a second red five) makes an earlier,
doubtful reading the suspect: the registered tile of that kind the frames supported least
is put right in place (:class:`Suspect`), so that the new tile, read now, is taken and the
hand goes on.

Each registered tile of the kind is weighed by the support the frames gave it: a discard
still lying in its pond by its votes (:class:`~tablekit.tracking.pond_votes.PondVotes`), a
dora indicator by the frames that read it otherwise
(:class:`~tablekit.tracking.dora_watch.DoraWatch`), a pon or kan (no votes are kept for
melds) as well supported. The suspect becomes the tile its own votes favour next; when they
favour none that fits, a tile of its own suit (honours for an honour) that fits, the least
shown first: a guess, shown on the screen as a doubt for a person to put right from the menu.

>>> from tablekit.game.events import Discard
>>> added_kinds(Discard(0, Tile.from_code("1z")))
[27]
>>> replacement(Tile.from_code("1z"), Counter({28: 2, 29: 4}))
Tile('4z')
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from tablekit.game.events import (
    Call,
    Discard,
    DiscardCorrected,
    DoraCorrected,
    DoraRevealed,
    Event,
    MeldCorrected,
)
from tablekit.game.state import TableState, ordinal, seat_name
from tablekit.tiles import Tile
from tablekit.tracking.dora_watch import DoraWatch
from tablekit.tracking.hand_reading import visible_counts
from tablekit.tracking.pond_votes import PondVotes, lying_at

UNVOTED = 0.9
"""The support of a discard no frame voted for (its pond never lined up): little known."""
INDICATOR = 0.95
"""The support of a dora indicator no frame read otherwise."""
MELD = 1.0
"""The support of a pon or kan (the CALL button vouched for it)."""


@dataclass(frozen=True)
class Suspect:
    """A registered tile doubted: ``support`` its frames' share for it (0-1), ``fix`` the
    correction, ``where`` as players say it (``South's 3rd discard``), ``was`` the tile."""

    support: float
    fix: Event
    where: str
    was: Tile

    @property
    def doubt(self) -> str:
        """The screen's line: ``camera unsure: South's 3rd discard 2z? (read 1z)``."""
        tile = fixed_tile(self.fix)
        return f"camera unsure: {self.where} {tile.code}? (read {self.was.code})"


def fixed_tile(fix: Event) -> Tile:
    """The tile a correction puts in place."""
    if isinstance(fix, MeldCorrected):
        return fix.tiles[0]
    assert isinstance(fix, (DiscardCorrected, DoraCorrected))
    return fix.tile


def added_kinds(event: Event) -> list[int]:
    """The kinds ``event`` would put face up on the table (a claimed tile only moves)."""
    if isinstance(event, Discard):
        return [event.tile.kind]
    if isinstance(event, DoraRevealed):
        return [event.indicator.kind]
    if isinstance(event, Call):
        kinds = [t.kind for t in event.tiles]
        if event.kind == "shouminkan":
            return kinds[:1]
        if event.kind != "ankan" and event.called is not None:
            kinds.remove(event.called.kind)
        return kinds
    return []


def contradiction(state: TableState, events: Iterable[Event]) -> int | None:
    """The kind of which ``events`` would show a fifth (None: they fit on the table)."""
    counts = visible_counts(state, exclude_last_discard=False)
    for event in events:
        counts.update(added_kinds(event))
        over = [kind for kind, n in counts.items() if n > 4]
        if over:
            return over[0]
    return None


def replacement(tile: Tile, counts: Counter[int], votes: Iterable[Tile] = ()) -> Tile | None:
    """What a doubted ``tile`` becomes: the first of ``votes`` (best first) of another kind
    that fits beside ``counts``, else a tile of its suit that fits, least shown first."""
    for candidate in votes:
        if candidate.kind != tile.kind and counts[candidate.kind] < 4:
            return candidate.plain
    group = range(27, 34) if tile.kind >= 27 else range(tile.kind - tile.kind % 9,
                                                          tile.kind - tile.kind % 9 + 9)
    fits = [kind for kind in group if kind != tile.kind and counts[kind] < 4]
    if not fits:
        return None
    return Tile(min(fits, key=lambda kind: (counts[kind], abs(kind - tile.kind))))


def suspects(state: TableState, kind: int, votes: PondVotes, dora: DoraWatch | None = None
             ) -> list[Suspect]:
    """Every registered tile of ``kind`` that can be put right, the least supported first."""
    counts = visible_counts(state, exclude_last_discard=False)
    found: list[Suspect] = []
    for seat in range(state.players):
        tallies = votes.votes[seat] if seat < len(votes.votes) else []
        for order, index in enumerate(lying_at(state, seat)):
            registered = state.seats[seat].pond[index].tile
            if registered.kind != kind:
                continue
            tally = tallies[order] if order < len(tallies) else {}
            total = sum(tally.values())
            ranked = sorted(tally, key=tally.__getitem__, reverse=True)
            tile = replacement(registered, counts, ranked)
            if tile is not None:
                support = tally.get(registered, 0.0) / total if total else UNVOTED
                found.append(Suspect(support, DiscardCorrected(seat, index, tile),
                                     f"{seat_name(state, seat)}'s {ordinal(index + 1)} discard",
                                     registered))
        found.extend(_meld_suspects(state, seat, kind, counts))
    found.extend(_dora_suspects(state, kind, counts, dora))
    return sorted(found, key=lambda s: s.support)


def _meld_suspects(state: TableState, seat: int, kind: int, counts: Counter[int]
                   ) -> list[Suspect]:
    """The seat's pons and kans of ``kind`` (all alike: the whole meld was read so)."""
    out = []
    for number, meld in enumerate(state.seats[seat].melds):
        if meld.kind == "chi" or meld.tiles[0].kind != kind:
            continue
        size = len(meld.tiles)
        fits = Counter({k: n + size - 1 for k, n in counts.items()})  # room for them all
        tile = replacement(meld.tiles[0], fits)
        if tile is not None:
            fix = MeldCorrected(seat, number, (tile,) * size)
            out.append(Suspect(MELD, fix, f"{seat_name(state, seat)}'s {meld.kind}",
                               meld.tiles[0]))
    return out


def _dora_suspects(state: TableState, kind: int, counts: Counter[int], dora: DoraWatch | None
                   ) -> list[Suspect]:
    out = []
    for index, indicator in enumerate(state.dora):
        if indicator.kind != kind:
            continue
        against: dict[Tile, float] = {}
        if dora is not None and dora.dora_for == state.dora:
            against = {read: n for (was, read), n in dora.against.items() if was == indicator}
        ranked = sorted(against, key=against.__getitem__, reverse=True)
        tile = replacement(indicator, counts, ranked)
        if tile is None:
            continue
        seen = sum(against.values()) + (dora.agree if dora is not None else 0.0)
        support = 1 - sum(against.values()) / seen if seen else INDICATOR
        out.append(Suspect(min(support, INDICATOR), DoraCorrected(index, tile),
                           f"dora indicator {index + 1}", indicator))
    return out


def still_stands(state: TableState, suspect: Suspect) -> bool:
    """Whether the tile put right as ``suspect`` is still as it was put (a person may have
    put it right since, or taken it back)."""
    fix = suspect.fix
    if isinstance(fix, DiscardCorrected):
        pond = state.seats[fix.seat].pond
        return fix.index < len(pond) and pond[fix.index].tile == fix.tile
    if isinstance(fix, DoraCorrected):
        return fix.index < len(state.dora) and state.dora[fix.index] == fix.tile
    if isinstance(fix, MeldCorrected):
        melds = state.seats[fix.seat].melds
        return fix.meld < len(melds) and melds[fix.meld].tiles == fix.tiles
    return False


def puts_back(event: Event, suspect: Suspect) -> bool:
    """Whether ``event`` would put the suspect's tile back as it was read."""
    fix = suspect.fix
    if isinstance(event, DiscardCorrected) and isinstance(fix, DiscardCorrected):
        return (event.seat, event.index, event.tile.kind) == (fix.seat, fix.index,
                                                               suspect.was.kind)
    if isinstance(event, DoraCorrected) and isinstance(fix, DoraCorrected):
        return (event.index, event.tile.kind) == (fix.index, suspect.was.kind)
    return False
