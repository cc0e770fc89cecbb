"""``tablekit club``: the club's board (records every table's games in one league), and the
``--club``/``--table``/``--club-auth`` options that join a table to the club."""

from __future__ import annotations

import argparse
import signal
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tablekit.errors import TablekitError, one_line

WAIT_AT_EXIT = 3.0  # seconds a table that stops waits for the broker to take its games


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "club", help="the club's board: record every table's games in one league",
        description="Subscribe to the club's broker, keep every table's latest state (a "
                    "table is silent after 30 s without a word) and record each finished "
                    "game once in the league, printing one line per game; with --web, "
                    "serve the board page (every table live, the league). Ctrl-C stops. "
                    "--local DIR tries a whole club on this machine; --print-config and "
                    "--print-acl give the broker's files. See docs/club.md.")
    parser.add_argument("--broker", default=None, metavar="mqtt://HOST:PORT",
                        help="the club's broker (a first connection that fails stops the "
                             "board in one line)")
    parser.add_argument("--db", type=Path, default=None, metavar="club.sqlite",
                        help="the club's league file (made once the broker answers)")
    parser.add_argument("--club-auth", type=Path, default=None, metavar="FILE",
                        help="the board's user name and password, two lines (chmod 600)")
    parser.add_argument("--season", default="", help="the season its games are recorded in")
    parser.add_argument("--web", default=None, metavar="[HOST]:PORT",
                        help="serve the board page here, read-only (:8080 for every "
                             "interface, as the room's screen or a phone opens it)")
    parser.add_argument("--local", type=Path, default=None, metavar="DIR",
                        help="try a club on this machine: a broker (mosquitto, as shipped), "
                             "users and passwords for the board and --tables tables, the "
                             "board and its page, all on 127.0.0.1, their files in DIR; "
                             "prints the tables' commands")
    parser.add_argument("--tables", type=int, default=4, metavar="N",
                        help="with --local: how many tables (users 1..N; 4 by default)")
    parser.add_argument("--print-config", action="store_true",
                        help="print mosquitto's configuration for the club, as shipped "
                             "(/etc/mosquitto/conf.d/tablekit-club.conf), and stop")
    parser.add_argument("--print-acl", action="store_true",
                        help="print the club's ACL for mosquitto, as shipped "
                             "(/etc/mosquitto/club.acl), and stop")
    parser.set_defaults(run=run)


def add_table_options(parser: argparse.ArgumentParser) -> None:
    """``--club``, ``--table`` and ``--club-auth`` for a command that plays games."""
    parser.add_argument("--club", default=None, metavar="mqtt://HOST:PORT",
                        help="join the club at this broker: the table's state and each "
                             "finished game are sent to the board (docs/club.md)")
    parser.add_argument("--table", default=None, metavar="NAME",
                        help="this table's name in the club (its broker user)")
    parser.add_argument("--club-auth", type=Path, default=None, metavar="FILE",
                        help="the table's user name and password, two lines (chmod 600)")


def join_club(args: argparse.Namespace, journal: Path | None,
              report: Callable[[str], None]) -> Any:
    """The started publisher for ``--club`` (None without it); a table's games wait in the
    outbox beside ``journal`` (in the state folder without one). Options that cannot be
    used raise a one-line :class:`~tablekit.club.address.ClubError`; a broker that cannot
    be reached is said, and the game goes on."""
    if args.club is None:
        if args.table is not None or args.club_auth is not None:
            from tablekit.club.address import ClubError

            raise ClubError("--table and --club-auth go with --club mqtt://HOST:PORT")
        return None
    from tablekit.club.address import ClubError, parse_broker, read_credentials
    from tablekit.club.orders import Orders
    from tablekit.club.outbox import Outbox, outbox_for
    from tablekit.club.publisher import Publisher
    from tablekit.club.topics import check_table

    if args.table is None:
        raise ClubError("--club needs --table NAME (this table's name in the club)")
    table, broker = check_table(args.table), parse_broker(args.club)
    credentials = read_credentials(args.club_auth) if args.club_auth else None
    if journal is None:
        from tablekit.app.loop import default_journal

        journal = default_journal().with_name(f"club-{table}")
    return Publisher(table, broker, Outbox(outbox_for(journal)), credentials,
                     lambda line: report(f"club: {line}"), Orders(table)).start()


def leave_club(publisher: Any, report: Callable[[str], None]) -> None:
    """Stop ``publisher`` (None: nothing), waiting a little for the broker to take the
    games; those it did not are said, and sent when the table next joins."""
    if publisher is None:
        return
    left = publisher.close(WAIT_AT_EXIT)
    if left:
        report(f"club: {left} game(s) not yet sent wait in {publisher.outbox.folder}; "
               "they are sent when the table next joins the club")


def _report(line: str) -> None:
    print(f"tablekit club: {line}", file=sys.stderr, flush=True)


def run(args: argparse.Namespace) -> int:
    from tablekit.club import mosquitto

    if args.print_config or args.print_acl:
        sys.stdout.write(mosquitto.shipped_config() if args.print_config
                         else mosquitto.shipped_acl())
        return 0
    if args.local is not None:
        from tablekit.club.local import run_local

        return run_local(args, _report, serve)
    if args.broker is None or args.db is None:
        _report("give --broker mqtt://HOST:PORT and --db club.sqlite (or --local DIR to try "
                "a club on this machine)")
        return 2
    return serve(args.broker, args.club_auth, args.db, args.web, args.season, _report)


def serve(url: str, auth: Path | None, db_path: Path, web_at: str | None, season: str,
          report: Callable[[str], None]) -> int:
    """The board: wait for the broker's first answer (a broker that refuses it or cannot be
    reached stops it in one line, exit 2, before the league file is made), then record the
    club's games in ``db_path`` until SIGTERM or Ctrl-C."""
    from tablekit.club.address import parse_broker, read_credentials
    from tablekit.club.board import Board
    from tablekit.club.listener import Ear, listen
    from tablekit.league.database import connect, readable
    from tablekit.web.board import start_board_web

    try:
        broker = parse_broker(url)
        credentials = read_credentials(auth) if auth else None
        if Path(db_path).exists():  # a league it cannot read back: refused before connecting
            readable(connect(db_path), db_path).close()
    except (TablekitError, OSError) as error:
        report(one_line(error))
        return 2
    ear = Ear(broker, credentials, report)
    try:
        ear.first_connection()
    except TablekitError as error:
        report(f"{one_line(error)}; nothing recorded (is --broker right, and mosquitto "
               "running there?)" if "cannot reach" in str(error) else one_line(error))
        return 2
    except KeyboardInterrupt:
        ear.close()
        return 130
    try:
        db = readable(connect(db_path), db_path)
    except (TablekitError, OSError) as error:
        ear.close()
        report(one_line(error))
        return 2
    board = Board(db, say=lambda line: print(line, flush=True), season=season)
    try:
        web = start_board_web(web_at, board, db_path, report) if web_at else None
    except TablekitError as error:
        ear.close()
        report(one_line(error))
        db.close()
        return 2
    stop = threading.Event()
    handlers = [signal.signal(sig, lambda *_: stop.set())
                for sig in (signal.SIGTERM, signal.SIGINT)]
    report(f"connected to the broker {url}; recording the club's games in {db_path}")
    try:
        listen(board, broker, credentials, report, stop, ear=ear)
    finally:
        signal.signal(signal.SIGTERM, handlers[0])
        signal.signal(signal.SIGINT, handlers[1])
        if web is not None:
            web.stop()
        db.close()
    report(f"stopped; {board.recorded} game(s) recorded, {board.refused} message(s) refused")
    return 0
