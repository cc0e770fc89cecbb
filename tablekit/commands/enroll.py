"""``tablekit enroll``: teach the reader a club's own tile set (a tile-set profile).

* ``tablekit enroll --mat FILE.png [--paper A3|A4]`` writes the enrollment mat to print: a
  labelled slot for each of the 34 kinds, the three red fives and a face-down tile, with
  ArUco markers at its corners (A4: two halves, each with its own markers).
* ``tablekit enroll [--camera SPEC | --image PHOTO...] --out SET``: lay one tile of each kind
  on its slot, face up (any way round), the face-down tile on its slot; the mat is found
  anywhere on the table, empty or crowded slots are reported, every face is cut and the
  classifier's head is refitted to this set (:mod:`tablekit.vision.enroll`).
* ``tablekit enroll --from-table --calibration PROFILE --out SET [--camera SPEC | --image
  A1 A2 B C]``: lay the whole set on the calibrated table where play puts tiles, as
  ``tablekit enroll --print-spread`` lists it, and take a photo of each of its four steps
  (the camera asks for each); the faces are cut by the pipeline that reads a game and the
  set is named by its nearest faces (:mod:`tablekit.vision.enroll_table`). The best way
  to enroll: faces cut from the table look like faces in play.
* ``tablekit enroll --from-labels DIR --out SET [--method nearest|head]``: the same from
  labelled photos: ``DIR`` holds ``images/``, ``labels/`` (YOLO ``class cx cy w h``
  normalised, or polygons) and ``class_map.json`` (class id -> ``{"canonical": "5m"}``, null
  for no riichi kind); the classifier's head is refitted, or with ``--method nearest`` the
  set is named by its nearest faces (:mod:`tablekit.vision.nearest`, with boxes straddling
  two tiles cut as no tile).
* ``tablekit enroll --from-recording DIR... --out SET``: the same from recorded games
  (``tablekit run --record``): the faces their players confirmed (winning hands, dora
  indicators, discards the game's own reading agrees with), cut from the frames as the
  reader cuts them (:mod:`tablekit.recording.faces`); ``--on SET`` enrolls on top of a set
  enrolled before (from the mat): its head is where the fit starts and what it is pulled to,
  its reader names the recordings' faces.

Then ``tablekit detect``, ``run`` and ``calibrate`` take ``--tileset SET``.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

from tablekit.commands.progress import Progress
from tablekit.errors import TablekitError


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "enroll", help="teach the reader your own tile set (and print its mat)",
        description="Enroll a tile set from the enrollment mat (camera or photo), from "
                    "labelled photos or from recorded games, and save a tile-set profile "
                    "for --tileset.")
    parser.add_argument("--mat", type=Path, metavar="FILE.png", default=None,
                        help="write the printable enrollment mat here and stop")
    parser.add_argument("--paper", choices=("A3", "A4"), default="A3",
                        help="mat paper: one A3 sheet, or two A4 halves (FILE-1/-2.png)")
    parser.add_argument("--dpi", type=int, default=200)
    parser.add_argument("--from-labels", type=Path, metavar="DIR", default=None,
                        help="enroll from labelled photos (images/, labels/, class_map.json)")
    parser.add_argument("--method", choices=("nearest", "head"), default=None,
                        help="with --from-labels: refit the classifier's head (the default), "
                             "or name faces by their nearest enrolled faces")
    parser.add_argument("--from-recording", type=Path, nargs="+", metavar="DIR", default=None,
                        help="enroll from recorded games (tablekit run --record): the faces "
                             "their players confirmed")
    parser.add_argument("--from-table", action="store_true",
                        help="enroll from the whole set spread on the calibrated table, "
                             "four photos (see --print-spread)")
    parser.add_argument("--print-spread", action="store_true",
                        help="print where each tile goes for --from-table and stop")
    parser.add_argument("--on", type=Path, metavar="SET", default=None,
                        help="with --from-recording: enroll on top of this tile set (one "
                             "enrolled from the mat), not the trained classifier")
    parser.add_argument("--image", type=Path, nargs="+", metavar="PHOTO", default=None,
                        help="photos of the laid-out mat (instead of the camera)")
    parser.add_argument("--camera", default="picamera2", metavar="SPEC",
                        help="picamera2, opencv:N, opencv:FILE, folder:DIR, sim")
    parser.add_argument("--calibration", type=Path, metavar="PROFILE", default=None,
                        help="the table's calibration, when the mat lies on the calibrated "
                             "table (faces are then cut as the reader cuts them)")
    parser.add_argument("--out", type=Path, metavar="SET", default=None,
                        help="the tile-set folder to write")
    parser.set_defaults(run=run)


def _say(line: str) -> None:
    print(f"tablekit enroll: {line}", file=sys.stderr)


def run(args: argparse.Namespace) -> int:
    if args.mat:
        return write_mat(args)
    if args.print_spread:
        print_spread()
        return 0
    if args.out is None:
        _say("say where to save the tile set: --out SET")
        return 2
    if args.method is not None and not args.from_labels:
        _say("--method chooses how labelled photos are enrolled: give --from-labels DIR too")
        return 2
    if args.on is not None and not args.from_recording:
        _say("--on SET enrolls recordings on top of a set: give --from-recording DIR too")
        return 2
    try:
        if args.from_labels:
            return from_labels(args)
        if args.from_recording:
            return from_recording(args)
        if args.from_table:
            return from_table(args)
        return from_mat(args)
    except TablekitError as error:
        _say(str(error))
        return 2


def from_labels(args: argparse.Namespace) -> int:
    from tablekit.vision.datasets import load_split
    from tablekit.vision.enroll import FeatureModel, enroll
    from tablekit.vision.enroll_labels import (
        STRADDLING,
        choose_overlap,
        decoded,
        lacking_kinds,
        lacking_red,
        samples_from_photos,
    )
    from tablekit.vision.nearest import embed
    from tablekit.vision.onnx_model import DETECTOR_PATH, PHOTO_CLASSIFIER_PATH, load_model
    from tablekit.vision.refine import REFINER_PATH
    from tablekit.vision.tileset import TileSetError, save_nearest_tileset, save_tileset

    folder = args.from_labels
    if not (folder / "images").is_dir() or not (folder / "class_map.json").is_file():
        raise TileSetError(f"{folder}: wants images/, labels/ and class_map.json")
    start = time.perf_counter()
    try:
        images = load_split(folder, "")
    except (OSError, ValueError, KeyError) as error:
        raise TileSetError(f"{folder}: cannot read its labels ({error})") from None
    if not images:
        raise TileSetError(f"{folder}/images: no labelled photos")
    model = FeatureModel(PHOTO_CLASSIFIER_PATH)  # photos are read by the photo path
    detector, refiner = load_model(DETECTOR_PATH), load_model(REFINER_PATH)
    photos = decoded(images)
    if not photos:
        raise TileSetError(f"{folder}/images: none of its photos can be read")
    nearest = (args.method or HEAD) == "nearest"
    progress = Progress("tablekit enroll")  # on a terminal only
    with progress.running(f"cutting the faces from {len(photos)} photos"):
        boxes = choose_overlap(detector, photos, refiner)
        samples = samples_from_photos(photos, detector, model.size, overlap=boxes["overlap"],
                                      straddling=STRADDLING if nearest else 0.0,
                                      refiner=refiner)
    source = f"{len(images)} labelled photos in {folder}"
    if nearest:
        crops, labels = samples.batch()
        # photos: the features alone (pixels are compared on faces cut from the table)
        features = embed(model.features(crops, on_step=_shown(progress)), None)
        progress.clear()
        tileset = save_nearest_tileset(args.out, features, labels, samples.counts(),
                                       PHOTO_CLASSIFIER_PATH, source,
                                       {"detector": boxes, "red_split": lacking_red(labels),
                                        "lacking": lacking_kinds(labels)})
    else:
        # kinds the photos do not show read as trained, as a nearest set reads them
        enrollment = enroll(samples, model, on_step=_shown(progress), keep_unshown=True)
        progress.clear()
        tileset = save_tileset(args.out, enrollment, PHOTO_CLASSIFIER_PATH, source,
                               {"detector": boxes})
    print(f"{args.out}: {tileset.summary()} in {time.perf_counter() - start:.1f} s")
    shown = kinds_shown(samples.counts())
    if shown < FEW_KINDS:
        _say(f"these photos show {shown} of the 34 kinds: faces of the others may now read "
             "worse than before; add photos that show them, or enroll from the mat")
    return 0


def from_recording(args: argparse.Namespace) -> int:
    from tablekit.recording.faces import PULL, harvest
    from tablekit.recording.manifest import read_manifest
    from tablekit.vision.enroll import FeatureModel, enroll
    from tablekit.vision.onnx_model import CLASSIFIER_PATH
    from tablekit.vision.tileset import TileSet, TileSetError, save_tileset

    for folder in args.from_recording:
        read_manifest(folder)   # a folder that is not a recording: one line
    on = TileSet.load(args.on) if args.on is not None else None  # not a set: one line
    start = time.perf_counter()
    model = FeatureModel(on.classifier if on else CLASSIFIER_PATH)
    progress = Progress("tablekit enroll")  # on a terminal only
    count = len(args.from_recording)
    with progress.running(f"cutting the confirmed faces from {count} recording"
                          f"{'s' * (count > 1)}"):
        found = harvest(args.from_recording, model.size, base=on.folder if on else None)
    if not sum(found.used.values()):
        names = " ".join(str(folder) for folder in args.from_recording)
        raise TileSetError(f"{names}: no confirmed faces to learn from (a hand won with its "
                           "hand revealed, its WIN pressed while recording)")
    print(found.report())
    sources = ", ".join(str(folder) for folder in args.from_recording)
    source = f"recordings {sources}" + (f" on top of tile set '{on.name}'" if on else "")
    if on is not None and on.nearest:
        return _add_faces(args, on, found, model, source, start, _shown(progress), progress)
    enrollment = enroll(found.samples, model, pull=PULL, red_split=True,
                        on_step=_shown(progress))
    progress.clear()
    tileset = save_tileset(args.out, enrollment, CLASSIFIER_PATH, source,
                           {"recorded_faces": dict(found.used),
                            **({"on": on.info.get("source", on.name)} if on else {})})
    print(f"{args.out}: {tileset.summary()} in {time.perf_counter() - start:.1f} s")
    return 0


def print_spread() -> None:
    """The spread's steps and where each tile goes, seat by seat."""
    from tablekit.vision.spread import STEPS, describe

    print("Lay the whole set on the calibrated table, each tile upright for its seat "
          "(either way up; a tile in [ ] sideways in its pond row, as a riichi discard "
          "lies), then take a photo of each step:")
    for number, step in enumerate(STEPS, 1):
        print(f"{number}. {step.say}")
    for index, name in enumerate(("A", "B", "C")):
        print(f"\nspread {name} (left to right as each seat sees it):")
        for line in describe(index):
            print(f"  {line}")


