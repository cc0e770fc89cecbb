"""The reducer through whole hands, with invariants checked after every event."""

import pytest
from engine_helpers import Table

from tablekit.game.events import (
    AbortiveDraw,
    BadEvent,
    Call,
    Chombo,
    Discard,
    DoraCorrected,
    Draw,
    ExhaustiveDraw,
    GameEnded,
    RiichiDeclared,
    WinnerHand,
    Won,
)
from tablekit.game.reducer import apply
from tablekit.game.state import Phase
from tablekit.tiles import Tile, parse_tiles

PINFU = "234567m234p67899s"  # waits 6-9s; ron on 6s: riichi pinfu


def test_a_riichi_ron_moves_points_and_sticks():
    table = Table()
    table.deal()
    table.go_around()
    table.turn(0)
    table(Draw(1), RiichiDeclared(1), Discard(1, Tile.from_code("1z")))
    assert table.state.pending_riichi == 1 and table.state.scores[1] == 25000
    table.turn(2)                     # the stick goes down when the discard passes
    assert table.state.scores[1] == 24000 and table.state.sticks == 1
    assert table.state.seats[1].ippatsu
    table.turn(3, "6s")
    state = table.ron(1, PINFU, "6s")
    # riichi, ippatsu, pinfu; dora 1m indicator -> 2m: one dora. 4 han 30 fu = 7,700 + stick
    assert state.result.wins[0].value.han == 4
    assert state.scores == (25000, 24000 + 7700 + 1000, 25000, 25000 - 7700)
    assert (state.round_label, state.honba, state.sticks) == ("East 2", 0, 0)


def test_riichi_on_the_first_uninterrupted_turn_is_double_riichi():
    table = Table()
    table.deal()
    table(Draw(0), RiichiDeclared(0), Discard(0, Tile.from_code("1z")))
    for seat in (1, 2, 3):
        table.turn(seat)
    table(Draw(0))
    state = table.tsumo(0, PINFU, "6s")
    value = state.result.wins[0].value
    assert value.has("double_riichi") and value.has("ippatsu")  # won on the next own draw


def test_a_dora_indicator_put_right_changes_the_dora_the_win_counts():
    table = Table()                   # indicator read as 1m (dora 2m: one in PINFU)
    table.deal()
    table.turn(0)
    table(DoraCorrected(0, Tile.from_code("8s")))   # it is 8s: dora 9s, the pair
    table.turn(1)
    table.turn(2, "6s")
    state = table.ron(1, PINFU, "6s")
    assert state.dora == (Tile.from_code("8s"),)
    assert state.result.wins[0].value.han == 1 + 2   # pinfu, two dora


def test_a_riichi_discard_that_is_ronned_keeps_its_stick():
    table = Table()
    table.deal()
    table(Draw(0), RiichiDeclared(0), Discard(0, Tile.from_code("6s")))
    state = table.ron(1, PINFU, "6s")
    assert state.scores[0] == 25000 - 2000 and state.sticks == 0
    assert state.result.wins[0].value.has("pinfu")


def test_exhaustive_draw_noten_payments_and_dealer_rotation():
    table = Table()
    table.deal()
    table.to_end_of_wall()
    state = table(ExhaustiveDraw(tenpai=(1, 2)))
    assert state.result.deltas == (-1500, 1500, 1500, -1500)
    assert (state.round_label, state.honba) == ("East 2", 1)       # dealer noten: passes
    table.deal()
    table.to_end_of_wall()
    state = table(ExhaustiveDraw(tenpai=(1,)))
    assert state.result.deltas == (-1000, 3000, -1000, -1000)
    assert (state.round_label, state.honba) == ("East 2", 2)       # dealer tenpai: stays
    table.deal()
    table.to_end_of_wall()
    assert table(ExhaustiveDraw(tenpai=(0, 2, 3))).result.deltas == (1000, -3000, 1000, 1000)


def test_tsumo_with_honba_and_haitei():
    table = Table()
    table.deal()
    table.to_end_of_wall()
    table(ExhaustiveDraw())
    table.deal()
    while table.state.wall > 1:
        table.turn(table.state.turn)
    seat = table.state.turn
    table(Draw(seat))
    state = table.tsumo(seat, PINFU, "6s")
    win = state.result.wins[0].value
    assert win.has("haitei") and win.has("menzen_tsumo")
    assert sum(d for d in state.result.deltas if d > 0) > 0


