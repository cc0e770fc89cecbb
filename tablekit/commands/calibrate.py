"""``tablekit calibrate``: print the table markers, fit a camera profile, check it.

* ``tablekit calibrate --markers FILE.png [--paper A4|A3] [--dpi 300]`` writes the sheet of
  the four ArUco markers at their true size (60 mm, with a 100 mm scale bar): print it at
  100 %, cut the markers out and lay each at its corner of the felt (id 0 at seat 0's left).
* ``tablekit calibrate [--camera SPEC] [--out calibration/table.json]`` grabs frames, finds the
  markers, fits the camera (lens distortion included) and saves the profile.
* ``--check`` compares the camera with the saved profile first: when the markers have moved
  (a bumped camera) it recalibrates, otherwise it leaves the profile as it is.
* A club's own table: ``--felt-mm`` (the felt's side) and ``--marker-inset-mm`` (from a
  felt corner to its marker's centre, along each side) as measured; the profile keeps
  this layout (:class:`tablekit.vision.layout.TableLayout`) and the camera reads by it.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from tablekit.errors import TablekitError

DEFAULT_PROFILE = Path("calibration") / "table.json"


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "calibrate", help="calibrate the camera over the table (and print the markers)",
        description="Find the four corner markers, fit the camera and save a profile; or "
                    "write the marker sheet to print.")
    parser.add_argument("--markers", type=Path, metavar="FILE.png", default=None,
                        help="write the printable marker sheet here and stop")
    parser.add_argument("--paper", choices=("A4", "A3"), default="A4")
    parser.add_argument("--dpi", type=int, default=300)
    parser.add_argument("--camera", default="picamera2", metavar="SPEC",
                        help="picamera2, opencv:N, opencv:FILE, folder:DIR, sim[:LOG[:SEED]]")
    parser.add_argument("--out", type=Path, default=DEFAULT_PROFILE, metavar="PROFILE",
                        help=f"profile to write (default {DEFAULT_PROFILE})")
    parser.add_argument("--frames", type=int, default=8, help="frames to average (default 8)")
    parser.add_argument("--check", action="store_true",
                        help="recalibrate only when the camera moved since the saved profile")
    parser.add_argument("--felt-mm", type=float, default=None, metavar="MM",
                        help="the felt's side, measured (default: tablekit's 960 mm table)")
    parser.add_argument("--marker-inset-mm", type=float, default=45.0, metavar="MM",
                        help="from each felt corner to its marker's centre (default 45)")
    parser.add_argument("--tileset", metavar="SET", default=None,
                        help="an enrolled tile set the profile names (its readers use it)")
    parser.set_defaults(run=run)


def write_markers(args: argparse.Namespace) -> int:
    import cv2

    from tablekit.vision.markers import marker_sheet

    sheet = marker_sheet(args.paper, args.dpi, layout(args))
    args.markers.parent.mkdir(parents=True, exist_ok=True)
    if not cv2.imwrite(str(args.markers), sheet):
        print(f"tablekit calibrate: cannot write {args.markers}", file=sys.stderr)
        return 2
    print(f"{args.markers}: {args.paper} at {args.dpi} dpi; print at 100% (no fit to page) "
          f"and check the 100 mm scale bar with a ruler")
    return 0


def grab(spec: str, count: int) -> list:
    from tablekit.commands.devices import open_camera

    images = []
    with open_camera(spec) as camera:
        while len(images) < count and (frame := camera.read()) is not None:
            images.append(frame.image)
    return images


def check_first(args: argparse.Namespace, images: list) -> bool:
    """True when the saved profile still fits (nothing to do)."""
    from tablekit.vision.calibration import Profile, check_profile

    profile = Profile.load(args.out)
    result = check_profile(images[-1], profile)
    print(f"{args.out}: {result}")
    return result.ok


def layout(args: argparse.Namespace) -> Any:
    """The table measured on the command line, else the default one."""
    from tablekit.vision.layout import DEFAULT_LAYOUT, TableLayout

    if args.felt_mm is None:
        return DEFAULT_LAYOUT
    return TableLayout.measured(args.felt_mm, args.marker_inset_mm)


def summary(profile: Any) -> str:
    camera = profile.camera
    height = camera.centre[2]
    return (f"{len(profile.markers)} markers over {profile.frames} frames, fit {profile.rms_px:.2f}"
            f" px rms; camera {height:.0f} mm above the felt, focal {camera.focal:.0f} px, "
            f"k1 {camera.k1:+.3f}, k2 {camera.k2:+.3f}")


def run(args: argparse.Namespace) -> int:
    if args.markers:
        return write_markers(args)
    from tablekit.vision.calibration import calibrate

    try:
        images = grab(args.camera, args.frames)
        if args.check and args.out.is_file() and check_first(args, images):
            return 0
        profile = calibrate(images, source=args.camera, layout=layout(args))
        if args.tileset:
            from dataclasses import replace

            from tablekit.vision.tileset import TileSet

            profile = replace(profile, tileset=str(TileSet.load(args.tileset).folder))
        profile.save(args.out)
    except TablekitError as error:
        print(f"tablekit calibrate: {error}", file=sys.stderr)
        return 2
    print(f"{args.out}: {summary(profile)}")
    return 0
