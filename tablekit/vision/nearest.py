"""Naming faces by the nearest enrolled faces: a club's own set, read as it was shown.

An enrolled set from the table (:mod:`tablekit.vision.spread`) keeps every face it cut (and
the backs, the standing tiles and the bits of felt between them) as the classifier's
penultimate features, 256 numbers a face, scaled to unit length: the *bank*. A face in play
is named by its :data:`K` most similar faces of the bank (cosine similarity), each weighing
``exp((similarity - best) / TAU)``: the probabilities the reader wants, over the same 39
classes as the classifier's. The faces of one printed set differ only by where they lie,
the light and the camera's noise, so faces cut from the same table are the nearest
neighbours a face in play can have; measured against refitting the classifier's head on the
same faces, the nearest faces read the never-trained sets better (the model card).

:class:`NearestFaces` stands where the classifier's :class:`~tablekit.vision.onnx_model.OnnxModel`
stands (``run(batch)`` gives ``{"probs": ...}``), so the reader needs nothing else.

A bank that holds a suit's plain five and not its red five (photos of a set that showed no
red five) would name every red five plain: for those suits (``red_split``) the share between
the five and the red five is the trained classifier's (:func:`keep_red_share`), their sum the
nearest faces'. Kinds the bank holds no face of at all (``lacking``: photos that did not
show every kind) it cannot name: the trained classifier's share of a face on those kinds is
given to them as it says, the rest shared as the nearest faces say (:func:`fill_lacking`).

>>> bank = np.array([[1.0, 0.0], [0.9, 0.1], [0.0, 1.0]], np.float32)
>>> labels = np.array([4, 4, 13])
>>> probs = vote(np.array([[0.95, 0.05], [0.1, 0.9]], np.float32), bank, labels, k=2)
>>> probs.shape, probs.argmax(axis=1).tolist()
((2, 39), [4, 13])
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from tablekit.vision.classes import CLASSES, class_index
from tablekit.vision.face_pixels import (
    FEATURE_WIDTH,
    PIXEL_WEIGHT,
    PIXEL_WIDTH,
    pixel_features,
    unit,
    with_pixels,
)

K = 5
"""Neighbours asked."""
TAU = 0.03
"""How fast a neighbour's weight falls with its similarity below the best one's."""
BANK = "faces.npz"
"""The bank's file in a tile-set folder."""
BANK_BYTES = 64 << 20
"""A bank of a few spreads is a few MB."""


def embed(features: np.ndarray, crops: np.ndarray | None) -> np.ndarray:
    """A bank's rows for faces: their unit features and (``crops`` given) their
    :func:`pixel_features`, weighed by :data:`PIXEL_WEIGHT`, together at unit length;
    ``crops`` None: the features alone (a bank made before pixels were compared).

    >>> crops = np.random.default_rng(0).random((3, 3, 48, 36)).astype(np.float32)
    >>> rows = embed(np.ones((3, FEATURE_WIDTH), np.float32), crops)
    >>> rows.shape, np.round(np.linalg.norm(rows, axis=1), 4).tolist()
    ((3, 556), [1.0, 1.0, 1.0])
    >>> embed(np.ones((3, FEATURE_WIDTH), np.float32), None).shape
    (3, 256)
    """
    if crops is None:
        return unit(features)
    scale = 1.0 / np.sqrt(1.0 + PIXEL_WEIGHT ** 2)
    return np.concatenate([unit(features) * scale,
                           pixel_features(crops) * (PIXEL_WEIGHT * scale)], axis=1)


def vote(queries: np.ndarray, bank: np.ndarray, labels: np.ndarray, k: int = K,
         tau: float = TAU) -> np.ndarray:
    """Probabilities ``(N, classes)`` of unit-length ``queries`` from their ``k`` nearest
    rows of ``bank`` (unit length too) and those rows' class ``labels``."""
    if not len(queries) or not len(bank):
        return np.zeros((len(queries), len(CLASSES)), np.float32)
    similarity = queries @ bank.T
    k = min(k, len(bank))
    nearest = np.argpartition(-similarity, k - 1, axis=1)[:, :k]
    return votes(np.take_along_axis(similarity, nearest, axis=1), labels[nearest], tau)


