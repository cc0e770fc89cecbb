"""The organiser's ``tablekit tournament`` actions on the board's machine: ``start`` (the
plan followed, its settings), ``round N`` (each table sent its seats), ``clock`` (one clock
for every table), ``extra`` (more time for one table), ``swap`` (two players' seats fixed
after a mistake, the league's record too), ``substitute`` (a player replaced from round N
on) and ``status`` (the round, its clock, the tables finished and the standings, results
held back where the tournament says so). See docs/tournament.md."""

from __future__ import annotations

import argparse
import time
from pathlib import Path
from typing import Any

from tablekit.errors import BadInput, one_line
from tablekit.flow.saved import write_atomically
from tablekit.league import tournament as tour
from tablekit.league import tournament_league as kept
from tablekit.untrusted.plan import read_plan


def add_actions(actions: Any) -> None:
    """The round actions, beside ``seat``."""
    start = actions.add_parser(
        "start", help="follow a seating plan with the club's tables",
        description="Start a tournament that follows PLAN round by round; its state is kept "
                    "beside the league (club.tournament.json).")
    start.add_argument("--plan", type=Path, required=True, metavar="PLAN")
    _db(start)
    start.add_argument("--tables", default=None, metavar="A,B,...",
                       help="the club's table names for the plan's tables 1, 2, ... "
                            "(by default 1, 2, ...)")
    start.add_argument("--minutes", type=int, default=0,
                       help="a round's length on the clock (0: no clock)")
    start.add_argument("--end-of-time", choices=tour.POLICIES, default="finish_hand",
                       help="when time is up: the hand in play is finished, or one more hand")
    start.add_argument("--hold-results", action="store_true",
                       help="show a round's results only when every table has finished it")
    start.set_defaults(run=run_start)

    round_ = actions.add_parser("round", help="send round N's seats to the tables")
    round_.add_argument("number", type=int, metavar="N")
    _db(round_, broker=True)
    round_.set_defaults(run=run_round)

    clock = actions.add_parser("clock", help="start the round's clock at every table")
    _db(clock, broker=True)
    clock.set_defaults(run=run_clock)

    extra = actions.add_parser("extra", help="more time for one table in this round")
    extra.add_argument("--table", required=True)
    extra.add_argument("--minutes", type=int, required=True,
                       help="minutes more (negative: taken back)")
    _db(extra, broker=True)
    extra.set_defaults(run=run_extra)

    swap = actions.add_parser("swap", help="two players of a table sat the other way")
    swap.add_argument("--round", type=int, required=True, dest="round_")
    swap.add_argument("--table", required=True)
    swap.add_argument("players", nargs=2, metavar="NAME")
    _db(swap, broker=True, needed=False)
    swap.set_defaults(run=run_swap)

    sub = actions.add_parser("substitute", help="a player replaced from round N on")
    sub.add_argument("player", metavar="NAME")
    sub.add_argument("by", metavar="SUBSTITUTE")
    sub.add_argument("--from-round", type=int, required=True)
    _db(sub, broker=True, needed=False)
    sub.set_defaults(run=run_substitute)

    status = actions.add_parser("status", help="the round, its clock, the standings")
    _db(status)
    status.set_defaults(run=run_status)


def _db(parser: argparse.ArgumentParser, broker: bool = False, needed: bool = True) -> None:
    parser.add_argument("--db", type=Path, required=True, metavar="club.sqlite",
                        help="the club's league (the tournament is kept beside it)")
    if broker:
        parser.add_argument("--broker", required=needed, default=None,
                            metavar="mqtt://HOST:PORT",
                            help="the club's broker" + ("" if needed else
                                                        ": the changed seats are sent again"))
        parser.add_argument("--club-auth", type=Path, default=None, metavar="FILE",
                            help="the organiser's user name and password, two lines")


def run_start(args: argparse.Namespace) -> int:
    path = kept.state_path(args.db)
    if path.exists():
        raise BadInput(f"a tournament is already kept in {path}: remove it to start another")
    try:
        plan = read_plan(args.plan)  # bounded, a regular file, the shape of a plan
    except OSError as error:
        raise BadInput(f"cannot read the plan {args.plan}: {one_line(error)}") from None
    tables = [name.strip() for name in args.tables.split(",")] if args.tables else []
    if tables:
        from tablekit.club.topics import check_table

        for name in tables:
            check_table(name)
    t = tour.new_tournament(plan, tables, args.hold_results, args.minutes, args.end_of_time)
    write_atomically(path, kept.state_text(t))
    clock = f"{t.minutes} minutes a round, then {t.end_of_time.replace('_', ' ')}" \
        if t.minutes else "no clock"
    shown = "held back until a round is over" if t.hold_results else "shown as they come"
    print(f"tournament of {len(t.rounds)} rounds at tables {', '.join(t.tables)}: {clock}; "
          f"results {shown}")
    print(f"kept in {path}; next: tablekit tournament round 1 --db {args.db} --broker URL")
    return 0


def run_round(args: argparse.Namespace) -> int:
    t = kept.load(args.db)
    if t.round:
        left = _unfinished(args.db, t, t.round)
        if left and args.number > t.round:
            print(f"note: round {t.round} is not over at table {', '.join(left)}")
    tour.start_round(t, args.number)
    _send(args, t, t.tables, clock=True)
    _save(args.db, t)
    for table in t.tables:
        print(tour.seating_text(t, t.round, table))
    print(f"round {t.round}'s seats sent to {len(t.tables)} tables"
          + (f"; start the clock with tablekit tournament clock --db {args.db}" if t.minutes
             else ""))
    return 0


