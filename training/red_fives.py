"""Fit the red-five check (:mod:`tablekit.vision.red_fives`) on simulated tables
(``python -m training red-fives``; it was ``tools/fit_red_fives.py``).

Usage: python -m training red-fives [--rigs 160] [--first-seed 1000] [--jobs 2]
       [--test-rigs 60] [--test-seed 700] [--out tablekit/models/red_fives.json]

Renders ``--rigs`` rigs (training seeds, training logs) at the moments a hand is won (the
revealed hands, the fullest ponds) and at late moments of each hand, cuts every flat
face-up five (plain or red, at least half visible) the way the reader cuts a face, its box
also shifted and resized a little as a detector's box is, names it with the shipped
classifier, and fits one logistic regression per suit on the classifier's odds and the
crop's colour (:func:`tablekit.vision.red_fives.colour_features`). Then measures the check
on ``--test-rigs`` rigs of the held-out logs (seeds from ``--test-seed``, as
``benchmarks/classifier_sim.py``): red and plain fives named right, the classifier alone
against the classifier with the check. Writes the weights and the figures to ``--out``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from multiprocessing import Pool
from pathlib import Path

import numpy as np

from tablekit.vision.classes import class_index
from tablekit.vision.red_fives import (
    FEATURES,
    SUITS,
    colour_features,
    features,
    fit_logistic,
    pair,
)

ROOT = Path(__file__).resolve().parents[1]
FIVES = {class_index(f"{rank}{suit}"): suit for suit in SUITS for rank in "05"}
VISIBLE = 0.5
JITTER = (0.12, 0.08)  # centre (share of the box), size


def won_and_late(script, rng: np.random.Generator, late: int) -> list[tuple[int, float]]:
    """(moment, progress) pairs: each win's moment, and ``late`` moments late in hands."""
    from tablekit.game.events import Won

    moments = script.moments
    picks = [(i, float(rng.uniform(0.5, 1.0))) for i, m in enumerate(moments)
             if isinstance(m.event, Won)]
    last_turn: dict[int, int] = {}
    for m in moments:
        last_turn[m.hand] = max(last_turn.get(m.hand, 0), m.turn)
    late_ones = [i for i, m in enumerate(moments) if m.turn > 0.6 * last_turn[m.hand]]
    if late_ones:
        picks += [(int(i), float(rng.uniform(0.0, 1.0)))
                  for i in rng.choice(late_ones, size=min(late, len(late_ones)), replace=False)]
    return picks


def rig_fives(job: tuple[Path, int, int]) -> tuple[str, list[np.ndarray], list[int]]:
    """One rig's art set, its fives' crops (48 x 36 RGB uint8) and class indices (none when
    its log or markers fail)."""
    from tablekit.sim.rig import make_rig
    from tablekit.vision.classify import upright_crop
    from training.sim_data import rig_job

    log, seed, late = job
    drawn: list[np.random.Generator] = []

    def picks(script, rng: np.random.Generator) -> list[tuple[int, float]]:
        drawn.append(rng)   # the box shifts go on drawing from the rig's generator
        return won_and_late(script, rng, late)

    crops: list[np.ndarray] = []
    labels: list[int] = []
    views = rig_job((log, seed, 0, None, picks))
    for image, tiles in views:
        for row in tiles:
            label = int(row[5])
            if label not in FIVES or row[6] or row[7] < VISIBLE:
                continue
            box = row[1:5].astype(np.float64)
            for jitter in (False, True):
                if jitter:
                    size = box[2:] - box[:2]
                    shift, scale = drawn[0].uniform(-1, 1, (2, 2)) * np.array([JITTER]).T
                    centre = (box[:2] + box[2:]) / 2 + shift * size
                    size = size * (1 + scale)
                    box = np.concatenate([centre - size / 2, centre + size / 2])
                crops.append(upright_crop(image, box, (48, 36)))
                labels.append(label)
    return (make_rig(seed).look.art if views else ""), crops, labels


