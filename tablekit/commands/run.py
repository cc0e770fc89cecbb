"""``tablekit run``: the scoreboard appliance (camera, buttons, display, journal)."""

from __future__ import annotations

import argparse
import queue
import signal
import sys
import threading
from collections.abc import Callable
from contextlib import suppress
from pathlib import Path
from typing import Any

from tablekit.commands.club import add_table_options, join_club, leave_club
from tablekit.commands.recording import add_record_options
from tablekit.errors import TablekitError, one_line


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "run", help="run the scoreboard (the appliance)",
        description="Run the scoreboard. Missing devices are reported in one line each and "
                    "replaced: no GPIO -> keyboard, no screen -> PNG files, no camera -> "
                    "the buttons keep the score. Esc quits (Ctrl-D too in a terminal; "
                    "Ctrl-C anywhere): every action is saved as it is made.")
    parser.add_argument("--camera", default="auto",
                        metavar="picamera2|opencv:N|folder:DIR|sim|none")
    parser.add_argument("--buttons", default="auto", type=_buttons,
                        metavar="auto|gpio|keyboard|none|phones[,phones]",
                        help="phones: each seat's phone is its buttons, on a seat page "
                             "served with --web (':8080' without it); alone or beside "
                             "another, e.g. gpio,phones")
    parser.add_argument("--display", default="auto", metavar="window|kmsdrm|headless:DIR",
                        help="without a screen the scoreboard is a PNG file, said at start: "
                             "in DIR, else in the state directory's screens/")
    parser.add_argument("--size", default=None, metavar="WxH", help="e.g. 800x480")
    parser.add_argument("--layout", default="facing", choices=("facing", "centre"))
    parser.add_argument("--rules", default=None, metavar="PRESET|FILE.toml",
                        help="rules for a new game (default tenhou); refused while the "
                             "journal holds a game under other rules in progress")
    parser.add_argument("--journal", type=Path, default=None,
                        help="game journal (default: ~/.local/state/tablekit/game.jsonl)")
    parser.add_argument("--pinout", type=Path, default=None, metavar="FILE.toml",
                        help="the buttons' pin map (default: the one shipped with tablekit)")
    parser.add_argument("--frames", type=int, default=None, help="stop after N frames")
    parser.add_argument("--web", default=None, metavar="[HOST]:PORT",
                        help="also serve a read-only scoreboard page (':8080': every interface)")
    parser.add_argument("--league", type=Path, default=None, metavar="DB",
                        help="the league file: each game that ends is recorded in it (and "
                             "the web page shows it)")
    parser.add_argument("--players", default=None, metavar="A,B,C,D",
                        help="names for a new game, first dealer first (three for three-"
                             "player rules; refused while the journal holds a game of other "
                             "players in progress)")
    parser.add_argument("--roster", type=Path, default=None,
                        help="the club's roster: --players must be on it; without "
                             "--players the seat buttons choose each game's players from it")
    parser.add_argument("--draw", action="store_true",
                        help="draw the --players' seats at random (--seed to repeat a "
                             "draw; with the seat buttons: hold OK)")
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--seat-boxes", default=None, metavar="BOX,BOX,BOX",
                        help="three players (sanma): the seat boxes they press, the first "
                             "dealer's first, as numbers 0-3 or winds (default east,south,"
                             "west: the North box is not used)")
    parser.add_argument("--calibration", type=Path, default=Path("calibration") / "table.json",
                        metavar="PROFILE", help="the table's layout comes from this profile "
                        "(tablekit calibrate) when there is one; the camera is fitted afresh")
    parser.add_argument("--tileset", metavar="SET", default=None,
                        help="read the tiles with this enrolled set (see tablekit enroll)")
    parser.add_argument("--learn", action="store_true",
                        help="when the evening ends, add the faces people confirmed (its "
                             "--record DIR) to --tileset SET, a set enrolled from the table: "
                             "the next evening reads with them (docs/tile-sets.md)")
    add_record_options(parser)
    add_table_options(parser)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """``tablekit run``. Ctrl-C and SIGTERM stop it from the first moment: one that comes
    while the table is still being set up (the pages and the phones' server already
    running) ends it before its first frame, each device closed, never half started."""
    asked: list[int] = []  # a stop asked before the loop runs
    early = (signal.signal(signal.SIGTERM, lambda number, _: asked.append(number)),
             signal.signal(signal.SIGINT, lambda number, _: asked.append(number)))
    try:
        return _run(args, asked)
    finally:
        signal.signal(signal.SIGTERM, early[0])
        signal.signal(signal.SIGINT, early[1])


