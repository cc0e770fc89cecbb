"""Real games on the simulated table, several processes at once: the issue's end-to-end check.

Usage: python benchmarks/simulate_games.py [--reader vision|truth] [--games 20] [--every 40]
                                           [--jobs 2] [--out DIR] [--enroll | --enroll-from-table]
                                           [--art NAME]
                                           [--hands N] [--first I] [--players 3] [--shortest]
Takes every ``--every``-th four-player log of thewaxmango+mahjong-hands (sorted by name; with
``--players 3``, of its three-player (sanma) logs) until ``--games`` are chosen (``--shortest``:
the games with the fewest events instead, a quick run), runs ``tablekit simulate LOG --reader R``
for each (``--jobs`` at a time, one thread each, seed = the game's index), keeps each game's output
under ``--out`` and prints one JSON line per game and the totals last (``--enroll``: each game's
tile set enrolled first from one mat on its simulated table, ``tablekit simulate --enroll``;
``--enroll-from-table``: from the whole set spread on its table, ``tablekit simulate
--enroll-from-table``; ``--art NAME``: every game's table drawn with that art set, e.g.
``hongkong``, which no model was trained on; ``--hands N``: only each log's first N hands (0: every
hand); ``--first I``: from the I-th chosen game on, its seed still I), with the latency over all
games (p50, p95 and max of placed -> shown, lying still -> shown and WIN -> scored,
:mod:`tablekit.sim.stopwatch`). Every hand of every log is counted: a hand the simulated table
never ended is a failed hand (in ``hands`` and ``hands_never_ended``, never in ``hands_ok``), and
so is each hand of a game whose run gave no summary (it stopped, or was skipped); ``hands_fixed``
adds up the wins the app could not score that a simulated person put right, ``wins_put_right``
those it scored from tiles other than those on the table that the person put right on the win
screen before OK (neither is in ``hands_ok``); ``discards_never_shown`` adds up the discards the
screen never showed (the tracking stalled while the hand went on); ``games_failed`` counts the
games not every hand of which was right.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LOGS = ROOT.parent / "shared" / "data" / "tenhou" / "logs" / "thewaxmango+mahjong-hands"
sys.path.insert(0, str(ROOT))
COUNTED = ("hands", "hands_ok", "hands_fixed", "hands_never_ended", "wins_put_right",
           "discards_never_shown", "tiles_read", "tiles_ok", "frames")


def player_logs(every: int, games: int, players: int = 4, shortest: bool = False
                ) -> list[Path]:
    """Every ``every``-th log of games for ``players`` (sorted by name), ``games`` of them
    (``shortest``: the ``games`` logs with the fewest events)."""
    from tablekit.errors import TablekitError
    from tablekit.formats.tenhou import import_file

    chosen, seen, sizes = [], 0, {}
    for log in sorted(LOGS.glob("*")):
        try:
            game = import_file(log, three_players=True)
        except TablekitError:
            continue
        if game.rules.players != players:
            continue
        if shortest:
            sizes[log] = len(game.events)
            continue
        if seen % every == 0:
            chosen.append(log)
            if len(chosen) == games:
                break
        seen += 1
    return sorted(sizes, key=lambda log: (sizes[log], log.name))[:games] if shortest else chosen


def four_player_logs(every: int, games: int) -> list[Path]:
    return player_logs(every, games, 4)


def simulate_command(art: str | None) -> list[str]:
    """How to start ``tablekit simulate`` (with every table in ``art`` when it is named).

    >>> simulate_command("hongkong")[-3:]
    ['simulate', '--art', 'hongkong']
    """
    return [sys.executable, "-m", "tablekit.cli", "simulate", *(["--art", art] if art else [])]


def run_one(index: int, log: Path, reader: str, out: Path, enroll: str | None = None,
            art: str | None = None, hands: int | None = None) -> dict:
    """One game by ``tablekit simulate`` (``enroll``: its option, e.g. ``--enroll``)."""
    command = [*simulate_command(art), str(log), "--reader", reader,
               "--seed", str(index), *([enroll] if enroll else []),
               *(["--hands", str(hands)] if hands else [])]
    start = time.time()
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True,
                          env={**os.environ, "OMP_NUM_THREADS": "1"})
    (out / f"{index:02d}-{log.stem}.txt").write_text(done.stdout + done.stderr)
    lines = [line for line in done.stdout.splitlines() if line.startswith("{")]
    summary = json.loads(lines[-1]) if lines else no_summary(log, hands)
    mismatches = [line for line in done.stdout.splitlines() if not line.startswith("{")]
    result = {"game": index, "log": log.name, **summary, "mismatches": mismatches,
              "seconds": round(time.time() - start)}
    print(json.dumps(result), flush=True)
    return result


def no_summary(log: Path, limit: int | None = None) -> dict:
    """A game whose run gave no summary: each of its log's hands a failed hand."""
    from tablekit.errors import TablekitError
    from tablekit.formats.tenhou import import_file

    try:
        hands = len(import_file(log, three_players=True).hands)
    except TablekitError:
        hands = 0
    hands = min(hands, limit) if limit else hands
    return {"hands": hands, "hands_ok": 0, "hands_never_ended": hands, "no_summary": True}