def votes(similarity: np.ndarray, labels: np.ndarray, tau: float = TAU) -> np.ndarray:
    """Probabilities ``(N, classes)`` from each face's nearest faces: their similarities
    and class labels, both ``(N, k)``.

    >>> votes(np.array([[0.9, 0.9, 0.5]]), np.array([[4, 4, 13]])).argmax(axis=1).tolist()
    [4]
    """
    out = np.zeros((len(similarity), len(CLASSES)), np.float32)
    if not similarity.size:
        return out
    weights = np.exp((similarity - similarity.max(axis=1, keepdims=True)) / tau)
    rows = np.repeat(np.arange(len(similarity)), similarity.shape[1])
    np.add.at(out, (rows, labels.reshape(-1)), weights.reshape(-1).astype(np.float32))
    return out / out.sum(axis=1, keepdims=True)


def keep_red_share(probs: np.ndarray, trained: np.ndarray, suits: tuple[str, ...]
                   ) -> np.ndarray:
    """``probs`` with each of ``suits``' five and red five sharing their sum as ``trained``
    shares it.

    >>> probs = np.zeros((1, len(CLASSES)), np.float32); probs[0, class_index("5p")] = 0.8
    >>> trained = np.zeros_like(probs); trained[0, [class_index("5p"), class_index("0p")]] = 1, 3
    >>> out = keep_red_share(probs, trained, ("p",))
    >>> round(float(out[0, class_index("0p")]), 3), round(float(out[0, class_index("5p")]), 3)
    (0.6, 0.2)
    """
    out = np.array(probs, np.float32, copy=True)
    for suit in suits:
        plain, red = class_index(f"5{suit}"), class_index(f"0{suit}")
        total = out[:, plain] + out[:, red]
        share = trained[:, red] / np.maximum(trained[:, red] + trained[:, plain], 1e-12)
        out[:, red], out[:, plain] = total * share, total * (1 - share)
    return out


def fill_lacking(probs: np.ndarray, trained: np.ndarray, lacking: tuple[int, ...]
                 ) -> np.ndarray:
    """``probs`` (the nearest faces', naming none of the classes ``lacking``) scaled to what
    ``trained`` leaves the other classes, with ``trained``'s own probabilities of ``lacking``.

    >>> probs = np.zeros((2, len(CLASSES)), np.float32); probs[:, class_index("5p")] = 1
    >>> trained = np.zeros_like(probs); trained[:, class_index("3p")] = 0.9, 0.2
    >>> trained[:, class_index("5p")] = 0.1, 0.8
    >>> out = fill_lacking(probs, trained, (class_index("3p"),))
    >>> [CLASSES[i] for i in out.argmax(axis=1)], out.sum(axis=1).round(3).tolist()
    (['3p', '5p'], [1.0, 1.0])
    """
    if not lacking:
        return probs
    index = list(lacking)
    mass = trained[:, index].sum(axis=1, keepdims=True)
    out = np.array(probs, np.float32) * (1 - mass)
    out[:, index] = trained[:, index]
    return out / np.maximum(out.sum(axis=1, keepdims=True), 1e-12)


