"""The game's side of the page's process (:mod:`tablekit.web.serve`): started, told to stop,
and watched, so that its crash is one line and never touches the game.

>>> why_ended(-9, ""), why_ended(1, "the journal: gone"), why_ended(0, "")
('killed by signal 9', 'the journal: gone', 'exit status 0')
"""

from __future__ import annotations

import contextlib
import json
import os
import select
import site
import subprocess
import sys
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import tablekit
from tablekit.errors import TablekitError, one_line

START_SECONDS = 60.0  # the longest the page's process may take to bind (a Pi, loaded)
STOP_SECONDS = 5.0    # the longest a stop waits before it kills the process


class PageProcess:
    """The page served by ``command`` (a :mod:`tablekit.web.serve` command line) in a child
    process, bound once this returns (:class:`TablekitError`, one line, if it cannot be);
    ``report`` is told in one line if it ends before :meth:`stop`."""

    def __init__(self, command: Sequence[str], report: Callable[[str], None],
                 first: dict[str, Any] | None = None,
                 on_press: Callable[[Any], None] | None = None) -> None:
        """``first``: the line the process reads before it binds (the seats' keys, for
        ``--phones``); ``on_press``: called (from the watching thread) with each press the
        process says was made."""
        self._report = report
        self._stopping = False
        self._on_press = on_press
        self._pending: dict[str, Any] = {}
        self._told = threading.Condition()
        try:
            self._process = subprocess.Popen(
                list(command), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL, start_new_session=True, env=_environment())
        except OSError as error:
            raise TablekitError(f"the page's process cannot be started ({one_line(error)})"
                                ) from None
        assert self._process.stdout is not None and self._process.stdin is not None
        self._out = self._process.stdout
        if first is not None:
            with contextlib.suppress(OSError):
                self._process.stdin.write(json.dumps(first).encode() + b"\n")
                self._process.stdin.flush()
        answer = self._first_line()
        if "address" not in answer:
            self._process.kill()
            self._process.wait()
            raise TablekitError(answer.get("refused") or answer.get("failed")
                                or "the page's process did not start")
        host, port = answer["address"]
        self.server_address: tuple[str, int] = (host, port)
        self.pid = self._process.pid
        self._watcher = threading.Thread(target=self._watch, name="tablekit-web-watch",
                                         daemon=True)
        self._watcher.start()
        self._teller = threading.Thread(target=self._tell_all, name="tablekit-web-tell",
                                        daemon=True)
        if first is not None:  # the seat pages: the game tells them more (one more thread)
            self._teller.start()

    @property
    def url(self) -> str:
        host, port = self.server_address
        return f"http://{host}:{port}"

    def _first_line(self) -> dict:
        if not select.select([self._out], [], [], START_SECONDS)[0]:
            return {"failed": f"the page's process did not answer in {START_SECONDS:.0f} s"}
        with contextlib.suppress(ValueError):
            line = json.loads(self._out.readline() or b"{}")
            if isinstance(line, dict):
                return line
        return {}

    def tell(self, message: dict[str, Any]) -> None:
        """Send ``message`` (the seats' ``keys``, their ``seats`` views) to the process
        without waiting: a thread of its own writes it, each part as last told (a game
        loop never waits on the page)."""
        with self._told:
            self._pending.update(message)
            self._told.notify()

    def _tell_all(self) -> None:
        assert self._process.stdin is not None
        while True:
            with self._told:
                while not self._pending and not self._stopping:
                    self._told.wait()
                if self._stopping:
                    return
                message, self._pending = self._pending, {}
            try:
                self._process.stdin.write(json.dumps(message).encode() + b"\n")
                self._process.stdin.flush()
            except (OSError, ValueError):  # the page ended: its watcher says so
                return

    def _watch(self) -> None:
        said = ""
        for raw in self._out:
            with contextlib.suppress(ValueError, AttributeError):
                line = json.loads(raw)
                said = line.get("failed", said)
                if "press" in line and self._on_press is not None:
                    self._on_press(line["press"])
        status = self._process.wait()
        if not self._stopping:
            phones = (" and the phones' buttons (run tablekit again for new seat addresses)"
                      if self._teller.is_alive() or self._on_press is not None else "")
            with contextlib.suppress(Exception):
                self._report(f"web: the page stopped ({why_ended(status, said)}); the game "
                             f"goes on without it{phones}")

    def stop(self) -> None:
        """Tell the process to stop (its input closed), wait for it, kill it if it lingers."""
        with self._told:
            self._stopping = True
            self._told.notify()
        if self._teller.is_alive():
            self._teller.join(STOP_SECONDS)
        with contextlib.suppress(OSError, ValueError):
            assert self._process.stdin is not None
            self._process.stdin.close()
        try:
            self._process.wait(STOP_SECONDS)
        except subprocess.TimeoutExpired:
            self._process.kill()
            self._process.wait()
        self._watcher.join(STOP_SECONDS)


def why_ended(status: int, said: str) -> str:
    """Why the page's process ended, in a few words."""
    if said:
        return said
    return f"killed by signal {-status}" if status < 0 else f"exit status {status}"


def serve_command(bind: str, journal: Path, league: Path | None,
                  program: Sequence[str] = ("-m", "tablekit.web.serve"),
                  phones: bool = False) -> list[str]:
    """The command line of the page's process (``program``: another entry with the same
    options and answers, as a benchmark's).

    >>> serve_command(":80", Path("g.jsonl"), None)[1:]
    ['-m', 'tablekit.web.serve', '--journal', 'g.jsonl', '--bind', ':80']
    """
    league_args = ["--league", str(league)] if league is not None else []
    phone_args = ["--phones"] if phones else []
    return [sys.executable, *program, "--journal", str(journal), *league_args, "--bind", bind,
            *phone_args]


def _environment() -> dict[str, str]:
    """This environment, with this tablekit first on the child's path (the same code, when
    it is not the one installed)."""
    here = str(Path(tablekit.__file__).resolve().parents[1])
    if here in map(str, (Path(p).resolve() for p in site.getsitepackages())):
        return dict(os.environ)
    path = os.environ.get("PYTHONPATH", "")
    return {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in (here, path) if p)}