def test_a_win_read_with_a_second_red_five_is_refused_not_a_crash():
    table = Table(dora="0m")
    table.deal()
    table.turn(0, "5s")
    with pytest.raises(BadEvent, match="red 5m"):
        table.ron(1, "067m234567p55999s", "5s")


def test_a_draw_declared_with_tiles_the_camera_still_counts():
    table = Table()
    table.deal()
    table.turn(0, "1m")
    with pytest.raises(BadEvent, match="wall still has 69"):
        table(ExhaustiveDraw(tenpai=(1,), wall_left=68))
    assert table(ExhaustiveDraw(tenpai=(1,), wall_left=69)).result.deltas == \
        (-1000, 3000, -1000, -1000)


@pytest.mark.parametrize("events, reason", [
    ([Discard(2, Tile.from_code("1m"))], "turn"),
    ([Draw(0), Draw(0)], "turn to discard"),
    ([Draw(0), Discard(0, Tile.from_code("1m")),
      Call(2, "chi", tuple(parse_tiles("123m")), Tile.from_code("1m"), 0)], "left"),
    ([Draw(0), Discard(0, Tile.from_code("1m")),
      Call(2, "pon", tuple(parse_tiles("222m")), Tile.from_code("2m"), 0)], "last discard is 1m"),
    ([Draw(0), Discard(0, Tile.from_code("1m")), ExhaustiveDraw()], "wall still has"),
    ([Draw(0), Discard(0, Tile.from_code("5s")),
      Won((WinnerHand(1, tuple(parse_tiles(PINFU)), Tile.from_code("6s")),), from_seat=0)],
     "last discard is 5s"),
    ([Draw(0), RiichiDeclared(0), RiichiDeclared(0)], "already in riichi"),
    ([Draw(0), Discard(0, Tile.from_code("1m")), Draw(1), Discard(1, Tile.from_code("1m")),
      Draw(2), Discard(2, Tile.from_code("1m")), Draw(3), Discard(3, Tile.from_code("1m")),
      Draw(0), Discard(0, Tile.from_code("1m"))], "more than four 1m"),
    ([DoraCorrected(1, Tile.from_code("2m"))], "no dora indicator number 2"),
    ([Draw(0), Discard(0, Tile.from_code("9m")), Draw(1), Discard(1, Tile.from_code("9m")),
      Draw(2), Discard(2, Tile.from_code("9m")), Draw(3), Discard(3, Tile.from_code("9m")),
      DoraCorrected(0, Tile.from_code("9m"))], "more than four 9m"),
])
def test_bad_events_are_refused_and_change_nothing(events, reason):
    table = Table()
    table.deal()
    with pytest.raises(BadEvent, match=reason):
        for event in events:
            before = table.state
            table(event)
    assert table.state == before


def test_riichi_needs_a_closed_hand_and_a_thousand_points():
    table = Table()
    table.deal()
    table(Draw(0), Discard(0, Tile.from_code("3m")))
    table(Call(1, "chi", tuple(parse_tiles("345m")), Tile.from_code("3m"), 0),
          Discard(1, Tile.from_code("9p")), Draw(2), Discard(2, Tile.from_code("9s")),
          Draw(3), Discard(3, Tile.from_code("1z")), Draw(0), Discard(0, Tile.from_code("2z")),
          Draw(1))
    with pytest.raises(BadEvent, match="closed hand"):
        table(RiichiDeclared(1))


def test_pao_third_dragon_pon_pays_for_the_tsumo():
    table = Table(dora=None)
    table.deal()
    pons = (("5z", 1), ("6z", 2))
    for tile, feeder in pons:
        while table.state.turn != feeder:
            table.turn(table.state.turn)
        table(Draw(feeder), Discard(feeder, Tile.from_code(tile)))
        table(Call(0, "pon", tuple(parse_tiles(tile * 3)), Tile.from_code(tile), feeder),
              Discard(0, Tile.from_code("9p")))
    while table.state.turn != 3:
        table.turn(table.state.turn)
    table(Draw(3), Discard(3, Tile.from_code("7z")))
    table(Call(0, "pon", tuple(parse_tiles("777z")), Tile.from_code("7z"), 3),
          Discard(0, Tile.from_code("8p")))
    while table.state.turn != 0:
        table.turn(table.state.turn)
    table(Draw(0))
    state = table.tsumo(0, "123m55p", "5p")
    assert state.result.wins[0].pao_seat == 3
    assert state.result.deltas == (48000, 0, 0, -48000)


