"""Train the box refiner (:mod:`tablekit.vision.refine`) on the CPU
(``python -m training refiner``).

Usage: python -m training refiner [--data ../shared/data] [--seconds 600] [--threads 2]
       [--widths 16 32 48 64] [--hidden 64] [--out tablekit/models/box_refiner.onnx]

Samples come from the training photos only (:func:`training.photo_sets.training_images`):
each box the shipped photo detector finds that meets a labelled tile (IoU at least 0.3),
and each labelled tile :data:`JITTERS` times more with its box moved as a detector's box
goes wrong (:func:`jittered`: a third of them a box on part of the tile, one side cut off;
the others shifted and resized). Each sample is the window the refiner sees at run time
(:func:`tablekit.vision.refine.cut_window`, the very cut), its target the labelled box as
seen from the sample's box (:func:`target`). Training flips windows both ways and across
the diagonal (the targets with them) and varies their light; smooth L1 loss, AdamW, cosine
schedule for ``--seconds`` (:data:`PEAK`, :data:`BETA`). Checked on chinese-test and
hust-valid (never trained on): the detector's boxes' mean IoU with the labels, as found
and refined, is written with the model's log (``box_refiner_log.json`` beside ``--out``).
The unseen-table photos are never used here: they are the benchmarks' never-seen set.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from tablekit.vision.datasets import LabelledImage
from tablekit.vision.onnx_model import DETECTOR_PATH, OnnxModel, load_model
from tablekit.vision.postprocess import box_iou
from tablekit.vision.refine import ROUNDS, cut_window, refine_boxes
from training.cpu_runs import add_run_arguments, command, write_log

WINDOW = 64
JITTERS = 4
PARTIAL = 0.35
"""The share of jittered boxes that cover only part of their tile."""
MATCH = 0.3
PEAK = 1e-3
BETA = 0.1
"""The learning rate's peak and the smooth L1 loss's beta: at 2e-3 and 0.05 one of the two
shifts stayed where it started in two runs of two."""


def target(box: np.ndarray, tile: np.ndarray) -> np.ndarray:
    """Where ``tile`` is, seen from ``box``: centre shift in box sizes, log size ratios.

    >>> [round(float(v), 3) for v in target(np.array([0, 0, 10, 20]), np.array([5, 0, 15, 40]))]
    [0.5, 0.5, 0.0, 0.693]
    """
    width, height = box[2] - box[0], box[3] - box[1]
    return np.array([(tile[0] + tile[2] - box[0] - box[2]) / 2 / width,
                     (tile[1] + tile[3] - box[1] - box[3]) / 2 / height,
                     np.log((tile[2] - tile[0]) / width),
                     np.log((tile[3] - tile[1]) / height)], np.float32)


def jittered(tile: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A box gone wrong the ways the detector's go on a set it never saw: on part of the
    tile (one side cut to 45-85%), or shifted (sd 8% of the size) and resized (sd 18%).

    >>> box = jittered(np.array([0.0, 0.0, 10.0, 20.0]), np.random.default_rng(0))
    >>> box.shape, bool((box[2:] > box[:2]).all())
    ((4,), True)
    """
    x1, y1, x2, y2 = (float(v) for v in tile)
    width, height = x2 - x1, y2 - y1
    if rng.random() < PARTIAL:
        share = rng.uniform(0.45, 0.85)
        side = int(rng.integers(4))
        if side == 0:
            x1 = x2 - share * width
        elif side == 1:
            x2 = x1 + share * width
        elif side == 2:
            y1 = y2 - share * height
        else:
            y2 = y1 + share * height
        return np.array([x1, y1, x2, y2], np.float32)
    centre_x = (x1 + x2) / 2 + rng.normal(0, 0.08) * width
    centre_y = (y1 + y2) / 2 + rng.normal(0, 0.08) * height
    width, height = width * np.exp(rng.normal(0, 0.18)), height * np.exp(rng.normal(0, 0.18))
    return np.array([centre_x - width / 2, centre_y - height / 2,
                     centre_x + width / 2, centre_y + height / 2], np.float32)


def labelled_tiles(image: LabelledImage, bgr: np.ndarray) -> np.ndarray:
    """The labelled tiles' boxes in pixels (labels that are no riichi tile left out)."""
    boxes = image.pixel_boxes(bgr.shape[1], bgr.shape[0])
    return boxes[[i for i, code in enumerate(image.codes) if code]].reshape(-1, 4)


