"""Three-player riichi (sanma) at the table: three seats, the Kita event, no chi, the
rotation and end of a three-player game, noten payments for three, and Tenhou's sanma
records replayed through importer, engine and scorer.

The committed game ``fixtures/mjlog/sanma-2022010814gm-00b9-0000-c378f5c4.xml`` (GO type
0xb9) has 20 kita, a ron on a North set aside, an exhaustive draw with two tenpai, and
ends after South 3.
"""

from __future__ import annotations

import json
import random

import pytest
from conftest import FIXTURES
from engine_helpers import Table
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_reducer_properties import RANDOM_EVENTS, step, tiles

from tablekit.cli import main
from tablekit.formats.replay_check import check_game, log_files
from tablekit.formats.tenhou import UnsupportedGame, import_file
from tablekit.game.events import (
    AbortiveDraw,
    BadEvent,
    Call,
    Discard,
    Draw,
    Event,
    ExhaustiveDraw,
    GameStarted,
    HandStarted,
    Kita,
    Redo,
    RiichiDeclared,
    Undo,
    WinnerHand,
    Won,
    from_json,
    to_json,
)
from tablekit.game.invariants import broken
from tablekit.game.journal import read_journal
from tablekit.game.reducer import apply, replay
from tablekit.game.session import Session
from tablekit.game.state import NORTH, Phase, TableState
from tablekit.game.summary import summarise
from tablekit.rules.presets import TENHOU_SANMA
from tablekit.tiles import Tile, parse_tiles

SANMA = "tenhou-sanma"
GAME = FIXTURES / "mjlog" / "sanma-2022010814gm-00b9-0000-c378f5c4.xml"


def t(code: str) -> Tile:
    return Tile.from_code(code)


def test_a_three_player_table_has_three_seats_and_a_wall_of_55():
    table = Table(SANMA)
    state = table.deal()
    assert len(state.seats) == 3 and state.scores == (35000,) * 3 and state.wall == 55
    state = table.go_around()
    assert state.turn == 0 and state.wall == 52  # West passes to East: no North seat
    with pytest.raises(BadEvent, match=r"there is no seat 3 \(seats are 0-2\)"):
        table(Draw(3))


def test_a_kita_sets_a_north_aside_and_a_replacement_is_drawn():
    table = Table(SANMA)
    table.deal()
    state = table(Draw(0), Kita(0))
    assert state.seats[0].kita == 1 and state.seats[0].pond == ()  # not a discard
    assert state.turn == 0 and state.to_draw and state.kan_draw
    assert state.kind_counts()[NORTH] == 1
    with pytest.raises(BadEvent, match="expected a replacement draw"):
        table(Draw(0))
    state = table(Draw(0, rinshan=True), Discard(0, t("9m")))
    assert state.wall == 53 and state.turn == 1 and broken(state) == []
    state = table(Draw(1), Kita(1), Draw(1, rinshan=True), Kita(1), Draw(1, rinshan=True))
    assert state.seats[1].kita == 2 and broken(state) == []


@pytest.mark.parametrize(("rules", "events", "reason"), [
    ("tenhou", [Draw(0), Kita(0)], "kita is played with three players only"),
    ({"base": SANMA, "north": "yakuhai"}, [Draw(0), Kita(0)], "kept in the hand"),
    (SANMA, [Kita(0)], "a North is set aside after drawing"),
    (SANMA, [Draw(0), Kita(1)], "a North is set aside after drawing"),
])
def test_a_kita_out_of_place_is_refused_in_one_line(rules, events, reason):
    table = Table(rules)
    table.deal()
    with pytest.raises(BadEvent, match=reason) as refused:
        table(*events)
    assert "\n" not in str(refused.value)


def test_a_north_set_aside_can_be_ronned_and_is_no_chankan():
    table = Table(SANMA)
    table.deal()
    table(Draw(0), Kita(0))
    state = table(Won((WinnerHand(1, tuple(parse_tiles("123p456p789s555z44z")), t("4z")),),
                      from_seat=0))
    win = state.result.wins[0]
    assert {y.name for y in win.value.yaku} == {"haku"}  # no chankan
    assert state.result.deltas == (-1300, 1300, 0)  # haku 1 han 40 fu, a non-dealer's ron


def test_after_the_replacement_draw_the_north_is_gone():
    table = Table(SANMA)
    table.deal()
    table(Draw(0), Kita(0), Draw(0, rinshan=True))
    with pytest.raises(BadEvent, match="has no discard or added kan to win on"):
        table(Won((WinnerHand(1, tuple(parse_tiles("123p456p789s555z44z")), t("4z")),),
                  from_seat=0))


