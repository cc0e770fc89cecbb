"""Frame sources: folder, OpenCV (device and video file), picamera2 (settle then lock), sim."""

from __future__ import annotations

import sys
import types
from pathlib import Path

import cv2
import numpy as np
import pytest

from tablekit.vision import camera as cameras
from tablekit.vision.camera import (
    CameraError,
    ExposureLock,
    OpenCvCamera,
    PiCamera,
    open_camera,
)


def write_images(folder: Path, names: list[str]) -> None:
    for value, name in enumerate(names):
        cv2.imwrite(str(folder / name), np.full((12, 16, 3), 40 * value, np.uint8))


def test_folder_reads_images_in_name_order_then_none(tmp_path: Path) -> None:
    write_images(tmp_path, ["b.png", "a.jpg", "c.bmp"])
    (tmp_path / "notes.txt").write_text("not an image")
    with open_camera(f"folder:{tmp_path}") as source:
        frames = list(source)
        assert source.read() is None
    assert [f.timestamp for f in frames] == [0.0, 1.0, 2.0]
    assert [int(f.image[0, 0, 0]) for f in frames] == [40, 0, 80]  # a.jpg, b.png, c.bmp


@pytest.mark.parametrize("make", [lambda p: p / "missing", lambda p: p])
def test_folder_without_images_is_a_clear_error(tmp_path: Path, make) -> None:
    with pytest.raises(CameraError, match="folder:"):
        open_camera(f"folder:{make(tmp_path)}")


class FakeCapture:
    """A scripted cv2.VideoCapture: frames to hand out, and what it was asked."""

    def __init__(self, frames: list[np.ndarray], opened: bool = True) -> None:
        self.frames, self.opened, self.history = list(frames), opened, []

    def isOpened(self) -> bool:
        return self.opened

    def set(self, prop: int, value: float) -> bool:
        self.history.append(("set", prop, value))
        return True

    def read(self) -> tuple[bool, np.ndarray | None]:
        self.history.append(("read",))
        return (True, self.frames.pop(0)) if self.frames else (False, None)

    def get(self, prop: int) -> float:
        return 40.0 * (3 - len(self.frames))

    def release(self) -> None:
        self.history.append(("release",))


def test_opencv_device_frames_are_timed_by_the_clock_and_released() -> None:
    ticks = iter([10.0, 10.5, 11.25])
    capture = FakeCapture([np.zeros((4, 4, 3), np.uint8)] * 2)
    with OpenCvCamera(capture, "opencv:0", clock=lambda: next(ticks)) as source:
        times = [frame.timestamp for frame in source]
    assert times == [0.5, 1.25]
    assert capture.history[-1] == ("release",)


def test_unplugged_opencv_camera_is_a_clear_error(monkeypatch) -> None:
    monkeypatch.setattr(cv2, "VideoCapture", lambda index: FakeCapture([], opened=False))
    with pytest.raises(CameraError, match=r"opencv:3: no camera there"):
        open_camera("opencv:3")


def test_opencv_device_asks_for_the_frame_size(monkeypatch) -> None:
    made = FakeCapture([np.zeros((4, 4, 3), np.uint8)])
    monkeypatch.setattr(cv2, "VideoCapture", lambda index: made)
    with open_camera("opencv:0", size=(640, 480)) as source:
        assert source.read() is not None
    assert ("set", cv2.CAP_PROP_FRAME_WIDTH, 640) in made.history


def test_video_file_plays_through_opencv(tmp_path: Path) -> None:
    path = tmp_path / "clip.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 10.0, (64, 48))
    if not writer.isOpened():
        pytest.skip("this OpenCV build cannot write MJPG")
    for value in (30, 120, 220):
        writer.write(np.full((48, 64, 3), value, np.uint8))
    writer.release()
    with open_camera(str(path)) as source:
        frames = list(source)
    assert len(frames) == 3 and abs(int(frames[1].image.mean()) - 120) < 8
    with pytest.raises(CameraError, match="no such video file"):
        open_camera(f"opencv:{tmp_path / 'gone.mp4'}")


def test_missing_picamera2_is_a_clear_error(monkeypatch) -> None:
    monkeypatch.setitem(sys.modules, "picamera2", None)
    monkeypatch.setattr("tablekit.vision.rpicam.rpicam_program", lambda: None)
    with pytest.raises(CameraError, match=r"picamera2 failed .*rpicam-vid is not installed"):
        open_camera("picamera")


def _picamera2_raising(error: Exception) -> types.ModuleType:
    module = types.ModuleType("picamera2")

    def broken(*_: object) -> None:
        raise error
    module.Picamera2 = broken  # type: ignore[attr-defined]
    return module


