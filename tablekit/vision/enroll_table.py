"""``tablekit enroll --from-table``: the spread's photos in, a tile set named by nearest faces out.

Each photo of :data:`tablekit.vision.spread.STEPS` is read as a game's frame is read: the
table detector finds the tiles in the calibrated view (:func:`find_in_view`), each is matched
to its slot (:func:`tablekit.vision.spread.match_slots`) and its face cut as the reader cuts
faces (:func:`face_crops`), :data:`COPIES` times with its box jittered and its light varied,
both ways up. Bits of felt and boxes straddling two tiles are cut as no tile, the standing
hand rows as no tile, the face-down ponds as backs; what the detector found at no slot is
counted and left out. The crops' features make the bank of :mod:`tablekit.vision.nearest`.

>>> report = SpreadReport()
>>> report.add("spread A face up", 136, 136, 0)
>>> report.lines()
['spread A face up: 136 of 136 tiles found where they were laid']
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from tablekit.errors import TablekitError
from tablekit.vision.calibration import Profile
from tablekit.vision.classes import CLASSES, NOT_A_TILE, class_index
from tablekit.vision.enroll import (
    FaceSamples,
    FeatureModel,
    OnStep,
    jitter_boxes,
    straddling_boxes,
    vary_look,
)
from tablekit.vision.postprocess import box_iou
from tablekit.vision.rectify import TableView
from tablekit.vision.spread import STEPS, Step, match_slots, spread_slots, step_label

COPIES = 8
"""Cuts of each face: the detector's box and seven jittered, each also upside down (on
kde-jade with four spreads: F1 0.971 with 4 cuts, 0.984 with 8, on 4 rigs)."""
FELT = 60
"""Bits of felt cut from each photo as no tile."""
STRADDLING = 140
"""Boxes straddling two tiles cut from each photo as no tile (one way up: each is another
bit of two tiles, and fewer rows keep the naming fast)."""
MIN_FOUND = 0.5
"""A photo where fewer of the spread's tiles are found than this share is refused: the
tiles are not where the spread puts them (or the photo is of another step)."""


class SpreadError(TablekitError, ValueError):
    """A photo of the spread that cannot be used (one line)."""


@dataclass
class SpreadReport:
    """Per photo: how many of the spread's tiles were found where they were laid."""

    lines_: list[str] = field(default_factory=list)
    found: int = 0
    slots: int = 0

    def add(self, what: str, found: int, slots: int, strays: int) -> None:
        self.found += found
        self.slots += slots
        stray = f"; {strays} other tiles found, left out" if strays else ""
        self.lines_.append(f"{what}: {found} of {slots} tiles found where they were laid{stray}")

    def lines(self) -> list[str]:
        return list(self.lines_)


def step_name(step: Step) -> str:
    """``spread A face up``, ``spread A stood and turned``, ...

    >>> [step_name(step) for step in STEPS]
    ['spread A face up', 'spread A stood and turned', 'spread B face up', 'spread C face up']
    """
    letter = "ABC"[step.layout] if step.layout < 3 else str(step.layout + 1)
    return f"spread {letter} {'face up' if step.faces else 'stood and turned'}"


