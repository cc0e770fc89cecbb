"""The simulated table's stopwatch: placed -> shown and WIN -> scored on its clock."""

from __future__ import annotations

from types import SimpleNamespace

from tablekit.display.model import ScreenModel, WinPreview
from tablekit.game.events import Discard
from tablekit.io.presses import ButtonName, ButtonPress
from tablekit.sim.script import Script
from tablekit.sim.stopwatch import Stopwatch, figures, merge_counts, samples
from tablekit.sim.table import DEMO_GAME


def _first_discard(script: Script) -> tuple[int, object]:
    return next((i, m) for i, m in enumerate(script.moments) if isinstance(m.event, Discard))


def test_a_discard_counts_from_its_first_frame_to_the_first_screen_showing_it() -> None:
    script = Script.from_log(DEMO_GAME)
    index, moment = _first_discard(script)
    before, after = script.view(index - 1).state, script.view(index).state
    watch = Stopwatch(script)
    watch.step(ScreenModel(before), shown_at=0.0, now=0.0, pressed=[])
    watch.frame(SimpleNamespace(moment=moment), now=10.0)
    watch.frame(SimpleNamespace(moment=moment), now=10.25)   # the same discard again
    watch.step(ScreenModel(before), shown_at=0.0, now=10.25, pressed=[])
    watch.step(ScreenModel(after), shown_at=10.5, now=10.5, pressed=[])
    watch.step(ScreenModel(after), shown_at=10.5, now=10.55, pressed=[])
    assert watch.samples()["placed_to_shown"] == [0.5]
    assert watch.never_shown() == 0


def test_a_discard_lies_still_from_the_first_frame_without_its_players_arm() -> None:
    script = Script.from_log(DEMO_GAME)
    index, moment = _first_discard(script)
    seat = moment.event.seat  # type: ignore[attr-defined]
    before, after = script.view(index - 1).state, script.view(index).state
    watch = Stopwatch(script)

    def frame(*arm_seats: int) -> SimpleNamespace:
        arms = tuple({"seat": s} for s in arm_seats)
        return SimpleNamespace(moment=moment, truth=SimpleNamespace(arms=arms))

    watch.step(ScreenModel(before), shown_at=0.0, now=0.0, pressed=[])
    watch.frame(frame(seat), now=10.0)             # placed, the hand still over it
    watch.frame(frame((seat + 1) % 4), now=10.25)  # another seat's arm: it lies still
    watch.frame(frame(), now=10.5)
    watch.step(ScreenModel(after), shown_at=10.75, now=10.75, pressed=[])
    assert watch.samples()["placed_to_shown"] == [0.75]
    assert watch.samples()["still_to_shown"] == [0.5]


def test_a_win_counts_from_the_press_to_the_scored_hand() -> None:
    script = Script.from_log(DEMO_GAME)
    state = script.view(_first_discard(script)[0]).state
    watch = Stopwatch(script)
    press = [(20.0, ButtonPress(ButtonName.WIN, 1, long=True))]
    watch.step(ScreenModel(state), shown_at=0.0, now=20.0, pressed=press)
    watch.step(ScreenModel(state), shown_at=0.0, now=21.0, pressed=press)
    scored = ScreenModel(state, preview=WinPreview((), (0, 0, 0, 0), ()))
    watch.step(scored, shown_at=22.5, now=22.5, pressed=press)
    watch.step(scored, shown_at=22.5, now=22.55, pressed=press)
    assert watch.samples()["win_to_scored_tsumo"] == [2.5]
    assert watch.samples()["win_to_scored_ron"] == []


def test_a_win_that_scored_nothing_does_not_time_the_next_one() -> None:
    import dataclasses

    from tablekit.game.state import Phase

    script = Script.from_log(DEMO_GAME)
    state = script.view(_first_discard(script)[0]).state
    watch = Stopwatch(script)
    presses = [(20.0, ButtonPress(ButtonName.WIN, 1))]   # pressed as the hand was drawn
    watch.step(ScreenModel(state), shown_at=0.0, now=20.0, pressed=presses)
    drawn = dataclasses.replace(state, phase=Phase.HAND_OVER)
    watch.step(ScreenModel(drawn), shown_at=21.0, now=21.0, pressed=presses)
    presses.append((120.0, ButtonPress(ButtonName.WIN, 2)))   # a ron in a later hand
    watch.step(ScreenModel(state), shown_at=100.0, now=120.0, pressed=presses)
    scored = ScreenModel(state, preview=WinPreview((), (0, 0, 0, 0), ()))
    watch.step(scored, shown_at=122.35, now=122.35, pressed=presses)
    assert watch.samples()["win_to_scored_ron"] == [2.35]


def test_figures_over_games_come_from_their_counts() -> None:
    merged = merge_counts([{"0.25": 3, "0.5": 1}, {"0.5": 5, "1.25": 1}])
    assert merged == {"0.25": 3, "0.5": 6, "1.25": 1}
    assert figures(samples(merged)) == {"n": 10, "p50": 0.5, "p95": 0.91, "max": 1.25}
    assert figures([]) == {"n": 0}
