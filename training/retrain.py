"""All three vision models in one run on one GPU machine, written to an out folder
(``python -m training retrain``).

One prepared run within a wall-clock budget: every stage stops at a time counted from the
start (``--render-until``, ``--det-until``, ``--photo-det-until``, ``--cls-until``), so the
run ends then plus the temperature fit, the check and the figures (about a minute on 16 cores):

1. the photo pack (``--photos``), built from ``--data`` when absent;
2. simulated rigs rendered by ``--workers`` processes (seeds ``--first-seed`` up, training
   logs only), cycling through the training art sets (``--art``; default: every set
   :func:`tablekit.sim.art.available_art` lists, minus those never used in training);
3. the table detector trained from scratch on their top-down views;
4. the photo detector tuned on from ``--start-detector`` on the pack's training photos;
5. the tile classifier fine-tuned from ``--start-classifier`` (sim patches, photo patches, tile
   art), its temperature refitted on held-apart rigs and photos;
6. the three ONNX files loaded by tablekit's own reader and run on a few frames
   (``check.json``), then the photo figures (``metrics.json``, ``--figures``).

Everything goes to ``--out`` (never ``tablekit/models``): ``table_detector.onnx``,
``tile_detector.onnx``, ``tile_classifier.onnx``, ``train_gpu_log.json``, ``check.json``,
``metrics.json``. On one H200 (16 CPU cores), from the repository root with ``shared/data``::

    TABLEKIT_TILE_ART=$PWD/.vision_pack/art python -m training retrain --device cuda \
        --workers 15 --data shared/data --out $OUT --art fluffystuff fluffystuff-black lietxia \
        photo-hust

Shipped (MIT) models train only on art whose licence allows it: a GPL set (KDE, GNOME) is
refused (:func:`shippable_art`); ``--allow-gpl-art`` trains on one anyway, for an experiment
whose models are not shipped.

The same at a small scale on a CPU (a few hundred steps in all, minutes)::

    python -m training retrain --device cpu --small --data ../shared/data --out /tmp/proof
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

from training.table import T0, log_line  # noqa: E402

SMALL = {"photo_limit": 120, "max_rigs": 24, "frames": 2, "workers": 2, "det_batch": 8,
         "det_steps": 60, "photo_det_batch": 4, "photo_det_steps": 40, "cls_batch": 64,
         "cls_steps": 120, "render_until": 240, "det_until": 420, "photo_det_until": 540,
         "cls_until": 720, "figures": False}
"""``--small``: the CPU proof's sizes (220 steps in all)."""


def training_art() -> list[str]:
    """The art sets rigs train on by default: those marked ``use = "train"`` (the sets random
    rigs draw), less the committed fallback (a small copy of one of them). The retrain widens
    this with ``--art`` (the model card lists the sets whose licence allows it)."""
    from tablekit.sim import art

    return [name for name in art.training_art() if name != "fallback"]


COPYLEFT = ("GPL", "LGPL", "AGPL")
"""Licences whose art the shipped (MIT) models must not learn from: those sets are for testing."""


def shippable_art(arts: list[str]) -> list[str]:
    """The sets of ``arts`` whose licence is copyleft (their models could not ship under MIT).

    >>> shippable_art(["fallback"])
    []
    """
    from tablekit.sim.art import load_art

    return [name for name in arts
            if any(load_art(name).licence.upper().startswith(word) for word in COPYLEFT)]


def cycling(arts: list[str]):
    """Rig ``i``'s art set: the list in turn.

    >>> [cycling(["a", "b"])(i) for i in range(3)]
    ['a', 'b', 'a']
    """
    return lambda i: arts[i % len(arts)]


def ensure_pack(args, log: dict) -> None:
    from training.photo_data import build_pack

    if args.photos.is_file():
        log["pack"] = {"path": str(args.photos), "built": False}
        return
    start = time.time()
    args.photos.parent.mkdir(parents=True, exist_ok=True)
    counts = build_pack(args.data, args.photos, args.photo_limit)
    log["pack"] = {"path": str(args.photos), "built": True, **counts,
                   "seconds": round(time.time() - start)}
    log_line(f"photo pack {log['pack']}")