def _look(crops: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Each crop (NCHW float) with its light, colour, blur and noise varied."""
    out = np.empty_like(crops)
    for i, crop in enumerate(crops):
        image = (crop.transpose(1, 2, 0) * 255).astype(np.uint8)
        out[i] = vary_look(image, rng).transpose(2, 0, 1).astype(np.float32) / 255
    return out


def _no_tile_boxes(boxes: np.ndarray, side: float, rng: np.random.Generator) -> np.ndarray:
    """Face-sized boxes of bare felt and boxes straddling two of ``boxes`` (view px)."""
    out: list[np.ndarray] = []
    size = np.median(boxes[:, 2:] - boxes[:, :2], axis=0)
    for _ in range(FELT * 4):
        if len(out) >= FELT:
            break
        half = size / 2 if rng.random() < 0.5 else size[::-1] / 2
        centre = rng.uniform(0.08 * side, 0.92 * side, 2)
        box = np.concatenate([centre - half, centre + half]).astype(np.float32)
        if box_iou(box[None], boxes).max() < 0.15:
            out.append(box)
    felt = np.array(out, np.float32).reshape(-1, 4)
    return np.concatenate([felt, straddling_boxes(boxes, rng, STRADDLING)])


def spread_samples(images: Sequence[np.ndarray], profile: Profile, models: Any,
                   size: tuple[int, int], rng: np.random.Generator,
                   steps: Sequence[Step] = STEPS, on_step: OnStep | None = None
                   ) -> tuple[FaceSamples, SpreadReport]:
    """The crops of the spread's photos (one per step of ``steps``), labelled by slot, and
    how many tiles each photo showed where they were laid; :class:`SpreadError` for a photo
    showing too few of them."""
    from tablekit.vision.table_reader import face_crops, find_in_view

    if len(images) != len(steps):
        raise SpreadError(f"{len(images)} photos for {len(steps)} steps of the spread: take "
                          "one photo of each step")
    view = TableView(profile.camera, layout=profile.layout)
    side = 2 * view.half_mm * view.scale
    samples, report = FaceSamples(), SpreadReport()
    none = class_index(NOT_A_TILE)
    for number, (image, step) in enumerate(zip(images, steps, strict=True)):
        slots = spread_slots(step.layout, profile.layout)
        found, _, _ = find_in_view(image, view, models)
        centres = view.to_table((found.boxes[:, :2] + found.boxes[:, 2:]) / 2) \
            if len(found) else np.zeros((0, 2))
        matched = match_slots(slots, centres, view.to_view, profile.layout)
        count = int(matched.found.sum())
        report.add(step_name(step), count, len(slots), len(matched.strays))
        if count < MIN_FOUND * len(slots):
            raise SpreadError(f"{step_name(step)}: only {count} of {len(slots)} tiles were "
                              "found where the spread puts them; lay them as "
                              "`tablekit enroll --print-spread` shows and take the photo "
                              "again")
        labels = np.array([class_index(step_label(slot, step)) for slot in slots])
        boxes = np.concatenate([matched.boxes, jitter_boxes(matched.boxes, rng, COPIES - 1)])
        kinds = np.concatenate([labels, np.repeat(labels, COPIES - 1)])
        crops = face_crops(image, view, boxes, size)
        crops[len(slots):] = _look(crops[len(slots):], rng)
        for crop_set in (crops, crops[:, :, ::-1, ::-1]):
            for label in np.unique(kinds):
                samples.add(np.ascontiguousarray(crop_set[kinds == label]), int(label))
        samples.add(face_crops(image, view, _no_tile_boxes(matched.boxes, side, rng), size), none)
        if on_step is not None:
            on_step(number + 1, len(steps), "cutting the faces")
    return samples, report


@dataclass(frozen=True)
class TableEnrollment:
    """What :func:`enroll_from_table` made: the set's folder, the report's lines, seconds."""

    tileset: Any
    report: list[str]
    seconds: float


def enroll_from_table(images: Sequence[np.ndarray], profile: Profile, out: Path,
                      source: str, threads: int = 1, on_step: OnStep | None = None,
                      seed: int = 0) -> TableEnrollment:
    """Enroll the set spread on the calibrated table in ``images`` (one per step of
    :data:`~tablekit.vision.spread.STEPS`) and save it to ``out`` (a tile-set folder named
    by nearest faces)."""
    from tablekit.vision.nearest import embed
    from tablekit.vision.onnx_model import CLASSIFIER_PATH
    from tablekit.vision.table_reader import TableModels
    from tablekit.vision.tileset import save_nearest_tileset

    start = time.perf_counter()
    models = TableModels.load(threads)
    model = FeatureModel(CLASSIFIER_PATH, threads)
    samples, report = spread_samples(images, profile, models, model.size,
                                     np.random.default_rng(seed), on_step=on_step)
    crops, labels = samples.batch()
    features = embed(model.features(crops, on_step=on_step), crops)
    tileset = save_nearest_tileset(out, features, labels, samples.counts(), CLASSIFIER_PATH,
                                   f"the table's spread ({source})",
                                   {"spread": report.lines()})
    return TableEnrollment(tileset, report.lines(), time.perf_counter() - start)


def missing_kinds(counts: dict[str, int]) -> list[str]:
    """The face classes with no crop in ``counts`` (a set without red fives lacks them).

    >>> missing_kinds({code: 1 for code in CLASSES if code != "0p"})
    ['0p']
    """
    return [code for code in CLASSES if code not in counts]
