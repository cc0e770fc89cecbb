"""Training data for the vision models, packed into one portable ``.npz`` (no torch here).

A pack holds every training photo (JPEG bytes, longer side at most ``PACK_SIDE``), its boxes
and class indices, each photo's source-photo group, and a bank of tile-art renders (red fives,
backs and extra designs the photos lack). One loader per source feeds it: the photo sets, and
with ``sim_rigs`` frames of the simulated table (``training/sim_data.py``: seeded rigs playing
real Tenhou logs, every art set, light, blur and arms; written as JPEGs beside the pack).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np

from tablekit.vision.classes import BACK, NOT_A_TILE, class_index
from tablekit.vision.datasets import LabelledImage
from training.photo_sets import training_images

PACK_SIDE = 512
ART_SIZE = (96, 72)  # height, width
MAX_BOXES = 96


def photo_sources(data: Path, sim_rigs: int = 0, sim_folder: Path = Path(".vision_pack/sim"),
                  ) -> dict[str, Callable[[], list[LabelledImage]]]:
    """Loaders of labelled frames by source name (sim frames: ``sim_rigs`` rigs of 4)."""
    sources = {"photos": lambda: training_images(data / "photos")}
    if sim_rigs:
        from training.sim_data import sim_photos

        sources["sim"] = lambda: sim_photos(data, sim_folder, sim_rigs, 4)
    return sources


def encode_photo(image: LabelledImage) -> tuple[bytes, np.ndarray, np.ndarray]:
    """JPEG bytes (scaled down to PACK_SIDE), normalised boxes and class indices of one photo."""
    bgr = cv2.imread(str(image.path))
    scale = min(1.0, PACK_SIDE / max(bgr.shape[:2]))
    if scale < 1:
        bgr = cv2.resize(bgr, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    _, jpeg = cv2.imencode(".jpg", bgr, [cv2.IMWRITE_JPEG_QUALITY, 88])
    labels = np.array([class_index(c if c else NOT_A_TILE) for c in image.codes], np.int16)
    return jpeg.tobytes(), image.boxes.astype(np.float32), labels


def _fluffy(art: Path) -> list[tuple[np.ndarray, str]]:
    folder = art / "fluffystuff-riichi" / "Export" / "Regular"
    names = {"Man": "m", "Pin": "p", "Sou": "s"}
    honours = {"Ton": "1z", "Nan": "2z", "Shaa": "3z", "Pei": "4z", "Haku": "5z",
               "Hatsu": "6z", "Chun": "7z"}
    front = cv2.imread(str(folder / "Front.png"), cv2.IMREAD_UNCHANGED).astype(np.float32)
    out = []
    for path in sorted(folder.glob("*.png")):
        stem = path.stem
        if stem[:3] in names and stem[3:4].isdigit():
            code = ("0" if stem.endswith("-Dora") else stem[3]) + names[stem[:3]]
        elif stem in honours:
            code = honours[stem]
        elif stem == "Back":
            out.append((cv2.imread(str(path), cv2.IMREAD_UNCHANGED), BACK))
            continue
        else:
            continue
        face = cv2.imread(str(path), cv2.IMREAD_UNCHANGED).astype(np.float32)
        alpha = face[:, :, 3:] / 255
        tile = front.copy()
        tile[:, :, :3] = front[:, :, :3] * (1 - alpha) + face[:, :, :3] * alpha
        out.append((tile.astype(np.uint8), code))
    return out


def _lietxia(art: Path) -> list[tuple[np.ndarray, str]]:
    folder = art / "lietxia-mahjong-graphic" / "PNG 位图" / "扁平风格 flat style"
    out = []
    for path in sorted(folder.glob("f*.png")):
        code = path.stem[1:]
        if len(code) == 2 and code[0].isdigit() and code[1] in "mpsz":
            out.append((cv2.imread(str(path), cv2.IMREAD_UNCHANGED), code))
    back = folder / "flat_back.png"
    if back.is_file():
        out.append((cv2.imread(str(back), cv2.IMREAD_UNCHANGED), BACK))
    return out


def _hongkong(art: Path) -> list[tuple[np.ndarray, str]]:
    folder = art / "samoheen-hongkong" / "hongkong" / "png"
    order = ["5z", "6z", "7z", "1z", "2z", "3z", "4z"] + [f"{r}{s}" for s in "mps"
                                                        for r in range(1, 10)]
    out = []
    for path in sorted(folder.glob("*.png")):
        number = int(path.stem.split("-")[0])
        code = order[number - 1] if number <= len(order) else NOT_A_TILE
        out.append((cv2.imread(str(path), cv2.IMREAD_UNCHANGED), code))
    return out


def _as_rgba(image: np.ndarray) -> np.ndarray:
    if image.ndim == 2:
        image = cv2.cvtColor(image, cv2.COLOR_GRAY2BGRA)
    elif image.shape[2] == 3:
        image = cv2.cvtColor(image, cv2.COLOR_BGR2BGRA)
    if image.shape[1] > image.shape[0]:
        image = cv2.rotate(image, cv2.ROTATE_90_CLOCKWISE)
    rgba = cv2.resize(image, ART_SIZE[::-1], interpolation=cv2.INTER_AREA)
    return rgba[:, :, [2, 1, 0, 3]]


def art_bank(art: Path) -> tuple[np.ndarray, np.ndarray]:
    """RGBA renders (K, 96, 72, 4) of every tile-art face found, and their class indices."""
    found = []
    for reader in (_fluffy, _lietxia, _hongkong):
        try:
            found += reader(art)
        except (OSError, AttributeError, cv2.error) as error:
            print(f"tile art skipped ({reader.__name__}): {error}", file=sys.stderr)
    images = np.stack([_as_rgba(image) for image, _ in found]) if found else \
        np.zeros((0, *ART_SIZE, 4), np.uint8)
    return images, np.array([class_index(code) for _, code in found], np.int16)


def build_pack(data: Path, out: Path, limit: int | None = None, sim_rigs: int = 0
               ) -> dict[str, int]:
    """Write the pack for ``data`` (``../shared/data``) to ``out``; counts of what went in."""
    sources = photo_sources(data, sim_rigs, out.parent / "sim_frames")
    images = [image for load in sources.values() for image in load()]
    if limit:
        images = images[:: max(1, len(images) // limit)][:limit]
    encoded = [encode_photo(image) for image in images]
    jpegs = [np.frombuffer(jpeg, np.uint8) for jpeg, _, _ in encoded]
    boxes = np.zeros((len(encoded), MAX_BOXES, 4), np.float32)
    labels = np.full((len(encoded), MAX_BOXES), -1, np.int16)
    for i, (_, box, label) in enumerate(encoded):
        boxes[i, : len(label)] = box[:MAX_BOXES]
        labels[i, : len(label)] = label[:MAX_BOXES]
    groups = sorted({f"{im.source}:{im.group}" for im in images})
    art, art_labels = art_bank(data / "tile-art")
    np.savez(out, jpeg=np.concatenate(jpegs), jpeg_ends=np.cumsum([len(j) for j in jpegs]),
             boxes=boxes, labels=labels, art=art, art_labels=art_labels,
             group=np.array([groups.index(f"{im.source}:{im.group}") for im in images]),
             names=np.array(json.dumps([str(im.path.name) for im in images])))
    return {"photos": len(images), "groups": len(groups), "tiles": int((labels >= 0).sum()),
            "art": len(art)}


def load_pack(path: Path) -> dict[str, np.ndarray]:
    """The pack's arrays, photos decoded to RGB uint8 (each padded to PACK_SIDE square)."""
    pack = dict(np.load(path))
    starts = np.concatenate([[0], pack["jpeg_ends"][:-1]])
    photos = np.zeros((len(starts), PACK_SIDE, PACK_SIDE, 3), np.uint8)
    sizes = np.zeros((len(starts), 2), np.float32)
    for i, (a, b) in enumerate(zip(starts, pack["jpeg_ends"], strict=True)):
        bgr = cv2.imdecode(pack["jpeg"][a:b], cv2.IMREAD_COLOR)
        photos[i, : bgr.shape[0], : bgr.shape[1]] = bgr[:, :, ::-1]
        sizes[i] = bgr.shape[1], bgr.shape[0]
    pack["photos"], pack["sizes"] = photos, sizes
    return pack