def _spread_images(args: argparse.Namespace) -> list:
    """One photo per step: the ``--image`` files, or the camera's frame after each step
    is laid (Enter)."""
    from tablekit.vision.spread import STEPS, describe
    from tablekit.vision.tileset import TileSetError

    if args.image:
        if len(args.image) != len(STEPS):
            raise TileSetError(f"--from-table takes {len(STEPS)} photos, one per step of the "
                               f"spread (--print-spread), not {len(args.image)}")
        return _images(args)
    from tablekit.commands.calibrate import grab

    images = []
    for number, step in enumerate(STEPS, 1):
        print(f"step {number} of {len(STEPS)}: {step.say}")
        if step.faces:
            for line in describe(step.layout):
                print(f"  {line}")
        try:
            input("press Enter when it is laid (hands off the table) ")
        except EOFError:
            raise TileSetError("no answer to wait for (standard input is closed): take the "
                               "photos and give them with --image") from None
        frames = grab(args.camera, 3)
        if not frames:
            raise TileSetError(f"no frames from the camera {args.camera}")
        images.append(frames[-1])
    return images


def from_table(args: argparse.Namespace) -> int:
    from tablekit.vision.calibration import Profile
    from tablekit.vision.enroll_table import enroll_from_table, missing_kinds
    from tablekit.vision.tileset import TileSetError

    calibration = args.calibration or Path("calibration") / "table.json"
    if not calibration.is_file():
        raise TileSetError(f"{calibration}: no calibration; the spread lies on the calibrated "
                           "table (`tablekit calibrate`, then --calibration PROFILE)")
    profile = Profile.load(calibration)
    images = _spread_images(args)
    source = ", ".join(str(p) for p in args.image) if args.image else args.camera
    progress = Progress("tablekit enroll")  # on a terminal only
    made = enroll_from_table(images, profile, args.out, source, on_step=_shown(progress))
    progress.clear()
    for line in made.report:
        print(line)
    lacking = [code for code in missing_kinds(made.tileset.info["faces"])
               if code not in ("back", "none")]
    if lacking:
        _say(f"no faces of {' '.join(lacking)}: lay them as the spread says")
    print(f"{args.out}: {made.tileset.summary()} in {made.seconds:.1f} s")
    return 0


