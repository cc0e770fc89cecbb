"""The calibrated path's models, rendering the sim data on the training machine
(``python -m training table``).

One run, within a wall-clock budget: worker processes render seeded rigs (seeds 1000 up,
training logs only) into 0.5 px/mm detector views and classifier patches, then the table
detector trains from scratch and the tile classifier is fine-tuned (sim patches, photo patches
of the photo pack, tile art), its temperature refitted on held-apart rigs and photos; both are
exported to ``--out`` with ``table_train_log.json``. The same loop runs on ``--device cuda``
(how the shipped ``table_detector.onnx`` and ``tile_classifier.onnx`` were made: the command is
in ``tablekit/models/README.md``) and on ``--device cpu``; on a CPU it fine-tunes the
classifier alone (about 45 minutes on two cores), from fresh rigs, a share of them forced to
one tile art (the black-faced set, its weakest)::

    python -m training table --device cpu --classifier-only --threads 2 --workers 2 \
        --data ../shared/data --start-classifier tablekit/models/tile_classifier.onnx \
        --first-seed 3000 --max-rigs 400 --art-share 0.35 --cls-batch 512 --cls-lr 5e-4 \
        --render-until 420 --cls-until 2700 --out out

It replaces ``tools/train_table.py`` (a CPU-only loop over a pre-rendered sim pack, retired:
its losses, schedule, patch mixing and exports are here).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

import numpy as np

from training.photo import schedule

T0 = time.time()

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


def detector_loss(net, batch, gen):
    from torch.nn import functional as F

    from training.photo_batches import photometric

    images, heat_t, care, size_t, off_t, mask = batch
    heat, size, offset = net(photometric(images, gen))
    n = mask.sum().clamp(min=1)
    return weighted_focal_loss(heat, heat_t, care) \
        + (F.l1_loss(size, size_t, reduction="none") * mask).sum() / n \
        + (F.l1_loss(offset.sigmoid(), off_t, reduction="none") * mask).sum() / n


class MixedPatches:
    """Classifier batches: sim patches, photo patches and tile-art renders."""

    def __init__(self, parts, art_sampler=None, art_share: float = 0.0) -> None:
        self.parts = parts
        self.art_sampler, self.art_share = art_sampler, art_share

    def batch(self, gen, size: int, jitter: bool = True):
        import torch

        from training.photo_batches import photometric

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


def export_detector(net, path: Path) -> None:
    import torch

    from training.nets import ExportDetector

    torch.onnx.export(ExportDetector(net).eval(), (torch.rand(1, 3, 512, 512),), str(path),
                      input_names=["image"], output_names=["heat", "size", "offset"],
                      dynamic_axes={"image": {2: "height", 3: "width"},
                                    "heat": {2: "rows", 3: "cols"},
                                    "size": {2: "rows", 3: "cols"},
                                    "offset": {2: "rows", 3: "cols"}},
                      opset_version=17, do_constant_folding=True, dynamo=False)


def export_classifier(net, temperature: float, path: Path) -> None:
    import torch

    from training.nets import ExportClassifier

    torch.onnx.export(ExportClassifier(net, temperature).eval(), (torch.rand(4, 3, 48, 36),),
                      str(path), input_names=["crops"], output_names=["probs"],
                      dynamic_axes={"crops": {0: "n"}, "probs": {0: "n"}},
                      opset_version=17, do_constant_folding=True, dynamo=False)


def photo_and_art(photos: str, rng):
    """Photo patches (train, calibration: split by source photo) and a tile-art sampler
    from the photo pack, shared by the CPU and the GPU trainings."""
    import torch

    from training.photo import split_groups
    from training.photo_batches import CropSampler, Photos
    from training.photo_data import load_pack
    from training.sim_batches import photo_patches

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


def log_line(text: str) -> None:
    print(f"[{time.time() - T0:6.1f}s] {text}", flush=True)


def render_rig(job):
    """One rig's detector views, detector rows and classifier patches (numpy), or None."""
    from training.sim_batches import DetectorData, sim_patches
    from training.sim_data import rig_job

    log, seed, frames, art = job
    views = rig_job((Path(log), seed, frames, art))
    if not views:
        return None
    images = np.stack([v for v, _ in views])
    rows = []
    for index, (_, tiles) in enumerate(views):
        tiles = tiles.copy()
        tiles[:, 0] = index
        rows.append(tiles)
    tiles = np.concatenate(rows)
    det = DetectorData.from_pack(images, tiles)
    patches = sim_patches(images, tiles, np.random.default_rng(seed))
    return (seed, det.images, det.tiles, patches.images.numpy(), patches.half.numpy(),
            patches.labels.numpy(), len(tiles))


