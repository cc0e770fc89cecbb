"""A tile-set profile: what ``tablekit enroll`` saves and ``--tileset SET`` loads.

A profile is a folder::

    SET/tileset.json         what it is: classes, faces per class, source, base classifier
    SET/head.npz             the fitted head (weight, bias, temperature) and feature stats
    SET/tile_classifier.onnx the classifier with that head: the reader runs this one

The reader needs onnxruntime alone: the head is baked into ``tile_classifier.onnx``.

>>> import tempfile
>>> folder = Path(tempfile.mkdtemp()) / "club"
>>> TileSet.load(folder)
Traceback (most recent call last):
...
tablekit.vision.tileset.TileSetError: no tile set at ... (make one with `tablekit enroll`)
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from tablekit.errors import TablekitError
from tablekit.files.atomic import recover_folder
from tablekit.untrusted.files import read_bytes
from tablekit.untrusted.json_text import parse_json
from tablekit.vision.classes import CLASSES
from tablekit.vision.detect import OVERLAP

INFO = "tileset.json"
HEAD = "head.npz"
CLASSIFIER = "tile_classifier.onnx"
VERSION = 1
NEAREST = "nearest enrolled faces"
INFO_BYTES = 4 << 20  # a tile set's description is a few KB


class TileSetError(TablekitError, ValueError):
    """A tile-set folder that is missing, broken or made for other classes."""


def file_digest(path: Path) -> str:
    """The first 16 hex digits of the file's SHA-256."""
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()[:16]


@dataclass(frozen=True)
class TileSet:
    """A loaded profile: its folder and its description."""

    folder: Path
    info: dict[str, Any]

    @property
    def classifier(self) -> Path:
        """The adapted classifier ONNX the reader loads in place of the trained one."""
        return self.folder / CLASSIFIER

    @property
    def overlap(self) -> float:
        """The photo detector's overlap for this set (chosen from its labelled photos, else
        the trained one: a mat's slots hold one tile each and say nothing of crowded tiles)."""
        return float(self.info.get("detector", {}).get("overlap", OVERLAP))

    @property
    def nearest(self) -> bool:
        """Named by its nearest enrolled faces (:mod:`tablekit.vision.nearest`), not a head."""
        return self.info.get("method") == NEAREST

    def load_classifier(self, threads: int = 1) -> Any:
        """What the reader names faces with: the adapted classifier, or the nearest faces."""
        from tablekit.vision.onnx_model import load_model

        if not self.nearest:
            return load_model(self.classifier, threads)
        from tablekit.vision.nearest import BANK, NearestFaces

        try:
            return NearestFaces.load(self.classifier, self.folder / BANK, threads,
                                     self.red_split, self.lacking)
        except (OSError, ValueError, KeyError) as error:
            raise TileSetError(f"{self.folder}: its faces cannot be read ({error}); enroll "
                               "the set again") from None

    @property
    def red_split(self) -> tuple[str, ...]:
        """A nearest set's suits whose red-or-plain five is the trained classifier's call
        (its photos showed that suit's five and no red five)."""
        suits = self.info.get("red_split", [])
        return tuple(suit for suit in "mps" if isinstance(suits, list) and suit in suits)

    @property
    def lacking(self) -> tuple[str, ...]:
        """A nearest set's classes its photos showed no face of, named as trained."""
        codes = self.info.get("lacking", [])
        return tuple(code for code in CLASSES if isinstance(codes, list) and code in codes)

    @property
    def name(self) -> str:
        return str(self.info.get("name", self.folder.name))

    @classmethod
    def load(cls, folder: Path | str) -> TileSet:
        """Read ``folder``; a one-line :class:`TileSetError` when it is not a tile set."""
        folder = Path(folder)
        info_path = folder / INFO
        recover_folder(folder)  # a power cut while the set learned: the set as it was
        if not info_path.is_file():
            raise TileSetError(f"no tile set at {folder} (make one with `tablekit enroll`)")
        try:
            info = parse_json(read_bytes(info_path, limit=INFO_BYTES), max_bytes=INFO_BYTES)
        except (OSError, ValueError) as error:
            raise TileSetError(f"{info_path}: not a tile-set description ({error})") from None
        if not isinstance(info, dict):
            raise TileSetError(f"{info_path}: not a tile-set description (not an object)")
        if info.get("version") != VERSION or tuple(info.get("classes", ())) != CLASSES:
            raise TileSetError(f"{folder}: made for another classifier; enroll the set again")
        if not (folder / CLASSIFIER).is_file():
            raise TileSetError(f"{folder}: {CLASSIFIER} is missing; enroll the set again")
        return cls(folder, info)

    def summary(self) -> str:
        """One line for the terminal."""
        faces = self.info.get("faces", {})
        kinds = sum(1 for code in faces if code not in ("none",))
        before, after = self.info.get("trained_accuracy"), self.info.get("train_accuracy")
        read = (f"; the trained reader named {before:.0%} of these faces, the enrolled one "
                f"{after:.0%}" if before is not None and after is not None else "")
        boxes = (f"; boxes overlapping by more than {self.overlap:g} taken as one tile"
                 if self.overlap != OVERLAP else "")
        return (f"tile set {self.name!r}: {kinds} classes enrolled from "
                f"{self.info.get('source', '?')}{read}{boxes}")


