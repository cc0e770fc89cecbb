"""The club's broker as tablekit ships it: mosquitto's configuration and ACL
(``tablekit/data/club-mosquitto.conf`` and ``club-mosquitto.acl``, printed by ``tablekit club
--print-config`` and ``--print-acl``), the same files made local for a club on one machine
(``tablekit club --local``, and the tests), and a password file written with mosquitto's own
``mosquitto_passwd``.

>>> text = local_config(shipped_config(), 18830, Path("/tmp/club"))
>>> [line for line in text.splitlines() if line.startswith(("listener", "acl_file"))]
['listener 18830 127.0.0.1', 'acl_file /tmp/club/club.acl']
>>> "use_username_as_clientid true" in text and "persistence_location /tmp/club/" in text
True
>>> "allow_anonymous true" in local_config(shipped_config(), 1, Path("/c"), anonymous=True)
True
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

from tablekit.club.address import ClubError
from tablekit.files.resources import packaged

CONFIG_FILE = "club-mosquitto.conf"
ACL_FILE = "club-mosquitto.acl"
PASSWORDS = "club.passwd"  # the names a local club's files take in its folder
ACL = "club.acl"
AUTH_LINES = ("use_username_as_clientid ", "password_file ", "acl_file ")


def shipped_config() -> str:
    """mosquitto's configuration for the club, as installed in ``/etc/mosquitto/conf.d/``."""
    return packaged("data", CONFIG_FILE).read_text(encoding="utf-8")


def shipped_acl() -> str:
    """The club's ACL, as installed in ``/etc/mosquitto/club.acl``."""
    return packaged("data", ACL_FILE).read_text(encoding="utf-8")


def local_config(text: str, port: int, folder: Path, user: str | None = None,
                 autosave: int | None = None, anonymous: bool = False) -> str:
    """``text`` (the shipped configuration) for a broker on ``127.0.0.1:port`` whose password
    file, ACL and store are in ``folder``; only those lines change (and, with ``user``, the
    user a broker started as root stays; ``autosave``: seconds between saves of the store).
    ``anonymous``: no users, no ACL, for tests of other things than the broker's rules."""
    lines = []
    for line in text.splitlines():
        if line.startswith("listener "):
            line = f"listener {port} 127.0.0.1"
        elif line.startswith("password_file "):
            line = f"password_file {folder / PASSWORDS}"
        elif line.startswith("acl_file "):
            line = f"acl_file {folder / ACL}"
        elif line.startswith("autosave_interval ") and autosave is not None:
            line = f"autosave_interval {autosave}"
        if anonymous and line.startswith(AUTH_LINES):
            continue
        if anonymous and line.startswith("allow_anonymous "):
            line = "allow_anonymous true"
        lines.append(line)
    lines.append(f"persistence_location {folder}/")
    if user is not None:
        lines.append(f"user {user}")
    return "\n".join(lines) + "\n"


def mosquitto_program(name: str = "mosquitto") -> str | None:
    """mosquitto's (or ``mosquitto_passwd``'s) path: on PATH, or in Debian's /usr/sbin."""
    found = shutil.which(name)
    if found is None and Path("/usr/sbin", name).is_file():
        found = f"/usr/sbin/{name}"
    return found


def write_passwords(path: Path, users: dict[str, str]) -> None:
    """A mosquitto password file of ``users`` (name -> password), hashed by
    ``mosquitto_passwd -U`` (never a password on a command line); readable by its owner only."""
    tool = mosquitto_program("mosquitto_passwd")
    if tool is None:
        raise ClubError("mosquitto_passwd is not installed (sudo apt-get install mosquitto)")
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as out:
        out.writelines(f"{user}:{password}\n" for user, password in users.items())
    done = subprocess.run([tool, "-U", str(path)], capture_output=True, text=True)
    if done.returncode != 0:
        raise ClubError(f"mosquitto_passwd could not write {path}: "
                        f"{(done.stderr or done.stdout).strip() or done.returncode}")