def _add_faces(args: argparse.Namespace, on: Any, found: Any, model: Any, source: str,
               start: float, on_step: Any, progress: Progress) -> int:
    """Learn from play on top of a set enrolled from the table: the recordings' confirmed
    faces join its nearest faces (:mod:`tablekit.recording.learn`)."""
    from tablekit.recording.learn import add_faces

    learned = add_faces(on, found, model, args.out, on_step=on_step, source=source)
    progress.clear()
    print(learned.faces_line())
    print(f"{args.out}: {learned.tileset.summary()} in {time.perf_counter() - start:.1f} s")
    return 0


HEAD = "head"
"""``--from-labels``' default method. On the unseen-table photos (5 and 6 photos enrolled,
chosen for kinds and at random) the nearest faces read the detector's boxes as well as the
refitted head (F1 0.895-0.933 against 0.901-0.931, class accuracy 0.936-0.956 against
0.939-0.954) and the labelled boxes worse (0.961 against 0.984): the model card."""

FEW_KINDS = 30
"""Fewer kinds than this in the labelled photos gets a warning: on the unseen-table photos one
photo showing 24 or 14 kinds made the reader worse (F1 -0.010, -0.015), one showing 29 and
three showing 30 or more made it better (``benchmarks/enroll_accuracy.py``)."""


