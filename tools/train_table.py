"""Train on frames of the simulated table, on a CPU: the rectified-view detector
(``tablekit/models/table_detector.onnx``) from scratch, and the tile classifier
(``tablekit/models/tile_classifier.onnx``, used by both paths) fine-tuned from the
photo-trained one.

Steps::

    python tools/train_table.py pack --data ../shared/data --out .vision_pack/sim_pack.npz
    git show bb68030:models/tile_classifier.onnx > .vision_pack/photo_classifier.onnx
    python tools/train_table.py fit --sim .vision_pack/sim_pack.npz \
        --photos .vision_pack/pack.npz --out models

``pack`` renders seeded rigs through real Tenhou logs (``tools/train_sim_data.py``);
``fit`` trains the detector, fine-tunes the classifier on sim tiles, real photo tiles (the
photo pack of ``tools/train_vision.py pack``) and tile art, fits its temperature on
held-apart rigs and photos, and exports both with ``table_train_log.json``.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

DETECTOR_FILE = "table_detector.onnx"
CLASSIFIER_FILE = "tile_classifier.onnx"


def weighted_focal_loss(logits, target, care):
    """CenterNet's focal loss, each cell's negative term weighted by ``care``."""
    import torch
    from torch.nn import functional as F

    pos = target.eq(1).float()
    p = torch.sigmoid(logits)
    loss_pos = -(F.logsigmoid(logits) * (1 - p) ** 2 * pos).sum()
    loss_neg = -(F.logsigmoid(-logits) * p ** 2 * (1 - target) ** 4 * (1 - pos) * care).sum()
    return (loss_pos + loss_neg) / pos.sum().clamp(min=1)


def _progress(step: int, steps: int, start: float, seconds: float) -> float:
    return max(step / steps, (time.time() - start) / seconds)


def _schedule(optimiser, step: int, progress: float, peak: float, warm_steps: int) -> None:
    warm = min(1.0, (step + 1) / warm_steps)
    for group in optimiser.param_groups:
        group["lr"] = peak * warm * 0.5 * (1 + math.cos(math.pi * min(progress, 1.0)))


def detector_loss(net, batch, gen):
    from torch.nn import functional as F
    from train_batches import photometric

    images, heat_t, care, size_t, off_t, mask = batch
    heat, size, offset = net(photometric(images, gen))
    n = mask.sum().clamp(min=1)
    return weighted_focal_loss(heat, heat_t, care) \
        + (F.l1_loss(size, size_t, reduction="none") * mask).sum() / n \
        + (F.l1_loss(offset.sigmoid(), off_t, reduction="none") * mask).sum() / n


def train_detector(data, args, log: dict):
    import torch
    from train_nets import TableDetector
    from train_sim_batches import detector_batch

    net = TableDetector()
    opt = torch.optim.AdamW(net.parameters(), lr=args.det_lr, weight_decay=1e-4)
    rng, gen = np.random.default_rng(args.seed), torch.Generator().manual_seed(args.seed)
    start, step, loss = time.time(), 0, torch.zeros(())
    for step in range(args.det_steps):
        progress = _progress(step, args.det_steps, start, args.det_seconds)
        if progress >= 1:
            break
        _schedule(opt, step, progress, args.det_lr, 30)
        loss = detector_loss(net, detector_batch(data, rng, args.det_batch), gen)
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()
        if step % 25 == 0:
            print(f"detector step {step} loss {loss.item():.3f} {time.time() - start:.0f}s",
                  flush=True)
    log["detector"] = {"steps": step + 1, "seconds": round(time.time() - start),
                       "batch": args.det_batch, "last_loss": round(loss.item(), 4)}
    return net.eval()


class MixedPatches:
    """Classifier batches: sim patches, photo patches and tile-art renders."""

    def __init__(self, parts, art_sampler=None, art_share: float = 0.0) -> None:
        self.parts = parts
        self.art_sampler, self.art_share = art_sampler, art_share

    def batch(self, gen, size: int, jitter: bool = True):
        import torch
        from train_batches import photometric

        n_art = int(size * self.art_share) if self.art_sampler else 0
        rest = size - n_art
        shares = [int(rest * share) for _, share in self.parts]
        shares[0] += rest - sum(shares)
        pieces = [patches.batch(gen, n, float(jitter)) for (patches, _), n in
                  zip(self.parts, shares, strict=True) if n]
        if n_art:
            pieces.append(self.art_sampler.rendered(gen, n_art))
        crops = torch.cat([p[0] for p in pieces])
        labels = torch.cat([p[1] for p in pieces])
        return (photometric(crops, gen) if jitter else crops), labels


def train_classifier(sampler, args, log: dict):
    import torch
    from torch.nn import functional as F
    from train_onnx import FusedClassifier

    net = FusedClassifier.from_onnx(args.start_classifier).train()
    opt = torch.optim.AdamW(net.parameters(), lr=args.cls_lr, weight_decay=5e-4)
    gen = torch.Generator().manual_seed(args.seed)
    start, step, loss = time.time(), 0, torch.zeros(())
    for step in range(args.cls_steps):
        progress = _progress(step, args.cls_steps, start, args.cls_seconds)
        if progress >= 1:
            break
        _schedule(opt, step, progress, args.cls_lr, 10)
        crops, labels = sampler.batch(gen, args.cls_batch)
        loss = F.cross_entropy(net(crops), labels)
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()
        if step % 20 == 0:
            print(f"classifier step {step} loss {loss.item():.3f} {time.time() - start:.0f}s",
                  flush=True)
    log["classifier"] = {"steps": step + 1, "seconds": round(time.time() - start),
                         "batch": args.cls_batch, "start": str(args.start_classifier),
                         "last_loss": round(loss.item(), 4)}
    return net.eval()


def export_detector(net, path: Path) -> None:
    import torch
    from train_nets import ExportDetector

    torch.onnx.export(ExportDetector(net).eval(), (torch.rand(1, 3, 512, 512),), str(path),
                      input_names=["image"], output_names=["heat", "size", "offset"],
                      dynamic_axes={"image": {2: "height", 3: "width"},
                                    "heat": {2: "rows", 3: "cols"},
                                    "size": {2: "rows", 3: "cols"},
                                    "offset": {2: "rows", 3: "cols"}},
                      opset_version=17, do_constant_folding=True, dynamo=False)


def export_classifier(net, temperature: float, path: Path) -> None:
    import torch
    from train_nets import ExportClassifier

    torch.onnx.export(ExportClassifier(net, temperature).eval(), (torch.rand(4, 3, 48, 36),),
                      str(path), input_names=["crops"], output_names=["probs"],
                      dynamic_axes={"crops": {0: "n"}, "probs": {0: "n"}},
                      opset_version=17, do_constant_folding=True, dynamo=False)


def split_views(tiles: np.ndarray, count: int, share: float, seed: int):
    """View indices for training and for the temperature fit (whole views)."""
    rng = np.random.default_rng(seed)
    apart = set(rng.permutation(count)[: max(1, int(count * share))].tolist())
    train = np.array([i for i in range(count) if i not in apart])
    return train, np.array(sorted(apart))


def _subset(views: np.ndarray, tiles: np.ndarray, index: np.ndarray):
    remap = {int(old): new for new, old in enumerate(index)}
    rows = tiles[np.isin(tiles[:, 0], index)].copy()
    rows[:, 0] = [remap[int(f)] for f in rows[:, 0]]
    return views[index], rows


def photo_and_art(photos: str, rng):
    """Photo patches (train, calibration: split by source photo) and a tile-art sampler
    from the photo pack, shared by the CPU and the GPU trainings."""
    import torch
    from train_batches import CropSampler, Photos
    from train_data import load_pack
    from train_sim_batches import photo_patches
    from train_vision import split_groups

    pack = load_pack(photos)
    photo_train_idx, photo_calib_idx = split_groups(pack["group"], 0.08, 6)
    art = torch.from_numpy(pack["art"]).permute(0, 3, 1, 2).contiguous()
    art_labels = torch.from_numpy(pack["art_labels"].astype(np.int64))
    stub = Photos(torch.zeros(1, 3, 8, 8, dtype=torch.uint8), torch.ones(1, 2),
                  torch.zeros(1, 1, 4), torch.full((1, 1), -1))
    return (photo_patches(pack, photo_train_idx, rng), photo_patches(pack, photo_calib_idx, rng),
            CropSampler(stub, art, art_labels))


def data_log(sim_train, sim_calib, photos_train, photos_calib, art_sampler) -> dict:
    return {"sim_patches": len(sim_train.labels), "photo_patches": len(photos_train.labels),
            "art": len(art_sampler.art_labels), "calib_sim": len(sim_calib.labels),
            "calib_photo": len(photos_calib.labels)}


def classifier_data(views, tiles, args, log: dict):
    from train_sim_batches import Patches, sim_patches

    rng = np.random.default_rng(args.seed)
    train_v, calib_v = split_views(tiles, len(views), 0.08, args.seed)
    sim_train = sim_patches(*_subset(views, tiles, train_v), rng)
    sim_calib = sim_patches(*_subset(views, tiles, calib_v), rng)
    photos_train, photos_calib, art_sampler = photo_and_art(args.photos, rng)
    log["classifier_data"] = data_log(sim_train, sim_calib, photos_train, photos_calib,
                                      art_sampler)
    train = MixedPatches([(sim_train, 0.55), (photos_train, 0.45)], art_sampler, 0.12)
    calib = MixedPatches([(Patches.concat([sim_calib, photos_calib]), 1.0)])
    return train, calib


def fit(args: argparse.Namespace) -> None:
    import torch
    from train_sim_batches import DetectorData
    from train_sim_data import decode_views
    from train_vision import calibrate

    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    pack = dict(np.load(args.sim))
    views, tiles = decode_views(pack), pack["tiles"]
    log: dict = {"seed": args.seed, "torch": torch.__version__, "device": "cpu",
                 "threads": args.threads, "views": len(views), "tiles": len(tiles),
                 "command": " ".join(sys.argv), "date": time.strftime("%Y-%m-%d")}
    args.out.mkdir(parents=True, exist_ok=True)
    if args.det_seconds > 0:
        det = train_detector(DetectorData.from_pack(views, tiles), args, log)
        export_detector(det, args.out / DETECTOR_FILE)
    if args.cls_seconds > 0:
        train, calib = classifier_data(views, tiles, args, log)
        cls = train_classifier(train, args, log)
        temperature = calibrate(cls, calib, torch.Generator().manual_seed(1), log)
        export_classifier(cls, temperature, args.out / CLASSIFIER_FILE)
    (args.out / "table_train_log.json").write_text(json.dumps(log, indent=1) + "\n")
    print(json.dumps(log), flush=True)


def pack(args: argparse.Namespace) -> None:
    from train_sim_data import build_sim_pack

    args.out.parent.mkdir(parents=True, exist_ok=True)
    print(build_sim_pack(args.data, args.out, args.rigs, args.frames, workers=args.workers))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="step", required=True)
    p = sub.add_parser("pack")
    p.add_argument("--data", type=Path, default=Path("../shared/data"))
    p.add_argument("--out", type=Path, default=Path(".vision_pack/sim_pack.npz"))
    p.add_argument("--rigs", type=int, default=220)
    p.add_argument("--frames", type=int, default=4)
    p.add_argument("--workers", type=int, default=2)
    p.set_defaults(func=pack)
    f = sub.add_parser("fit")
    f.add_argument("--sim", type=Path, default=Path(".vision_pack/sim_pack.npz"))
    f.add_argument("--photos", type=Path, default=Path(".vision_pack/pack.npz"))
    f.add_argument("--start-classifier", type=Path,
                   default=Path(".vision_pack/photo_classifier.onnx"),
                   help="the photo-trained classifier to fine-tune")
    f.add_argument("--out", type=Path, default=Path("tablekit/models"))
    f.add_argument("--seed", type=int, default=7)
    f.add_argument("--threads", type=int, default=2)
    f.add_argument("--det-lr", type=float, default=4e-3)
    f.add_argument("--det-steps", type=int, default=100000)
    f.add_argument("--det-batch", type=int, default=32)
    f.add_argument("--det-seconds", type=float, default=480)
    f.add_argument("--cls-lr", type=float, default=1e-3)
    f.add_argument("--cls-steps", type=int, default=100000)
    f.add_argument("--cls-batch", type=int, default=192)
    f.add_argument("--cls-seconds", type=float, default=360)
    f.set_defaults(func=fit)
    args = parser.parse_args(argv)
    args.func(args)


if __name__ == "__main__":
    main()
