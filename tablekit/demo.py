"""``tablekit demo``: a real game played on the simulated table with the scoreboard.

With a screen the scoreboard runs in a window as the game goes; without one it writes,
for every hand, the screen its result was confirmed on (``hand-01.png`` ...: the scored
win, or the tenpai declarations of a draw), the final standings (``final.png``) and an
animation of the whole game (``demo.mp4``: the camera's view beside the scoreboard,
each hand's confirmation held for a moment).

>>> hand_line(2, 6, "East 2", "win", (-1000, 3900, -1000, -1900), "hand-02.png")
'hand 2 of 6: East 2   win               -1000  +3900  -1000  -1900   -> hand-02.png'
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tablekit.display.model import ScreenModel
from tablekit.flow import Flow

VIDEO_SIZE = (640, 360)     # each half of the animation
VIDEO_FPS = 4.0
HOLD_SECONDS = 2.0          # how long the animation holds each hand's confirmation


def hand_line(number: int, hands: int, label: str, kind: str, deltas: tuple[int, ...],
              name: str) -> str:
    """One line of progress for a hand that has ended."""
    changes = " ".join(f"{d:+6d}" for d in deltas)
    return f"hand {number} of {hands}: {label:<8} {kind.replace('_', ' '):<16} {changes}" \
           f"   -> {name}"


@dataclass
class DemoOutput:
    """Where the demo writes what happens (a window, if any, is the app's display)."""

    folder: Path
    hands: int = 0
    video: Any = None
    printed: list[str] = field(default_factory=list)
    _screen: tuple[ScreenModel | None, Any] = (None, None)
    _camera: Any = None

    def frame(self, frame: Any, app: Any) -> None:
        """A camera frame the app has read: the animation's next picture."""
        self._camera = frame.image
        self._video_frame(frame.image, app.screen)

    def hand(self, flow: Flow, report: Any, confirmed: ScreenModel | None) -> None:
        """A hand has ended: keep the screen it was confirmed on, say how it went."""
        result = flow.session.state.result
        assert result is not None
        screen = confirmed or flow.screen()
        name = f"hand-{report.hands:02d}.png"
        save_screen(screen, self.folder / name)
        line = hand_line(report.hands, self.hands, result.detail, result.kind,
                         tuple(result.deltas), name)
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