def kinds_shown(counts: dict[str, int]) -> int:
    """How many of the 34 kinds the crops' codes show (red fives as fives).

    >>> kinds_shown({"0p": 3, "5p": 2, "1z": 1, "none": 9, "back": 4})
    2
    """
    return len({code.replace("0", "5") for code in counts if code not in ("none", "back")})


def write_mat(args: argparse.Namespace) -> int:
    from tablekit.vision.enroll_mat import write_mat_files

    for path in write_mat_files(args.mat, args.paper, args.dpi):
        print(f"{path}: print at 100% (no fit to page) on {args.paper}")
    return 0


def from_mat(args: argparse.Namespace) -> int:
    from tablekit.vision.enroll_mat import enroll_from_mat_images

    images = _images(args)
    start = time.perf_counter()
    from tablekit.vision.calibration import Profile

    profile = Profile.load(args.calibration) if args.calibration else None
    source = ", ".join(str(p) for p in args.image) if args.image else args.camera
    progress = Progress("tablekit enroll")  # on a terminal only
    tileset, report = enroll_from_mat_images(images, args.out, source, profile,
                                             on_step=_shown(progress))
    progress.clear()
    for line in report:
        _say(line)
    print(f"{args.out}: {tileset.summary()} in {time.perf_counter() - start:.1f} s")
    return 0


def _shown(progress: Progress) -> Any:
    """An enrollment's ``on_step`` that keeps ``progress``'s line (None: not a terminal)."""
    if not progress.enabled:
        return None
    steps = [""]

    def shown(done: int, total: int, what: str) -> None:
        if what != steps[-1]:  # the faces read, then the fit: each timed on its own
            steps.append(what)
            progress.restart()
        progress.update(done, total, f"{what}: {done}/{total}", now=done == total)

    return shown


def _images(args: argparse.Namespace) -> list:
    import cv2

    from tablekit.vision.tileset import TileSetError

    if args.image:
        images = [cv2.imread(str(path)) for path in args.image]
        missing = [str(p) for p, image in zip(args.image, images, strict=True) if image is None]
        if missing:
            raise TileSetError(f"cannot read {', '.join(missing)}")
        return images
    from tablekit.commands.calibrate import grab

    images = grab(args.camera, 3)
    if not images:
        raise TileSetError(f"no frames from the camera {args.camera}")
    return images
