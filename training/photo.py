"""The photo models: the photo pack, the photo detector and first classifier, the detector's
tuning (``python -m training pack``, ``photo``, ``tune-detector``).

``pack`` reads the photo sets and tile art into one portable file (so a GPU machine without
``../shared`` can train); ``photo`` trains the photo detector from scratch and the photo-only
classifier (the starting point of ``table``'s fine-tuning) with a fixed seed and exports both;
``tune-detector`` trains an exported photo detector further (batch norms folded) and exports it
alone. The commands that made the shipped models are in ``tablekit/models/README.md``.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path

import numpy as np


def split_groups(groups: np.ndarray, calib_share: float, seed: int) -> tuple[np.ndarray, ...]:
    """Photo indices for training and for calibration, split by source photo."""
    unique = np.unique(groups)
    rng = np.random.default_rng(seed)
    calib = set(rng.permutation(unique)[: max(1, int(len(unique) * calib_share))].tolist())
    is_calib = np.array([g in calib for g in groups])
    return np.nonzero(~is_calib)[0], np.nonzero(is_calib)[0]


def focal_loss(logits, target):
    """CenterNet's penalty-reduced focal loss on heat-map logits."""
    import torch
    from torch.nn import functional as F

    pos = target.eq(1).float()
    log_p, log_not_p = F.logsigmoid(logits), F.logsigmoid(-logits)
    p = torch.sigmoid(logits)
    loss_pos = -(log_p * (1 - p) ** 2 * pos).sum()
    loss_neg = -(log_not_p * p ** 2 * (1 - target) ** 4 * (1 - pos)).sum()
    return (loss_pos + loss_neg) / pos.sum().clamp(min=1)


def schedule(optimiser, step: int, progress: float, peak: float, warm_steps: int = 200
             ) -> None:
    """Every run's learning rate: a warm-up over ``warm_steps`` steps, then a cosine to zero at
    ``progress`` 1."""
    warm = min(1.0, (step + 1) / warm_steps)
    for group in optimiser.param_groups:
        group["lr"] = peak * warm * 0.5 * (1 + math.cos(math.pi * min(progress, 1.0)))


def _progress(step: int, steps: int, start: float, seconds: float) -> float:
    """How far training is: by steps, or by wall time when a time budget is given."""
    return max(step / steps, (time.time() - start) / seconds)


def train_detector(photos, args, gen, log: dict, net=None):
    """Train the photo detector (from scratch, or on from ``net``)."""
    import torch
    from torch.nn import functional as F

    from training.nets import TileDetector
    from training.photo_batches import detector_batch

    net = (net or TileDetector()).to(args.device).train()
    opt = torch.optim.AdamW(net.parameters(), lr=args.lr, weight_decay=1e-4)
    start, step = time.time(), 0
    for step in range(args.det_steps):
        progress = _progress(step, args.det_steps, start, args.det_seconds)
        if progress >= 1:
            break
        schedule(opt, step, progress, args.lr)
        images, heat_t, size_t, off_t, mask = detector_batch(photos, gen, args.det_batch,
                                                             tilt=args.tilt)
        heat, size, offset = net(images)
        n = mask.sum().clamp(min=1)
        loss = focal_loss(heat, heat_t) + (F.l1_loss(size, size_t, reduction="none")
                                          * mask).sum() / n \
            + (F.l1_loss(torch.sigmoid(offset), off_t, reduction="none") * mask).sum() / n
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()
        if step % 200 == 0:
            print(f"detector step {step} loss {loss.item():.3f} {time.time() - start:.0f}s",
                  flush=True)
    log["detector"] = {"steps": step + 1, "planned_steps": args.det_steps,
                       "seconds": round(time.time() - start), "last_loss": round(loss.item(), 4)}
    return net.eval()


def train_classifier(sampler, args, gen, log: dict):
    import torch
    from torch.nn import functional as F

    from training.nets import TileClassifier

    net = TileClassifier().to(args.device)
    opt = torch.optim.AdamW(net.parameters(), lr=args.lr, weight_decay=5e-4)
    start, step = time.time(), 0
    for step in range(args.cls_steps):
        progress = _progress(step, args.cls_steps, start, args.cls_seconds)
        if progress >= 1:
            break
        schedule(opt, step, progress, args.lr)
        crops, labels = sampler.batch(gen, args.cls_batch)
        loss = F.cross_entropy(net(crops), labels)
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()
        if step % 200 == 0:
            print(f"classifier step {step} loss {loss.item():.3f} {time.time() - start:.0f}s",
                  flush=True)
    log["classifier"] = {"steps": step + 1, "planned_steps": args.cls_steps,
                         "seconds": round(time.time() - start), "last_loss": round(loss.item(), 4)}
    return net.eval()


