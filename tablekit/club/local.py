"""``tablekit club --local DIR``: a whole club on this machine, to try it: mosquitto with the
configuration and ACL tablekit ships (only its port and its files' paths changed), a user
and a generated password for the board, the organiser and tables ``1``..``N``, the board and
its page, all on 127.0.0.1, every file in ``DIR``; it prints the command each table runs
with. Ctrl-C stops the board, then the broker. Run again with the same ``DIR``, it keeps the
league, the passwords and (if it is free) the port.

>>> import tempfile
>>> folder = Path(tempfile.mkdtemp())
>>> auth = credentials_file(folder, "1")
>>> auth.name, oct(auth.stat().st_mode & 0o777), auth.read_text().splitlines()[0]
('table1.auth', '0o600', '1')
>>> credentials_file(folder, "1").read_text() == auth.read_text()  # kept
True
"""

from __future__ import annotations

import argparse
import getpass
import os
import re
import secrets
import socket
import subprocess
import time
from collections.abc import Callable
from pathlib import Path

from tablekit.club import mosquitto
from tablekit.club.address import ClubError, read_credentials
from tablekit.files.resources import packaged

START_WAIT = 10.0  # seconds mosquitto has to listen


def credentials_file(folder: Path, user: str) -> Path:
    """``user``'s credentials file in ``folder`` (``table<N>.auth`` for a table, else
    ``<user>.auth``), made with a new password when missing or unusable (chmod 600)."""
    path = folder / (f"table{user}.auth" if user.isdigit() else f"{user}.auth")
    try:
        if read_credentials(path).username == user:
            return path
    except ClubError:
        pass
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as out:
        out.write(f"{user}\n{secrets.token_urlsafe(18)}\n")
    os.chmod(path, 0o600)
    return path


def _free(port: int) -> bool:
    with socket.socket() as probe:
        try:
            probe.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def _port(folder: Path) -> int:
    """The port of the club's last run in ``folder`` if it is free, else a free one."""
    try:
        found = re.search(r"^listener (\d+) ", (folder / "mosquitto.conf").read_text(), re.M)
    except OSError:
        found = None
    if found and _free(int(found[1])):
        return int(found[1])
    return free_port()


def free_port() -> int:
    """A port free on 127.0.0.1 now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def prepare(folder: Path, tables: int) -> tuple[int, dict[str, Path]]:
    """Write the broker's files in ``folder`` (its configuration, the ACL, the passwords)
    and each user's credentials file; (the broker's port, user -> credentials file)."""
    folder.mkdir(parents=True, exist_ok=True)
    users = ["board", "organiser", *(str(n) for n in range(1, tables + 1))]
    files = {user: credentials_file(folder, user) for user in users}
    mosquitto.write_passwords(folder / mosquitto.PASSWORDS,
                              {user: read_credentials(path).password
                               for user, path in files.items()})
    (folder / mosquitto.ACL).write_text(mosquitto.shipped_acl(), encoding="utf-8")
    port = _port(folder)
    # as root, mosquitto would become the user mosquitto, who may not read DIR: it stays
    user = getpass.getuser() if os.geteuid() == 0 else None
    (folder / "mosquitto.conf").write_text(
        mosquitto.local_config(mosquitto.shipped_config(), port, folder.resolve(), user=user),
        encoding="utf-8")
    return port, files


def start_broker(folder: Path, port: int) -> subprocess.Popen:
    """mosquitto on ``127.0.0.1:port`` with ``folder``'s configuration, listening (its log in
    ``folder/mosquitto.log``); one :class:`ClubError` line when it cannot start."""
    program = mosquitto.mosquitto_program()
    if program is None:
        raise ClubError("mosquitto is not installed (sudo apt-get install mosquitto)")
    log = folder / "mosquitto.log"
    with log.open("ab") as out:
        process = subprocess.Popen([program, "-c", str(folder / "mosquitto.conf")],
                                   stdout=subprocess.DEVNULL, stderr=out,
                                   start_new_session=True)  # Ctrl-C is the board's to pass on
    deadline = time.monotonic() + START_WAIT
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
            return process
        except OSError:
            if process.poll() is not None:
                said = log.read_text(errors="replace").strip().splitlines()
                raise ClubError(f"mosquitto did not start ({said[-1] if said else 'no word'}"
                                f"; see {log})") from None
            time.sleep(0.05)
    process.terminate()
    raise ClubError(f"mosquitto did not listen on 127.0.0.1:{port} within {START_WAIT:g} s")


def stop_broker(process: subprocess.Popen) -> None:
    if process.poll() is None:
        process.terminate()  # it saves its store
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def table_commands(url: str, folder: Path, files: dict[str, Path]) -> list[str]:
    """The command each table runs (the simulated table, on the demo game)."""
    game = packaged("data", "tenhou-python-bot-28.xml")
    return [f"tablekit simulate {game} --reader truth --club {url} --table {user} "
            f"--club-auth {path} --journal {folder / f'table{user}.jsonl'}"
            for user, path in files.items() if user.isdigit()]


def run_local(args: argparse.Namespace, report: Callable[[str], None],
              serve: Callable[..., int]) -> int:
    """``tablekit club --local DIR``: prepare, start the broker, print the tables' commands,
    run the board (``serve(url, auth, db, web, season, report)``, ``tablekit club``'s own)
    until Ctrl-C, stop the broker."""
    folder = Path(args.local).absolute()
    if args.broker is not None:
        report("--local starts its own broker: give --local DIR or --broker, not both")
        return 2
    if not 1 <= args.tables <= 99:
        report(f"--tables is 1 to 99, not {args.tables}")
        return 2
    try:
        port, files = prepare(folder, args.tables)
        broker = start_broker(folder, port)
    except (ClubError, OSError) as error:
        report(str(error).splitlines()[0] if str(error) else type(error).__name__)
        return 2
    url = f"mqtt://127.0.0.1:{port}"
    web = args.web or f"127.0.0.1:{free_port()}"
    db = args.db or folder / "club.sqlite"
    lines = [f"a club on this machine, its files in {folder}:",
             f"  the broker: {url} (mosquitto -c {folder / 'mosquitto.conf'}; its log "
             f"{folder / 'mosquitto.log'})",
             f"  the board page: http://{web}/",
             f"  the league: tablekit league --db {db}",
             "each table, in a terminal of its own (a real table: tablekit run --club "
             f"{url} --table 1 --club-auth {files['1']}):",
             *(f"  {command}" for command in table_commands(url, folder, files)),
             "Ctrl-C stops the board and the broker"]
    for line in lines:
        print(line, flush=True)
    try:
        return serve(url, files["board"], db, web, args.season, report)
    finally:
        stop_broker(broker)
        report("the broker stopped")