def load_classifier(tileset: str | Path | None, threads: int = 1) -> Any:
    """The classifier the reader loads: the tile set's (checked) or the trained one."""
    from tablekit.vision.onnx_model import CLASSIFIER_PATH, load_model

    if tileset:
        return TileSet.load(tileset).load_classifier(threads)
    return load_model(CLASSIFIER_PATH, threads)


def classifier_for(tileset: str | Path | None) -> Path:
    """The classifier to load: the tile set's (checked) or the trained one.

    >>> classifier_for(None).name
    'tile_classifier.onnx'
    """
    from tablekit.vision.onnx_model import CLASSIFIER_PATH

    return TileSet.load(tileset).classifier if tileset else CLASSIFIER_PATH


def save_tileset(folder: Path, enrollment: Any, base_classifier: Path, source: str,
                 extra: dict[str, Any] | None = None) -> TileSet:
    """Write an :class:`~tablekit.vision.enroll.Enrollment` as a profile in ``folder``."""
    from tablekit.vision.classifier_graph import with_head

    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    head = enrollment.head
    (folder / CLASSIFIER).write_bytes(with_head(base_classifier, head))
    np.savez(folder / HEAD, weight=head.weight, bias=head.bias,
             temperature=np.float32(head.temperature), feature_mean=enrollment.feature_mean,
             feature_std=enrollment.feature_std)
    info = {
        "version": VERSION,
        "name": folder.name,
        "source": source,
        "created": dt.datetime.now(dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "method": "softmax head refitted on the classifier's pooled features",
        "base_classifier": {"file": Path(base_classifier).name,
                            "sha256": file_digest(base_classifier)},
        "classes": list(CLASSES),
        "faces": enrollment.counts,
        "train_accuracy": round(enrollment.train_accuracy, 4),
        "trained_accuracy": round(enrollment.trained_accuracy, 4),
        "fit_seconds": round(enrollment.seconds, 2),
        **(extra or {}),
    }
    (folder / INFO).write_text(json.dumps(info, indent=1) + "\n")
    return TileSet(folder, info)


def save_nearest_tileset(folder: Path, features: np.ndarray, labels: np.ndarray,
                         counts: dict[str, int], base_classifier: Path, source: str,
                         extra: dict[str, Any] | None = None, name: str | None = None
                         ) -> TileSet:
    """A profile in ``folder`` named by its nearest faces: the base classifier with its
    features exposed, and the bank (:mod:`tablekit.vision.nearest`); ``name``: the set's
    (default: the folder's)."""
    from tablekit.vision.classifier_graph import with_bank
    from tablekit.vision.nearest import BANK, K, save_bank, unit

    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    save_bank(folder / BANK, features, labels)
    bank = unit(unit(features).astype(np.float16).astype(np.float32))  # as the file keeps it
    (folder / CLASSIFIER).write_bytes(with_bank(base_classifier, bank, K))
    info = {
        "version": VERSION,
        "name": name or folder.name,
        "source": source,
        "created": dt.datetime.now(dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "method": NEAREST,
        "base_classifier": {"file": Path(base_classifier).name,
                            "sha256": file_digest(base_classifier)},
        "classes": list(CLASSES),
        "faces": counts,
        **(extra or {}),
    }
    (folder / INFO).write_text(json.dumps(info, indent=1) + "\n")
    return TileSet(folder, info)