def calibrate(net, sampler, gen, log: dict) -> float:
    """Temperature minimising NLL on held-out source photos' crops; logs accuracy and ECE."""
    import torch
    from torch.nn import functional as F

    with torch.no_grad():
        batches = [sampler.batch(gen, 1024, jitter=False) for _ in range(4)]
        logits = torch.cat([net(c) for c, _ in batches])
        labels = torch.cat([lab for _, lab in batches])
    temps = torch.exp(torch.linspace(math.log(0.2), math.log(8.0), 120))
    nll = [F.cross_entropy(logits / t, labels).item() for t in temps]
    best = float(temps[int(np.argmin(nll))])
    probs = torch.softmax(logits / best, 1)
    pred = probs.argmax(1)
    log["calibration"] = {"crops": len(labels), "temperature": round(best, 3),
                          "accuracy": round((pred == labels).float().mean().item(), 4),
                          "ece_before": round(_ece(torch.softmax(logits, 1), labels), 4),
                          "ece_after": round(_ece(probs, labels), 4)}
    print("calibration", log["calibration"], flush=True)
    return best


def _ece(probs, labels, bins: int = 15) -> float:
    conf, pred = probs.max(1)
    right = (pred == labels).float()
    total = 0.0
    for lo in range(bins):
        inside = (conf > lo / bins) & (conf <= (lo + 1) / bins)
        if inside.any():
            total += inside.float().mean().item() * abs(
                conf[inside].mean().item() - right[inside].mean().item())
    return total


_ONNX = {"opset_version": 17, "do_constant_folding": True, "dynamo": False}


def export(det, cls, temperature: float, out: Path) -> None:
    export_detector(det, out)
    export_classifier(cls, temperature, out / "tile_classifier.onnx")


def export_classifier(cls, temperature: float, path: Path) -> None:
    """A classifier (logits out) exported with ``temperature`` as ``crops`` -> ``probs``."""
    import torch

    from training.nets import ExportClassifier

    torch.onnx.export(ExportClassifier(cls.cpu(), temperature).eval(),
                      (torch.rand(4, 3, 48, 36),), str(path), input_names=["crops"],
                      output_names=["probs"], dynamic_axes={"crops": {0: "n"}, "probs": {0: "n"}},
                      **_ONNX)


def export_detector(det, out: Path) -> None:
    import torch

    from training.nets import ExportDetector

    out.mkdir(parents=True, exist_ok=True)
    torch.onnx.export(ExportDetector(det.cpu()).eval(), (torch.rand(1, 3, 288, 512),),
                      str(out / "tile_detector.onnx"),
                      input_names=["image"], output_names=["heat", "size", "offset"],
                      dynamic_axes={"image": {2: "height", 3: "width"},
                                    "heat": {2: "rows", 3: "cols"},
                                    "size": {2: "rows", 3: "cols"},
                                    "offset": {2: "rows", 3: "cols"}}, **_ONNX)


def fit(args: argparse.Namespace) -> None:
    import torch

    from training.photo_batches import CropSampler, Photos
    from training.photo_data import load_pack

    torch.manual_seed(args.seed)
    torch.backends.cudnn.benchmark = False
    torch.backends.cuda.matmul.allow_tf32 = torch.backends.cudnn.allow_tf32 = True
    gen = torch.Generator(device=args.device).manual_seed(args.seed)
    pack = load_pack(args.pack)
    train_idx, calib_idx = split_groups(pack["group"], args.calib_share, args.seed)
    log: dict = {"seed": args.seed, "torch": torch.__version__, "device": args.device,
                 "train_photos": len(train_idx), "calib_photos": len(calib_idx),
                 "command": " ".join(sys.argv), "date": time.strftime("%Y-%m-%d")}
    photos = Photos.from_pack(pack, train_idx, args.device)
    art = torch.from_numpy(pack["art"]).permute(0, 3, 1, 2).contiguous().to(args.device)
    art_labels = torch.from_numpy(pack["art_labels"].astype(np.int64)).to(args.device)
    det = train_detector(photos, args, gen, log)
    cls = train_classifier(CropSampler(photos, art, art_labels), args, gen, log)
    calib = CropSampler(Photos.from_pack(pack, calib_idx, args.device), art[:0], art_labels[:0])
    temperature = calibrate(cls, calib, torch.Generator(device=args.device).manual_seed(1), log)
    export(det, cls, temperature, args.out)
    (args.out / "train_log.json").write_text(json.dumps(log, indent=1))
    print(json.dumps(log), flush=True)