def table_detector(det_data, args, log: dict) -> None:
    from training.sim_batches import DetectorData
    from training.table import DETECTOR_FILE, export_detector, train_detector

    net = train_detector(DetectorData(*det_data), args, log)
    export_detector(net, args.out / DETECTOR_FILE)
    log_line(f"table detector exported {log['detector']}")


def photo_detector(args, log: dict) -> None:
    """Tune the photo detector on from ``--start-detector`` until ``--photo-det-until``."""
    import torch

    from training.from_onnx import fused_from_onnx
    from training.nets import TileDetector
    from training.photo import _same_as_onnx, export_detector, split_groups, train_detector
    from training.photo_batches import Photos
    from training.photo_data import load_pack

    pack = load_pack(args.photos)
    train_idx, _ = split_groups(pack["group"], 0.08, args.seed)
    net = fused_from_onnx(TileDetector(), args.start_detector)
    _same_as_onnx(net, args.start_detector)
    options = argparse.Namespace(
        device=args.device, lr=args.photo_det_lr, det_steps=args.photo_det_steps,
        det_batch=args.photo_det_batch, tilt=args.tilt,
        det_seconds=max(1.0, T0 + args.photo_det_until - time.time()))
    gen = torch.Generator(device=args.device).manual_seed(args.seed)
    part: dict = {}
    net = train_detector(Photos.from_pack(pack, train_idx, args.device), options, gen, part, net)
    export_detector(net.cpu(), args.out)
    log["photo_detector"] = {**part["detector"], "batch": args.photo_det_batch,
                             "start": str(args.start_detector), "photos": len(train_idx)}
    log_line(f"photo detector exported {log['photo_detector']}")


def classifier(train_p, calib_p, args, log: dict) -> None:
    import torch

    from training.photo import calibrate
    from training.table import CLASSIFIER_FILE, classifier_data, export_classifier, train_classifier

    train, calib = classifier_data(train_p, calib_p, args, log)
    net = train_classifier(train, args, log)
    temperature = calibrate(net, calib, torch.Generator().manual_seed(1), log)
    export_classifier(net, temperature, args.out / CLASSIFIER_FILE)
    log_line(f"classifier exported {log['classifier']}")


def check(out: Path, data: Path, art: str) -> dict:
    """Load the three files with tablekit's readers: read two photos, and the tiles of a
    simulated rig's view (held-out log, seed 7) against its truth."""
    import cv2

    from tablekit.vision.onnx_model import load_model
    from tablekit.vision.reader import TileReader
    from tablekit.vision.table_detect import detect_table
    from training.sim_data import game_logs, rig_views

    reader = TileReader.load(detector=out / "tile_detector.onnx",
                             classifier=out / "tile_classifier.onnx")
    photos = sorted((data / "photos").rglob("*.jpg"))[:2] or \
        [ROOT / "tests/fixtures/vision/hust_tray.jpg"]
    read = {p.name: [r.tile for r in reader.read(cv2.imread(str(p)))] for p in photos}
    view, tiles = next(rig_views(game_logs(data, held_out=True)[0], 7, 1, art))
    found = detect_table(load_model(out / "table_detector.onnx"), view)
    return {"photos": read, "sim_view": {"art": art, "tiles": len(tiles), "found": len(found)}}


