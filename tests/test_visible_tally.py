"""The reducer's running count of the kinds showing (discards, melds, dora indicators) against
a full recount, under random hands full of calls, kans, added kans and corrections (Hypothesis).
The general property tests rarely reach an added kan; these hands reach every kind of call."""

from dataclasses import replace

from hypothesis import HealthCheck, given, settings
from hypothesis import Phase as Stage
from hypothesis import strategies as st

from tablekit.game.events import (
    BadEvent,
    Call,
    Discard,
    DiscardCorrected,
    DoraCorrected,
    DoraRevealed,
    Draw,
    Event,
    GameStarted,
    HandStarted,
)
from tablekit.game.reducer import apply, replay
from tablekit.game.state import KINDS, TableState
from tablekit.tiles import Tile

kinds = st.integers(0, KINDS - 1)
tiles = st.builds(Tile, kinds)


def recount(state: TableState) -> tuple[int, ...]:
    visible = state.visible_kinds()
    return tuple(visible[k] for k in range(KINDS))


def own_move(data: st.DataObject, state: TableState) -> Event:
    """After a draw: a discard mostly, else a closed or added kan, or a correction."""
    seat = state.turn
    choice = data.draw(st.integers(0, 9))
    pons = [m for m in state.seats[seat].melds if m.kind == "pon"]
    if choice == 0:
        tile = data.draw(tiles)
        return Call(seat, "ankan", (tile,) * 4)
    if choice == 1 and pons:
        tile = pons[0].tiles[0].plain
        return Call(seat, "shouminkan", (tile,) * 4, tile)
    if choice == 2:
        return DiscardCorrected(data.draw(st.integers(0, 3)), data.draw(st.integers(0, 5)),
                                data.draw(tiles))
    if choice == 3:
        return data.draw(st.builds(DoraRevealed, tiles) | st.builds(
            DoraCorrected, st.integers(0, 2), tiles))
    return Discard(seat, data.draw(tiles))


def claim(data: st.DataObject, state: TableState) -> Event:
    """A pon, open kan or chi of the last discard."""
    discarder, tile = state.last_discard
    kind = data.draw(st.sampled_from(["pon", "kan", "chi"]))
    if kind == "chi":
        if tile.kind >= 27 or tile.kind % 9 > 6:
            return Draw(state.turn)
        run = (tile, Tile(tile.kind + 1), Tile(tile.kind + 2))
        return Call((discarder + 1) % 4, "chi", run, tile, discarder)
    seat = data.draw(st.integers(0, 3).filter(lambda s: s != discarder))
    return Call(seat, kind, (tile,) * (3 if kind == "pon" else 4), tile, discarder)


def next_move(data: st.DataObject, state: TableState) -> Event:
    if not state.to_draw:
        return own_move(data, state)
    if state.last_discard is not None and data.draw(st.integers(0, 2)) == 0:
        return claim(data, state)
    return Draw(state.turn, rinshan=state.kan_draw)


@settings(max_examples=60, deadline=None, derandomize=True, database=None,
          phases=(Stage.explicit, Stage.reuse, Stage.generate),
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(st.data())
def test_the_running_count_of_kinds_showing_is_a_recount_after_every_event(data):
    state = replay([GameStarted(), HandStarted(data.draw(tiles))])
    for _ in range(data.draw(st.integers(10, 80), label="length")):
        if state.wall == 0:
            break
        try:
            state = apply(state, next_move(data, state))
        except BadEvent:
            continue
        assert state.kind_counts() == recount(state)


def test_an_added_kan_counts_the_pon_once():
    east = Tile.from_code("1z")
    state = replay([GameStarted(), HandStarted(Tile.from_code("1m")), Draw(0), Discard(0, east),
                    Call(1, "pon", (east,) * 3, east, 0), Discard(1, Tile.from_code("9p")),
                    Draw(2), Discard(2, Tile.from_code("9p")), Draw(3),
                    Discard(3, Tile.from_code("9p")), Draw(0), Discard(0, Tile.from_code("2m")),
                    Draw(1), Call(1, "shouminkan", (east,) * 4, east)])
    assert state.kind_counts()[east.kind] == 4 == recount(state)[east.kind]


def test_a_state_built_by_hand_is_recounted():
    state = replay([GameStarted(), HandStarted(Tile.from_code("1m")), Draw(0)])
    dora = (Tile.from_code("1m"), Tile.from_code("1m"))
    copied = replace(state, dora=dora)  # the tally kept for the old dora no longer holds
    assert copied.kind_counts()[0] == 2 == recount(copied)[0]