def test_the_norths_set_aside_are_the_winners_dora():
    table = Table(SANMA, dora="9s")  # indicator 9s: 1s is the dora, not a North
    table.deal()
    table(Draw(0), Kita(0), Draw(0, rinshan=True), Kita(0), Draw(0, rinshan=True))
    state = table.tsumo(0, "123p456p789s555z99m", "9m")
    yaku = {y.name: y.han for y in state.result.wins[0].value.yaku}
    assert yaku == {"menzen_tsumo": 1, "rinshan_kaihou": 1, "haku": 1, "dora": 2}  # as Tenhou


@pytest.mark.parametrize(("kita", "ippatsu"), [(False, True), (True, False)])
def test_a_kita_ends_ippatsu_as_a_call_does(kita, ippatsu):
    table = Table(SANMA, dora="9s")
    table.deal()
    table(Draw(0), RiichiDeclared(0), Discard(0, t("9p")))
    table.turn(1)
    if kita:
        table(Draw(2), Kita(2), Draw(2, rinshan=True), Discard(2, t("9p")))
    else:
        table.turn(2)
    state = table(Draw(0))
    state = table.tsumo(0, "123p456p789s999m11z", "1z")
    assert ("ippatsu" in {y.name for y in state.result.wins[0].value.yaku}) is ippatsu


def test_there_is_no_chi_with_three_players_but_pon_stays():
    table = Table(SANMA)
    table.deal()
    table(Draw(0), Discard(0, t("3p")))
    with pytest.raises(BadEvent, match="there is no chi with three players"):
        table(Call(1, "chi", tuple(parse_tiles("345p")), t("3p"), 0))
    state = table(Call(2, "pon", tuple(parse_tiles("333p")), t("3p"), 0))
    assert state.turn == 2 and not state.to_draw


@pytest.mark.parametrize(("tenpai", "deltas"), [
    ((), (0, 0, 0)), ((0,), (2000, -1000, -1000)), ((0, 2), (1000, -2000, 1000)),
    ((0, 1, 2), (0, 0, 0)),
])
def test_noten_payments_for_three_are_2000_in_all(tenpai, deltas):
    table = Table(SANMA)
    table.deal()
    table.to_end_of_wall()
    assert table(ExhaustiveDraw(tenpai=tenpai)).result.deltas == deltas


@pytest.mark.parametrize("kind", ["four_winds", "four_riichi", "triple_ron"])
def test_abortive_draws_that_need_a_fourth_player_are_refused(kind):
    table = Table(SANMA)
    table.deal()
    with pytest.raises(BadEvent, match="with three players"):
        table(AbortiveDraw(kind))
    assert table(AbortiveDraw("nine_terminals", 0)).result.kind == "abortive_draw"


def untracked_draws(table: Table, count: int) -> None:
    for _ in range(count):
        table(HandStarted(tracked=False), ExhaustiveDraw())


def test_the_deal_goes_round_three_seats_and_the_game_ends_after_south_3():
    table = Table(SANMA)
    untracked_draws(table, 2)
    assert (table.state.round_label, table.state.dealer, table.state.honba) == ("East 3", 2, 2)
    untracked_draws(table, 3)
    assert (table.state.round_label, table.state.dealer) == ("South 3", 2)
    state = table(HandStarted(tracked=False),
                  Won((WinnerHand(0, han=5, fu=30),), from_seat=1))
    assert state.scores == (44000, 26000, 35000) and state.phase is Phase.GAME_OVER
    assert state.end_reason == "South 3 ended"
    assert [(s.seat, s.rank, s.score) for s in state.standings] == [
        (0, 1, 39.0), (2, 2, -5.0), (1, 3, -34.0)]


def test_short_of_40000_after_south_3_the_game_goes_into_west():
    table = Table(SANMA)
    untracked_draws(table, 6)
    assert table.state.round_label == "West 1" and table.state.phase is Phase.HAND_OVER
    state = table(HandStarted(tracked=False), Won((WinnerHand(1, han=3, fu=30),), from_seat=2))
    assert state.scores[1] == 35000 + 3900 + 6 * 200  # six honba of 200
    assert state.phase is Phase.GAME_OVER and "reached 40,100 in the extra round" in \
        state.end_reason


def test_a_score_below_zero_ends_a_three_player_game():
    table = Table(SANMA)
    state = table(HandStarted(tracked=False), Won((WinnerHand(1, yakuman=2),), from_seat=2))
    assert state.scores == (35000, 99000, -29000)
    assert state.phase is Phase.GAME_OVER and state.end_reason.endswith("went below zero")