def figures(out: Path, args) -> None:
    """The photo sets' figures for the new models (``benchmarks/vision_accuracy.py``)."""
    command = [sys.executable, str(ROOT / "benchmarks/vision_accuracy.py"), "--no-peer",
               "--photos", str(args.data / "photos"), "--detector", str(out / "tile_detector.onnx"),
               "--classifier", str(out / "tile_classifier.onnx"), "--json",
               str(out / "metrics.json")]
    subprocess.run(command, check=True)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """``python -m training retrain``'s options."""
    parser.add_argument("--data", type=Path, default=ROOT / "shared/data")
    parser.add_argument("--photos", type=Path, default=ROOT / ".vision_pack/pack.npz",
                        help="the photo pack (built from --data when absent)")
    parser.add_argument("--photo-limit", type=int, default=None,
                        help="a pack built here takes only this many photos")
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--device", default="cuda")
    parser.add_argument("--small", action="store_true", help="the CPU proof's sizes")
    parser.add_argument("--art", nargs="*", default=None,
                        help="the art sets the rigs cycle through (default: every training set)")
    parser.add_argument("--allow-gpl-art", action="store_true",
                        help="train on GPL art too (an experiment: such models are not shipped)")
    parser.add_argument("--start-detector", type=Path,
                        default=ROOT / "tablekit/models/tile_detector.onnx")
    parser.add_argument("--start-classifier", type=Path,
                        default=ROOT / "tablekit/models/tile_classifier.onnx")
    parser.add_argument("--seed", type=int, default=8)
    parser.add_argument("--workers", type=int, default=15)
    parser.add_argument("--threads", type=int, default=0, help="torch threads (0: default)")
    parser.add_argument("--frames", type=int, default=8)
    parser.add_argument("--max-rigs", type=int, default=100000)
    parser.add_argument("--first-seed", type=int, default=1000,
                        help="the rigs' seeds count up from here (benchmarks use seeds < 1000)")
    parser.add_argument("--render-until", type=float, default=170,
                        help="seconds from the start when rendering stops")
    parser.add_argument("--det-until", type=float, default=270)
    parser.add_argument("--photo-det-until", type=float, default=360)
    parser.add_argument("--cls-until", type=float, default=460)
    parser.add_argument("--det-lr", type=float, default=4e-3)
    parser.add_argument("--det-steps", type=int, default=100000)
    parser.add_argument("--det-batch", type=int, default=128)
    parser.add_argument("--photo-det-lr", type=float, default=1e-3)
    parser.add_argument("--photo-det-steps", type=int, default=100000)
    parser.add_argument("--photo-det-batch", type=int, default=128)
    parser.add_argument("--tilt", type=float, default=0.6)
    parser.add_argument("--cls-lr", type=float, default=1e-3)
    parser.add_argument("--cls-steps", type=int, default=100000)
    parser.add_argument("--cls-batch", type=int, default=1024)
    parser.add_argument("--sim-share", type=float, default=0.6)
    parser.add_argument("--figures", action=argparse.BooleanOptionalAction, default=True,
                        help="run benchmarks/vision_accuracy.py on the new models")


def run(args: argparse.Namespace) -> None:
    """The ``retrain`` run (:func:`add_arguments`'s options)."""
    if args.small:
        defaults = argparse.ArgumentParser()
        add_arguments(defaults)
        for key, value in SMALL.items():
            if defaults.get_default(key) == getattr(args, key):
                setattr(args, key, value)
    args.classifier_only = False

    import torch

    from training.table import render

    torch.manual_seed(args.seed)
    torch.backends.cuda.matmul.allow_tf32 = torch.backends.cudnn.allow_tf32 = True
    if args.threads:
        torch.set_num_threads(args.threads)
    args.out.mkdir(parents=True, exist_ok=True)
    arts = args.art or training_art()
    copyleft = shippable_art(arts)
    if copyleft and not args.allow_gpl_art:
        raise SystemExit(f"training retrain: {', '.join(copyleft)}: GPL art is for testing; the "
                         "shipped models learn only from art whose licence allows it "
                         "(--allow-gpl-art for an experiment)")
    log: dict = {"seed": args.seed, "torch": torch.__version__, "device": args.device,
                 "gpu": torch.cuda.get_device_name() if args.device == "cuda" else None,
                 "workers": args.workers, "art": arts, "command": " ".join(sys.argv),
                 "date": time.strftime("%Y-%m-%d")}
    log_path = args.out / "train_gpu_log.json"
    ensure_pack(args, log)
    det_data, train_p, calib_p = render(args, log, cycling(arts))
    if not calib_p and len(train_p) > 1:  # a small run's rigs may miss every 13th seed
        calib_p.append(train_p.pop())
    table_detector(det_data, args, log)
    del det_data
    log_path.write_text(json.dumps(log, indent=1) + "\n")
    photo_detector(args, log)
    classifier(train_p, calib_p, args, log)
    log["train_seconds"] = round(time.time() - T0)
    log_path.write_text(json.dumps(log, indent=1) + "\n")
    checked = check(args.out, args.data, arts[0])
    (args.out / "check.json").write_text(json.dumps(checked, indent=1) + "\n")
    log_line(f"checked: {args.out / 'check.json'}")
    if args.figures:
        figures(args.out, args)
    log["total_seconds"] = round(time.time() - T0)
    log_path.write_text(json.dumps(log, indent=1) + "\n")
    log_line(json.dumps(log))

