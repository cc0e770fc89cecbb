"""Where frames go: a window, the Pi's screen through KMSDRM, or PNG files.

Every back end has ``size``, ``show(model) -> Frame`` and ``close()``; pick one by name with
:func:`open_display`. The PNG back end needs no video driver at all.

>>> import tempfile
>>> from tablekit.game.state import TableState
>>> with tempfile.TemporaryDirectory() as folder:
...     display = open_display("png", folder=folder, size=(800, 480))
...     frame = display.show(ScreenModel(TableState.new()))
...     [path.name for path in display.saved], frame.text_of("centre.round")
(['frame-0001.png'], 'East 1')
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Protocol

import pygame

from tablekit.display.canvas import Frame
from tablekit.display.model import ScreenModel
from tablekit.display.render import render
from tablekit.errors import TablekitError
from tablekit.files.atomic import atomic_path

BACKENDS = ("window", "kmsdrm", "png")
DEFAULT_SIZE = (800, 480)


class DisplayError(TablekitError, RuntimeError):
    """A display that cannot be opened (no such video driver, no screen)."""


class Display(Protocol):
    size: tuple[int, int]

    def show(self, model: ScreenModel) -> Frame: ...

    def close(self) -> None: ...


class PngDisplay:
    """Renders off-screen and saves each frame as ``frame-0001.png``, ``frame-0002.png``...,
    or (``numbered=False``) replaces ``scoreboard.png`` each time. ``saved`` is the history of
    numbered frames (unnumbered: only the last, so an evening's display keeps no growing
    list); ``shown`` counts every frame saved."""

    def __init__(self, folder: Path | str, size: tuple[int, int] = DEFAULT_SIZE,
                 numbered: bool = True, report: Callable[[str], None] | None = None
                 ) -> None:
        self.folder = Path(folder)
        self.size = size
        self.numbered = numbered
        self.saved: list[Path] = []
        self.shown = 0
        self.report = report or (lambda line: None)  # a frame that cannot be written
        self.failing = False                         # said once until one is written again
        self.folder.mkdir(parents=True, exist_ok=True)

    def show(self, model: ScreenModel) -> Frame:
        """Save the screen; one that cannot be written (a full card) is said in one line,
        once, and skipped: the loop goes on."""
        name = f"frame-{self.shown + 1:04d}" if self.numbered else "scoreboard"
        try:
            frame = self.save(model, name)[1]
        except (OSError, pygame.error) as error:
            if not self.failing:
                self.report(f"display: could not save {self.folder / name}.png "
                            f"({getattr(error, 'strerror', None) or error}); skipped")
            self.failing = True
            return render(model, pygame.Surface(self.size))
        if self.failing:
            self.report(f"display: {name}.png saved again")
        self.failing = False
        return frame

    def save(self, model: ScreenModel, name: str) -> tuple[Path, Frame]:
        """Render ``model`` into ``NAME.png`` (written whole, then moved into place)."""
        surface = pygame.Surface(self.size)
        frame = render(model, surface)
        path = self.folder / f"{name}.png"
        # no half-written frame left behind; not fsynced (a screen: the next one is drawn
        # anyway); the side file's name ends in .png, as pygame picks the format by it
        with atomic_path(path, sync=False, spare=f".{name}.partial.png") as partial:
            pygame.image.save(surface, str(partial))
        self.shown += 1
        if not self.numbered:
            self.saved.clear()
        self.saved.append(path)
        return path, frame

    def close(self) -> None:
        """Nothing to release."""


class WindowDisplay:
    """A pygame window (or, with ``fullscreen``, the whole screen), opened on first show.

    ``driver`` sets ``SDL_VIDEODRIVER`` while the display is open (``kmsdrm`` on a Pi
    without a desktop); the previous value comes back on :meth:`close`.
    """

    def __init__(self, size: tuple[int, int] = DEFAULT_SIZE, fullscreen: bool = False,
                 driver: str | None = None, title: str = "tablekit") -> None:
        self.size = size
        self.fullscreen = fullscreen
        self.driver = driver
        self.title = title
        self.frames = 0
        self._surface: pygame.Surface | None = None
        self._saved_driver: str | None = None

    def open(self) -> None:
        if self._surface is not None:
            return
        if self.driver:
            self._saved_driver = os.environ.get("SDL_VIDEODRIVER")
            os.environ["SDL_VIDEODRIVER"] = self.driver
        try:
            pygame.display.init()
            flags = pygame.FULLSCREEN if self.fullscreen else 0
            self._surface = pygame.display.set_mode(self.size, flags)
        except pygame.error as error:
            self.close()
            raise DisplayError(f"cannot open a {self.driver or 'window'} display: {error}"
                               ) from None
        if _no_screen(pygame.display.get_driver()):
            self.close()
            raise DisplayError("no screen here to open a window on (neither DISPLAY nor "
                               "WAYLAND_DISPLAY is set)")
        pygame.display.set_caption(self.title)
        pygame.mouse.set_visible(not self.fullscreen)  # a touch panel shows no pointer
        self.size = self._surface.get_size()

    def show(self, model: ScreenModel) -> Frame:
        self.open()
        assert self._surface is not None
        frame = render(model, self._surface)
        pygame.display.flip()
        pygame.event.pump()
        self.frames += 1
        return frame

    def close(self) -> None:
        self._surface = None
        pygame.display.quit()
        if self.driver:
            if self._saved_driver is None:
                os.environ.pop("SDL_VIDEODRIVER", None)
            else:
                os.environ["SDL_VIDEODRIVER"] = self._saved_driver


def _no_screen(driver: str) -> bool:
    """SDL fell back to a driver that shows nothing, without being asked for it.

    >>> _no_screen("x11"), _no_screen("offscreen")
    (False, True)
    """
    return driver in ("offscreen", "dummy") and os.environ.get("SDL_VIDEODRIVER") != driver


def open_display(kind: str, size: tuple[int, int] | None = None,
                 folder: Path | str = ".") -> Display:
    """``window``, ``kmsdrm`` (full screen at the screen's own size unless ``size`` is
    given) or ``png`` (numbered files in ``folder``; ``tablekit run`` names the state
    directory's ``screens``, :func:`tablekit.commands.devices.screens_dir`, unless told another)."""
    if kind == "window":
        return WindowDisplay(size or DEFAULT_SIZE)
    if kind == "kmsdrm":
        return WindowDisplay(size or (0, 0), fullscreen=True, driver="kmsdrm")
    if kind == "png":
        return PngDisplay(folder, size or DEFAULT_SIZE)
    raise DisplayError(f"unknown display {kind!r}: use one of {', '.join(BACKENDS)}")