def tune_detector(args: argparse.Namespace) -> None:
    """Train the exported photo detector further (batch norms folded), export it alone."""
    import torch

    from training.from_onnx import fused_from_onnx
    from training.nets import TileDetector
    from training.photo_batches import Photos
    from training.photo_data import load_pack

    torch.manual_seed(args.seed)
    gen = torch.Generator(device=args.device).manual_seed(args.seed)
    pack = load_pack(args.pack)
    train_idx, _ = split_groups(pack["group"], args.calib_share, args.seed)
    log: dict = {"seed": args.seed, "torch": torch.__version__, "device": args.device,
                 "train_photos": len(train_idx), "start": str(args.start), "tilt": args.tilt,
                 "command": " ".join(sys.argv), "date": time.strftime("%Y-%m-%d")}
    net = fused_from_onnx(TileDetector(), args.start)
    _same_as_onnx(net, args.start)
    det = train_detector(Photos.from_pack(pack, train_idx, args.device), args, gen, log, net)
    export_detector(det, args.out)
    (args.out / "detector_tune_log.json").write_text(json.dumps(log, indent=1))
    print(json.dumps(log), flush=True)


def _same_as_onnx(net, path: Path) -> None:
    """Check that a detector read back from ONNX computes what the ONNX file does."""
    import onnxruntime as ort
    import torch

    image = torch.rand(1, 3, 160, 224, generator=torch.Generator().manual_seed(0))
    with torch.no_grad():
        heat = torch.sigmoid(net.eval()(image)[0]).numpy()
    want = ort.InferenceSession(str(path)).run(["heat"], {"image": image.numpy()})[0]
    if not np.allclose(heat, want, atol=1e-4):
        raise SystemExit(f"{path}: read back wrongly (heat differs by "
                         f"{np.abs(heat - want).max():.4f})")


def pack(args: argparse.Namespace) -> None:
    from training.photo_data import build_pack

    args.pack.parent.mkdir(parents=True, exist_ok=True)
    print(build_pack(args.data, args.pack, args.limit, args.sim_rigs))


def _common(parser: argparse.ArgumentParser, seed: int, lr: float, det_steps: int,
            tilt: float) -> None:
    """The options ``fit`` and ``tune-detector`` share (their defaults differ)."""
    parser.add_argument("--pack", type=Path, default=Path(".vision_pack/pack.npz"))
    parser.add_argument("--device", default="cpu")
    parser.add_argument("--seed", type=int, default=seed)
    parser.add_argument("--lr", type=float, default=lr)
    parser.add_argument("--det-steps", type=int, default=det_steps)
    parser.add_argument("--det-batch", type=int, default=64)
    parser.add_argument("--det-seconds", type=float, default=1e9, help="stop early after this")
    parser.add_argument("--calib-share", type=float, default=0.08)
    parser.add_argument("--tilt", type=float, default=tilt,
                        help="turn half the detector's views by up to this many radians")


def add_pack_arguments(parser: argparse.ArgumentParser) -> None:
    """``python -m training pack``'s options."""
    parser.add_argument("--data", type=Path, default=Path("../shared/data"))
    parser.add_argument("--pack", type=Path, default=Path(".vision_pack/pack.npz"))
    parser.add_argument("--limit", type=int, default=None,
                        help="only this many photos (smoke test)")
    parser.add_argument("--sim-rigs", type=int, default=0,
                        help="also this many simulated rigs, 4 frames each (training/sim_data.py)")


def add_fit_arguments(parser: argparse.ArgumentParser) -> None:
    """``python -m training photo``'s options."""
    _common(parser, seed=6, lr=3e-3, det_steps=6000, tilt=0.0)
    parser.add_argument("--out", type=Path, default=Path("tablekit/models"))
    parser.add_argument("--cls-steps", type=int, default=6000)
    parser.add_argument("--cls-batch", type=int, default=512)
    parser.add_argument("--cls-seconds", type=float, default=1e9, help="stop early after this")


def add_tune_arguments(parser: argparse.ArgumentParser) -> None:
    """``python -m training tune-detector``'s options."""
    _common(parser, seed=9, lr=1e-3, det_steps=2000, tilt=0.6)
    parser.add_argument("--start", type=Path,
                        default=Path("tablekit/models/tile_detector.onnx"))
    parser.add_argument("--out", type=Path, required=True)
