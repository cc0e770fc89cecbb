"""A game walked hand by hand (tablekit.game.hands): the one walk every check uses."""

from dataclasses import replace

from conftest import DATA

from tablekit.formats.tenhou import import_file
from tablekit.game.events import (
    AbortiveDraw,
    Discard,
    DoraRevealed,
    Draw,
    GameEnded,
    GameStarted,
    HandStarted,
    Penalty,
)
from tablekit.game.hands import compare, walk
from tablekit.game.reducer import replay
from tablekit.tiles import parse_tiles


def test_every_hand_of_a_log_is_walked_as_the_importer_split_it():
    for name in ("tenhou-python-bot-28.xml", "tenhou-sanma-00b9.xml"):
        game = import_file(DATA / name, three_players=True)
        hands = list(walk(game.events))
        assert [hand.events for hand in hands] == [hand.events for hand in game.hands]
        assert [hand.number for hand in hands] == list(range(len(game.hands)))
        assert all(hand.ended and not hand.refused for hand in hands)
        assert [hand.result.deltas for hand in hands] == [hand.deltas for hand in game.hands]
        assert hands[-1].last == replay(game.events)


def test_a_hand_is_named_as_dealt_and_taken_at_its_result():
    """The table moves on to the next hand's label at the result; a kan's dora shown after
    it is in the hand's last state, not at its result."""
    dora = parse_tiles("3p4p")
    events = [GameStarted(), HandStarted(dora[0]), *(
        event for seat in range(4) for event in (Draw(seat), Discard(seat, parse_tiles("1z")[0]))),
        AbortiveDraw("four_winds"), DoraRevealed(dora[1]), GameEnded("time")]
    (hand,) = walk(events)
    assert hand.label == "E1-0" and hand.end.short_label == "E1-1"
    assert hand.end.dora == (dora[0],) and hand.last.dora == tuple(dora)
    assert hand.last.phase.name == "GAME_OVER" and hand.events[-1] == GameEnded("time")
    assert compare(hand, hand).exact and compare(hand, hand).tiles == 5


def test_events_before_the_first_deal_are_no_hand_and_a_new_game_counts_from_0():
    events = [GameStarted(), Penalty(0, 1000, "late"), HandStarted(), AbortiveDraw("four_winds"),
              GameEnded("time"), GameStarted(), HandStarted()]
    assert [(hand.number, hand.label, hand.ended) for hand in walk(events)] == [
        (0, "E1-0", True), (0, "E1-0", False)]


def test_a_refused_deal_is_a_hand_named_by_the_table_before_it():
    game = import_file(DATA / "tenhou-python-bot-28.xml")
    events = [*game.events, HandStarted()]   # the game is over: no more deals
    *_, last, refused = walk(events)
    assert refused.refused.startswith("hand started:") and refused.events == ()
    assert refused.start == refused.end == refused.last == last.last and not refused.ended
    assert refused.number == last.number + 1 and refused.label == last.end.short_label
    broken = [*game.events[:3], replace(game.events[3], seat=2)]  # the wrong seat discards
    (hand,) = walk(broken)
    assert hand.label == "E1-0" and len(hand.events) == 2 and not hand.ended
    assert hand.refused.startswith("discard by West")