def _run(args: argparse.Namespace, asked: list[int]) -> int:
    from tablekit.app.loop import build_table, default_journal, open_session
    from tablekit.commands.devices import open_buttons, open_display, pick_display
    from tablekit.display.backends import WindowDisplay
    from tablekit.game.lock import JournalLock
    from tablekit.game.recovery import require_journal
    from tablekit.io.buttons import WINDOW_HELP
    from tablekit.io.terminal import HELP, open_terminal_keys
    from tablekit.league.roster import read_roster
    from tablekit.rules.presets import load_rules
    from tablekit.web.server import start_web

    faults: list[str] = []

    def report(line: str) -> None:  # a log on a full card loses the line, not the game
        with suppress(OSError):
            print(f"tablekit: {line}", file=sys.stderr, flush=True)

    def fault(line: str) -> None:  # a device that fell back: in the journal and on screen
        report(line)
        faults.append(line)

    try:
        rules = load_rules(args.rules)
    except TablekitError as error:
        report(f"rules: {error}")
        return 2
    try:
        boxes = _seat_boxes(args.seat_boxes, rules.players)
    except TablekitError as error:
        report(f"seat boxes: {error}")
        return 2
    if args.record is not None:
        from tablekit.recording.manifest import require_new_folder

        try:
            require_new_folder(args.record)
        except TablekitError as error:
            report(f"record: {error}")
            return 2
    if args.learn:
        try:
            _can_learn(args)
        except TablekitError as error:
            report(f"learn: {error}")
            return 2
    if args.league is not None:  # a folder: the evening's games would go unrecorded
        from tablekit.league.database import require_league

        try:
            require_league(args.league)
        except TablekitError as error:
            report(f"league: {error}")
            return 2
    try:
        names = _players(args, rules.players, warn=report)
        roster = tuple(read_roster(args.roster, rules.players)) if args.roster else ()
    except (TablekitError, OSError) as error:
        report(f"players: {one_line(error)}")
        return 2
    journal = args.journal or default_journal()
    lock, web = JournalLock(journal), None
    buttons, with_phones = args.buttons
    inbox: queue.Queue = queue.Queue()
    phones = None
    if with_phones:
        from tablekit.web.phones import PhoneSeats

        phones = PhoneSeats(inbox, report)
    try:  # one journal, one writer: a second tablekit on it is refused
        require_journal(journal)  # a picture named as the journal: refused before its lock
        lock.acquire()
        try:  # a busy port is refused before the game starts
            if phones is not None:
                from tablekit.web.phones import start_phone_web

                web = start_phone_web(args.web or ":8080", journal, args.league, report,
                                      phones)
            else:
                web = start_web(args.web, journal, args.league, report)
        except TablekitError as error:
            lock.release()
            report(f"web: {error}")
            return 2
        # with a roster and no --players, the seat buttons choose the players
        session = open_session(journal, rules, report, names, start=not roster or bool(names),
                               named_rules=args.rules)
        try:  # a damaged journal moved aside: the lock goes to the new one
            lock.follow()
        except BaseException:
            session.close()
            raise
    except (TablekitError, OSError) as error:
        lock.release()
        if web is not None:
            web.stop()
        report(f"journal: {one_line(error)}")
        return 2
    camera, pipeline = _open_camera(args.camera, fault, args.calibration, args.tileset)
    app = build_table(session, open_display(pick_display(args.display), _size(args.size),
                                            fault, report),
                      camera=camera, pipeline=pipeline, layout=args.layout, roster=roster,
                      rules=rules, seed=args.seed, boxes=boxes, inbox=inbox)
    app.buttons, app.keyboard = open_buttons(buttons, app.inbox, fault, args.pinout)
    if phones is not None:
        _phones(app, phones, report)
    if app.keyboard is not None and isinstance(app.display, WindowDisplay):
        report(f"buttons: the keyboard in the window; {WINDOW_HELP}")
        app.flow.quit_key = "Esc"
    elif app.keyboard is not None:
        app.buttons = open_terminal_keys(app.keyboard, fault)  # polled like a button board
        if app.buttons is not None:
            report(f"buttons: reading keys from this terminal; {HELP}")
            app.flow.quit_key = "Esc"
    if app.flow.note_damaged:  # set aside; a message the note kept is not a fault (it
        fault(app.flow.note_damaged)  # would stay in the banner through later hands)
    if args.league is not None:  # each game that ends goes into the league
        _keep_league(app, args.league, journal, fault)
    club = _join_club(args, app, journal, report, fault)
    _greet(app.flow, faults, app.camera is not None)

    def stop(*_: Any) -> None:  # the loop ends after its frame; a second Ctrl-C at once
        if not app.running:
            raise KeyboardInterrupt
        app.running = False

    signal.signal(signal.SIGTERM, lambda *_: setattr(app, "running", False))
    signal.signal(signal.SIGINT, stop)
    stopped = False
    recorder = _recorder(args, app, report)
    try:
        if asked:  # stopped while the table was set up: not one frame
            app.running = False
            stopped = True
        else:
            app.run(max_frames=args.frames)
            stopped = not app.running
    except KeyboardInterrupt:
        stopped = True
    finally:
        if app.buttons is not None:
            app.buttons.close()
        app.display.close()
        if app.camera is not None:
            app.camera.close()
        if recorder is not None:
            _close_recorder(recorder, args.record, report)
            if args.learn:
                learn_evening(args.record, args.tileset, report)
        leave_club(club, report)
        session.close()
        lock.release()
        if web is not None:
            web.stop()
    if stopped:  # Ctrl-C, the quit key, SIGTERM: each action was saved as it was made
        report(f"stopped; the game is saved in {journal} (run it again to resume)")
    return 0


