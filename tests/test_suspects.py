"""A contradiction on the table (a fifth of a kind) makes the earlier doubtful reading the
suspect: it is put right in place and the new tile is taken; the hand never stalls."""

from engine_helpers import Table

from tablekit.game.events import (
    BadEvent,
    Call,
    Discard,
    DiscardCorrected,
    DoraCorrected,
    Draw,
    MeldCorrected,
)
from tablekit.game.reducer import apply
from tablekit.sim.geometry import POND_FIRST_ROW_Y, WALL_Y, seat_to_table
from tablekit.tiles import Tile, parse_tiles
from tablekit.tracking.faint_discards import FIRST_X
from tablekit.tracking.pond_votes import PondVotes
from tablekit.tracking.suspects import contradiction, suspects
from tablekit.tracking.tracker import Tracker
from tablekit.vision.table_reading import SeenTile, TableReading

t = Tile.from_code


def pond_tile(seat: int, slot: int, *candidates: tuple[str, float]) -> SeenTile:
    xy = seat_to_table(seat, FIRST_X + 27.0 * slot, POND_FIRST_ROW_Y)
    return SeenTile(xy, 90.0 * seat, True, tuple((t(c), p) for c, p in candidates))


def indicator(code: str) -> SeenTile:
    return SeenTile((-20.0, WALL_Y), 0.0, True, ((t(code), 0.95),))


def play(state, frames, start=0.0):
    """Feed ``frames`` (tiles, 4 a second) to a tracker; its events applied as the flow
    does (a refused one is the message, the state stays). The state and every event taken."""
    holder = [state]
    tracker = Tracker()
    taken = []
    for n, tiles in enumerate(frames):
        events = tracker.update(TableReading(tuple(tiles), (), start + n / 4), holder[0])
        while events:  # the app's loop: what else the frame shows, against the state now
            for event in events:
                try:
                    holder[0] = apply(holder[0], event)
                    taken.append(event)
                except BadEvent:
                    pass
            events = tracker.catch_up(holder[0])
    return holder[0], taken, tracker


def three_east_winds(dora: str) -> Table:
    """Each of East, South and West discarded an East wind (1z); North's turn to draw."""
    table = Table(dora=dora)
    table.deal()
    for seat in range(3):
        table.turn(seat, "1z")
    return table


def test_a_misread_dora_indicator_is_put_right_when_the_real_fourth_east_comes():
    """The issue's stall: an indicator misread as 1z made four 1z visible, the real fourth
    was refused and nothing moved after it. Now the indicator (the frames' least supported
    1z: every other frame read it 2z, not enough to correct it alone) is put right and the
    real one taken."""
    table = three_east_winds(dora="1z")   # the indicator is really 2z
    ponds = [pond_tile(s, 0, ("1z", 0.97)) for s in range(3)]
    before = [[*ponds, indicator("1z")], [*ponds, indicator("2z")]] * 4
    after = [[*ponds, pond_tile(3, 0, ("1z", 0.99)), indicator("1z")]] * 8
    after_next = [[*after[0], pond_tile(0, 1, ("9m", 0.99))]] * 8
    state, taken, tracker = play(table.state, before + after + after_next)
    assert DoraCorrected(0, t("2z")) in taken
    assert Discard(3, t("1z")) in taken and Discard(0, t("9m")) in taken  # the hand goes on
    assert state.dora == (t("2z"),) and state.seats[3].pond[0].tile == t("1z")
    assert tracker.warnings(state) == ["camera unsure: dora indicator 1 2z? (read 1z)"]


def test_the_discard_the_frames_doubted_is_the_suspect_not_the_new_one():
    table = three_east_winds(dora="9s")
    table.turn(3, "1z")
    table(Draw(0))
    ponds = [pond_tile(s, 0, ("1z", 0.97)) for s in (0, 2, 3)]
    doubtful = pond_tile(1, 0, ("1z", 0.55), ("3z", 0.4))   # South's: 3z read as 1z
    frames = [[*ponds, doubtful]] * 8 + [[*ponds, doubtful, pond_tile(0, 1, ("1z", 0.99))]] * 8
    state, taken, tracker = play(table.state, frames)
    assert taken[:2] == [DiscardCorrected(1, 0, t("3z")), Discard(0, t("1z"))]
    assert tracker.warnings(state) == ["camera unsure: South's 1st discard 3z? (read 1z)"]


