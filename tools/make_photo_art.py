"""Art sets of real faces: the printed faces cut from the labelled photos.

Usage: python tools/make_photo_art.py [--photos DIR] [--out DIR] [--sets NAME ...] [--sheet PNG]

For each photo set below, every labelled face of its photos whose labels are plausible
(training.evaluate.plausible) is cut perspective corrected and upright
(training.face_cut), and the best cut of each kind (sharp, seen straight on, large,
covered by no other tile) becomes that kind's face at tablekit's face size; written as an art
set folder (tablekit/sim/art.py's format) under ``--out`` (default the user's folder,
``$XDG_DATA_HOME/tablekit/tile-art``) with the photo set's licence and attribution:

* ``photo-hust``: hust-riichi's training photos (one Japanese riichi set in a tray; CC BY 4.0,
  a training set): ``use = "test"`` until the models are retrained on it (the GPU retrain
  names it with ``--art``, tablekit/models/README.md), so that today's random rigs stay as
  they were;
* ``photo-unseen-table``: chinese-mahjong-nohust's held-out ``IMG_*`` photos (a set, camera and
  table the models never saw): ``use = "test"``, never for training.

Neither set has red fives: each is the five made red as tools/make_art_sets.py makes them. A
set missing any other kind is refused in one line naming the kinds. ``--sheet`` writes every
set's faces side by side (to look at them).
"""

from __future__ import annotations

import argparse
import shutil
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tools"))

import cv2  # noqa: E402
import numpy as np  # noqa: E402
from make_art_sets import red_five  # noqa: E402

from tablekit.sim.art import (  # noqa: E402
    FACE_CODES,
    FACE_SIZE,
    KINDS,
    ArtError,
    load_art,
    user_art_dir,
    write_art_folder,
)
from tablekit.vision.datasets import LabelledImage, load_split  # noqa: E402
from training.evaluate import plausible  # noqa: E402
from training.face_cut import FaceCut, cut_face  # noqa: E402
from training.photo_sets import CHINESE, EVAL_SETS, HUST  # noqa: E402

PHOTOS = ROOT.parent / "shared" / "data" / "photos"
REFERENCE = "fallback"
"""The art that tells which way up a cut face is (always there: committed)."""


@dataclass(frozen=True)
class PhotoSet:
    """Where one art set's faces come from and what it may be used for."""

    folder: str
    images: Callable[[Path], list[LabelledImage]]
    use: str
    what: str


PHOTO_SETS = {
    "photo-hust": PhotoSet(HUST, lambda photos: load_split(photos / HUST, "train"), "test",
                           "hust-riichi training photos (one Japanese riichi set in a tray)"),
    "photo-unseen-table": PhotoSet(CHINESE, EVAL_SETS["unseen-table"], "test",
                                   "chinese-mahjong-nohust valid IMG_* photos (the unseen-table "
                                   "group, held out: never for training)"),
}


def best_cuts(images: list[LabelledImage], reference: dict[str, np.ndarray],
              ) -> dict[str, FaceCut]:
    """The best-scoring cut of each kind over the plausibly labelled ``images``, upright."""
    best: dict[str, FaceCut] = {}
    for image in images:
        if not plausible(image.codes):
            continue
        bgr = cv2.imread(str(image.path))
        if bgr is None:
            continue
        boxes = image.pixel_boxes(bgr.shape[1], bgr.shape[0])
        for i, code in enumerate(image.codes):
            if code not in KINDS:
                continue
            cut = cut_face(bgr, boxes[i], FACE_SIZE, np.delete(boxes, i, axis=0),
                           reference[code])
            if code not in best or cut.score > best[code].score:
                best[code] = cut
    return best


def face_colour(faces: dict[str, np.ndarray]) -> tuple[int, int, int]:
    """The face side's colour: the median of the brighter half of every face's pixels."""
    pixels = np.concatenate([face.reshape(-1, 3) for face in faces.values()])
    bright = pixels[pixels.sum(axis=1) >= np.median(pixels.sum(axis=1))]
    blue, green, red = (int(v) for v in np.median(bright, axis=0))
    return blue, green, red


