"""Write ``models/README.md``, the model card, from the training log and benchmark figures."""

from __future__ import annotations

import json
from pathlib import Path

DETECTOR = ("CenterNet-style tile finder: `image` (1, 3, H, W) RGB in [0, 1], H and W multiples "
            "of 32 -> `heat` (1, 1, H/4, W/4), `size` (1, 2, H/4, W/4) log w, h in cells, "
            "`offset` (1, 2, H/4, W/4)")
CLASSIFIER = ("face classifier: `crops` (N, 3, 48, 36) upright RGB in [0, 1] -> `probs` (N, 39), "
              "temperature-scaled softmax over `tablekit.vision.classes.CLASSES`")
DATA = """\
## Data
- Training (`tablekit.vision.datasets.training_images`, split by source photo): hust-riichi
  train (333 files = 112 source photos x ~3 Roboflow augmentations), chinese-mahjong-nohust
  train (360) and its valid split less two groups held out below: 837 photos, 616 source photos,
  13,114 labelled tiles. 8% of the source photos (64 photos) are kept apart to fit the
  classifier's temperature. Flowers and seasons (null in class_map.json) train as not-a-tile.
- Tile art (CC0 FluffyStuff, M+ lietxia flat style, CC0 samoheen Hong Kong): 118 renders
  composited on random backgrounds and warped, the only source of red fives (`0m/0p/0s`) and
  face-down backs.
- Photos CC BY 4.0: "Riichi Mahjong dataset, hust-xq5rx, Roboflow Universe" and Roboflow
  "chinese-mahjong-detection" (riichimahjongdetection).
- Not used yet: frames of the simulated table (`tablekit.sim`); `tools/train_data.py` takes one
  loader per source, so they go in as one more entry of `photo_sources`.

## Held-out sets (never trained on)
- `hust-valid`: hust-riichi valid, 96 photos of the set seen in training (new photos).
- `unseen-table`: chinese-mahjong-nohust valid photos named `IMG_*`, 42 photos of a set, a
  camera and a pink table found nowhere in training. 7 of them are labelled all `1p` (14-42
  tiles each, impossible for one set): figures are given with and without them
  ("plausible labels").
- `chinese-test`: chinese-mahjong-nohust test, 63 photos: new photos of tables seen in training.

F1 counts a reading right when its box has IoU >= 0.5 with a labelled tile of the same kind; red
fives count as plain fives (the labels do not mark them) and `back` readings are left out (no
set labels face-down tiles).
"""


def _table(metrics: dict) -> str:
    rows = ["| held-out set | reader | photos | F1 | precision | recall | ms/photo (1 thread) |",
            "|---|---|---|---|---|---|---|"]
    for key, m in metrics.items():
        name, reader = key.split(" / ")
        rows.append(f"| {name} | {reader} | {m['photos']} | {m['f1']:.3f} | "
                    f"{m['precision']:.3f} | {m['recall']:.3f} | {m['ms_mean']} |")
    return "\n".join(rows)


def write_card(out: Path) -> None:
    log = json.loads((out / "train_log.json").read_text())
    metrics = json.loads((out / "metrics.json").read_text())
    speed = json.loads((out / "speed.json").read_text())
    sizes = {p.name: p.stat().st_size for p in sorted(out.glob("*.onnx"))}
    text = f"""# Vision models (tile detector and tile classifier)

Written by `python tools/train_vision.py card` on {log['date']} (trained {log['date']}).

| file | what | size |
|---|---|---|
| `tile_detector.onnx` | {DETECTOR} | {sizes.get('tile_detector.onnx', 0) / 1e6:.2f} MB |
| `tile_classifier.onnx` | {CLASSIFIER} | {sizes.get('tile_classifier.onnx', 0) / 1e6:.2f} MB |

{DATA}
## Results
{_table(metrics)}

Speed, `benchmarks/vision_speed.py`: a 1280x720 frame of {speed['tiles']} tiles (two held-out
hust photos side by side), one thread on this project's 2-core x86 machine: tablekit
{speed['tablekit']['ms_median']} ms (F1 {speed['tablekit']['f1']}), mahjong-detector
{speed['mahjong-detector']['ms_median']} ms (F1 {speed['mahjong-detector']['f1']}):
{speed['speedup']}x faster.

## Training
- seed {log['seed']}, torch {log['torch']} on `{log['device']}` (one H200), detector
  {log['detector']['steps']} steps in {log['detector']['seconds']} s (batch 128 of 320x320
  warps), classifier {log['classifier']['steps']} steps in {log['classifier']['seconds']} s
  (batch 1024: 55% real crops, 25% not-a-tile, 20% tile art). The cosine schedule ends at the
  step or time budget, whichever comes first, so a rerun on another machine can stop at a
  different step: same seed, same data order, not bit-identical.
- Classifier calibration on {log['calibration']['crops']} crops of the held-apart source
  photos: temperature {log['calibration']['temperature']}, accuracy
  {log['calibration']['accuracy']}, expected calibration error
  {log['calibration']['ece_before']} -> {log['calibration']['ece_after']}.

Exact commands (from the repository root):

```
python tools/train_vision.py pack --data ../shared/data --pack .vision_pack/pack.npz
python {log['command'].replace('/root/out', 'models')}
python benchmarks/vision_accuracy.py --json models/metrics.json
python benchmarks/vision_speed.py --json models/speed.json
python tools/train_vision.py card --out models
```
(`fit` ran as `python3 tools/train_vision.py fit ...` on the GPU machine, writing to its output
folder; the ONNX files and `train_log.json` were copied here.)
"""
    (out / "README.md").write_text(text)