def test_abortive_draw_only_where_the_preset_has_them():
    table = Table("ema2016")
    table.deal()
    table(Draw(0))
    with pytest.raises(BadEvent, match="no abortive draws"):
        table(AbortiveDraw("nine_terminals", 0))
    tenhou = Table()
    tenhou.deal()
    tenhou(Draw(0))
    state = tenhou(AbortiveDraw("nine_terminals", 0))
    assert (state.round_label, state.honba, state.result.kind) == ("East 1", 1, "abortive_draw")


def test_chombo_mangan_payment_and_the_hand_is_replayed():
    table = Table()
    table.deal()
    table(Draw(0))
    state = table(Chombo(2))
    assert state.result.deltas == (4000, 2000, -8000, 2000)
    assert (state.round_label, state.honba) == ("East 1", 0)


@pytest.mark.parametrize("busting", [True, False])
def test_busting_ends_the_game_with_standings(busting):
    table = Table({"base": "tenhou", "start_points": 1500, "return_points": 1500,
                   "busting": busting})
    table.deal()
    table(Draw(0), Discard(0, Tile.from_code("6s")))
    state = table.ron(1, PINFU, "6s")   # pinfu and one dora (2m): 2,000 from the dealer
    assert state.result.deltas == (-2000, 2000, 0, 0) and state.scores[0] == -500
    if busting:                         # below zero: the game ends at once
        assert state.phase is Phase.GAME_OVER
        assert [(s.seat, s.points) for s in state.standings] == [
            (1, 3500), (2, 1500), (3, 1500), (0, -500)]
    else:                               # without busting the game goes on
        assert state.phase is Phase.HAND_OVER and not state.standings


def test_game_end_after_south_4_and_final_standings():
    table = Table({"base": "tenhou", "length": "tonpuusen"})
    for _ in range(4):
        table.deal()
        table.to_end_of_wall()
        table(ExhaustiveDraw(tenpai=((table.state.dealer + 1) % 4,)))  # dealer noten: passes
    state = table.state
    # nobody has 30,000: Tenhou plays on into South
    assert state.phase is Phase.HAND_OVER and state.round_label == "South 1"
    state = table(GameEnded("time"))
    assert state.phase is Phase.GAME_OVER
    # each seat was tenpai once and paid three times: 25,000 + 3,000 - 3 x 1,000 = 25,000 all
    assert [s.seat for s in state.standings] == [0, 1, 2, 3]  # ties go to seat order
    assert [s.points for s in state.standings] == [25000] * 4
    assert sum(s.score for s in state.standings) == pytest.approx(0)


def test_events_after_the_game_are_refused():
    table = Table()
    table(GameEnded())
    with pytest.raises(BadEvent, match="game over"):
        apply(table.state, Draw(0))


def test_a_meld_with_two_red_fives_is_refused_at_the_call_not_at_the_win():
    """A pon read as 500p could never be scored: the hand would never end."""
    table = Table()
    table.deal()
    table(Draw(0), Discard(0, Tile.from_code("0p")))
    with pytest.raises(BadEvent, match="two red 5p would be on the table"):
        table(Call(2, "pon", tuple(parse_tiles("500p")), Tile.from_code("0p"), 0))
    table(Call(2, "pon", tuple(parse_tiles("550p")), Tile.from_code("0p"), 0))


def test_a_fifth_meld_is_refused():
    table = Table()
    table.deal()
    table(Draw(0))
    for kind in ("1z", "2z", "3z", "4z"):
        table(Call(0, "ankan", tuple(parse_tiles(kind[0] * 4 + "z")), None, None),
              Draw(0, rinshan=True))
    with pytest.raises(BadEvent, match="at most four melds"):
        table(Call(0, "ankan", tuple(parse_tiles("5555z")), None, None))
