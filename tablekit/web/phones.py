"""The game's side of the phones (``tablekit run --buttons phones``): the seat keys, the page's
process that serves the seat pages (:mod:`tablekit.web.seats`), each press it takes put on the
loop's inbox (:class:`~tablekit.io.phones.PhoneButtons`), and each seat's view sent to it when
the scoreboard changes.

>>> from tablekit.display.model import ScreenModel
>>> from tablekit.game.state import TableState
>>> views = seat_views(ScreenModel(TableState.new(names=("Aki", "Ben", "Cho", "Dai"))),
...                    (0, 1, 2, 3))
>>> list(views), views["south"]["name"], views["south"]["wind"], views["east"]["dealer"]
(['east', 'south', 'west', 'north'], 'Ben', 'South', True)
>>> views["east"]["legend"]
'OK: start the game (deal East 1)   UNDO held: menu'
"""

from __future__ import annotations

import queue
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tablekit.display.legend import screen_legend
from tablekit.display.model import ScreenModel
from tablekit.flow.boxes import seat_of
from tablekit.game.state import Phase
from tablekit.game.summary import default_name
from tablekit.io.phones import LABELS, PhoneButtons, SeatKeys, seat_addresses, seat_lines
from tablekit.tiles import WIND_NAMES
from tablekit.untrusted import Untrusted
from tablekit.untrusted.press import WINDS, press_line
from tablekit.web.process import PageProcess
from tablekit.web.server import lan_address

ALL_BOXES = (0, 1, 2, 3)


def seat_views(model: ScreenModel, boxes: tuple[int, ...]) -> dict[str, dict[str, Any]]:
    """What each seat box's page shows (by the wind its address names): the wind and name of
    the player at it, their points, dealer and riichi, the round and what the screen's legend
    says now (and its message)."""
    state = model.state
    names = state.names or tuple(default_name(seat) for seat in range(state.players))
    honba = f", {state.honba} honba" if state.honba else ""
    views: dict[str, dict[str, Any]] = {}
    for box in boxes:
        seat = seat_of(box, model.boxes, state.players)
        if seat is None or seat >= state.players:
            continue
        views[WINDS[box]] = {
            "box": LABELS[box], "wind": WIND_NAMES[state.seat_wind(seat)],
            "name": names[seat] if seat < len(names) else default_name(seat),
            "points": state.scores[seat], "dealer": seat == state.dealer,
            "riichi": state.seats[seat].riichi, "round": f"{state.round_label}{honba}",
            "legend": screen_legend(model), "message": model.message}
    return views


class PhoneSeats:
    """The phones of one ``tablekit run``: keys made at start (:meth:`renew` makes new ones),
    the presses onto ``inbox``, the seats' views to the page (:meth:`hook`, after each step
    of the loop)."""

    def __init__(self, inbox: queue.Queue, report: Callable[[str], None]) -> None:
        self.report = report
        self.buttons = PhoneButtons(inbox)
        self.boxes = ALL_BOXES
        self.keys = SeatKeys.new(self.boxes)
        self.page: PageProcess | None = None
        self._shown: ScreenModel | None = None
        self._views: dict[str, dict[str, Any]] = {}
        self.host, self.port = "127.0.0.1", 0

    def first(self) -> dict[str, Any]:
        """The page's first line: the keys, before it binds."""
        return {"keys": self.keys.winds()}

    def serving(self, page: PageProcess) -> None:
        """The page's process is up: its address is the seats'."""
        self.page = page
        host, self.port = page.server_address
        self.host = lan_address() if host in ("", "0.0.0.0") else host

    def use(self, boxes: tuple[int, ...]) -> None:
        """The seat boxes the game's players press (three players: three of them); the
        other boxes' addresses stop being seats."""
        boxes = tuple(sorted(boxes))
        if boxes != self.boxes:
            self.boxes = boxes
            self.keys = self.keys.of(boxes)
            self._tell({"keys": self.keys.winds()})

    def lines(self) -> list[str]:
        """``East: http://HOST:PORT/seat/east/KEY``, one a seat box in use."""
        return seat_lines(self.keys, self.host, self.port)

    def addresses(self) -> tuple[tuple[str, str], ...]:
        """(wind, address) of each seat box in use, for the menu's codes."""
        return seat_addresses(self.keys, self.host, self.port)

    def renew(self) -> None:
        """New keys for every seat: the old addresses are refused from now on."""
        self.keys = SeatKeys.new(self.boxes)
        self._tell({"keys": self.keys.winds()})
        self.report("phones: new seat keys; the old addresses are refused")

    def on_press(self, line: Any) -> None:
        """A press the page took (called from its watching thread)."""
        try:
            press = press_line(line)
        except Untrusted:
            return
        if press.box in self.boxes:
            self.buttons.press(press.box, press.button, press.held)

    def hook(self, app: Any) -> None:
        """After a step of the loop: each seat's view to the page when the screen changed
        (handed to the page's writing thread: the loop never waits)."""
        screen = app.screen
        if screen is None or screen is self._shown:
            return
        self._shown = screen
        state = screen.state
        if state.phase is not Phase.NOT_STARTED:  # a new game of three, or of four again
            self.use(ALL_BOXES if state.players == 4 else screen.boxes)
        views = seat_views(screen, self.boxes)
        if views != self._views:
            self._views = views
            self._tell({"seats": views})

    def _tell(self, message: dict[str, Any]) -> None:
        if self.page is not None:
            self.page.tell(message)


def start_phone_web(bind: str, journal: Path, league: Path | None, report: Any,
                    phones: PhoneSeats) -> PageProcess:
    """The page with the seat pages for ``--web [HOST]:PORT`` (as
    :func:`~tablekit.web.server.start_web` starts it), the phones' keys its first line."""
    from tablekit.web.server import start_web

    page = start_web(bind, journal, league, report, first=phones.first(),
                     on_press=phones.on_press)
    assert page is not None
    phones.serving(page)
    return page
