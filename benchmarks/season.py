"""What a season's journal costs: opening it, one UNDO, a page update and the league and
evening views, for journals of 1, 8, 64 and 256 games; and the replay rate of the corpus.

Usage: python benchmarks/season.py [--games 1,8,64,256] [--repeat 5] [--no-corpus]
                                   [--corpus DIR] [--json OUT]

Each journal holds copies of the shipped fixture game (669 events a game) played one after
another, as a club's one journal grows through a season, the last game cut in its middle
(a game in play, resumed after a power cut). For each size it prints, in milliseconds
(the median of ``--repeat`` tries, one core):

- ``open``: :meth:`Session.open` (start-up and every restart after a power cut);
- ``undo``: one UNDO pressed in the game in play, through the flow, and the screen drawn
  from it (``Flow.handle`` then ``Flow.screen``);
- ``page``: the web page's state worked out again after the game changed (an UNDO or a
  redo journalled; ``JournalSource.current``, the league file beside it), and
  ``page_first``: the page's first state (the server started);
- ``league``: the league table of a league holding every finished game of the journal;
- ``evening``: the evening screen's table (the evening's games: four in each journal but
  the smaller ones).

Then ``tablekit replay --check`` of the shared Tenhou logs (``--corpus``, when present):
its wall time, games and hands a second. One JSON object is printed last.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
CORPUS = ROOT / ".." / "shared" / "data" / "tenhou" / "logs"


def fixture_events() -> list:
    """The shipped fixture game's events, from its start to its end."""
    from tablekit.formats.tenhou import import_file
    from tablekit.sim.table import DEMO_GAME

    return import_file(DEMO_GAME).events


def build(folder: Path, games: int, events: list) -> tuple[Path, Path]:
    """A journal of ``games`` games (the last cut in its middle) and a league of the
    finished ones."""
    from tablekit.game.journal import write_journal
    from tablekit.league.database import connect
    from tablekit.league.record import record_game

    journal, league = folder / f"season-{games}.jsonl", folder / f"season-{games}.sqlite"
    starts = iter(range(games))  # four games an evening, two hours apart, an evening a week
    write_journal(journal, events * (games - 1) + events[:len(events) // 2],
                  clock=lambda: (lambda n: n // 4 * 7 * 86400.0 + n % 4 * 7200.0)(next(starts)))
    db = connect(league)
    for number in range(games - 1):
        record_game(db, events, key=f"season:{number}",
                    played_at=f"2026-{1 + number // 28 % 12:02d}-{1 + number % 28:02d}")
    db.close()
    return journal, league


def median_ms(action: Callable[[], object], repeat: int,
              before: Callable[[], object] | None = None) -> float:
    """The median wall time of ``action`` in milliseconds (``before`` runs untimed first)."""
    times = []
    for _ in range(repeat):
        if before is not None:
            before()
        start = time.perf_counter()
        action()
        times.append((time.perf_counter() - start) * 1000)
    return round(statistics.median(times), 1)


def measure(journal: Path, league: Path, repeat: int) -> dict[str, float]:
    from tablekit.flow import Flow, between
    from tablekit.game.session import Session
    from tablekit.io.presses import ButtonName, ButtonPress
    from tablekit.league.database import connect
    from tablekit.league.standings import league_table
    from tablekit.web.server import JournalSource

    figures = {"open": median_ms(lambda: Session.open(journal).close(), repeat)}
    session = Session.open(journal)
    flow = Flow(session)
    flow.screen()

    def undo() -> None:
        flow.handle(ButtonPress(ButtonName.UNDO))
        flow.screen()

    def put_back() -> None:
        if session.can_redo:
            session.redo()
            flow.rest()
            flow.screen()

    figures["undo"] = median_ms(undo, repeat, before=put_back)
    put_back()
    figures["page_first"] = median_ms(lambda: JournalSource(journal, league).current(), repeat)
    source = JournalSource(journal, league)
    source.current()

    def change() -> None:  # the game takes back its last action or puts it back
        session.redo() if session.can_redo else session.undo()

    figures["page"] = median_ms(source.current, repeat, before=change)
    db = connect(league)
    figures["league"] = median_ms(lambda: league_table(db), repeat)
    db.close()

    def evening() -> None:
        flow.evening_cache = None
        between.evening(flow)

    figures["evening"] = median_ms(evening, repeat)
    session.close()
    return figures


def replay_rate(corpus: Path) -> dict[str, float]:
    """``tablekit replay --check`` of every log under ``corpus``, timed."""
    start = time.perf_counter()
    command = [sys.executable, "-m", "tablekit.cli", "replay", "--check", str(corpus)]
    done = subprocess.run(command, capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    seconds = time.perf_counter() - start
    summary = json.loads(done.stdout.strip().splitlines()[-1]) if done.stdout.strip() else {}
    games, hands = summary.get("games", 0), summary.get("hands", 0)
    return {"replay_seconds": round(seconds, 1), "replay_rc": done.returncode,
            "replay_games": games, "replay_hands": hands,
            "replay_games_per_s": round(games / seconds, 1),
            "replay_hands_per_s": round(hands / seconds, 1)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default="1,8,64,256")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--corpus", type=Path, default=CORPUS)
    parser.add_argument("--no-corpus", action="store_true")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    events = fixture_events()
    figures: dict[str, object] = {"events_a_game": len(events)}
    with tempfile.TemporaryDirectory() as folder:
        for games in (int(n) for n in args.games.split(",")):
            journal, league = build(Path(folder), games, events)
            row = measure(journal, league, args.repeat)
            print(json.dumps({"games": games, **row}), flush=True)
            figures[str(games)] = row
    if not args.no_corpus and args.corpus.is_dir():
        rate = replay_rate(args.corpus.resolve())
        print(json.dumps(rate), flush=True)
        figures.update(rate)
    sizes = [key for key in figures if key.isdigit()]
    if len(sizes) > 1:
        first, last = figures[sizes[0]], figures[sizes[-1]]
        figures["growth"] = {name: round(last[name] / max(first[name], 0.1), 2)  # type: ignore[index]
                             for name in ("open", "undo", "page", "page_first")}
    print(json.dumps(figures))
    if args.json:
        args.json.write_text(json.dumps(figures, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