def _buttons(text: str) -> tuple[str, bool]:
    """``--buttons``: (the buttons beside the phones, whether phones are buttons too).

    >>> _buttons("gpio"), _buttons("phones"), _buttons("keyboard,phones")
    (('gpio', False), ('none', True), ('keyboard', True))
    >>> _buttons("gpio,keyboard")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: 'gpio,keyboard': one of auto, gpio, keyboard or none, and/or \
phones (e.g. gpio,phones)
    """
    parts = [part.strip().lower() for part in text.split(",") if part.strip()]
    others = [part for part in parts if part != "phones"]
    if (len(others) > 1 or len(parts) - len(others) > 1 or not parts
            or any(part not in ("auto", "gpio", "keyboard", "none") for part in others)):
        raise argparse.ArgumentTypeError(
            f"{text!r}: one of auto, gpio, keyboard or none, and/or phones (e.g. gpio,phones)")
    return (others[0] if others else "none"), len(others) < len(parts)


def _phones(app: Any, phones: Any, report: Any) -> None:
    """The phones as the seat buttons: the seat boxes the game's players use, each one's
    address printed (``East: http://HOST:PORT/seat/east/KEY``, the wind first: a script
    reads it), the menu's codes and its renewal of the keys, each seat's view sent to its
    page after every change."""
    from tablekit.flow.seats import game_rules
    from tablekit.web.phones import ALL_BOXES

    players = game_rules(app.flow).players
    phones.use(ALL_BOXES if players == 4 else app.flow.boxes)
    app.woken = threading.Event()  # a phone's press is taken at once, not a frame later
    phones.buttons.wake = app.woken.set
    app.flow.phones = phones
    app.hooks.append(phones.hook)
    report("buttons: phones; each seat's address below is that seat's buttons (anyone who "
           "has it presses them: the menu renews them)")
    with suppress(OSError):
        for line in phones.lines():
            print(line, flush=True)


def _keep_league(app: Any, path: Path, journal: Path, fault: Any) -> None:
    """The league follows the journal's finished games; its table is shown between games,
    the standings of the table's game's number of players (three: the sanma table). A
    league file that cannot be opened is a fault: the games are played without it."""
    from tablekit.display.model import league_lines
    from tablekit.flow.seats import game_rules
    from tablekit.league.database import connect
    from tablekit.league.record import game_recorder
    from tablekit.league.standings import league_table

    try:
        db = connect(path)
    except (TablekitError, OSError) as error:
        fault(f"league: {one_line(error)}; games are not recorded")
        return
    def warn(line: str) -> None:  # on the screen too: the game is not lost, only waiting
        fault(f"league: {line}")
        app.flow.say(line)

    app.hooks.append(game_recorder(db, journal, warn=warn))
    app.flow.league = lambda: league_lines(
        league_table(db, players=game_rules(app.flow).players))


def _join_club(args: argparse.Namespace, app: Any, journal: Path, report: Any, fault: Any
               ) -> Any:
    """The table's publisher for ``--club`` (None without it), saying how the broker is
    doing in ``report``'s lines; options that cannot be used are a fault: the games are
    played without the club."""
    from tablekit.club.table import club_hook

    try:
        club = join_club(args, journal, report)
    except (TablekitError, OSError) as error:
        fault(f"club: {one_line(error)}; the table plays without the club")
        return None
    if club is not None:
        from tablekit.flow.sent_seats import orders_hook

        app.hooks.append(club_hook(club))
        app.hooks.append(orders_hook(club.orders))  # the organiser's seating and clock
    return club


def _recorder(args: argparse.Namespace, app: Any, report: Any) -> Any:
    """The game's recorder for ``--record``, tapping the app (None without it, or when
    the folder cannot be written: reported, the game is played unrecorded)."""
    if args.record is None:
        return None
    from tablekit.recording.recorder import Recorder

    details = {"source": "run", "camera": args.camera, "reader": "vision"}
    try:
        recorder = Recorder(args.record, details, args.record_images,
                            calibration=args.calibration, tileset=args.tileset,
                            report=report)
        recorder.attach(app)
    except (TablekitError, OSError) as error:
        report(f"record: {one_line(error)}; the game is not recorded")
        return None
    report(f"recording the game into {args.record}")
    return recorder


