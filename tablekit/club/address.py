"""Where the club's broker is (``mqtt://HOST:PORT``) and the credentials a table or the
board logs in with (a file, never the command line).

>>> parse_broker("mqtt://club.local:1883")
('club.local', 1883)
>>> parse_broker("mqtt://10.0.0.2")
('10.0.0.2', 1883)
>>> try:
...     parse_broker("http://club.local")
... except ClubError as error:
...     print(error)
the broker is mqtt://HOST:PORT, not http://club.local
"""

from __future__ import annotations

import stat
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

from tablekit.errors import TablekitError

DEFAULT_PORT = 1883


class ClubError(TablekitError, ValueError):
    """A club option that cannot be used (a broker address, a credentials file), named."""


def parse_broker(url: str) -> tuple[str, int]:
    """The host and port of ``mqtt://HOST[:PORT]`` (1883 by default)."""
    try:
        parts = urlsplit(url)
        port = parts.port or DEFAULT_PORT
    except ValueError:
        parts, port = None, 0
    if parts is None or parts.scheme != "mqtt" or not parts.hostname or parts.path.strip("/") \
            or parts.username or parts.password:
        raise ClubError(f"the broker is mqtt://HOST:PORT, not {url}")
    return parts.hostname, port


@dataclass(frozen=True)
class Credentials:
    """A broker user and password."""

    username: str
    password: str

    def __repr__(self) -> str:  # never the password in a log line or a traceback
        return f"Credentials(username={self.username!r})"


def read_credentials(path: Path) -> Credentials:
    """The two lines of ``path``: the user name, then the password. Refused in one line
    when it cannot be read, is not two lines, or other users may read it (``chmod 600``).

    >>> import tempfile, os
    >>> file = Path(tempfile.mkdtemp()) / "auth"
    >>> _ = file.write_text("A\\nsecret\\n"); os.chmod(file, 0o600)
    >>> read_credentials(file)
    Credentials(username='A')
    >>> os.chmod(file, 0o644)
    >>> try:
    ...     read_credentials(file)
    ... except ClubError as error:
    ...     print(str(error).split(": ", 1)[1])
    other users can read it: chmod 600 it
    """
    try:
        mode = Path(path).stat().st_mode
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        reason = getattr(error, "strerror", None) or "not text"
        raise ClubError(f"cannot read the club's credentials {path}: {reason}") from None
    if mode & (stat.S_IRWXG | stat.S_IRWXO):
        raise ClubError(f"the club's credentials {path}: other users can read it: chmod 600 it")
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    if len(lines) != 2:
        raise ClubError(f"the club's credentials {path} must be two lines: the user name, "
                        "then the password")
    return Credentials(lines[0], lines[1])