def test_a_kita_is_journalled_undone_and_read_back(tmp_path):
    assert from_json(to_json(Kita(1))) == Kita(1)
    events = import_file(GAME, three_players=True).events
    kita = next(i for i, e in enumerate(events) if isinstance(e, Kita))
    path = tmp_path / "sanma.jsonl"
    session = Session.open(path)
    for event in events[:kita]:
        session.submit(event)
    before = session.state
    assert session.submit(events[kita]).seats[events[kita].seat].kita == 1
    assert session.undo() == before
    session.redo()
    session.close()
    again = Session.open(path)
    assert again.state == replay(events[:kita + 1]) and again.state.players == 3
    again.close()


def test_the_committed_sanma_game_matches_tenhou_hand_by_hand():
    report = check_game(GAME)
    assert report.mismatches == [] and report.ok
    assert (report.hands, report.hands_ok, report.wins, report.wins_ok) == (8, 8, 7, 7)
    game = import_file(GAME, three_players=True)
    kita_ron = [i for i, e in enumerate(game.events[:-1])
                if isinstance(e, Kita) and isinstance(game.events[i + 1], Won)]
    assert kita_ron  # the game's E1 ron is on a North set aside
    state = replay(game.events)
    assert state.end_reason == "South 3 ended" and state.scores == (11300, 75700, 18000)


def test_a_sanma_game_is_summed_up_for_three_players():
    summary = summarise(import_file(GAME, three_players=True).events)
    assert summary.finished and [(p.seat, p.rank, p.points) for p in summary.players] == [
        (0, 3, 11300), (1, 1, 75700), (2, 2, 18000)]


def test_replay_check_counts_a_sanma_game_as_checked(capsys):
    assert main(["replay", "--check", str(GAME)]) == 0
    summary = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert summary["games"] == summary["games_ok"] == 1 and not summary["skipped"]
    assert summary["by_players"] == {"3": {"games": 1, "games_ok": 1}}


def test_a_sample_of_shared_sanma_logs_replays_exactly(shared_data):
    folder = shared_data / "tenhou" / "logs" / "thewaxmango+mahjong-hands"
    sanma = [p for p in log_files([folder]) if "-00b9-" in p.name]
    if not sanma:
        pytest.skip("no three-player logs in the shared data")
    for path in random.Random(34).sample(sanma, min(12, len(sanma))):
        report = check_game(path)
        assert report.ok, (path.name, report.mismatches[:3])


def test_callers_that_do_not_play_three_players_still_refuse_a_sanma_log():
    with pytest.raises(UnsupportedGame, match="three-player"):
        import_file(GAME)  # export plays three now: tests/test_sanma_formats.py


def test_a_four_player_kita_free_state_is_as_before():
    state = apply(Table("tenhou").state, HandStarted())
    assert len(state.seats) == 4 and state.wall == 70 and state.kita_by is None


def sanma_move(data: st.DataObject, state: TableState) -> Event:
    """A move a three-player table allows most of the time, kita among them."""
    seat = st.integers(0, 2)
    if state.phase in (Phase.NOT_STARTED, Phase.GAME_OVER):
        return GameStarted(TENHOU_SANMA)
    if state.phase is Phase.HAND_OVER:
        return HandStarted(data.draw(st.none() | tiles), tracked=data.draw(st.booleans()))
    if not state.tracked:
        return data.draw(st.one_of(
            st.builds(Won, st.tuples(st.builds(WinnerHand, seat, han=st.integers(1, 6),
                                               fu=st.sampled_from([30, 40]))),
                      st.none() | seat),
            st.builds(ExhaustiveDraw, st.lists(seat, max_size=3, unique=True).map(tuple))))
    if state.to_draw and state.wall == 0:
        return ExhaustiveDraw(data.draw(st.lists(seat, max_size=3, unique=True).map(tuple)))
    if state.to_draw:
        return Draw(state.turn, rinshan=state.kan_draw)
    choice = data.draw(st.integers(0, 9))
    if choice < 2:
        return Kita(state.turn)
    if choice == 2:
        return RiichiDeclared(state.turn)
    return Discard(state.turn, data.draw(tiles), tsumogiri=data.draw(st.booleans()))


@settings(max_examples=25, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data())
def test_random_three_player_games_keep_the_invariants_and_round_trip(data, tmp_path_factory):
    path = tmp_path_factory.mktemp("sanma") / "game.jsonl"
    game = Session.open(path)
    for _ in range(data.draw(st.integers(20, 150), label="length")):
        kind = data.draw(st.integers(0, 9), label="kind")
        if kind == 0:
            event = data.draw(st.builds(Undo, st.integers(1, 3)) | st.builds(Redo, st.just(1)))
        elif kind == 1:
            event = data.draw(RANDOM_EVENTS | st.builds(Kita, st.integers(-1, 4)))
        else:
            event = sanma_move(data, game.state)
        step(game, event)
    game.close()
    assert read_journal(path).events == game.history
    again = Session.open(path)
    assert again.state == game.state
    again.close()