def make_set(name: str, photos: Path) -> tuple[dict[str, np.ndarray], str, dict[str, object],
                                                dict[str, FaceCut]]:
    """The faces, licence text, set.toml entries and chosen cuts of photo set ``name``."""
    spec = PHOTO_SETS[name]
    folder = photos / spec.folder
    if not folder.is_dir():
        raise ArtError(f"{name}: no photos at {folder}")
    reference = load_art(REFERENCE).faces
    cuts = best_cuts(spec.images(photos), reference)
    missing = [code for code in KINDS if code not in cuts]
    if missing:
        raise ArtError(f"{name}: its photos show no {', '.join(missing)}; refused (an art set "
                       "needs every kind)")
    faces = {code: cut.face for code, cut in cuts.items()}
    ivory = face_colour(faces)
    for suit in "mps":
        faces[f"0{suit}"] = red_five(faces[f"5{suit}"], ivory)
    attribution = (folder / "ATTRIBUTION.txt").read_text(encoding="utf-8").strip()
    licence = (f"Faces cut from {spec.what} by tools/make_photo_art.py: each kind's sharpest, "
               "straightest, least covered labelled face, perspective corrected; red fives "
               "made from the fives.\n\nThe photos: " + attribution + "\n\nLicensed CC BY 4.0 "
               "(https://creativecommons.org/licenses/by/4.0/): share and adapt with "
               "attribution.")
    meta: dict[str, object] = {"face": ivory, "use": spec.use,
                               "source": f"photos: {spec.what}", "licence": "CC BY 4.0"}
    return faces, licence, meta, cuts


def sheet(faces_by_set: dict[str, dict[str, np.ndarray]]) -> np.ndarray:
    """Every set's faces in a row each (FACE_CODES' order), at half size."""
    w, h = FACE_SIZE[0] // 2, FACE_SIZE[1] // 2
    rows = [np.concatenate([cv2.resize(faces[code], (w, h), interpolation=cv2.INTER_AREA)
                            for code in FACE_CODES], axis=1) for faces in faces_by_set.values()]
    return np.concatenate(rows, axis=0)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--photos", type=Path, default=PHOTOS)
    parser.add_argument("--out", type=Path, default=user_art_dir())
    parser.add_argument("--sets", nargs="*", default=list(PHOTO_SETS), metavar="NAME")
    parser.add_argument("--sheet", type=Path, default=None, help="write the faces side by side")
    args = parser.parse_args()
    unknown = sorted(set(args.sets) - set(PHOTO_SETS))
    if unknown:
        print(f"make_photo_art: no such set: {', '.join(unknown)} (have: "
              f"{', '.join(PHOTO_SETS)})", file=sys.stderr)
        return 2
    made: dict[str, dict[str, np.ndarray]] = {}
    for name in args.sets:
        try:
            faces, licence, meta, cuts = make_set(name, args.photos)
        except (OSError, ArtError) as error:
            print(f"make_photo_art: {str(error).splitlines()[0]}", file=sys.stderr)
            continue
        target = args.out / name
        if target.exists():
            shutil.rmtree(target)
        write_art_folder(target, faces, licence, meta)
        scores = [cut.score for cut in cuts.values()]
        print(f"{target} ({meta['use']}): 34 kinds cut, score median {np.median(scores):.2f}, "
              f"worst {min(cuts, key=lambda c: cuts[c].score)} {min(scores):.2f}; red fives made",
              flush=True)
        made[name] = faces
    if args.sheet and made:
        cv2.imwrite(str(args.sheet), sheet(made))
        print(args.sheet)
    return 0 if len(made) == len(args.sets) else 1


if __name__ == "__main__":
    raise SystemExit(main())
