"""Calibration: from frames showing the four corner markers to a saved table profile.

A :class:`Profile` holds the fitted camera (:mod:`tablekit.vision.table_camera`: the
image of the table plane, lens distortion included; fitted to the marker corners and to
the felt's straight edges, :mod:`tablekit.vision.felt_edges`), the marker corners, the
table's layout (:class:`tablekit.vision.layout.TableLayout`: felt size, where the markers
sit, where the zones lie) and the zones (:mod:`tablekit.vision.table_zones`) in table mm
with their outlines in the image. It is saved as versioned JSON under ``calibration/``.
A profile saved before layouts were stored loads with the default layout; a club's
own table is calibrated with its measured layout (``calibrate(frames, layout=...)``).

* :func:`calibrate` fits a profile to frames (the median corner over the frames that
  show each marker);
* :func:`check_profile` says whether a frame still matches a profile: a bumped camera
  moves the markers by more than a few pixels, and then it is time to recalibrate;
* missing markers, a corrupt profile or one from a newer tablekit raise
  :class:`CalibrationError` with a one-line reason.

>>> Profile.load(Path("nowhere.json"))  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
tablekit.vision.calibration.CalibrationError: no calibration profile at nowhere.json: run ...
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from tablekit.errors import TablekitError, one_line
from tablekit.files.readable_json import compact_json
from tablekit.files.resources import packaged
from tablekit.untrusted import Untrusted
from tablekit.untrusted.files import read_text
from tablekit.untrusted.json_text import parse_json
from tablekit.vision.felt_edges import EdgePoints, felt_edge_points
from tablekit.vision.layout import DEFAULT_LAYOUT, TableLayout
from tablekit.vision.markers import find_markers
from tablekit.vision.table_camera import TableCamera, fit_camera, reprojection_error
from tablekit.vision.table_zones import Zone, table_zones

PROFILE_VERSION = 1
PROFILE_BYTES = 4 << 20  # a profile is a few KB
EXAMPLE_PROFILE = packaged("data", "example-sim.json")
"""A profile of the simulated camera (rig seed 0, 1280x720), shipped with tablekit."""
MAX_REPROJECTION_PX = 2.5
"""A fit worse than this (rms px) means the markers are not where the layout says."""
MOVED_PX = 3.0
"""Markers this far (px) from the profile's: the camera has moved."""


class CalibrationError(TablekitError, RuntimeError):
    """Calibration failed, or a profile cannot be used (missing, corrupt, too new)."""


@dataclass(frozen=True)
class Profile:
    """One camera's calibration for the table."""

    camera: TableCamera
    markers: dict[int, tuple[tuple[float, float], ...]]
    """Marker id -> its four corners in the image (px), as measured."""
    rms_px: float
    frames: int
    created: str = ""
    source: str = ""
    zones: tuple[Zone, ...] = ()
    """The zones; none given: the layout's (:func:`tablekit.vision.table_zones.table_zones`)."""
    layout: TableLayout = DEFAULT_LAYOUT
    tileset: str = ""
    """The enrolled tile set (folder) to read this table with; empty: the trained one."""

    def __post_init__(self) -> None:
        if not self.zones:
            object.__setattr__(self, "zones", table_zones(self.layout))

    @property
    def size(self) -> tuple[int, int]:
        return self.camera.width, self.camera.height

    def zone_outlines(self) -> dict[str, list[list[float]]]:
        """Each zone's outline in image pixels (the table plane), for drawing."""
        out = {}
        for zone in self.zones:
            points = np.array(zone.polygon, np.float64)
            image = self.camera.project(np.concatenate([points, np.zeros((len(points), 1))], 1))
            out[zone.name] = np.round(image, 1).tolist()
        return out

    def to_dict(self) -> dict[str, Any]:
        return {"version": PROFILE_VERSION, "created": self.created, "source": self.source,
                "frames": self.frames, "rms_px": round(self.rms_px, 4),
                "camera": self.camera.to_dict(),
                "markers": {str(k): [list(p) for p in v] for k, v in sorted(self.markers.items())},
                "layout": self.layout.to_dict(),
                "zones": [zone.to_dict() for zone in self.zones],
                "zone_outlines_px": self.zone_outlines(),
                **({"tileset": self.tileset} if self.tileset else {})}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Profile:
        version = data.get("version")
        if not isinstance(version, int) or version > PROFILE_VERSION:
            raise CalibrationError(f"profile version {version!r} is not one this tablekit reads "
                                   f"(up to {PROFILE_VERSION}): recalibrate")
        markers = {int(k): tuple((float(x), float(y)) for x, y in v)
                   for k, v in data["markers"].items()}
        return cls(TableCamera.from_dict(data["camera"]), markers, float(data["rms_px"]),
                   int(data["frames"]), str(data.get("created", "")),
                   str(data.get("source", "")),
                   tuple(Zone.from_dict(z) for z in data["zones"]),
                   TableLayout.from_dict(data.get("layout", {})),
                   str(data.get("tileset", "")))

    def save(self, path: Path) -> Path:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(compact_json(self.to_dict()) + "\n", encoding="utf-8")
        return path

    @classmethod
    def load(cls, path: Path) -> Profile:
        """Read a profile; :class:`CalibrationError` when it is missing or broken."""
        try:
            text = read_text(path, limit=PROFILE_BYTES)  # a FIFO or a device: refused
        except FileNotFoundError:
            raise CalibrationError(f"no calibration profile at {path}: run tablekit calibrate"
                                   ) from None
        except (OSError, Untrusted) as error:
            raise CalibrationError(f"cannot read calibration profile {path}: "
                                   f"{one_line(error)}") from None
        try:
            return cls.from_dict(parse_json(text, max_bytes=PROFILE_BYTES))
        except CalibrationError as error:
            raise CalibrationError(f"{path}: {error}") from None
        except (ValueError, KeyError, TypeError, IndexError) as error:
            raise CalibrationError(f"calibration profile {path} is corrupt ({error!r}): "
                                   f"recalibrate with tablekit calibrate") from None


