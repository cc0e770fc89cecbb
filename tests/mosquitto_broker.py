"""A real mosquitto for the club's tests: on a free local port, its configuration written
into a temporary folder (anonymous, or docs/club.md's users and ACL), stopped and started
again on the same port and store. Skipped cleanly where mosquitto is not installed."""

from __future__ import annotations

import getpass
import shutil
import socket
import subprocess
import time
from pathlib import Path

from missing_packages import missing_program

ACL = """\
# the board reads every table's topics
user board
topic read tablekit/club/#

# each table writes only its own topics, and reads its own seats and the tournament's
# clock (tournament.md): its user name is its table's name
pattern write tablekit/club/tables/%u/#
pattern read tablekit/club/tables/%u/seating
pattern read tablekit/club/clock
"""


def mosquitto_program() -> str:
    """The mosquitto binary (Debian puts it in /usr/sbin), or a skip."""
    found = shutil.which("mosquitto") or next(
        (p for p in ("/usr/sbin/mosquitto",) if Path(p).is_file()), None)
    if found is None:
        missing_program("mosquitto", "mosquitto")
    return found


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Broker:
    """A mosquitto of the test's own; ``users``: name -> password, with the ACL above."""

    def __init__(self, folder: Path, users: dict[str, str] | None = None) -> None:
        self.program, self.folder, self.port = mosquitto_program(), Path(folder), free_port()
        self.process: subprocess.Popen | None = None
        # as root, mosquitto would become the user mosquitto, who cannot write in the test's
        # folder (then nothing is kept over a restart): it stays the test's user
        lines = [f"listener {self.port} 127.0.0.1", f"user {getpass.getuser()}",
                 "persistence true",
                 f"persistence_location {self.folder}/", "autosave_interval 1"]
        if users:
            passwords = self.folder / "passwd"
            tool = shutil.which("mosquitto_passwd") or missing_program("mosquitto_passwd",
                                                                        "mosquitto")
            for index, (user, password) in enumerate(users.items()):
                subprocess.run([tool, *(["-c"] if index == 0 else []), "-b", str(passwords),
                                user, password], check=True, capture_output=True)
            (self.folder / "acl").write_text(ACL)
            lines += ["allow_anonymous false", f"password_file {passwords}",
                      f"acl_file {self.folder / 'acl'}"]
        else:
            lines += ["allow_anonymous true"]
        self.config = self.folder / "mosquitto.conf"
        self.config.write_text("\n".join(lines) + "\n")

    @property
    def url(self) -> str:
        return f"mqtt://127.0.0.1:{self.port}"

    @property
    def address(self) -> tuple[str, int]:
        return "127.0.0.1", self.port

    def start(self) -> Broker:
        self.process = subprocess.Popen([self.program, "-c", str(self.config)],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                socket.create_connection(self.address, timeout=0.5).close()
                return self
            except OSError:
                if self.process.poll() is not None:
                    raise RuntimeError(f"mosquitto did not start: {self.process.stderr.read()}"
                                       ) from None
                time.sleep(0.05)
        raise RuntimeError("mosquitto did not listen within 10 s")

    def stop(self) -> None:
        """Stop it as a service is stopped (SIGTERM: it saves its store)."""
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=10)
        self.process = None