def forced_art(args):
    """The art of rig ``i``: ``--art`` on ``--art-share`` of the rigs, else the sim's pick."""
    return lambda i: args.art if i % 100 < 100 * args.art_share else None


def render(args, log: dict, art_of=None):
    """Render ``--max-rigs`` rigs until ``--render-until`` (``art_of(i)``: rig ``i``'s art
    set, None for the sim's pick; default :func:`forced_art`)."""
    from multiprocessing import get_context

    from training.sim_data import game_logs

    art_of = art_of or forced_art(args)
    logs = game_logs(args.data)
    rng = np.random.default_rng(args.first_seed)
    jobs = [(str(logs[int(rng.integers(len(logs)))]), args.first_seed + i, args.frames,
             art_of(i)) for i in range(args.max_rigs)]
    det_images, det_rows, train_p, calib_p = [], [], [], []
    tiles = rigs = 0
    deadline = T0 + args.render_until
    with get_context("fork").Pool(args.workers) as pool:
        for done in pool.imap_unordered(render_rig, jobs, chunksize=1):
            if done is not None:
                seed, images, rows, p_img, p_half, p_lab, n = done
                if seed % 13 == 0:
                    calib_p.append((p_img, p_half, p_lab))
                else:
                    if not args.classifier_only:
                        rows = rows.copy()
                        rows[:, 0] += sum(len(i) for i in det_images)
                        det_images.append(images)
                        det_rows.append(rows)
                    train_p.append((p_img, p_half, p_lab))
                tiles += n
                rigs += 1
                if rigs % 50 == 0:
                    log_line(f"rendered {rigs} rigs")
            if time.time() > deadline:
                pool.terminate()
                break
    log["sim"] = {"rigs": rigs, "tiles": tiles,
                  "logs": len(logs), "frames_per_rig": args.frames,
                  "calib_rigs": len(calib_p)}
    log_line(f"render done {log['sim']}")
    if args.classifier_only:
        return None, train_p, calib_p
    return (np.concatenate(det_images), np.concatenate(det_rows)), train_p, calib_p


def as_patches(parts):
    import torch

    from training.sim_batches import Patches

    return Patches(torch.from_numpy(np.concatenate([p[0] for p in parts])),
                   torch.from_numpy(np.concatenate([p[1] for p in parts])),
                   torch.from_numpy(np.concatenate([p[2] for p in parts])))


class Batches:
    """Batches made by ``make(worker_seed)`` in DataLoader workers (forked, data shared)."""

    def __init__(self, make, workers: int) -> None:
        import torch

        class Stream(torch.utils.data.IterableDataset):
            def __iter__(self):
                info = torch.utils.data.get_worker_info()
                seed = 1 + (info.id if info else 0)
                torch.set_num_threads(1)
                state = make(seed)
                while True:
                    yield state()

        self.loader = torch.utils.data.DataLoader(Stream(), batch_size=None,
                                                  num_workers=workers, prefetch_factor=4,
                                                  persistent_workers=False)

    def __iter__(self):
        return iter(self.loader)


