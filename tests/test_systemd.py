"""The systemd unit, the notify/watchdog protocol, and the service's start as an unprivileged
user with every device missing."""

import os
import shutil
import socket
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from missing_packages import need_program

from tablekit.io.notify import Watchdog, sd_notify

UNIT = Path(__file__).resolve().parents[1] / "tablekit" / "data" / "tablekit.service"


def test_systemd_analyze_accepts_the_unit(tmp_path):
    need_program("systemd-analyze", packages="systemd")
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
    for line in ("Type=notify", "WatchdogSec=", "Restart=always", "StartLimitIntervalSec=0",
                 "SDL_VIDEODRIVER=kmsdrm", "TTYPath=/dev/tty1", "After=local-fs.target "
                 "systemd-user-sessions.service getty@tty1.service"):
        assert line in text


def test_unit_writes_only_to_its_state_directory():
    lines = UNIT.read_text().splitlines()
    assert "StateDirectory=tablekit" in lines
    assert "WorkingDirectory=/var/lib/tablekit" in lines
    assert "Environment=LG_WD=/var/lib/tablekit" in lines
    start = next(line for line in lines if line.startswith("ExecStart="))
    assert "--journal /var/lib/tablekit/game.jsonl" in start


def _as_nobody() -> list[str]:
    if os.geteuid() != 0 or shutil.which("setpriv") is None:
        pytest.skip("needs root and setpriv to start tablekit as an unprivileged user")
    command = ["setpriv", "--reuid", "nobody", "--regid", "nogroup", "--clear-groups"]
    probe = subprocess.run([*command, sys.executable, "-c", "import tablekit"],
                           capture_output=True, timeout=60, env=_env(Path("/nonexistent")))
    if probe.returncode != 0:
        pytest.skip("this Python is not readable by the user nobody")
    return command


def _env(state: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if k not in ("DISPLAY", "WAYLAND_DISPLAY", "XDG_STATE_HOME", "SDL_VIDEODRIVER")}
    env.update(PYTHONPATH=str(UNIT.parents[2]), STATE_DIRECTORY=str(state),
               HOME="/nonexistent", LG_WD=str(state))
    return env


def test_the_service_starts_as_nobody_with_every_device_missing_and_shows_the_scoreboard():
    """The unit's command as an unprivileged user in a read-only working directory: no
    camera, no KMSDRM, no GPIO, no pin map; one line for each, the scoreboard as a PNG in
    the state directory, exit 0."""
    nobody = _as_nobody()
    with tempfile.TemporaryDirectory(dir="/tmp") as top:
        root = Path(top)
        work, state = root / "opt", root / "state"
        work.mkdir()
        state.mkdir()
        shutil.chown(state, "nobody", "nogroup")
        os.chmod(work, 0o555)
        os.chmod(root, 0o755)
        result = subprocess.run(
            [*nobody, sys.executable, "-m", "tablekit.cli", "run", "--display", "kmsdrm",
             "--buttons", "gpio", "--camera", "picamera2", "--journal",
             str(state / "game.jsonl"), "--pinout", "/nonexistent/pinout.toml",
             "--frames", "3"],
            capture_output=True, text=True, timeout=180, env=_env(state), cwd=work,
            stdin=subprocess.DEVNULL)
        assert result.returncode == 0, result.stderr
        assert "Traceback" not in result.stderr
        reports = [line for line in result.stderr.splitlines() if line.startswith("tablekit: ")]
        assert [line.split(":")[1].strip() for line in reports] == [
            "camera", "display", "buttons", "buttons"]
        assert "keys do nothing" in reports[-1]  # no GPIO, no window and no terminal
        assert (state / "screens" / "scoreboard.png").stat().st_size > 1000
        assert (state / "game.jsonl").is_file()
        assert list(work.iterdir()) == []


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
