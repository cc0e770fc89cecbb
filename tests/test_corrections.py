"""Registered tiles put right in place (a discard, a meld's tile, a dora indicator): what came
after stands, a correction is one action for UNDO, the journal keeps it, an impossible one
is refused in one line."""

import pytest
from engine_helpers import Table
from test_flow import FakeReader, Rig

from tablekit.game.events import (
    BadEvent,
    Call,
    Discard,
    DoraRevealed,
    Draw,
    GameStarted,
    HandStarted,
    MeldCorrected,
    from_json,
    to_json,
)
from tablekit.game.reducer import replay
from tablekit.game.session import Session
from tablekit.io.presses import ButtonName
from tablekit.tiles import Tile, parse_tiles

t = Tile.from_code


def pon_table() -> Table:
    """North's pon of South's 1z read as 1z1z1z, then North's discard and East's turn."""
    table = Table()
    table.deal()
    table(Draw(0), Discard(0, t("9m")), Draw(1), Discard(1, t("1z")))
    table(Call(3, "pon", tuple(parse_tiles("111z")), t("1z"), 1), Discard(3, t("9p")))
    table(Draw(0), Discard(0, t("1z")))
    return table


def test_a_meld_read_wrong_is_put_right_without_undoing_what_came_after():
    table = pon_table()
    assert table.state.kind_counts()[t("1z").kind] == 4
    state = table(MeldCorrected(3, 0, tuple(parse_tiles("222z"))))
    meld = state.seats[3].melds[0]
    assert meld.tiles == tuple(parse_tiles("222z")) and meld.called == t("2z")
    assert state.seats[1].pond[0].tile == t("2z") and state.seats[1].pond[0].claimed
    assert state.kind_counts()[t("1z").kind] == 1 and state.kind_counts()[t("2z").kind] == 3
    assert state.seats[0].pond[-1].tile == t("1z") and state.turn == 1  # what came after


@pytest.mark.parametrize("fix, reason", [
    (MeldCorrected(3, 0, tuple(parse_tiles("211z"))), "pon is three of the same tile"),
    (MeldCorrected(3, 1, tuple(parse_tiles("222z"))), "no meld number 2"),
    (MeldCorrected(3, 0, tuple(parse_tiles("2222z"))), "has 3 tiles, not 4"),
    (MeldCorrected(2, 0, tuple(parse_tiles("111z"))), "West has no meld number 1"),
    (MeldCorrected(9, 0, tuple(parse_tiles("111z"))), "no seat 9"),
])
def test_an_impossible_meld_correction_is_refused_in_one_line(fix, reason):
    table = pon_table()
    before = table.state
    with pytest.raises(BadEvent, match=reason) as refused:
        table(fix)
    assert "\n" not in str(refused.value) and str(refused.value).startswith("meld corrected")
    assert table.state == before


def test_a_meld_correction_that_makes_a_fifth_is_refused():
    table = Table()
    table.deal()
    table(Draw(0), Discard(0, t("3m")), Call(1, "chi", tuple(parse_tiles("345m")), t("3m"), 0),
          Discard(1, t("9m")))
    for seat in (2, 3, 0, 1):
        table(Draw(seat), Discard(seat, t("2m")))
    with pytest.raises(BadEvent, match="more than four 2m"):
        table(MeldCorrected(1, 0, tuple(parse_tiles("234m"))))  # 2m claimed: a fifth 2m
    table(MeldCorrected(1, 0, tuple(parse_tiles("645m"))))  # a chi, the claimed 3m read as 6m
    assert table.state.seats[1].melds[0].called == t("6m")
    assert table.state.seats[0].pond[0].tile == t("6m")


def test_a_correction_is_one_undo_and_round_trips_through_the_journal(tmp_path):
    events = [GameStarted(), HandStarted(t("1m")), Draw(0), Discard(0, t("9m")), Draw(1),
              Discard(1, t("1z")), Call(3, "pon", tuple(parse_tiles("111z")), t("1z"), 1),
              Discard(3, t("9p"))]
    game = Session.open(tmp_path / "g.jsonl")
    for event in events:
        game.submit(event)
    before = game.state
    fix = MeldCorrected(3, 0, tuple(parse_tiles("222z")))
    game.submit(fix)
    assert game.state.seats[3].melds[0].called == t("2z")
    game.undo()
    assert game.state == before
    game.redo()
    game.close()
    again = Session.open(tmp_path / "g.jsonl")
    assert again.state == replay([*events, fix]) == game.state
    assert from_json(to_json(fix)) == fix


def choose(r, label: str) -> None:
    """In the open menu, step down (UNDO) to the item ``label`` and choose it (OK)."""
    items = r.flow.screen().menu.items
    target = items.index(label)
    for _ in range((target - r.flow.data.place.selected) % len(items)):
        r.press(ButtonName.UNDO)
    r.press(ButtonName.OK)


def test_a_person_puts_a_discard_and_a_pon_right_from_the_menu(tmp_path):
    r = Rig(tmp_path, reader=FakeReader({}))
    try:
        r.press(ButtonName.OK)
        r.camera(DoraRevealed(t("1m")), Draw(0), Discard(0, t("9m")), Draw(1), Discard(1, t("1z")),
                 Call(3, "pon", tuple(parse_tiles("111z")), t("1z"), 1), Discard(3, t("9p")),
                 Draw(0), Discard(0, t("3z")), Draw(1))
        r.press(ButtonName.UNDO, hold=1.5)                 # the menu
        choose(r, "Put a tile right")
        assert r.flow.data.place.title == "Put right: whose tile?"
        choose(r, "East: 2 discards")
        choose(r, "East's 2nd discard: 3z")
        assert r.flow.data.place.title == "East's 2nd discard is really (suit)?"
        choose(r, "honours (z)")
        choose(r, "2z South")
        assert r.state.seats[0].pond[1].tile == t("2z") and r.state.turn == 1
        assert r.flow.data.message == "East's 2nd discard put right as 2z (UNDO takes it back)"
        r.press(ButtonName.UNDO, hold=1.5)
        choose(r, "Put a tile right")
        choose(r, "North: 1 discard, 1 meld")
        choose(r, "North's pon 111z")
        choose(r, "honours (z)")
        choose(r, "4z North")
        assert r.state.seats[3].melds[0].tiles == tuple(parse_tiles("444z"))
        assert r.state.seats[1].pond[0].tile == t("4z")   # the claimed discard too
        r.press(ButtonName.UNDO)                            # one UNDO: the pon back as read
        assert r.state.seats[3].melds[0].tiles == tuple(parse_tiles("111z"))
        assert r.state.seats[0].pond[1].tile == t("2z") and r.state.turn == 1
        r.press(ButtonName.UNDO, hold=1.5)                 # the dora indicator
        choose(r, "Put a tile right")
        choose(r, "Dora indicators: 1m")
        choose(r, "Dora indicator 1: 1m")
        choose(r, "honours (z)")
        choose(r, "4z North")
        assert r.state.dora == (t("4z"),)
    finally:
        r.close()