def train_detector(data, args, log: dict):
    import torch

    from training.nets import TableDetector
    from training.sim_batches import detector_batch

    def make(seed):
        rng = np.random.default_rng(args.seed * 1000 + seed)
        return lambda: detector_batch(data, rng, args.det_batch)

    dev = args.device
    net = TableDetector().to(dev)
    opt = torch.optim.AdamW(net.parameters(), lr=args.det_lr, weight_decay=1e-4)
    gen = torch.Generator(device=dev).manual_seed(args.seed)
    start, stop = time.time(), T0 + args.det_until
    step, loss = 0, torch.zeros(())
    for step, batch in enumerate(Batches(make, args.workers)):
        progress = (time.time() - start) / max(1.0, stop - start)
        if progress >= 1 or step >= args.det_steps:
            break
        schedule(opt, step, progress, args.det_lr, 100)
        batch = [t.to(dev, non_blocking=True) for t in batch]
        loss = detector_loss(net, batch, gen)
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()
        if step % 100 == 0:
            log_line(f"detector step {step} loss {loss.item():.3f}")
    log["detector"] = {"steps": step, "seconds": round(time.time() - start),
                       "batch": args.det_batch, "last_loss": round(loss.item(), 4)}
    return net.eval().cpu()


def train_classifier(train, args, log: dict):
    import torch
    from torch.nn import functional as F

    from training.from_onnx import FusedClassifier
    from training.photo_batches import photometric

    def make(seed):
        gen = torch.Generator().manual_seed(args.seed * 1000 + seed)
        return lambda: train.batch(gen, args.cls_batch, jitter=False)

    dev = args.device
    net = FusedClassifier.from_onnx(args.start_classifier).to(dev).train()
    opt = torch.optim.AdamW(net.parameters(), lr=args.cls_lr, weight_decay=5e-4)
    gen = torch.Generator(device=dev).manual_seed(args.seed)
    start, stop = time.time(), T0 + args.cls_until
    step, loss = 0, torch.zeros(())
    for step, (crops, labels) in enumerate(Batches(make, args.workers)):
        progress = (time.time() - start) / max(1.0, stop - start)
        if progress >= 1 or step >= args.cls_steps:
            break
        schedule(opt, step, progress, args.cls_lr, 50)
        crops = photometric(crops.to(dev, non_blocking=True), gen)
        loss = F.cross_entropy(net(crops), labels.to(dev))
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()
        if step % 100 == 0:
            log_line(f"classifier step {step} loss {loss.item():.3f}")
    log["classifier"] = {"steps": step, "seconds": round(time.time() - start),
                         "batch": args.cls_batch, "start": str(args.start_classifier),
                         "last_loss": round(loss.item(), 4)}
    return net.eval().cpu()


class Jittered:
    """A MixedPatches whose pieces are cut with jitter but left without photometric changes
    (those run on the GPU)."""

    def __init__(self, mixed) -> None:
        self.mixed = mixed

    def batch(self, gen, size: int, jitter: bool = False):
        import torch

        m = self.mixed
        n_art = int(size * m.art_share) if m.art_sampler else 0
        rest = size - n_art
        shares = [int(rest * share) for _, share in m.parts]
        shares[0] += rest - sum(shares)
        pieces = [patches.batch(gen, n, 1.0) for (patches, _), n in
                  zip(m.parts, shares, strict=True) if n]
        if n_art:
            pieces.append(m.art_sampler.rendered(gen, n_art))
        return torch.cat([p[0] for p in pieces]), torch.cat([p[1] for p in pieces])


