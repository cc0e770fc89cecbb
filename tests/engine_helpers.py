"""Step through games with invariants re-checked after every event (libriichi's way)."""

from __future__ import annotations

from collections import Counter

from tablekit.game.events import Discard, Draw, Event, GameStarted, HandStarted, WinnerHand, Won
from tablekit.game.reducer import apply
from tablekit.game.state import NORTH, Phase, TableState, live_wall
from tablekit.rules.presets import rules_from_dict
from tablekit.tiles import Tile, parse_tiles

FILLER = [Tile(k) for k in range(33, -1, -1)]  # every kind, at most three times a hand


class Table:
    """A game driven event by event; ``total`` must never change."""

    def __init__(self, rules: str | dict = "tenhou", dora: str | None = "1m") -> None:
        options = {"base": rules} if isinstance(rules, str) else rules
        self.state = apply(TableState.new(), GameStarted(rules_from_dict(options)))
        self.total = self.state.total_points
        self.dora = Tile.from_code(dora) if dora else None
        self.filler = 0

    def __call__(self, *events: Event) -> TableState:
        for event in events:
            self.state = apply(self.state, event)
            self.check()
        return self.state

    def check(self) -> None:
        state = self.state
        assert state.total_points == self.total, "points plus deposits changed"
        visible = Counter(t.kind for t in state.dora)
        for seat in state.seats:
            visible[NORTH] += seat.kita  # three players: the Norths set aside
            visible.update(p.tile.kind for p in seat.pond if not p.claimed)
            visible.update(t.kind for m in seat.melds for t in m.tiles)
            assert len(seat.melds) <= 4
        assert all(n <= 4 for n in visible.values())
        assert 0 <= state.wall <= live_wall(state.players)
        assert state.sticks >= 0

    def deal(self) -> TableState:
        self.filler = 0
        return self(HandStarted(self.dora))

    def turn(self, seat: int, tile: str | None = None) -> TableState:
        """``seat`` draws and discards ``tile`` (a filler tile when None)."""
        if tile is None:
            discard = FILLER[self.filler % len(FILLER)]
            self.filler += 1
        else:
            discard = Tile.from_code(tile)
        return self(Draw(seat), Discard(seat, discard))

    def go_around(self, times: int = 1) -> TableState:
        for _ in range(times * self.state.players):
            self.turn(self.state.turn)
        return self.state

    def ron(self, seat: int, hand: str, win: str, ura: str = "") -> TableState:
        discarder = self.state.last_discard[0]
        return self(Won((WinnerHand(seat, tuple(parse_tiles(hand)), Tile.from_code(win)),),
                        from_seat=discarder, ura=tuple(parse_tiles(ura))))

    def tsumo(self, seat: int, hand: str, win: str, ura: str = "") -> TableState:
        return self(Won((WinnerHand(seat, tuple(parse_tiles(hand)), Tile.from_code(win)),),
                        ura=tuple(parse_tiles(ura))))

    def to_end_of_wall(self) -> TableState:
        while self.state.wall > 0:
            self.turn(self.state.turn)
        assert self.state.phase is Phase.HAND_IN_PLAY
        return self.state