def test_with_nothing_to_put_right_a_fifth_is_taken_as_a_tile_that_fits():
    """Every 1z on the table is surely read and a pon of them cannot be doubted more than
    the new read: still, something is taken and the turn moves on, doubted on the screen."""
    table = three_east_winds(dora="9s")
    state = table.turn(3, "1z")
    holder = [state]
    tracker = Tracker()
    tracker.refused.update(s.fix for s in suspects(state, t("1z").kind, PondVotes()))
    events = tracker._suspect_first(state, t("1z").kind, [Draw(0), Discard(0, t("1z"))])
    assert events == [Draw(0), Discard(0, t("2z"))]
    holder[0] = apply(apply(state, events[0]), events[1])
    assert tracker.warnings(holder[0]) == ["camera unsure: East's 2nd discard 2z? (read 1z)"]


def test_suspects_weigh_discards_by_their_votes_and_melds_as_vouched_for():
    table = Table(dora="9s")
    table.deal()
    table(Draw(0), Discard(0, t("1z")))
    table(Call(2, "pon", tuple(parse_tiles("111z")), t("1z"), 0), Discard(2, t("9m")))
    state = table.turn(3, "1z")
    votes = PondVotes()
    assert contradiction(state, [Draw(0), Discard(0, t("1z"))]) == t("1z").kind
    assert contradiction(state, [Draw(0), Discard(0, t("2z"))]) is None
    found = suspects(state, t("1z").kind, votes)     # North's discard: no frame voted
    assert [s.fix for s in found] == [DiscardCorrected(3, 0, t("2z")),
                                      MeldCorrected(2, 0, tuple(parse_tiles("222z")))]
    votes.votes[3] = [{t("1z"): 3.0}]                 # the frames read North's surely
    assert next(s.fix for s in suspects(state, t("1z").kind, votes)) == found[1].fix
    assert apply(state, found[1].fix).seats[0].pond[0].tile == t("2z")  # the claimed one


def test_a_confusion_the_truth_reader_is_told_of_is_checked_in_one_line(capsys):
    from conftest import DATA

    from tablekit.cli import main

    game = str(DATA / "tenhou-python-bot-28.xml")
    assert main(["simulate", game, "--hands", "1", "--confuse", "2z"]) == 2
    assert main(["simulate", game, "--hands", "1", "--confuse", "2z:1z", "--reader",
                 "vision"]) == 2
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 2 and "--confuse 2z:1z" in lines[1]
    assert lines[0] == ("tablekit simulate: --confuse 2z: give TRUE:READ tile codes (e.g. "
                        "2z:1z), with --reader truth")


def test_a_suspect_put_right_is_not_put_back_by_the_votes_that_misread_it():
    """The frames keep reading the suspect as 1z (the classifier never separates the faces):
    their votes must not put it back, or the fifth comes again and nothing is taken."""
    table = three_east_winds(dora="9s")
    table.turn(3, "1z")
    table(Draw(0))
    ponds = [pond_tile(s, 0, ("1z", 0.97)) for s in (0, 2, 3)]
    doubtful = pond_tile(1, 0, ("1z", 0.9), ("3z", 0.05))
    frames = [[*ponds, doubtful]] * 8 + [[*ponds, doubtful, pond_tile(0, 1, ("1z", 0.99))]] * 8
    frames += [[*frames[-1], pond_tile(1, 1, ("9m", 0.99))]] * 8
    state, taken, _ = play(table.state, frames)
    assert taken[0] == DiscardCorrected(1, 0, t("3z"))
    assert DiscardCorrected(1, 0, t("1z")) not in taken
    assert state.seats[0].pond[1].tile == t("1z") and state.seats[1].pond[1].tile == t("9m")
