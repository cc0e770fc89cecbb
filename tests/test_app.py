"""The appliance loop: buttons on mock pins, the flow, PNG output, journal, resume."""

import os
import subprocess
import sys
from pathlib import Path

from gpiozero.pins.mock import MockFactory

from tablekit.app.loop import App, open_session
from tablekit.display.backends import PngDisplay
from tablekit.flow import Flow
from tablekit.io.buttons import ButtonBoard
from tablekit.io.pinmap import load_pinmap
from tablekit.io.presses import ButtonName
from tablekit.rules.presets import TENHOU

ROOT = Path(__file__).resolve().parents[1]
PINS = load_pinmap()


def make_app(tmp_path, now):
    lines = []
    session = open_session(tmp_path / "game.jsonl", TENHOU, lines.append)
    app = App(Flow(session, clock=lambda: now[0]), PngDisplay(tmp_path / "png", numbered=False),
              clock=lambda: now[0])
    app.buttons = ButtonBoard(app.inbox, pin_factory=MockFactory(), clock=lambda: now[0])
    return app, lines


def press(app, now, name, seat=None):
    pin = app.buttons.factory.pin(PINS.pin_for(name, seat))
    pin.drive_low()
    now[0] += 0.1
    pin.drive_high()
    now[0] += 0.1
    app.step()


def test_a_hand_through_the_loop_and_a_restart_resumes_it(tmp_path):
    now = [0.0]
    app, lines = make_app(tmp_path, now)
    app.step()
    assert (tmp_path / "png" / "scoreboard.png").exists()
    press(app, now, ButtonName.OK)                  # start the hand
    press(app, now, ButtonName.RIICHI, 1)           # no camera: the stick goes down at once
    press(app, now, ButtonName.OK)                  # tenpai declarations
    press(app, now, ButtonName.RIICHI, 1)           # seat 1 was preset tenpai: toggles off
    press(app, now, ButtonName.RIICHI, 1)           # and on again
    press(app, now, ButtonName.OK)
    state = app.flow.session.state
    assert state.result.deltas == (-1000, 3000, -1000, -1000) and state.sticks == 1
    app.buttons.close()
    app.flow.session.close()
    again, lines = make_app(tmp_path, now)
    assert again.flow.session.state == state
    assert any("resumed" in line for line in lines)
    again.buttons.close()
    again.flow.session.close()


def test_tablekit_run_headless_without_gpio_reports_fallbacks(tmp_path):
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "PYTHONPATH": str(ROOT),
           "XDG_STATE_HOME": str(tmp_path)}
    env.pop("DISPLAY", None)
    result = subprocess.run(
        [sys.executable, "-m", "tablekit.cli", "run", "--display", f"headless:{tmp_path}/out",
         "--buttons", "gpio", "--frames", "3"],
        capture_output=True, text=True, timeout=120, env=env, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "using the keyboard" in result.stderr and "camera" in result.stderr
    assert (tmp_path / "out" / "scoreboard.png").exists()
    assert (tmp_path / "tablekit" / "game.jsonl").exists()


class BrokenCamera:
    def read(self):
        raise OSError("USB camera unplugged")


def test_a_lost_camera_is_reported_and_the_buttons_keep_the_score(tmp_path):
    from tablekit.tracking.camera import Camera
    from tablekit.vision.feed import CameraFeed
    from tablekit.vision.pipeline import CameraPipeline

    now = [0.0]
    app, _ = make_app(tmp_path, now)
    app.camera = Camera(CameraFeed(BrokenCamera(), CameraPipeline.open(), clock=lambda: now[0]))
    app.step()
    assert app.camera.feed.lost and "camera lost" in app.flow.screen().warnings[0]
    press(app, now, ButtonName.OK)
    assert app.flow.session.state.phase.value == "hand in play"
    app.buttons.close()
    app.flow.session.close()


def test_the_simulated_camera_feeds_the_tracker(tmp_path):
    from tablekit.commands.devices import open_camera
    from tablekit.tracking.camera import Camera
    from tablekit.vision.feed import CameraFeed
    from tablekit.vision.pipeline import CameraPipeline

    now = [0.0]
    app, _ = make_app(tmp_path, now)
    app.camera = Camera(CameraFeed(open_camera("sim"), CameraPipeline.open(),
                                   clock=lambda: now[0]))
    app.flow.reader = app.camera
    press(app, now, ButtonName.OK)
    for _ in range(12):
        now[0] += 0.25
        app.step()
    assert len(app.flow.session.state.dora) == 1     # the first indicator, read by the camera
    app.camera.close()
    app.buttons.close()
    app.flow.session.close()


class MarkerHidden:
    """The simulated camera with corner marker 2 covered while ``hidden``."""

    def __init__(self):
        from tablekit.sim.script import Script
        from tablekit.sim.source import SimulatedCamera
        from tablekit.sim.table import DEMO_GAME

        script = Script.from_log(DEMO_GAME)
        self.camera = SimulatedCamera(script, seed=2, art="fallback",
                                      start=script.moments[30].start)
        self.hidden = True
        self.box = None

    def read(self):
        import numpy as np

        from tablekit.vision.camera import CameraFrame
        from tablekit.vision.markers import find_markers

        frame = self.camera.read()
        image = frame.image.copy()
        if self.box is None:
            quad = np.asarray(find_markers(image)[2]).round().astype(int)
            self.box = (*(quad.min(0) - 6), *(quad.max(0) + 6))
        if self.hidden:
            x0, y0, x1, y1 = self.box
            image[y0:y1, x0:x1] = 128
        return CameraFrame(image, frame.timestamp)

    def close(self):
        pass


def test_a_hidden_marker_is_said_once_in_words_and_clears_when_uncovered(tmp_path):
    from tablekit.tracking.camera import Camera
    from tablekit.vision.feed import CameraFeed
    from tablekit.vision.pipeline import CameraPipeline

    now = [0.0]
    app, _ = make_app(tmp_path, now)
    source = MarkerHidden()
    pipeline = CameraPipeline.open()
    app.camera = Camera(CameraFeed(source, pipeline, clock=lambda: now[0]))
    words = "camera can't see corner marker 2: clear the table's corners"
    for _ in range(8):
        app.step()
        now[0] += 0.25
    assert pipeline.frames == 8 and pipeline.profile is None
    assert pipeline.warnings == [words] and "markers [2] not found" in pipeline.detail
    assert app.flow.screen().warnings == (words,)
    assert "corner marker 2" in app.flow.screen().warnings[0]
    source.hidden = False
    for _ in range(4):
        app.step()
        now[0] += 0.25
    assert pipeline.profile is not None
    assert pipeline.warnings == [] and app.flow.screen().warnings == ()
    app.buttons.close()
    app.flow.session.close()
