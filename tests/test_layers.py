"""The layers hold where a newcomer looks first: importing perception loads no simulator,
flow, display or I/O, and the tracking needs no numpy (the import-linter contracts in
pyproject.toml, run by ``lint-imports`` in CI, keep every rule)."""

from __future__ import annotations

import subprocess
import sys

ABOVE_PERCEPTION = ("tablekit.sim", "tablekit.flow", "tablekit.display", "tablekit.io")


def loaded_after(module: str, prefixes: tuple[str, ...]) -> str:
    """What a fresh interpreter has loaded of ``prefixes`` once ``module`` is imported."""
    code = (f"import sys, {module}; "
            f"print(sorted(m for m in sys.modules if m.startswith({prefixes!r})))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True, timeout=120)
    return done.stdout.strip()


def test_the_camera_pipeline_loads_nothing_above_perception() -> None:
    assert loaded_after("tablekit.vision.pipeline", ABOVE_PERCEPTION) == "[]"


def test_the_tracker_loads_no_numpy_no_opencv_and_no_simulator() -> None:
    assert loaded_after("tablekit.tracking.tracker",
                        ("numpy", "cv2", "onnxruntime", *ABOVE_PERCEPTION)) == "[]"
