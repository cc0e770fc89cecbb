"""The dora indicators: a new one turned up, one many frames read as another tile
(corrected), and a second look at a win (a doubt).

>>> from tablekit.tiles import Tile
>>> reads = [TileRead.sure(Tile(17)), TileRead(((Tile(4), 0.5),))]
>>> misread_indicators(reads, [Tile(16), Tile(4)])
(Counter({Tile('9p'): 1}), Counter({Tile('8p'): 1}))
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field

from tablekit.game.events import DoraCorrected, DoraRevealed, Event
from tablekit.game.state import TableState
from tablekit.rules.reading import TileRead
from tablekit.tiles import Tile, to_mpsz
from tablekit.tracking.hand_reading import SURE, visible_counts, vote_rows
from tablekit.tracking.pond_votes import CORRECTION_SECONDS
from tablekit.vision.table_reading import SeenTile


@dataclass
class DoraWatch:
    """Votes for and against the registered indicators ``dora_for``: ``against`` holds
    the time of frames that surely read one registered indicator as another tile
    (registered, read), ``agree`` that of frames that read them all as registered."""

    against: defaultdict[tuple[Tile, Tile], float] = field(
        default_factory=lambda: defaultdict(float))
    agree: float = 0.0
    dora_for: tuple[Tile, ...] = ()

    def revealed(self, state: TableState, recent: list[list[SeenTile]] | None) -> list[Event]:
        """A dora indicator turned up in the steady rows ``recent``: the first of the hand,
        then one after each kan (a second one seen before any kan is a misread)."""
        if len(state.dora) > state.kans or recent is None:
            return []
        counts = {len(r) for r in recent}
        if len(counts) != 1 or counts.pop() <= len(state.dora):
            return []
        seen = Counter(read.best[0] for read in vote_rows(recent))
        seen.subtract(Counter(state.dora))
        new = [tile for tile, n in seen.items() if n > 0]
        return [DoraRevealed(new[0])] if new else []

    def learn(self, state: TableState, row: list[SeenTile] | None, weight: float) -> None:
        """Count this frame (``weight`` s) for or against the registered indicators, when
        it shows them all: against when it surely reads exactly one of them as another
        tile."""
        if state.dora != self.dora_for:
            self.against.clear()
            self.agree = 0.0
            self.dora_for = state.dora
        if not state.dora or row is None or len(row) != len(state.dora):
            return
        read, registered = misread_indicators(vote_rows([row]), state.dora)
        if not read and not registered:
            self.agree += weight
        elif sum(read.values()) == 1 and sum(registered.values()) == 1:
            self.against[next(iter(registered)), next(iter(read))] += weight

    def corrections(self, state: TableState) -> list[Event]:
        """A dora indicator that many frames since surely read as one other tile (twice
        as long as read it as registered) is corrected, unless that makes a fifth."""
        if state.dora != self.dora_for:
            return []
        for (was, tile), frames in self.against.items():
            if frames < max(CORRECTION_SECONDS, 2 * self.agree):
                continue
            if tile.kind == was.kind or visible_counts(
                    state, exclude_last_discard=False)[tile.kind] < 4:
                return [DoraCorrected(state.dora.index(was), tile)]
        return []

    @staticmethod
    def doubts(state: TableState, recent: Sequence[list[SeenTile] | None]) -> list[str]:
        """A second look at the dora indicators at a win: one the last frames (their
        indicator rows ``recent``) surely read as another tile than the one registered is
        a doubt (a person puts it right with CALL, like the hand's tiles)."""
        rows = [r for r in recent if r is not None and len(r) == len(state.dora)]
        if not rows or not state.dora:
            return []
        now, before = misread_indicators(vote_rows(rows), state.dora)
        if not now:
            return []
        return [f"dora indicator: reads as {to_mpsz(now.elements())} now, "
                f"{to_mpsz(before.elements())} when it was registered"]


def misread_indicators(reads: Sequence[TileRead], registered: Sequence[Tile]
                       ) -> tuple[Counter[Tile], Counter[Tile]]:
    """Where a row of indicator reads and the indicators registered differ: the tiles
    surely read (:data:`SURE`) but not registered, and those registered but not read."""
    sure = Counter(read.best[0] for read in reads if read.best[1] >= SURE)
    return sure - Counter(registered), Counter(registered) - Counter(r.best[0] for r in reads)