def samples(images: list[LabelledImage], detector: OnnxModel, jitters: int,
            rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """Windows (N, 64, 64, 3) BGR uint8 and their targets (N, 4) from labelled photos."""
    import cv2

    from tablekit.vision.detect import find_tiles

    windows, targets = [], []
    for image in images:
        bgr = cv2.imread(str(image.path))
        if bgr is None:
            continue
        tiles = labelled_tiles(image, bgr)
        if len(tiles) == 0:
            continue
        found = find_tiles(detector, bgr).boxes
        if len(found):
            iou = box_iou(found, tiles)
            for box, row in zip(found, iou, strict=True):
                if row.max() >= MATCH:
                    windows.append(cut_window(bgr, box, WINDOW))
                    targets.append(target(box, tiles[int(row.argmax())]))
        for tile in tiles:
            for _ in range(jitters):
                box = jittered(tile, rng)
                windows.append(cut_window(bgr, box, WINDOW))
                targets.append(target(box, tile))
    return (np.array(windows, np.uint8).reshape(-1, WINDOW, WINDOW, 3),
            np.clip(np.array(targets, np.float32).reshape(-1, 4), -1, 1))


def mean_iou(detector: OnnxModel, refiner: OnnxModel | None,
             images: list[LabelledImage]) -> float:
    """The detector's boxes' mean IoU with the tile each meets best (at least 0.3), as found
    (``refiner`` None) or refined."""
    import cv2

    from tablekit.vision.detect import find_tiles

    ious = []
    for image in images:
        bgr = cv2.imread(str(image.path))
        tiles = labelled_tiles(image, bgr)
        found = find_tiles(detector, bgr).boxes
        if len(found) == 0 or len(tiles) == 0:
            continue
        boxes = found if refiner is None else refine_boxes(refiner, bgr, found, ROUNDS)
        met = box_iou(found, tiles)
        best, meets = met.argmax(axis=1), met.max(axis=1) >= MATCH
        ious += [float(box_iou(box[None], tiles[t][None])[0, 0])
                 for box, t, ok in zip(boxes, best, meets, strict=True) if ok]
    return round(float(np.mean(ious)), 4)


def train(windows: np.ndarray, targets: np.ndarray, seconds: float, seed: int,
          log: dict, widths: tuple[int, ...] = (16, 32, 48, 64), hidden: int = 64,
          device: str = "cpu") -> object:
    """The refiner trained on ``windows`` for ``seconds`` (flips, transposes, light)."""
    import torch
    from torch import nn

    from training.nets import BoxRefiner

    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    net = BoxRefiner(widths, hidden).to(device)
    optimiser = torch.optim.AdamW(net.parameters(), PEAK, weight_decay=1e-4)
    start, step, losses = time.time(), 0, []
    while (progress := (time.time() - start) / seconds) < 1:
        pick = rng.integers(0, len(windows), 128)
        x, y = windows[pick].copy(), targets[pick].copy()
        flip = rng.random(len(x)) < 0.5
        x[flip], y[flip, 0] = x[flip, :, ::-1], -y[flip, 0]
        flip = rng.random(len(x)) < 0.5
        x[flip], y[flip, 1] = x[flip, ::-1], -y[flip, 1]
        flip = rng.random(len(x)) < 0.5
        x[flip], y[flip] = x[flip].transpose(0, 2, 1, 3), y[flip][:, [1, 0, 3, 2]]
        batch = torch.from_numpy(np.ascontiguousarray(x[..., ::-1])).permute(0, 3, 1, 2)
        batch = batch.float() / 255
        batch = batch * torch.empty(len(x), 1, 1, 1).uniform_(0.7, 1.3) \
            + torch.empty(len(x), 1, 1, 1).uniform_(-0.15, 0.15)
        batch = (batch * torch.empty(len(x), 3, 1, 1).uniform_(0.9, 1.1)).clamp(0, 1)
        batch, goal = batch.to(device), torch.from_numpy(y).to(device)
        for group in optimiser.param_groups:
            group["lr"] = PEAK * 0.5 * (1 + np.cos(np.pi * progress))
        loss = nn.functional.smooth_l1_loss(net(batch), goal, beta=BETA)
        optimiser.zero_grad()
        loss.backward()
        optimiser.step()
        losses.append(loss.item())
        step += 1
        if step % 500 == 0:
            print(f"step {step} ({time.time() - start:.0f} s) loss {np.mean(losses[-500:]):.4f}",
                  flush=True)
    log.update(steps=step, seconds=round(time.time() - start), last_loss=round(
        float(np.mean(losses[-500:])), 4))
    return net.cpu().eval()


def run(args: argparse.Namespace) -> None:
    """Cut the samples, train, export, check on the held-out photos, write the log."""
    import torch

    from training.photo_sets import EVAL_SETS, training_images

    torch.set_num_threads(args.threads)
    photos = args.data / "photos"
    detector = load_model(DETECTOR_PATH, args.threads)
    cut = time.time()
    windows, targets = samples(training_images(photos), detector, JITTERS,
                               np.random.default_rng(args.seed))
    log: dict = {"command": command(), "samples": len(windows), "cut_s": round(time.time() - cut)}
    print(f"{len(windows)} windows cut in {log['cut_s']} s", flush=True)
    net = train(windows, targets, args.seconds, args.seed, log, tuple(args.widths),
                args.hidden, args.device)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    torch.onnx.export(net, (torch.rand(2, 3, WINDOW, WINDOW),), str(args.out),
                      input_names=["window"], output_names=["delta"],
                      dynamic_axes={"window": {0: "n"}, "delta": {0: "n"}}, dynamo=False)
    refiner = load_model(args.out, args.threads)
    log["mean_iou_found_refined"] = {
        name: [mean_iou(detector, None, EVAL_SETS[name](photos)),
               mean_iou(detector, refiner, EVAL_SETS[name](photos))]
        for name in ("chinese-test", "hust-valid")}
    write_log(args.out, "box_refiner_log.json", log)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_run_arguments(parser, 600.0, "box_refiner.onnx", ("cpu", "cuda"))
    parser.add_argument("--widths", type=int, nargs=4, default=[16, 32, 48, 64],
                        help="channels of the four stride-2 stages")
    parser.add_argument("--hidden", type=int, default=64)
