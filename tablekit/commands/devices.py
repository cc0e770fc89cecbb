"""Choosing devices for ``tablekit run``: what was asked, what this machine has, and a
one-line report for every fallback.

>>> on_raspberry_pi(model_file="/nonexistent")
False
>>> pick_display("auto", environ={"XDG_STATE_HOME": "/home/a/.state"}, pi=False)
'headless:/home/a/.state/tablekit/screens'
>>> pick_display("auto", environ={"DISPLAY": ":0"}, pi=False)
'window'
>>> state_dir({"STATE_DIRECTORY": "/var/lib/tablekit"})
PosixPath('/var/lib/tablekit')
>>> state_dir({"XDG_STATE_HOME": "/home/a/.state"})
PosixPath('/home/a/.state/tablekit')
"""

from __future__ import annotations

import os
import queue
import warnings
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from tablekit.errors import TablekitError, one_line

Report = Callable[[str], None]


def on_raspberry_pi(model_file: str = "/proc/device-tree/model") -> bool:
    try:
        return "Raspberry Pi" in Path(model_file).read_text(errors="ignore")
    except OSError:
        return False


def state_dir(environ: Mapping[str, str] | None = None) -> Path:
    """Where tablekit keeps what it writes: systemd's ``$STATE_DIRECTORY`` for the service,
    else ``$XDG_STATE_HOME/tablekit`` (``~/.local/state/tablekit``)."""
    environ = os.environ if environ is None else environ
    if environ.get("STATE_DIRECTORY"):
        return Path(environ["STATE_DIRECTORY"].split(":")[0])
    base = environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(base) / "tablekit"


def pick_display(spec: str, environ: Mapping[str, str] | None = None, pi: bool | None = None
                 ) -> str:
    """``auto`` becomes kmsdrm on a desktop-less Pi, a window where there is a desktop,
    PNG files in the state directory otherwise (the one place the scoreboard goes without a
    screen, as when a screen fails: :func:`screens_dir`)."""
    if spec != "auto":
        return spec
    environ = os.environ if environ is None else environ
    if environ.get("DISPLAY") or environ.get("WAYLAND_DISPLAY"):
        return "window"
    if on_raspberry_pi() if pi is None else pi:
        return "kmsdrm"
    return f"headless:{screens_dir(environ)}"


def screens_dir(environ: Mapping[str, str] | None = None) -> Path:
    """Where the scoreboard's PNG goes without a screen, unless ``--display headless:DIR``
    names a folder: ``screens`` in the state directory (never a folder relative to a working
    directory that may be read-only).

    >>> screens_dir({"STATE_DIRECTORY": "/var/lib/tablekit"})
    PosixPath('/var/lib/tablekit/screens')
    """
    return state_dir(environ) / "screens"


def open_display(spec: str, size: tuple[int, int] | None, report: Report,
                 say: Report | None = None) -> Any:
    """A display for ``window``, ``kmsdrm`` or ``headless:DIR`` (``headless``: the state
    directory's :func:`screens_dir`); whatever fails (no video driver, no screen, a folder
    that cannot be written) falls back to PNG files in :func:`screens_dir`, said in
    ``report``. Where PNG files go is always said: in the fallback's line, or else in
    ``say``'s."""
    from tablekit.display.backends import PngDisplay, WindowDisplay
    from tablekit.display.backends import open_display as open_backend

    kind, _, folder = spec.partition(":")
    try:
        if kind == "headless":
            display = PngDisplay(folder or screens_dir(), size or (800, 480), numbered=False,
                                 report=report)
            if say is not None:
                say(f"display: no window; the scoreboard goes to "
                    f"{display.folder / 'scoreboard.png'}")
            return display
        display = open_backend(kind, size)
        if isinstance(display, WindowDisplay):
            display.open()
        return display
    except Exception as error:  # any display that fails at start is a fallback, not a crash
        fallback = screens_dir()
        report(f"display: {one_line(error)}; the scoreboard goes to {fallback}/scoreboard.png")
        return PngDisplay(fallback, size or (800, 480), numbered=False, report=report)


def open_buttons(spec: str, inbox: queue.Queue, report: Report, pinout: Path | None = None
                 ) -> tuple[Any, Any]:
    """(ButtonBoard or None, KeyboardButtons or None) for ``gpio``, ``keyboard``, ``none``,
    ``auto``; GPIO that is not there (or busy, or a broken pin map) falls back to the
    keyboard. ``pinout``: the pin map (the one shipped with tablekit by default)."""
    from tablekit.io.buttons import ButtonBoard, KeyboardButtons
    from tablekit.io.pinmap import PinMapError, load_pinmap

    if spec == "auto":
        spec = "gpio" if on_raspberry_pi() else "keyboard"
    if spec == "none":
        return None, None
    if spec == "keyboard":
        return None, KeyboardButtons(inbox)
    try:
        pinmap = load_pinmap(pinout)
    except (PinMapError, OSError) as error:
        report(f"buttons: {one_line(error)}; using the keyboard")
        return None, KeyboardButtons(inbox)
    try:
        with warnings.catch_warnings():  # gpiozero warns per pin factory it tries; one line here
            warnings.simplefilter("ignore")
            return ButtonBoard(inbox, pinmap=pinmap), None
    except (TablekitError, ImportError, OSError, RuntimeError) as error:
        report(f"buttons: no GPIO here ({type(error).__name__}: {error}); using the keyboard")
        return None, KeyboardButtons(inbox)
    except Exception as error:  # gpiozero's BadPinFactory and friends
        report(f"buttons: GPIO failed ({type(error).__name__}: {error}); using the keyboard")
        return None, KeyboardButtons(inbox)


def open_camera(spec: str, size: tuple[int, int] | None = None, **options: Any) -> Any:
    """The frame source for ``spec``: a real camera (:func:`tablekit.vision.camera.open_camera`)
    or ``sim``, ``sim:LOG``, ``sim:LOG:SEED``, the simulated table
    (:func:`tablekit.sim.source.open_sim`, loaded only then)."""
    from tablekit.vision.camera import DEFAULT_SIZE
    from tablekit.vision.camera import open_camera as open_real

    def open_sim(spec: str, **options: Any) -> Any:
        from tablekit.sim.source import open_sim

        return open_sim(spec, **options)

    return open_real(spec, size or DEFAULT_SIZE, {"sim": open_sim}, **options)