def classifier_data(train_p, calib_p, args, log: dict):
    from training.sim_batches import Patches

    rng = np.random.default_rng(args.seed)
    sim_train, sim_calib = as_patches(train_p), as_patches(calib_p)
    photos_train, photos_calib, art_sampler = photo_and_art(args.photos, rng)
    log["classifier_data"] = data_log(sim_train, sim_calib, photos_train, photos_calib,
                                      art_sampler)
    log_line(f"classifier data {log['classifier_data']}")
    train = MixedPatches([(sim_train, args.sim_share), (photos_train, 1 - args.sim_share)],
                         art_sampler, 0.10)
    calib = MixedPatches([(Patches.concat([sim_calib, photos_calib]), 1.0)])
    return Jittered(train), calib


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """``python -m training table``'s options."""
    parser.add_argument("--data", type=Path, default=Path(".vision_pack/data"))
    parser.add_argument("--photos", type=Path, default=Path(".vision_pack/pack.npz"))
    parser.add_argument("--start-classifier", type=Path,
                        default=Path(".vision_pack/photo_classifier.onnx"))
    parser.add_argument("--out", type=Path, default=Path(os.environ.get("OUT", "out")))
    parser.add_argument("--device", default="cuda")
    parser.add_argument("--seed", type=int, default=8)
    parser.add_argument("--workers", type=int, default=15)
    parser.add_argument("--frames", type=int, default=8)
    parser.add_argument("--max-rigs", type=int, default=100000)
    parser.add_argument("--first-seed", type=int, default=1000,
                        help="the rigs' seeds count up from here (benchmarks use seeds < 1000)")
    parser.add_argument("--art", default="fluffystuff-black",
                        help="tile art forced on --art-share of the rigs")
    parser.add_argument("--art-share", type=float, default=0.0)
    parser.add_argument("--classifier-only", action="store_true",
                        help="fine-tune the classifier alone (the table detector is kept)")
    parser.add_argument("--threads", type=int, default=0,
                        help="torch threads for training (0: torch's default)")
    parser.add_argument("--render-until", type=float, default=100,
                        help="seconds from the start when rendering stops")
    parser.add_argument("--det-until", type=float, default=220)
    parser.add_argument("--cls-until", type=float, default=310)
    parser.add_argument("--det-lr", type=float, default=4e-3)
    parser.add_argument("--det-steps", type=int, default=100000)
    parser.add_argument("--det-batch", type=int, default=128)
    parser.add_argument("--cls-lr", type=float, default=1.5e-3)
    parser.add_argument("--cls-steps", type=int, default=100000)
    parser.add_argument("--cls-batch", type=int, default=1024)
    parser.add_argument("--sim-share", type=float, default=0.6)


def run(args: argparse.Namespace) -> None:
    """The ``table`` run (:func:`add_arguments`'s options)."""

    import torch

    from training.photo import calibrate

    torch.manual_seed(args.seed)
    torch.backends.cuda.matmul.allow_tf32 = torch.backends.cudnn.allow_tf32 = True
    args.out.mkdir(parents=True, exist_ok=True)
    log: dict = {"seed": args.seed, "torch": torch.__version__, "device": args.device,
                 "gpu": torch.cuda.get_device_name() if args.device == "cuda" else None,
                 "workers": args.workers, "command": " ".join(sys.argv),
                 "date": time.strftime("%Y-%m-%d")}
    if args.threads:
        torch.set_num_threads(args.threads)
    det_data, train_p, calib_p = render(args, log)
    if not args.classifier_only:
        from training.sim_batches import DetectorData

        det = train_detector(DetectorData(*det_data), args, log)
        export_detector(det, args.out / DETECTOR_FILE)
        (args.out / "table_train_log.json").write_text(json.dumps(log, indent=1) + "\n")
        log_line(f"detector exported {log['detector']}")
    del det_data
    train, calib = classifier_data(train_p, calib_p, args, log)
    cls = train_classifier(train, args, log)
    torch.set_num_threads(8)
    temperature = calibrate(cls, calib, torch.Generator().manual_seed(1), log)
    export_classifier(cls, temperature, args.out / CLASSIFIER_FILE)
    log["total_seconds"] = round(time.time() - T0)
    (args.out / "table_train_log.json").write_text(json.dumps(log, indent=1) + "\n")
    log_line(json.dumps(log))

