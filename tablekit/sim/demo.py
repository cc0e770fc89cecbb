"""``tablekit demo``: a real game played on the simulated table with the scoreboard.

With a screen the scoreboard runs in a window as the game goes; without one it writes,
for every hand, the screen its result was confirmed on (``hand-01.png`` ...: the scored
win, or the tenpai declarations of a draw), the final standings (``final.png``) and an
animation of the whole game (``demo.mp4``: the camera's view beside the scoreboard,
each hand's confirmation held for a moment).

Each hand is one line, its seats named by their wind in that hand and their player:

>>> from types import SimpleNamespace as Win
>>> win = HandResult(ResultKind.WIN, (0, 2100, -2100, 0), (Win(seat=1, from_seat=2),))
>>> names = ("Aki", "Ben", "Cho", "Dai")
>>> print(hand_line(3, 3, "East 2, 2 honba", win, (3, 0, 1, 2), names, "hand-03.png"))
hand 3 of 3: East 2, 2 honba: East (Ben) wins by ron from South (Cho); East Ben +2,100, \
South Cho -2,100, West Dai +0, North Aki +0  -> hand-03.png
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tablekit.display.model import ScreenModel
from tablekit.flow import Flow
from tablekit.game.state import (
    SEATS,
    HandResult,
    Phase,
    ResultKind,
    TableState,
    player_label,
)
from tablekit.tiles import WIND_NAMES

VIDEO_SIZE = (640, 360)     # each half of the animation
VIDEO_FPS = 4.0
HOLD_SECONDS = 2.0          # how long the animation holds each hand's confirmation


def players_line(names: Sequence[str], first_dealer: int = 0) -> str:
    """The players by their seat wind in the first hand.

    >>> players_line(("Aki", "Ben", "Cho", "Dai"), first_dealer=1)
    'players: East Ben, South Cho, West Dai, North Aki'
    """
    winds = [(seat - first_dealer) % SEATS for seat in range(SEATS)]
    return "players: " + ", ".join(_seat(seat, winds, names) for seat in _east_first(winds))


def hand_line(number: int, hands: int, label: str, result: HandResult, winds: Sequence[int],
              names: Sequence[str], picture: str) -> str:
    """One line for a hand that has ended: what happened, each seat's change in points."""
    changes = ", ".join(f"{_seat(seat, winds, names)} {result.deltas[seat]:+,}"
                        for seat in _east_first(winds))
    return (f"hand {number} of {hands}: {label}: {outcome(result, winds, names)}; "
            f"{changes}  -> {picture}")


def outcome(result: HandResult, winds: Sequence[int], names: Sequence[str]) -> str:
    """How a hand ended, in words.

    >>> outcome(HandResult(ResultKind.EXHAUSTIVE_DRAW, (0,) * 4, tenpai=(0, 2)), (0, 1, 2, 3),
    ...         ("Aki", "Ben", "Cho", "Dai"))
    'exhaustive draw, tenpai: East (Aki), West (Cho)'
    """
    def who(seat: int) -> str:
        return player_label(winds[seat], names[seat] if seat < len(names) else "")

    if result.kind == ResultKind.WIN and result.wins:
        winners = " and ".join(who(win.seat) for win in result.wins)
        verb = "wins" if len(result.wins) == 1 else "win"
        discarder = result.wins[0].from_seat
        return f"{winners} {verb} " + ("by tsumo" if discarder is None
                                       else f"by ron from {who(discarder)}")
    if result.kind == ResultKind.EXHAUSTIVE_DRAW:
        if "nagashi" in result.detail:
            return "exhaustive draw, nagashi mangan"
        tenpai = ", ".join(who(seat) for seat in result.tenpai)
        return f"exhaustive draw, tenpai: {tenpai}" if tenpai else \
            "exhaustive draw, nobody tenpai"
    if result.kind == ResultKind.ABORTIVE_DRAW:
        return f"abortive draw ({result.detail})"
    return f"chombo by {result.detail}" if result.detail else result.kind.replace("_", " ")


def _seat(seat: int, winds: Sequence[int], names: Sequence[str]) -> str:
    name = names[seat] if seat < len(names) else ""
    return f"{WIND_NAMES[winds[seat]]} {name}".rstrip()


def _east_first(winds: Sequence[int]) -> list[int]:
    return sorted(range(SEATS), key=lambda seat: winds[seat])


def hand_label(state: TableState) -> str:
    """``East 2, 2 honba`` (``East 1`` without honba).

    >>> hand_label(TableState.new())
    'East 1'
    """
    return f"{state.round_label}, {state.honba} honba" if state.honba else state.round_label


@dataclass
class DemoOutput:
    """Where the demo writes what happens (a window, if any, is the app's display)."""

    folder: Path
    hands: int = 0
    video: Any = None
    printed: list[str] = field(default_factory=list)
    _screen: tuple[ScreenModel | None, Any] = (None, None)
    _camera: Any = None
    _playing: TableState | None = None  # the table during the hand in play (or last played)

    def frame(self, frame: Any, app: Any) -> None:
        """A camera frame the app has read: the animation's next picture."""
        self._camera = frame.image
        state = app.flow.session.state
        if state.phase is Phase.HAND_IN_PLAY:
            self._playing = state
        self._video_frame(frame.image, app.screen)

    def hand(self, flow: Flow, report: Any, confirmed: ScreenModel | None) -> None:
        """A hand has ended: keep the screen it was confirmed on, say how it went."""
        state = flow.session.state
        result = state.result
        assert result is not None
        screen = confirmed or flow.screen()
        name = f"hand-{report.hands:02d}.png"
        save_screen(screen, self.folder / name)
        playing = self._playing or state  # the state has moved on to the next hand
        line = hand_line(report.hands, self.hands, hand_label(playing), result,
                         [playing.seat_wind(seat) for seat in range(SEATS)], state.names, name)
        self.printed.append(line)
        print(line, flush=True)
        if self._camera is not None:
            for _ in range(round(HOLD_SECONDS * VIDEO_FPS)):
                self._video_frame(self._camera, screen)

    def finish(self, flow: Flow) -> None:
        save_screen(flow.screen(), self.folder / "final.png")
        if self.video is not None:
            self.video.release()

    def _video_frame(self, camera_bgr: Any, screen: ScreenModel | None) -> None:
        import cv2
        import numpy as np

        if screen is None:
            return
        if self.video is None:
            self.folder.mkdir(parents=True, exist_ok=True)
            size = (VIDEO_SIZE[0] * 2, VIDEO_SIZE[1])
            self.video = cv2.VideoWriter(str(self.folder / "demo.mp4"),
                                         cv2.VideoWriter.fourcc(*"mp4v"), VIDEO_FPS, size)
        if self._screen[0] is not screen:
            self._screen = (screen, screen_image(screen, VIDEO_SIZE))
        left = cv2.resize(camera_bgr, VIDEO_SIZE, interpolation=cv2.INTER_AREA)
        self.video.write(np.hstack([left, self._screen[1]]))


def screen_image(screen: ScreenModel, size: tuple[int, int]) -> Any:
    """The scoreboard as a BGR array."""
    import numpy as np
    import pygame

    from tablekit.display.render import render

    surface = pygame.Surface(size)
    render(screen, surface)
    rgb = pygame.surfarray.array3d(surface).swapaxes(0, 1)
    return np.ascontiguousarray(rgb[:, :, ::-1])


def save_screen(screen: ScreenModel, path: Path, size: tuple[int, int] = (800, 480)) -> None:
    import cv2

    path.parent.mkdir(parents=True, exist_ok=True)
    cv2.imwrite(str(path), screen_image(screen, size))