def test_picamera2_raising_anything_falls_back_to_rpicam_vid(monkeypatch) -> None:
    abi = ValueError("numpy.dtype size changed, may indicate binary incompatibility")
    monkeypatch.setitem(sys.modules, "picamera2", _picamera2_raising(abi))
    monkeypatch.setattr("tablekit.vision.rpicam.rpicam_program", lambda: None)
    with pytest.raises(CameraError, match=r"ValueError: numpy\.dtype size changed"):
        open_camera("picamera2")
    frames = [sys.executable, "-c", "import sys, time\nfor _ in range(100):\n"
              "    sys.stdout.buffer.write(bytes([90]) * (64 * 48 * 3 // 2))\n"
              "    sys.stdout.flush(); time.sleep(0.05)"]
    monkeypatch.setattr("tablekit.vision.rpicam.rpicam_program", lambda: "rpicam-vid")
    monkeypatch.setattr("tablekit.vision.rpicam.rpicam_command", lambda *_: frames)
    with open_camera("picamera2", size=(64, 48)) as source:
        assert type(source).__name__ == "RpicamCamera"
        frame = source.read()
        assert frame is not None and frame.image.shape == (48, 64, 3)


class FakeRequest:
    def __init__(self, camera: FakePicamera2, metadata: dict) -> None:
        self.camera, self.metadata = camera, metadata

    def make_array(self, stream: str) -> np.ndarray:
        return np.full((6, 8, 4), len(self.camera.history), np.uint8)

    def get_metadata(self) -> dict:
        return self.metadata

    def release(self) -> None:
        self.camera.history.append(("release",))


class FakePicamera2:
    """picamera2's camera, scripted: one metadata dict per frame; keeps a history."""

    def __init__(self, metadata: list[dict]) -> None:
        self.metadata, self.history = list(metadata), []

    def create_video_configuration(self, main: dict) -> dict:
        return {"main": main}

    def configure(self, config: dict) -> None:
        self.history.append(("configure", config["main"]["size"], config["main"]["format"]))

    def start(self) -> None:
        self.history.append(("start",))

    def capture_request(self) -> FakeRequest:
        return FakeRequest(self, self.metadata.pop(0))

    def set_controls(self, controls: dict) -> None:
        self.history.append(("set_controls", controls))

    def stop(self) -> None:
        self.history.append(("stop",))

    def close(self) -> None:
        self.history.append(("close",))


def settling(frames: int) -> list[dict]:
    """Auto exposure converging on 20 ms x 2.0 gain, white balance on (1.8, 1.5)."""
    out = []
    for i in range(frames):
        left = 0.5 ** i
        out.append({"ExposureTime": int(20000 * (1 + left)), "AnalogueGain": 2.0,
                    "ColourGains": (1.8 + left, 1.5 - left / 2), "Lux": 300.0})
    return out


def test_picamera_locks_exposure_and_white_balance_once_settled() -> None:
    fake = FakePicamera2(settling(30))
    with PiCamera(fake, size=(1280, 720), clock=lambda: 0.0) as source:
        frames = [source.read() for _ in range(30)]
    assert fake.history[:2] == [("configure", (1280, 720), "RGB888"), ("start",)]
    locks = [entry[1] for entry in fake.history if entry[0] == "set_controls"]
    assert len(locks) == 1
    lock = locks[0]
    assert lock["AeEnable"] is False and lock["AwbEnable"] is False
    assert abs(lock["ExposureTime"] - 20000) < 20000 * 0.05
    assert abs(lock["ColourGains"][0] - 1.8) < 0.05 and lock["AnalogueGain"] == 2.0
    assert frames[0].image.shape == (6, 8, 3)
    assert fake.history[-2:] == [("stop",), ("close",)]


def test_exposure_lock_gives_up_waiting_after_max_frames() -> None:
    lock = ExposureLock(max_frames=4)
    swinging = [{"ExposureTime": 10000 * (1 + i % 2), "ColourGains": (1.0, 1.0)}
                for i in range(4)]
    results = [lock.feed(m) for m in swinging]
    assert results[:3] == [None, None, None] and results[3]["ExposureTime"] == 20000
    assert lock.feed(swinging[0]) is None  # locked once


def test_sim_spec_opens_the_simulated_table_and_bad_logs_are_clear() -> None:
    from tablekit.commands.devices import open_camera as open_device

    with open_device("sim", size=(160, 96), art="fallback") as source:
        frame = source.read()
    assert frame.image.shape == (96, 160, 3) and frame.timestamp == 0.0
    with pytest.raises(CameraError, match="no game log"):
        open_device("sim:nowhere.xml")
    with pytest.raises(CameraError, match="unknown camera 'sim'"):
        open_camera("sim")  # perception alone knows no simulator


def test_unknown_spec_lists_the_forms() -> None:
    with pytest.raises(CameraError, match="folder:DIR"):
        open_camera("usb")
    assert issubclass(CameraError, RuntimeError) and cameras.SPECS
