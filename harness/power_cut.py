"""Power cuts: a real tablekit process plays a recorded game into its journal and is killed
(SIGKILL) at random moments, then restarted; the resumed game must be the one an
uninterrupted run shows at the last event that reached the disk.

The player opens the journal as the appliance does, submits the game's events at a steady
pace and says each event's number once it is fsynced. ``slow`` splits every line into two
writes with a pause between them (a slow SD card), so that kills land in the middle of
writes too. Each player is a child process forked from the one that imported tablekit
and the games (a power cut kills it like any other: its journal is a real file, its
writes real system calls), so that a cut costs no start-up; ``python -m
harness.power_cut LOG JOURNAL`` (from the repository root) is the same player on its own.

>>> import tempfile, pathlib
>>> from tablekit.game.events import GameStarted, HandStarted
>>> events = [GameStarted(), HandStarted()]
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> _ = play(events, folder / "game.jsonl", pace=0.0)
ready 0
1
2
>>> check_resume(events, folder / "game.jsonl", acknowledged=2).exact
True
"""

from __future__ import annotations

import argparse
import os
import random
import signal
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path

from tablekit.flow import Flow
from tablekit.game.events import Event
from tablekit.game.reducer import replay
from tablekit.game.session import Session, in_force


def play(events: list[Event], journal: Path, pace: float = 0.002, slow: float = 0.0,
         say: Callable[[str], None] = lambda line: print(line, flush=True)) -> int:
    """Resume ``journal`` and submit the rest of ``events``; says each number fsynced."""
    session = Session.open(journal)
    if slow:
        session.journal.writer = _slow_writer(slow)
    say(f"ready {len(session.history)}")
    for event in events[len(session.history):]:
        session.submit(event)
        say(str(len(session.history)))
        time.sleep(pace)
    session.close()
    return len(session.history)


def _slow_writer(pause: float) -> Callable[[int, bytes], int]:
    def write(fd: int, data: bytes) -> int:
        half = max(1, len(data) // 2)
        done = os.write(fd, data[:half])
        time.sleep(pause)
        return done
    return write


@dataclass
class Resume:
    """One restart after a cut: how many events were on disk, and what matched."""

    on_disk: int
    acknowledged: int
    exact: bool
    torn: bool = False

    @property
    def lost(self) -> int:
        return max(0, self.acknowledged - self.on_disk)


def check_resume(events: list[Event], journal: Path, acknowledged: int) -> Resume:
    """Open ``journal`` as a restart does; compare state and screen with an uninterrupted run."""
    session = Session.open(journal)  # puts a torn last line right, as a restart does
    done = len(session.history)
    expected = replay(in_force(events[:done])[0])
    screen = replace(Flow(session).screen(), message="")
    reference = replace(Flow(_memory_session(events[:done], expected)).screen(), message="")
    exact = session.history == events[:done] and session.state == expected and (
        screen == reference)
    torn = "half-written" in session.notice
    session.close()
    return Resume(done, acknowledged, exact, torn)


def _memory_session(events: list[Event], state: object) -> Session:
    from tablekit.game.session import _NoJournal

    return Session(_NoJournal(), list(events), state, "")  # type: ignore[arg-type]


@dataclass
class PowerCuts:
    """The figures over many cuts."""

    cuts: int = 0
    resumed_exact: int = 0
    events_lost: int = 0
    torn_writes: int = 0
    games: int = 0
    problems: list[str] = field(default_factory=list)

    def add(self, other: PowerCuts) -> None:
        for name in ("cuts", "resumed_exact", "events_lost", "torn_writes", "games"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.problems += other.problems


def power_cuts(logs: list[Path], cuts: int, folder: Path, seed: int = 0, pace: float = 0.002,
               slow: float = 0.001, wait: tuple[float, float] = (0.05, 0.6), jobs: int = 1
               ) -> PowerCuts:
    """Kill the player ``cuts`` times across the games of ``logs`` (each game to its end;
    four players or three), in ``jobs`` processes at once (each its own share of the cuts,
    seed and games)."""
    from tablekit.formats.tenhou import import_file

    games = [(log, import_file(log, three_players=True).events) for log in logs]
    shares = [(games[i::jobs] or games, cuts // jobs + (i < cuts % jobs), folder / f"job-{i}",
               seed * 1000 + i, pace, slow, wait) for i in range(jobs)]
    result = PowerCuts()
    if jobs == 1:
        result.add(_cut_games(*shares[0]))
        return result
    from concurrent.futures import ProcessPoolExecutor
    from multiprocessing import get_context

    with ProcessPoolExecutor(jobs, mp_context=get_context("fork")) as pool:
        for part in pool.map(_cut_games, *zip(*shares, strict=True)):
            result.add(part)
    return result


def _cut_games(games: list[tuple[Path, list[Event]]], cuts: int, folder: Path, seed: int,
               pace: float, slow: float, wait: tuple[float, float]) -> PowerCuts:
    rng, result, game = random.Random(seed), PowerCuts(), 0
    while result.cuts < cuts:
        log, events = games[game % len(games)]
        journal = folder / f"game-{game}" / "game.jsonl"
        journal.parent.mkdir(parents=True, exist_ok=True)
        while result.cuts < cuts:
            acknowledged, finished = _run_and_kill(events, journal, rng.uniform(*wait), pace,
                                                   slow)
            if finished:
                break
            result.cuts += 1
            resume = check_resume(events, journal, acknowledged)
            result.resumed_exact += resume.exact
            result.events_lost += resume.lost
            result.torn_writes += resume.torn
            if not resume.exact or resume.lost:
                result.problems.append(f"{log.name} cut {result.cuts}: {resume}")
        game += 1
        result.games = game
    return result


def _run_and_kill(events: list[Event], journal: Path, after: float, pace: float, slow: float
                  ) -> tuple[int, bool]:
    """Fork the player, SIGKILL it ``after`` seconds into its game; the last number it
    said (fsynced) and whether it had finished the game first."""
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # the player: its own process, ended by the kill or by os._exit
        status = 1
        try:
            os.close(read_end)
            play(events, journal, pace, slow,
                 say=lambda line: os.write(write_end, f"{line}\n".encode()) and None)
            status = 0
        finally:
            os._exit(status)
    os.close(write_end)
    with os.fdopen(read_end) as lines:
        ready = lines.readline()  # the journal is open: the game is under way
        acknowledged = int(ready.split()[1]) if ready.startswith("ready") else 0
        time.sleep(after)
        os.kill(pid, signal.SIGKILL)
        numbers = [int(line) for line in lines.read().split() if line.isdigit()]
    _, status = os.waitpid(pid, 0)
    finished = os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0
    return (numbers[-1] if numbers else acknowledged), finished


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m harness.power_cut",
                                     description="Play a recorded game into a journal.")
    parser.add_argument("log", type=Path, help="a Tenhou mjlog file")
    parser.add_argument("journal", type=Path)
    parser.add_argument("--pace", type=float, default=0.002, help="seconds between events")
    parser.add_argument("--slow-writes", type=float, default=0.0,
                        help="pause in the middle of every journal write (seconds)")
    args = parser.parse_args(argv)
    from tablekit.formats.tenhou import import_file

    play(import_file(args.log).events, args.journal, args.pace, args.slow_writes)
    return 0


if __name__ == "__main__":
    sys.exit(main())

