"""``tablekit tournament seat``: a tournament's seating plan from the club's roster."""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from tablekit.commands.tournament_rounds import add_actions
from tablekit.errors import BadInput
from tablekit.flow.saved import write_atomically
from tablekit.league.roster import SEATS, WINDS, read_roster
from tablekit.league.seating_plan import (
    Plan,
    lower_bound,
    repeated_pairs,
    seating_plan,
    wind_counts,
)

MOST_PLAYERS = 400
MOST_ROUNDS = 40


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "tournament", help="tournament rounds: the seating plan, the rounds and their clock",
        description="Tournament rounds for the club's tables.")
    actions = parser.add_subparsers(dest="action", required=True, metavar="ACTION")
    seat = actions.add_parser(
        "seat", help="who sits where in each round (a JSON plan)",
        description="Write a seating plan: in each round every player at one table of four, "
                    "no pair meeting twice where such a plan is known, otherwise as few "
                    "repeated pairs as the search finds, and each player's winds balanced. "
                    "Prints the repeats beside their lower bound and each player's winds.")
    seat.add_argument("--players", type=Path, required=True, metavar="ROSTER",
                      help="the roster: one name a line, # comments")
    seat.add_argument("--rounds", type=int, required=True, metavar="N", help="rounds to play")
    seat.add_argument("--out", type=Path, required=True, metavar="PLAN",
                      help="the plan's JSON file (written whole or not at all)")
    seat.add_argument("--seed", type=int, default=None,
                      help="the draw's seed (the same seed and roster, the same plan; "
                           "by default a new one, printed)")
    seat.set_defaults(run=run_seat)
    add_actions(actions)


def run_seat(args: argparse.Namespace) -> int:
    if args.rounds < 1:
        raise BadInput(f"--rounds must be 1 or more, not {args.rounds}")
    if args.rounds > MOST_ROUNDS:
        raise BadInput(f"--rounds {args.rounds}: a plan has {MOST_ROUNDS} rounds at most")
    if args.out.is_dir():
        raise BadInput(f"--out {args.out} is a folder: name the plan's file")
    names = read_roster(args.players, warn=lambda line: print(f"tablekit tournament: {line}",
                                                              file=sys.stderr))
    refuse_count(len(names))
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(10 ** 6)
    drawn = random.Random(seed).sample(range(len(names)), len(names))  # who is who in the plan
    plan = [[tuple(drawn[p] for p in table) for table in round_]
            for round_ in seating_plan(len(names), args.rounds, seed)]
    bound = lower_bound(len(names), args.rounds)
    repeats = repeated_pairs(plan)
    write_atomically(args.out, plan_json(plan, names, seed, repeats, bound))
    print(quality_text(plan, names, seed, repeats, bound))
    print(f"plan written to {args.out}")
    return 0


def refuse_count(players: int) -> None:
    """One line for a number of players that does not fill tables of four.

    >>> refuse_count(17)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    tablekit.errors.BadInput: 17 players do not fill tables of four: add 3 substitutes or ...
    """
    if players > MOST_PLAYERS:
        raise BadInput(f"{players} players: a plan seats {MOST_PLAYERS} at most")
    short = -players % SEATS
    if short:
        spare = players % SEATS
        raise BadInput(f"{players} players do not fill tables of four: add {short} "
                       f"substitute{'s' * (short > 1)} or let {spare} sit out each round")


def plan_json(plan: Plan, names: Sequence[str], seed: int, repeats: int, bound: int) -> str:
    """The plan as JSON, a table a line: ``rounds`` is a list of rounds, each a list of
    tables, each the players' names East, South, West, North.

    >>> print(plan_json([[(0, 1, 2, 3)]], "ABCD", 7, 0, 0), end="")
    {
     "seed": 7,
     "repeated_pairs": 0,
     "lower_bound": 0,
     "rounds": [
      [["A", "B", "C", "D"]]
     ]
    }
    """
    rounds = ",\n".join("  [" + ",\n   ".join(json.dumps([names[p] for p in table],
                                                       ensure_ascii=False) for table in round_)
                        + "]" for round_ in plan)
    return (f'{{\n "seed": {seed},\n "repeated_pairs": {repeats},\n "lower_bound": {bound},\n'
            f' "rounds": [\n{rounds}\n ]\n}}\n')


def quality_text(plan: Plan, names: Sequence[str], seed: int, repeats: int, bound: int) -> str:
    """What the plan is worth: its repeated pairs beside the fewest possible, and each
    player's rounds in each wind.

    >>> print(quality_text([[(0, 1, 2, 3)], [(3, 0, 1, 2)]], "ABCD", 7, 6, 6))
    4 players, 2 rounds of 1 table (seed 7: --seed 7 makes this plan again)
    repeated pairs: 6 (lower bound 6: none fewer is possible)
    winds, each player's rounds in each (most apart: 1):
      player          East South  West North
      A                  1     1     0     0
      B                  0     1     1     0
      C                  0     0     1     1
      D                  1     0     0     1
    """
    tables = len(plan[0])
    verdict = ("none fewer is possible" if repeats <= bound
               else "a plan with fewer may exist")
    counts = wind_counts(plan, len(names))
    apart = max(max(c) - min(c) for c in counts)
    lines = [f"{len(names)} players, {len(plan)} round{'s' * (len(plan) > 1)} of {tables} "
             f"table{'s' * (tables > 1)} (seed {seed}: --seed {seed} makes this plan again)",
             f"repeated pairs: {repeats} (lower bound {bound}: {verdict})",
             f"winds, each player's rounds in each (most apart: {apart}):",
             f"  {'player':<14}" + "".join(f"{wind:>6}" for wind in WINDS)]
    for p in range(len(names)):  # in the roster's order
        lines.append(f"  {names[p][:14]:<14}" + "".join(f"{n:6d}" for n in counts[p]))
    return "\n".join(lines)