def failed(result: dict) -> bool:
    """Whether a game's run had a hand not right alone, a mismatch or no summary."""
    return bool(result.get("no_summary") or result.get("mismatches")
                or result.get("hands_ok", 0) != result.get("hands", 0))


def latency(results: list[dict]) -> dict:
    """p50, p95 and max of each kind of delay over all the games' counts."""
    from tablekit.sim.stopwatch import BUDGET, KINDS, figures, merge_counts, samples

    out = {kind: figures(samples(merge_counts(r.get("latency", {}).get(kind, {}).get(
        "counts", {}) for r in results))) for kind in KINDS}
    out["within_budget_p95"] = out["still_to_shown"].get("p95", 0) <= BUDGET
    return out


def main() -> int:
    from tablekit.commands.simulate import hand_count

    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--reader", choices=("vision", "truth"), default="vision")
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--every", type=int, default=40)
    parser.add_argument("--jobs", type=int, default=2)
    enroll = parser.add_mutually_exclusive_group()
    enroll.add_argument("--enroll", action="store_const", const="--enroll",
                        help="enroll each game's set from one simulated mat first")
    enroll.add_argument("--enroll-from-table", dest="enroll", action="store_const",
                        const="--enroll-from-table",
                        help="enroll each game's set from the set spread on its table first")
    parser.add_argument("--art", default=None, metavar="NAME",
                        help="every game's table in this art set (e.g. hongkong, never trained)")
    parser.add_argument("--hands", type=hand_count, default=0, metavar="N",
                        help="only each log's first N hands (0: every hand)")
    parser.add_argument("--first", type=int, default=0, metavar="I",
                        help="start at the I-th chosen game (its seed stays I)")
    parser.add_argument("--players", type=int, choices=(3, 4), default=4,
                        help="3: three-player (sanma) logs instead of four-player ones")
    parser.add_argument("--shortest", action="store_true",
                        help="the games with the fewest events (a quick run)")
    parser.add_argument("--out", type=Path, default=Path("/tmp/tablekit-simulate"))
    args = parser.parse_args()
    if not LOGS.is_dir():
        print(f"no logs at {LOGS}", file=sys.stderr)
        return 2
    args.out.mkdir(parents=True, exist_ok=True)
    logs = player_logs(args.every, args.first + args.games, args.players,
                       args.shortest)[args.first:]
    with ThreadPoolExecutor(args.jobs) as pool:
        results = list(pool.map(lambda item: run_one(*item, args.reader, args.out, args.enroll,
                                                     args.art, args.hands),
                                enumerate(logs, args.first)))
    total = {name: sum(r.get(name, 0) for r in results) for name in COUNTED}
    total["games"] = len(results)
    total["games_failed"] = sum(failed(r) for r in results)
    total["ms_per_frame_max"] = max((r.get("ms_per_frame", 0) for r in results), default=0)
    total["peak_mb_max"] = max((r.get("peak_mb", 0) for r in results), default=0)
    total.update(latency(results))
    enrolled = {None: False, "--enroll": True}.get(args.enroll, "from the table")
    print(json.dumps({"reader": args.reader, "enrolled": enrolled, "art": args.art,
                      "players": args.players, **({"shortest": True} if args.shortest else {}),
                      **total}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
