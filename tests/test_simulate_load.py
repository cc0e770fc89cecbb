"""A seed gives the same game on the simulated table whatever the machine's load (#50): the
table's driven clock times the frames, the tracker, the flow and the people's presses, never
the wall clock, so a busy machine only makes a run take longer."""

from __future__ import annotations

import json
import multiprocessing
import os
import threading
import time
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from conftest import DATA

from tablekit.cli import main
from tablekit.game.journal import read_journal
from tablekit.sim.art import training_art
from tablekit.sim.rig import make_rig
from tablekit.sim.simulate import Hooks, SimulatedTable, TruthPipeline, simulate_game
from tablekit.vision.frame_log import FrameWriter, read_lines

GAME = DATA / "tenhou-python-bot-28.xml"
SANMA = DATA / "tenhou-sanma-00b9.xml"   # its first hand is a win, 93 s on the table
SPENT = ("ms_per_frame", "render_ms_per_frame", "peak_mb")
"""The summary's figures of time and memory spent: the machine's, not the game's."""


def _spin() -> None:  # pragma: no cover - runs in the hog's processes
    os.nice(HOG_NICENESS)
    while True:
        pass


HOG_NICENESS = 5  # the hog takes much of the CPU, not all of it: the suite's other worker
# (pytest-xdist), whose tests have time limits of their own, still gets its share


class CpuHog:
    """``count`` processes that keep a core busy each, from ``with`` until its end."""

    def __init__(self, count: int) -> None:
        context = multiprocessing.get_context("spawn")
        self.processes = [context.Process(target=_spin, daemon=True) for _ in range(count)]

    def __enter__(self) -> CpuHog:
        for process in self.processes:
            process.start()
        return self

    def __exit__(self, *_: object) -> None:
        for process in self.processes:
            process.kill()
        for process in self.processes:
            process.join(10)


def _game(tmp_path: Path, name: str, capsys: Any) -> tuple[dict[str, Any], list[Any], float]:
    """The first hand of the sanma log read by the models (a win: the double-ron window,
    the person's patience, the win screen): the summary less the figures of time spent, the
    journal's events (no timestamps), and the wall time it took."""
    journal = tmp_path / f"{name}.jsonl"
    started = time.perf_counter()
    code = main(["simulate", str(SANMA), "--hands", "1", "--reader", "vision", "--seed", "0",
                 "--journal", str(journal)])
    seconds = time.perf_counter() - started
    assert code == 0
    summary = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    return ({k: v for k, v in summary.items() if k not in SPENT},
            read_journal(journal).events, seconds)


@pytest.mark.slow
def test_a_hand_read_by_the_models_is_the_same_beside_a_cpu_hog(tmp_path, capsys):
    """The same seed, once alone and once beside two busy processes: the same summary
    (hands, tiles, frames, latencies on the table's clock) and the same journal."""
    quiet, quiet_events, quiet_seconds = _game(tmp_path, "quiet", capsys)
    with CpuHog(2):
        busy, busy_events, busy_seconds = _game(tmp_path, "busy", capsys)
    assert quiet["hands"] == 1 and quiet["frames"] > 300
    assert quiet["latency"]["win_to_scored_ron"]["n"] + quiet["latency"]["win_to_scored_tsumo"][
        "n"] == 1
    assert busy == quiet
    assert busy_events == quiet_events
    print(f"quiet {quiet_seconds:.0f} s, beside the hog {busy_seconds:.0f} s")


def test_a_reader_slow_at_random_gives_the_same_game(monkeypatch):
    """A reader that takes a random while per frame (a busy machine), and a wall clock that
    jumps hours at a time, change nothing the table does: the same events at the same steps
    of the table's clock."""
    def played(slow: bool, steps: int = 240) -> list[tuple[int, float, str]]:
        seen: list[tuple[int, float, str]] = []
        pipeline, pace = TruthPipeline(misread=0.1, seed=3), np.random.default_rng(1)
        read = pipeline.read_frame

        def read_frame(frame: Any, timestamp: float, faint: bool = False,
                       gaps: bool = False) -> Any:
            if slow:
                time.sleep(float(pace.uniform(0.0, 0.03)))
            return read(frame, timestamp, faint, gaps)

        pipeline.read_frame = read_frame  # type: ignore[method-assign]

        def step(app: Any, table: SimulatedTable) -> None:
            app.running = app.frames < steps

        simulate_game(GAME, pipeline, max_hands=1, hooks=Hooks(
            on_events=lambda events, app: seen.extend(
                (app.frames, app.clock(), repr(e)) for e in events),
            on_step=step))
        return seen

    quick = played(slow=False)
    assert len(quick) > 8   # draws and discards taken in the first 12 s of the hand
    jumps = np.random.default_rng(2)
    with monkeypatch.context() as patch:   # what reads the wall clock when it is called
        for name in ("time", "monotonic"):
            real = getattr(time, name)
            patch.setattr(time, name, lambda real=real: real() + float(jumps.uniform(0, 1e4)))
        slow = played(slow=True)
    assert slow == quick


def test_the_game_timer_on_the_simulated_table_runs_on_its_clock():
    """A timed game on the simulated table times what the table played, not how long the
    machine took to play it: the flow's wall clock moves with the table's."""
    offsets: list[float] = []

    def step(app: Any, table: SimulatedTable) -> None:
        offsets.append(app.flow.wall() - table.clock())
        time.sleep(0.01)   # a slow step (the wall clock moves on, the table's does not)
        app.running = app.frames < 20

    report = simulate_game(GAME, max_hands=1, hooks=Hooks(on_step=step))
    assert len(offsets) == 20 and len(set(offsets)) == 1
    assert report.summary()["art"] == [make_rig(0).look.art]   # what the seed drew, said
    assert report.art[0] in training_art()


def test_a_writer_made_to_wait_keeps_every_frame_of_a_driven_loop(tmp_path):
    """The simulated table's recording waits for a slow card rather than drop a frame (the
    run's recording drops them: ``tests/test_recording.py``)."""
    gate = threading.Event()

    def slow(path: Path, data: bytes) -> None:   # a card that stalls a while
        gate.wait(5)
        path.write_bytes(data)

    threading.Timer(0.3, gate.set).start()
    writer = FrameWriter(tmp_path, max_pending=2, write=slow, wait=True)
    image = np.zeros((36, 64, 3), np.uint8)
    for number in range(20):
        writer.frame(image.copy(), number * 0.25)
    writer.close()
    assert writer.dropped == 0 and writer.written == 20
    records = read_lines(tmp_path / "frames.jsonl")
    assert [r["t"] for r in records] == [n * 0.25 for n in range(20)]
