"""Fine-tune the classifier for the photo path on the CPU (``python -m training
photo-classifier``): ``photo_classifier.onnx``.

Usage: python -m training photo-classifier [--data ../shared/data] [--steps 800] [--seconds 900]
       [--threads 2] [--lr 2e-4] [--out tablekit/models/photo_classifier.onnx]

The shipped classifier (``tile_classifier.onnx``) learnt photo faces cut upright from their
labelled boxes; a photo of a heap shows tiles at every slant, cut by the photo detector's
(refined) boxes. This starts from it (read back from its ONNX export,
:class:`training.from_onnx.FusedClassifier`) and trains every layer further on faces of the
training photos only (:func:`training.photo_sets.training_images`) cut the way the photo
reader and enrollment cut them (:func:`tablekit.vision.enroll.cut_faces`): each labelled
face twice, its box jittered and the photo turned up to :data:`TURN` degrees about it, each
also upside down; the refined box the reader finds on it; boxes the detector finds on no
tile and bare background as not-a-tile. Faces of the permissive tile art (fluffystuff,
fluffystuff-black, lietxia: the only red fives, which the photo labels do not mark) are
mixed in, :data:`ART_SHARE` of each batch. Cross-entropy, AdamW, cosine schedule over
``--steps`` batches of 256 (about two passes over the photo faces: 5,000 steps, about 15,
lost 0.004 of hust-valid's F1 and read the held-out photos no better); the temperature stays
the shipped classifier's. The table path keeps
``tile_classifier.onnx``: this model is read by the photo path alone (``tablekit detect``,
enrollment from labelled photos). Checked on hust-valid and chinese-test (never trained
on), F1 of the photo reader with each classifier, written to ``photo_classifier_log.json``
beside ``--out``. The unseen-table photos are never used here: they are the benchmarks'
never-seen set.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np

from tablekit.vision.classes import CLASSES, NOT_A_TILE, class_index
from tablekit.vision.datasets import LabelledImage
from tablekit.vision.onnx_model import CLASSIFIER_PATH, DETECTOR_PATH, OnnxModel, load_model
from tablekit.vision.postprocess import box_iou
from training.cpu_runs import add_run_arguments, command, write_log

NONE = CLASSES.index(NOT_A_TILE)
SIZE = (48, 36)
TURN = 45.0
ART = ("fluffystuff", "fluffystuff-black", "lietxia")
ART_SHARE = 0.1


def photo_faces(images: list[LabelledImage], detector: OnnxModel, refiner: OnnxModel,
                rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """Crops (N, 3, 48, 36) uint8 and labels of the training photos, cut as the photo
    reader cuts them."""
    import cv2

    from tablekit.vision.enroll import background_boxes, cut_faces
    from tablekit.vision.refine import located

    crops, labels = [], []

    def add(bgr: np.ndarray, boxes: np.ndarray, label: int, copies: int,
            degrees: float) -> None:
        cut = cut_faces(bgr, boxes, SIZE, rng, copies=copies, degrees=degrees)
        crops.append(np.round(cut * 255).astype(np.uint8))
        labels.extend([label] * len(cut))

    for image in images:
        bgr = cv2.imread(str(image.path))
        if bgr is None:
            continue
        boxes = image.pixel_boxes(bgr.shape[1], bgr.shape[0])
        found = located(detector, refiner, bgr).boxes
        iou = box_iou(found, boxes) if len(found) else np.zeros((0, len(boxes)))
        for i, code in enumerate(image.codes):
            label = class_index(code) if code else NONE
            add(bgr, boxes[i:i + 1], label, 2, TURN)
            matched = found[iou[:, i] >= 0.5][:1] if len(found) else found
            if len(matched):
                add(bgr, matched, label, 1, 10.0)
        if len(found):
            stray = found[iou.max(axis=1, initial=0) < 0.2]
            if len(stray):
                add(bgr, stray, NONE, 1, 10.0)
        background = background_boxes(bgr.shape, boxes, rng, max(len(boxes) // 3, 2))
        if len(background):
            add(bgr, background, NONE, 1, 10.0)
    return np.concatenate(crops), np.array(labels, np.int64)


def art_faces(rng: np.random.Generator, copies: int = 12) -> tuple[np.ndarray, np.ndarray]:
    """Crops and labels of every face of the permissive art sets (:data:`ART`)."""
    import cv2

    from tablekit.sim.art import art_dirs
    from tablekit.vision.enroll import cut_faces

    crops, labels = [], []
    for name in ART:
        folder = next((root / name for root in art_dirs() if (root / name).is_dir()), None)
        if folder is None:
            raise SystemExit(f"no art set {name}: python tools/make_art_sets.py makes it")
        for code in CLASSES:
            path = folder / f"{code}.png"
            face = cv2.imread(str(path)) if path.is_file() else None
            if face is None:
                continue
            box = np.array([[0, 0, face.shape[1], face.shape[0]]], np.float32)
            padded = cv2.copyMakeBorder(face, 8, 8, 8, 8, cv2.BORDER_REPLICATE)
            cut = cut_faces(padded, box + 8, SIZE, rng, copies=copies, degrees=TURN)
            crops.append(np.round(cut * 255).astype(np.uint8))
            labels.extend([CLASSES.index(code)] * len(cut))
    return np.concatenate(crops), np.array(labels, np.int64)


def fine_tune(photos: tuple[np.ndarray, np.ndarray], art: tuple[np.ndarray, np.ndarray],
              steps: int, seconds: float, lr: float, seed: int, log: dict) -> object:
    """The shipped classifier trained further on ``photos`` and ``art`` for ``steps``
    batches of 256 (or ``seconds``, whichever ends first)."""
    import torch
    from torch.nn import functional as F

    from training.from_onnx import FusedClassifier

    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    net = FusedClassifier.from_onnx(CLASSIFIER_PATH).train()
    optimiser = torch.optim.AdamW(net.parameters(), lr, weight_decay=1e-4)
    from_art = round(256 * ART_SHARE)
    start, step, losses = time.time(), 0, []
    while (progress := max((time.time() - start) / seconds, step / steps)) < 1:
        pick = rng.integers(0, len(photos[0]), 256 - from_art)
        drawn = rng.integers(0, len(art[0]), from_art)
        crops = np.concatenate([photos[0][pick], art[0][drawn]])
        labels = np.concatenate([photos[1][pick], art[1][drawn]])
        for group in optimiser.param_groups:
            group["lr"] = lr * 0.5 * (1 + np.cos(np.pi * progress))
        loss = F.cross_entropy(net(torch.from_numpy(crops).float() / 255),
                               torch.from_numpy(labels))
        optimiser.zero_grad()
        loss.backward()
        optimiser.step()
        losses.append(loss.item())
        step += 1
        if step % 200 == 0:
            print(f"step {step} ({time.time() - start:.0f} s) loss {np.mean(losses[-200:]):.4f}",
                  flush=True)
    log.update(steps=step, seconds=round(time.time() - start),
               last_loss=round(float(np.mean(losses[-200:])), 4))
    return net.eval()


def photo_f1(classifier: Path, images: list[LabelledImage]) -> float:
    """F1 of the photo reader (refined boxes, unsure faces four ways) with ``classifier``."""
    import cv2

    from tablekit.vision.reader import TileReader
    from training.evaluate import evaluate

    reader = TileReader.load(classifier=classifier)
    result = evaluate(reader.read, [(image, cv2.imread(str(image.path))) for image in images])
    return round(result.count.f1, 4)


def run(args: argparse.Namespace) -> None:
    """Cut the faces, fine-tune, export, check on the held-out photos, write the log."""
    import torch

    from tablekit.vision.refine import REFINER_PATH
    from training.from_onnx import onnx_temperature
    from training.photo import export_classifier
    from training.photo_sets import EVAL_SETS, training_images

    torch.set_num_threads(args.threads)
    photos = args.data / "photos"
    rng = np.random.default_rng(args.seed)
    cut = time.time()
    faces = photo_faces(training_images(photos), load_model(DETECTOR_PATH, args.threads),
                        load_model(REFINER_PATH, args.threads), rng)
    art = art_faces(rng)
    log: dict = {"command": command(), "photo_faces": len(faces[0]), "art_faces": len(art[0]),
                 "cut_s": round(time.time() - cut)}
    print(f"{len(faces[0])} photo faces, {len(art[0])} art faces cut in {log['cut_s']} s",
          flush=True)
    net = fine_tune(faces, art, args.steps, args.seconds, args.lr, args.seed, log)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    export_classifier(net, onnx_temperature(CLASSIFIER_PATH), args.out)
    log["f1_shipped_tuned"] = {
        name: [photo_f1(CLASSIFIER_PATH, EVAL_SETS[name](photos)),
               photo_f1(args.out, EVAL_SETS[name](photos))]
        for name in ("hust-valid", "chinese-test")}
    write_log(args.out, "photo_classifier_log.json", log)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_run_arguments(parser, 900.0, "photo_classifier.onnx")
    parser.add_argument("--steps", type=int, default=800)
    parser.add_argument("--lr", type=float, default=2e-4)
