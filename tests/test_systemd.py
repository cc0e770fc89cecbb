"""The systemd unit and the notify/watchdog protocol."""

import shutil
import socket
import subprocess
from pathlib import Path

import pytest

from tablekit.io.notify import Watchdog, sd_notify

UNIT = Path(__file__).resolve().parents[1] / "tablekit" / "data" / "tablekit.service"


def test_systemd_analyze_accepts_the_unit(tmp_path):
    if shutil.which("systemd-analyze") is None:
        pytest.skip("systemd-analyze is not installed here")
    copy = tmp_path / "tablekit.service"
    copy.write_text(UNIT.read_text())
    result = subprocess.run(["systemd-analyze", "verify", str(copy)], capture_output=True,
                            text=True, timeout=60)
    missing_binary = "/opt/tablekit/.venv/bin/tablekit is not executable"  # not installed here
    problems = [line for line in (result.stdout + result.stderr).splitlines()
                if line.strip() and missing_binary not in line]
    assert problems == []


def test_unit_is_a_notify_service_with_a_watchdog_and_restart():
    text = UNIT.read_text()
    for line in ("Type=notify", "WatchdogSec=", "Restart=on-failure", "SDL_VIDEODRIVER=kmsdrm",
                 "TTYPath=/dev/tty1"):
        assert line in text


def test_notify_and_watchdog_over_a_unix_socket(tmp_path):
    path = tmp_path / "notify.sock"
    server = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    server.bind(str(path))
    server.settimeout(2)
    try:
        env = {"NOTIFY_SOCKET": str(path), "WATCHDOG_USEC": "10000000"}
        watchdog = Watchdog(env)
        assert watchdog.ready()
        assert server.recv(100).startswith(b"READY=1")
        assert watchdog.ping(now=100.0) and not watchdog.ping(now=101.0)
        assert server.recv(100) == b"WATCHDOG=1"
        assert watchdog.ping(now=106.0)
    finally:
        server.close()
    assert not sd_notify("READY=1", {})