@dataclass(frozen=True)
class NearestFaces:
    """The classifier with its features exposed (an ONNX session) and the bank: named like
    an :class:`~tablekit.vision.onnx_model.OnnxModel` so the reader takes either."""

    features_model: Any
    bank: np.ndarray
    labels: np.ndarray
    red_split: tuple[str, ...] = ()
    """Suits whose five-or-red-five split is the trained classifier's (:func:`keep_red_share`)."""
    lacking: tuple[int, ...] = ()
    """Classes the bank holds no face of, named as the trained classifier names them
    (:func:`fill_lacking`)."""

    @property
    def red_fives_shown(self) -> tuple[str, ...]:
        """The suits whose red five and plain five the bank both holds faces of (and whose
        split is its own, not the trained classifier's): their fives are told apart by
        those faces alone (:meth:`tablekit.vision.red_fives.RedFiveCheck.without`)."""
        held = set(self.labels.tolist())
        return tuple(suit for suit in "mps" if suit not in self.red_split
                     and {class_index(f"0{suit}"), class_index(f"5{suit}")} <= held)

    @property
    def input_name(self) -> str:
        return str(self.features_model.input_name)

    @property
    def input_shape(self) -> tuple[int | str | None, ...]:
        return tuple(self.features_model.input_shape)

    @property
    def output_names(self) -> tuple[str, ...]:
        return ("probs",)

    def features(self, batch: np.ndarray) -> np.ndarray:
        """A crop batch as the bank holds faces (:func:`embed`)."""
        return embed(self.features_model.run(batch)["features"],
                     batch if with_pixels(self.bank) else None)

    def run(self, batch: np.ndarray) -> dict[str, np.ndarray]:
        """``{"probs": (N, classes)}`` of a crop batch, as the classifier gives them (the
        search for the nearest faces runs inside the model, :func:`with_bank`)."""
        from tablekit.vision.classifier_graph import NEAR_INDEX, NEAR_SIMILARITY

        outputs = self.features_model.run(batch)
        if NEAR_INDEX in outputs:
            probs = votes(outputs[NEAR_SIMILARITY], self.labels[outputs[NEAR_INDEX]])
        else:
            probs = vote(embed(outputs["features"], batch if with_pixels(self.bank) else None),
                         self.bank, self.labels)
        if self.lacking:
            probs = fill_lacking(probs, outputs["probs"], self.lacking)
        if self.red_split:
            probs = keep_red_share(probs, outputs["probs"], self.red_split)
        return {"probs": probs}

    @classmethod
    def load(cls, classifier: Path, bank: Path, threads: int = 1,
             red_split: tuple[str, ...] = (), lacking: tuple[str, ...] = ()) -> NearestFaces:
        """The features classifier at ``classifier`` (its ``features`` output) and the bank
        file ``bank`` (``features``, ``labels``); ``red_split``, ``lacking`` (codes): see
        :attr:`red_split`, :attr:`lacking`."""
        from tablekit.vision.onnx_model import load_model

        if Path(bank).stat().st_size > BANK_BYTES:
            raise ValueError(f"{bank}: larger than a bank of faces can be")
        with np.load(bank, allow_pickle=False) as stored:
            features = unit(stored["features"])
            labels = stored["labels"].astype(np.int64)
        if features.ndim != 2 or features.shape[1] not in (FEATURE_WIDTH,
                                                           FEATURE_WIDTH + PIXEL_WIDTH) or \
                len(features) != len(labels) or not len(labels) or \
                labels.min() < 0 or labels.max() >= len(CLASSES):
            raise ValueError(f"{bank}: not a bank of faces")
        from tablekit.vision.classifier_graph import bank_rows

        rows = bank_rows(classifier)
        if rows is not None and rows != len(labels):
            raise ValueError(f"{bank}: {len(labels)} faces where {Path(classifier).name} "
                             f"searches {rows}")
        shown = set(labels.tolist())
        missing = tuple(class_index(code) for code in lacking if code in CLASSES
                        and class_index(code) not in shown)
        return cls(load_model(classifier, threads), features, labels, tuple(red_split), missing)


def save_bank(path: Path, features: np.ndarray, labels: np.ndarray) -> None:
    """The bank at ``path`` (features kept as float16: half the size, the same names)."""
    np.savez_compressed(path, features=unit(features).astype(np.float16),
                        labels=np.asarray(labels, np.int16))
