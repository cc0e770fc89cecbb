"""Tile classifiers side by side on the faces of simulated tables they were not trained on.

Usage: python benchmarks/classifier_sim.py [CLASSIFIER.onnx ...] [--rigs 80] [--first-seed 700]

Renders ``--rigs`` seeded rigs (seeds from ``--first-seed``; training uses 1000 up) playing
the held-out logs, ``--frames`` random moments each, warped to the reader's 0.8 px/mm view
(``training/sim_data.py``). Every flat face-up tile at least 70% visible is cut from
its true box the way the reader cuts a detected one and named by each classifier (default:
the committed one). Prints errors by art set, the commonest confusions, red fives, and
the wrong reads the classifier was sure of (p > 0.9); one JSON line per classifier last.
The detector is left out: this measures naming alone.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from multiprocessing import Pool
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tablekit.vision.classes import CLASSES, RED_FIVES, class_index  # noqa: E402

READABLE = 0.7
TILE_CLASSES = len(CLASSES) - 2  # the 34 kinds and the red fives (not back, not none)


def rig_faces(job: tuple[int, int]) -> tuple[str, list[np.ndarray], list[int]]:
    """One rig's art set, upright BGR face crops (48 x 36) and their class indices."""
    from tablekit.sim.rig import make_rig
    from tablekit.vision.classify import upright_crop
    from training.sim_data import game_logs, rig_job

    seed, frames = job
    logs = game_logs(ROOT.parent / "shared" / "data", held_out=True)
    crops, labels = [], []
    for view, tiles in rig_job((logs[seed % len(logs)], seed, frames)):
        for row in tiles:
            label = int(row[5])
            if row[6] or row[7] < READABLE or label >= TILE_CLASSES:
                continue
            crops.append(upright_crop(view, row[1:5], (48, 36)))
            labels.append(label)
    return make_rig(seed).look.art, crops, labels


def measure(path: Path, crops: np.ndarray, labels: np.ndarray, arts: np.ndarray) -> dict:
    from tablekit.vision.onnx_model import load_model

    model = load_model(path, 1)
    batch = crops.transpose(0, 3, 1, 2).astype(np.float32) / 255
    probs = np.concatenate([model.run(batch[i:i + 512])["probs"]
                            for i in range(0, len(batch), 512)])
    best = probs.argmax(1)
    wrong = best != labels
    names = np.array(CLASSES)
    pairs = zip(names[labels[wrong]], names[best[wrong]], strict=True)
    red = np.isin(labels, [class_index(c) for c in RED_FIVES])
    return {
        "classifier": str(path), "faces": len(labels), "wrong": int(wrong.sum()),
        "error": round(float(wrong.mean()), 4),
        "sure_wrong": int((wrong & (probs.max(1) > 0.9)).sum()),
        "by_art": {art: round(float(wrong[arts == art].mean()), 4)
                   for art in sorted(set(arts.tolist()))},
        "red_fives_right": f"{int((best[red] == labels[red]).sum())}/{int(red.sum())}",
        "confusions": [f"{a}->{b} x{n}" for (a, b), n in Counter(pairs).most_common(8)],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("classifiers", nargs="*", type=Path,
                        default=[ROOT / "tablekit" / "models" / "tile_classifier.onnx"])
    parser.add_argument("--rigs", type=int, default=80)
    parser.add_argument("--first-seed", type=int, default=700)
    parser.add_argument("--frames", type=int, default=6)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    jobs = [(seed, args.frames) for seed in range(args.first_seed, args.first_seed + args.rigs)]
    with Pool(args.jobs) as pool:
        rigs = [r for r in pool.imap(rig_faces, jobs) if r[1]]
    crops = np.stack([c for _, cs, _ in rigs for c in cs])
    labels = np.array([label for _, _, ls in rigs for label in ls])
    arts = np.array([art for art, cs, _ in rigs for _ in cs])
    for path in args.classifiers:
        found = measure(path, crops, labels, arts)
        print(f"{path}: {found['wrong']}/{found['faces']} faces wrong ({found['error']:.2%}), "
              f"{found['sure_wrong']} of them at p > 0.9; by art {found['by_art']}; red fives "
              f"{found['red_fives_right']}; {', '.join(found['confusions'])}", file=sys.stderr)
        print(json.dumps({"rigs": len(rigs), "first_seed": args.first_seed, **found}))


if __name__ == "__main__":
    main()
