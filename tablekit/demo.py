"""``tablekit demo``: a real game played on the simulated table with the scoreboard.

With a screen the scoreboard runs in a window as the game goes; without one it
writes the scoreboard after every hand (``hand-01.png`` ...), the final standings
and a short animation (``demo.mp4``: the camera's view beside the scoreboard).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tablekit.display.model import ScreenModel
from tablekit.flow import Flow

VIDEO_SIZE = (640, 360)     # each half of the animation
VIDEO_SECONDS = 90.0        # how much of the game the animation shows
VIDEO_FPS = 4.0


@dataclass
class DemoOutput:
    """Where the demo shows or writes what happens."""

    folder: Path
    window: Any = None
    video: Any = None
    printed: list[str] = field(default_factory=list)
    _last: ScreenModel | None = None

    def frame(self, frame: Any, flow: Flow) -> None:
        screen = flow.screen()
        if self.window is not None and screen != self._last:
            self.window.show(screen)
        self._last = screen
        if frame.timestamp <= VIDEO_SECONDS:
            self._video_frame(frame.image, screen)

    def hand(self, flow: Flow, report: Any) -> None:
        state = flow.session.state
        result = state.result
        assert result is not None
        name = f"hand-{report.hands:02d}.png"
        save_screen(flow.screen(), self.folder / name)
        deltas = " ".join(f"{d:+6d}" for d in result.deltas)
        line = f"{result.detail:<8} {result.kind.replace('_', ' '):<16} {deltas}   -> {name}"
        self.printed.append(line)
        print(line, flush=True)

    def finish(self, flow: Flow) -> None:
        save_screen(flow.screen(), self.folder / "final.png")
        if self.video is not None:
            self.video.release()

    def _video_frame(self, camera_bgr: Any, screen: ScreenModel) -> None:
        import cv2
        import numpy as np

        if self.video is None:
            self.folder.mkdir(parents=True, exist_ok=True)
            size = (VIDEO_SIZE[0] * 2, VIDEO_SIZE[1])
            self.video = cv2.VideoWriter(str(self.folder / "demo.mp4"),
                                         cv2.VideoWriter.fourcc(*"mp4v"), VIDEO_FPS, size)
        left = cv2.resize(camera_bgr, VIDEO_SIZE, interpolation=cv2.INTER_AREA)
        right = screen_image(screen, VIDEO_SIZE)
        self.video.write(np.hstack([left, right]))


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