def _can_learn(args: argparse.Namespace) -> None:
    """``--learn`` needs the evening recorded and a set enrolled from the table to learn
    into (one line otherwise)."""
    from tablekit.recording.learn import learnable
    from tablekit.vision.tileset import TileSet

    if args.tileset is None or args.record is None:
        raise TablekitError("--learn adds the evening's confirmed faces to a tile set: give "
                            "--tileset SET (enrolled with enroll --from-table) and --record "
                            "DIR")
    learnable(TileSet.load(args.tileset))


def learn_evening(record: Path, tileset: str | Path, report: Any) -> bool:
    """``--learn``, when the evening ends: the recording's confirmed faces join ``tileset``
    in place (:func:`tablekit.recording.learn.learn`), each step reported in one line;
    whether the set learned. Nothing to learn, or a recording or set that cannot be read,
    is said and leaves the set as it was."""
    from tablekit.recording.learn import learn
    from tablekit.vision.tileset import TileSet

    report(f"learning the faces confirmed this evening ({record}) into {tileset} ...")
    try:
        found, learned = learn([Path(record)], TileSet.load(tileset))
    except (TablekitError, OSError) as error:
        report(f"learn: {one_line(error)}; the tile set is as it was")
        return False
    report(f"learn: {found.report()}")
    report(f"learn: {learned.added} faces added; {learned.faces_line()}")
    return True


def _close_recorder(recorder: Any, folder: Path, report: Any) -> None:
    try:
        kept = recorder.close()
    except OSError as error:
        report(f"record: {one_line(error)}")
        return
    report(f"recorded in {folder}: {kept['frames_kept']} frames kept, "
           f"{kept['frames_dropped']} dropped, {kept['image_bytes'] / 1e6:.1f} MB")


def _seat_boxes(text: str | None, players: int) -> tuple[int, ...]:
    """The seat boxes three players press (--seat-boxes; East, South and West by default);
    refused with four players, who use every box."""
    from tablekit.flow.boxes import THREE, parse_boxes

    if players == 4 and text is not None:
        raise TablekitError("--seat-boxes is for three players (--rules tenhou-sanma or "
                            "players = 3): four use every box")
    return THREE if text is None else parse_boxes(text)


def _players(args: argparse.Namespace, seats: int = 4,
             warn: Callable[[str], None] | None = None) -> tuple[str, ...]:
    """The names for a new game of ``seats`` players from --players (checked against
    --roster), maybe drawn (the seats are reported when the game starts); names that look
    alike (in the roster, or typed) are said to ``warn``."""
    if args.players is None:
        return ()
    from tablekit.league.roster import choose_players, draw_seats, read_roster

    roster = read_roster(args.roster, seats, warn) if args.roster else None
    names = choose_players(args.players, roster, seats, None if roster else warn)
    return draw_seats(names, args.seed) if args.draw else names


def _open_camera(spec: str, report: Any,
                 calibration: Path = Path("calibration") / "table.json",
                 tileset: str | None = None) -> tuple[Any, Any]:
    """The camera for ``spec`` and the pipeline that reads its frames, or (None, None)
    (reported) when there is no camera to use."""
    from tablekit.commands.devices import on_raspberry_pi

    if spec == "auto":
        spec = "picamera2" if on_raspberry_pi() else "none"
    if spec == "none":
        report("camera: none; the buttons keep the score (wins entered as han and fu)")
        return None, None
    try:
        from tablekit.commands.devices import open_camera
        from tablekit.vision.calibration import table_layout
        from tablekit.vision.pipeline import CameraPipeline

        layout = table_layout(calibration)
        source = open_camera(spec)
        return source, CameraPipeline.open(layout=layout, tileset=tileset)
    except Exception as error:  # a camera that fails at start is a fallback, never a crash
        report(f"camera: {one_line(error)}; the buttons keep the score")
        return None, None


def _greet(flow: Any, faults: list[str], camera: bool) -> None:
    """The first screen says what fell back at start (in the warnings banner, or the status
    line when a camera's own warnings own the banner) and what to press to begin."""
    from tablekit.flow import Stage
    from tablekit.flow.seats import PROMPT

    hint = {Stage.BETWEEN_HANDS: "press OK to deal the hand",
            Stage.CHOOSE_PLAYERS: PROMPT}.get(flow.stage, "")
    if faults and not camera:
        flow.warn(*faults)
    elif faults:
        hint = "; ".join([*faults, hint] if hint else faults)
    flow.say(hint)


def _size(text: str | None) -> tuple[int, int] | None:
    if not text:
        return None
    width, _, height = text.lower().partition("x")
    return int(width), int(height)