def gather(first_seed: int, rigs: int, held_out: bool, late: int, jobs: int
           ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    from training.sim_data import game_logs

    logs = game_logs(ROOT.parent / "shared" / "data", held_out=held_out)
    work = [(logs[seed % len(logs)], seed, late) for seed in range(first_seed, first_seed + rigs)]
    with Pool(jobs) as pool:
        found = [r for r in pool.imap(rig_fives, work) if r[1]]
    crops = np.stack([c for _, cs, _ in found for c in cs])
    labels = np.array([label for _, _, ls in found for label in ls])
    arts = np.array([art for art, cs, _ in found for _ in cs])
    return crops, labels, arts


def classify(crops: np.ndarray) -> np.ndarray:
    from tablekit.vision.onnx_model import CLASSIFIER_PATH, load_model

    model = load_model(CLASSIFIER_PATH, 1)
    batch = as_batch(crops)
    return np.concatenate([model.run(batch[i:i + 512])["probs"] for i in range(0, len(batch), 512)])


def as_batch(crops: np.ndarray) -> np.ndarray:
    """NHWC uint8 crops as the classifier's NCHW float batch."""
    return crops.transpose(0, 3, 1, 2).astype(np.float32) / 255


def scores(crops: np.ndarray, labels: np.ndarray, arts: np.ndarray, weights: dict | None
           ) -> dict:
    """Fives named right as red or plain (the pair's likelier), by suit and art set."""
    from tablekit.vision.red_fives import RedFiveCheck

    probs = classify(crops)
    if weights is not None:
        probs = RedFiveCheck.from_dict(weights).apply(as_batch(crops), probs)
    found: dict[str, object] = {}
    right_all = np.zeros(len(labels), bool)
    for suit in SUITS:
        red, plain = pair(suit)
        mine = np.isin(labels, [red, plain])
        said_red = probs[:, red] > probs[:, plain]
        right = said_red == (labels == red)
        right_all[mine] = right[mine]
        is_red = mine & (labels == red)
        is_plain = mine & (labels == plain)
        found[suit] = {"red": f"{int(right[is_red].sum())}/{int(is_red.sum())}",
                       "plain": f"{int(right[is_plain].sum())}/{int(is_plain.sum())}"}
    found["by_art"] = {art: f"{int(right_all[arts == art].sum())}/{int((arts == art).sum())}"
                       for art in sorted(set(arts.tolist()))}
    found["wrong"] = int((~right_all).sum())
    return found


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """``python -m training red-fives``'s options."""
    parser.add_argument("--rigs", type=int, default=160)
    parser.add_argument("--first-seed", type=int, default=1000)
    parser.add_argument("--test-rigs", type=int, default=60)
    parser.add_argument("--test-seed", type=int, default=700)
    parser.add_argument("--late", type=int, default=12, help="late moments a rig")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--l2", type=float, default=1.0)
    parser.add_argument("--out", type=Path, default=ROOT / "tablekit" / "models" / "red_fives.json")


def run(args: argparse.Namespace) -> None:
    """Fit the check, measure it on held-out rigs, write the weights and figures to ``--out``."""
    started = time.time()
    crops, labels, _ = gather(args.first_seed, args.rigs, False, args.late, args.jobs)
    probs = classify(crops)
    weights: dict[str, object] = {"features": list(FEATURES)}
    for suit in SUITS:
        red, plain = pair(suit)
        mine = np.isin(labels, [red, plain])
        x = features(colour_features(as_batch(crops[mine])), probs[mine], suit)
        mean, scale = x.mean(0), x.std(0) + 1e-6
        w = fit_logistic((x - mean) / scale, (labels[mine] == red).astype(np.float64), args.l2)
        weights[suit] = {"mean": mean.round(6).tolist(), "scale": scale.round(6).tolist(),
                         "w": w.round(6).tolist(), "fives": int(mine.sum()),
                         "red": int((labels[mine] == red).sum())}
    print(f"fitted on {len(labels)} crops of {args.rigs} rigs in {time.time() - started:.0f} s",
          file=sys.stderr)
    test = gather(args.test_seed, args.test_rigs, True, args.late, args.jobs)
    before, after = scores(*test, None), scores(*test, weights)
    print(json.dumps({"classifier": before, "with_check": after}), file=sys.stderr)
    weights["fit"] = {"command": "python -m training " + " ".join(sys.argv[1:]),
                      "rigs": args.rigs, "first_seed": args.first_seed, "crops": len(labels),
                      "date": time.strftime("%Y-%m-%d"),
                      "test": {"rigs": args.test_rigs, "first_seed": args.test_seed,
                               "crops": len(test[1]), "classifier": before, "with_check": after}}
    args.out.write_text(json.dumps(weights, indent=1) + "\n")
    print(f"wrote {args.out}", file=sys.stderr)