def table_layout(path: Path) -> TableLayout:
    """The table measured in the profile at ``path``; the default table when there is no
    profile there (a broken one raises :class:`CalibrationError`).

    >>> table_layout(Path("nowhere.json")) == DEFAULT_LAYOUT
    True
    """
    if not Path(path).is_file():
        return DEFAULT_LAYOUT
    return Profile.load(path).layout


def gather_corners(images: Iterable[np.ndarray], layout: TableLayout = DEFAULT_LAYOUT
                   ) -> tuple[dict[int, np.ndarray], int, tuple]:
    """The median corners of each marker over ``images``, the frame count and image size."""
    seen: dict[int, list[np.ndarray]] = {}
    count, size = 0, (0, 0)
    for image in images:
        count, size = count + 1, (image.shape[1], image.shape[0])
        for marker_id, quad in find_markers(image, layout).items():
            seen.setdefault(marker_id, []).append(quad)
    return {k: np.median(np.stack(v), axis=0) for k, v in seen.items()}, count, size


def edge_points(images: list[np.ndarray], camera: TableCamera,
                half: float = DEFAULT_LAYOUT.table_half) -> EdgePoints:
    """The felt's edge points found in every frame (at most eight), pooled."""
    found = [felt_edge_points(image, camera.project, half) for image in images[:8]]
    return (np.concatenate([f[0] for f in found]), np.concatenate([f[1] for f in found]),
            np.concatenate([f[2] for f in found]))


def calibrate(images: Iterable[np.ndarray], source: str = "",
              layout: TableLayout = DEFAULT_LAYOUT) -> Profile:
    """Fit a profile to frames of the table with its four markers in view (the markers'
    corners first, then with the felt's edges); ``layout``: the table, as measured."""
    images = list(images)
    ids, half = layout.marker_ids, layout.table_half
    corners, count, size = gather_corners(images, layout)
    if not count:
        raise CalibrationError("no frames to calibrate from")
    missing = [i for i in ids if i not in corners]
    if missing:
        raise CalibrationError(f"markers {missing} not found in {count} frame(s): each table "
                               f"corner needs its marker in view (tablekit calibrate --markers)")
    image = np.concatenate([corners[i] for i in ids])
    table = np.concatenate([np.asarray(layout.marker_corners[i]) for i in ids])
    camera = fit_camera(image, table, size, half=half)
    camera = fit_camera(image, table, size, edge_points(images, camera, half), half)
    rms = reprojection_error(camera, image, table)
    if rms > MAX_REPROJECTION_PX:
        raise CalibrationError(f"the markers do not fit the table layout ({rms:.1f} px rms): "
                               f"check that each id sits at its corner")
    markers = {i: tuple((round(float(x), 3), round(float(y), 3)) for x, y in corners[i])
               for i in ids}
    return Profile(camera, markers, rms, count, time.strftime("%Y-%m-%d %H:%M:%S"), source,
                   layout=layout)


@dataclass(frozen=True)
class ProfileCheck:
    """How a frame compares with a profile: the largest marker shift (px) among the
    markers found, and the ids not found (hidden by an arm, or gone)."""

    shift_px: float
    found: tuple[int, ...]
    missing: tuple[int, ...]
    tolerance: float = MOVED_PX

    @property
    def moved(self) -> bool:
        return self.shift_px > self.tolerance

    @property
    def ok(self) -> bool:
        """Usable: at least two markers seen and none of them moved."""
        return len(self.found) >= 2 and not self.moved

    def __str__(self) -> str:
        state = "moved: recalibrate" if self.moved else ("ok" if self.ok else "markers hidden")
        return (f"{state} (markers seen {list(self.found)}, largest shift "
                f"{self.shift_px:.1f} px, tolerance {self.tolerance:.1f} px)")


def check_profile(image: np.ndarray, profile: Profile, tolerance: float = MOVED_PX
                  ) -> ProfileCheck:
    """Compare the markers in ``image`` with ``profile``'s (a frame of the wrong size has
    moved by definition)."""
    ids = profile.layout.marker_ids
    if (image.shape[1], image.shape[0]) != profile.size:
        return ProfileCheck(float("inf"), (), tuple(ids), tolerance)
    found = find_markers(image, profile.layout)
    shifts = [float(np.linalg.norm(quad - np.asarray(profile.markers[i]), axis=1).max())
              for i, quad in found.items() if i in profile.markers]
    return ProfileCheck(max(shifts, default=0.0), tuple(sorted(found)),
                        tuple(i for i in ids if i not in found), tolerance)
