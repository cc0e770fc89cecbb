"""A real mosquitto for the club's tests, started with the configuration and ACL tablekit
ships (``tablekit/data/club-mosquitto.conf`` and ``.acl``, as ``tablekit club --print-config``
prints them), only its port, its files' paths and its store changed: on a free local port,
its files in a temporary folder, stopped and started again on the same port and store.

With ``users`` (name -> password) it is the club's broker, users and ACL as shipped; without,
the same configuration open to anonymous clients (no users, no ACL: the tests of other things
than the broker's rules). Skipped cleanly where mosquitto is not installed."""

from __future__ import annotations

import getpass
import socket
import subprocess
import time
from pathlib import Path

from missing_packages import missing_program

from tablekit.club import mosquitto
from tablekit.club.local import free_port

ACL = mosquitto.shipped_acl()  # the shipped ACL (a test may add to it)


def mosquitto_program() -> str:
    """The mosquitto binary (Debian puts it in /usr/sbin), or a skip."""
    found = mosquitto.mosquitto_program()
    if found is None:
        missing_program("mosquitto", "mosquitto")
    return found


class Broker:
    """A mosquitto of the test's own; ``users``: name -> password, with the shipped ACL.
    ``config``: the shipped configuration's text by default (a test may give an older one)."""

    def __init__(self, folder: Path, users: dict[str, str] | None = None,
                 config: str | None = None) -> None:
        self.program, self.folder, self.port = mosquitto_program(), Path(folder), free_port()
        self.process: subprocess.Popen | None = None
        if users:
            if mosquitto.mosquitto_program("mosquitto_passwd") is None:
                missing_program("mosquitto_passwd", "mosquitto")
            mosquitto.write_passwords(self.folder / mosquitto.PASSWORDS, users)
            (self.folder / mosquitto.ACL).write_text(ACL)
        # as root, mosquitto would become the user mosquitto, who cannot write in the test's
        # folder (then nothing is kept over a restart): it stays the test's user
        text = mosquitto.local_config(config or mosquitto.shipped_config(), self.port,
                                      self.folder, user=getpass.getuser(), autosave=1,
                                      anonymous=not users)
        self.config = self.folder / "mosquitto.conf"
        self.config.write_text(text)
        self.log_path = self.folder / "mosquitto.log"

    @property
    def url(self) -> str:
        return f"mqtt://127.0.0.1:{self.port}"

    @property
    def address(self) -> tuple[str, int]:
        return "127.0.0.1", self.port

    def log(self) -> str:
        """What mosquitto said (its stderr) since the test began."""
        try:
            return self.log_path.read_text(errors="replace")
        except OSError:
            return ""

    def start(self) -> Broker:
        with self.log_path.open("ab") as log:
            self.process = subprocess.Popen([self.program, "-c", str(self.config)],
                                            stdout=subprocess.DEVNULL, stderr=log)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                socket.create_connection(self.address, timeout=0.5).close()
                return self
            except OSError:
                if self.process.poll() is not None:
                    raise RuntimeError(f"mosquitto did not start: {self.log()}") from None
                time.sleep(0.05)
        raise RuntimeError("mosquitto did not listen within 10 s")

    def stop(self) -> None:
        """Stop it as a service is stopped (SIGTERM: it saves its store)."""
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=10)
        self.process = None
