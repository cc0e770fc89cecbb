"""Files tablekit ships inside the package, found with :mod:`importlib.resources`, so a wheel
installed anywhere finds them from any working directory.

``tablekit/models/`` holds the ONNX models; ``tablekit/data/`` the default pin map, the demo
game, the example calibration and the systemd unit template.

>>> packaged("data", "pinout.toml").is_file()
True
>>> packaged("models", "tile_detector.onnx").name
'tile_detector.onnx'
>>> source_tree() is None or (source_tree() / "pyproject.toml").is_file()
True
"""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path


def packaged(*parts: str) -> Path:
    """The path of a file shipped in the ``tablekit`` package (installed unzipped, as pip does)."""
    return Path(str(files("tablekit").joinpath(*parts)))


def source_tree() -> Path | None:
    """The project's checkout when tablekit runs from one (``pip install -e``), else None."""
    root = packaged().parent
    return root if (root / "pyproject.toml").is_file() and (root / "tablekit").is_dir() else None