def run_clock(args: argparse.Namespace) -> int:
    t = kept.load(args.db)
    tour.start_clock(t, time.time())
    _send(args, t, [], clock=True)
    _save(args.db, t)
    print(f"round {t.round}'s clock started: {t.minutes} minutes at every table")
    return 0


def run_extra(args: argparse.Namespace) -> int:
    t = kept.load(args.db)
    extra = tour.add_time(t, args.table, args.minutes)
    _send(args, t, [], clock=True)
    _save(args.db, t)
    print(f"table {args.table}: {extra} extra minute{'s' * (extra != 1)} in round {t.round}")
    return 0


def run_swap(args: argparse.Namespace) -> int:
    t = kept.load(args.db)
    first, second = args.players
    game = _game_of(args.db, t, args.round_, args.table)
    text = tour.swap(t, args.round_, args.table, first, second)
    fixed = game is not None and _fix(args.db, game, {first: second, second: first})
    resend = args.round_ == t.round and game is None
    if resend:
        _send(args, t, [args.table])
    _save(args.db, t)
    print(text)
    print(f"the league's record of round {args.round_}, table {args.table}'s game is fixed"
          if fixed else "no game of it recorded yet" + (": the table is sent its seats again"
                                                         if resend and args.broker else ""))
    return 0


def run_substitute(args: argparse.Namespace) -> int:
    t = kept.load(args.db)
    db = _connect(args.db)
    try:
        played = kept.games(db)
        recorded = [key for key, (number, _) in tour.rounds_of(t, played).items()
                    if number >= args.from_round]
    finally:
        db.close()
    changed = tour.substitute(t, args.player, args.by, args.from_round)
    fixed = sum(_fix(args.db, key, {args.player: args.by}) for key in recorded)
    tables = [table for table in t.tables if args.by in tour.seats(t, t.round, table)] \
        if t.round >= args.from_round else []
    if tables:
        _send(args, t, tables)
    _save(args.db, t)
    print("\n".join(changed))
    print(f"{args.by} plays for {args.player} from round {args.from_round}"
          + (f"; {fixed} recorded game{'s' * (fixed != 1)} fixed" if fixed else ""))
    return 0


def run_status(args: argparse.Namespace) -> int:
    t = kept.load(args.db)
    db = _connect(args.db)
    try:
        played = kept.games(db)
        standings, hidden = kept.shown_standings(args.db, db)
    finally:
        db.close()
    if not t.round:
        print(f"no round sent yet ({len(t.rounds)} in the plan)")
    else:
        done = tour.finished_tables(t, t.round, played)
        print(f"round {t.round} of {len(t.rounds)}: {len(done)} of {len(t.tables)} tables "
              "finished" + (f" ({', '.join(done)})" if done else ""))
        if t.clock_started is not None:
            left = t.clock_started + t.minutes * 60 - time.time()
            print(f"clock: {_minutes(left)} left" + "".join(
                f", table {table} +{m} min" for table, m in sorted(t.extra.items())))
    if hidden:
        print(f"{hidden} game{'s' * (hidden != 1)} held back until its round is over")
    for line in t.fixes:
        print(f"fixed: {line}")
    for place, p in enumerate(standings, 1):
        print(f"{place:3d}. {p.name:<16} {p.points:+8.1f}  {p.games} games")
    return 0


def _minutes(seconds: float) -> str:
    """``12:05`` (``-0:30`` when over)."""
    sign = "-" if seconds < 0 else ""
    minutes, rest = divmod(round(abs(seconds)), 60)
    return f"{sign}{minutes}:{rest:02d}"


def _connect(path: Path) -> Any:
    from tablekit.league.database import connect

    return connect(path)


def _game_of(path: Path, t: tour.Tournament, round_: int, table: str) -> str | None:
    """The recorded game of ``table`` in ``round_`` (None: not yet)."""
    tour.seats(t, round_, table)
    db = _connect(path)
    try:
        found = tour.rounds_of(t, kept.games(db))
    finally:
        db.close()
    return next((key for key, where in found.items() if where == (round_, table)), None)


def _unfinished(path: Path, t: tour.Tournament, round_: int) -> list[str]:
    db = _connect(path)
    try:
        done = tour.finished_tables(t, round_, kept.games(db))
    finally:
        db.close()
    return [table for table in t.tables if table not in done]


def _fix(path: Path, key: str, renamed: dict[str, str]) -> bool:
    db = _connect(path)
    try:
        return kept.fix_record(db, key, renamed)
    finally:
        db.close()


def _save(path: Path, t: tour.Tournament) -> None:
    write_atomically(kept.state_path(path), kept.state_text(t))


def _send(args: argparse.Namespace, t: tour.Tournament, tables: list[str],
          clock: bool = False) -> None:
    """Send ``tables`` their seats of the round and (``clock``) the clock; nothing without
    ``--broker`` (swap and substitute only)."""
    if args.broker is None:
        return
    from tablekit.club.address import parse_broker, read_credentials
    from tablekit.club.organiser import send_retained
    from tablekit.club.topics import clock_topic, seating_topic

    broker = parse_broker(args.broker)
    credentials = read_credentials(args.club_auth) if args.club_auth else None
    messages = [(seating_topic(table), tour.seating_message(t, t.round, table))
                for table in tables]
    if clock:
        messages += [(clock_topic(table), tour.clock_message(t)) for table in t.tables]
    send_retained(broker, credentials, messages)
