"""Write ``card-draft.md`` beside the models: the model card's figures as the training logs
and benchmarks give them, to be merged by hand into ``tablekit/models/README.md`` (the card
itself is written by hand; this never overwrites it).

Reads ``train_log.json`` (photo models), ``table_train_log.json`` (rectified-view detector,
the classifier's fine-tuning), ``metrics.json`` and ``speed.json`` (photo benchmarks),
``sim_metrics.json`` (``benchmarks/vision_sim.py``) and ``calibration_roundtrip.json``.
"""

from __future__ import annotations

import json
from pathlib import Path

DETECTOR = ("CenterNet-style tile finder for any photo: `image` (1, 3, H, W) RGB in [0, 1], H "
            "and W multiples of 32 -> `heat` (1, 1, H/4, W/4), `size` (1, 2, H/4, W/4) log w, h "
            "in cells, `offset` (1, 2, H/4, W/4)")
TABLE_DETECTOR = ("tile finder for the calibrated top-down view at 0.5 px/mm: `image` (1, 3, "
                  "512, 512) RGB in [0, 1] -> `heat` (1, 2, 128, 128) face up / face down, "
                  "`size` and `offset` as above")
CLASSIFIER = ("face classifier (both paths): `crops` (N, 3, 48, 36) upright RGB in [0, 1] -> "
              "`probs` (N, 39), temperature-scaled softmax over "
              "`tablekit.vision.classes.CLASSES`")
DATA = """\
## Data
- Photos (`tablekit.vision.datasets.training_images`, split by source photo): hust-riichi
  train (333 files = 112 source photos x ~3 Roboflow augmentations), chinese-mahjong-nohust
  train (360) and its valid split less two groups held out below: 837 photos, 616 source photos,
  13,114 labelled tiles. 8% of the source photos (64 photos) are kept apart to fit the
  classifier's temperature. Flowers and seasons (null in class_map.json) train as not-a-tile.
  CC BY 4.0: "Riichi Mahjong dataset, hust-xq5rx, Roboflow Universe" and Roboflow
  "chinese-mahjong-detection" (riichimahjongdetection).
- Tile art (CC0 FluffyStuff, M+ lietxia flat style, CC0 samoheen Hong Kong): 118 renders
  composited on random backgrounds and warped, the only source of red fives (`0m/0p/0s`) in
  the photo data.
- Simulated table (`tablekit.sim`, `tools/train_sim_data.py`): {views} top-down views
  (0.8 px/mm) from {rigs} seeded rigs (seeds 1000 up: table look, art set among fluffystuff,
  fluffystuff-black, lietxia and the fallback atlas, camera pose and lens, light, blur, noise,
  JPEG, arms) each playing one of 1,493 Tenhou logs (all but MahjongRepository/tenhou-python-bot,
  held out), 4 random moments a rig, {tiles:,} tiles. Each rig is calibrated from two of its
  frames the way a real table is; face polygons map to the view through the fitted camera.
  8% of the views are kept apart for the temperature. Three-player logs (not supported) and
  rigs whose markers hid in the calibration frames were skipped.
  `python tools/train_vision.py pack --sim-rigs N` adds raw sim frames to the photo pack too
  (for the next GPU training of the photo detector; not used yet).

## Held-out sets (never trained on)
- `hust-valid`: hust-riichi valid, 96 photos of the set seen in training (new photos).
- `unseen-table`: chinese-mahjong-nohust valid photos named `IMG_*`, 42 photos of a set, a
  camera and a pink table found nowhere in training. 7 of them are labelled all `1p` (14-42
  tiles each, impossible for one set): figures are given with and without them
  ("plausible labels").
- `chinese-test`: chinese-mahjong-nohust test, 63 photos: new photos of tables seen in training.
- sim frames: rigs 0..N-1 playing the held-out logs (`benchmarks/vision_sim.py`).

F1 counts a reading right when its box has IoU >= 0.5 with a labelled tile of the same kind; red
fives count as plain fives (the photo labels do not mark them) and `back` readings are left out.
On sim frames only face-up flat tiles at least 60% visible count; readings of face-down,
standing or mostly hidden tiles are neither right nor wrong.
"""


STAGE_ONE = """\
With the stage-1 classifier alone (commit bb68030, same detector): hust-valid F1 0.985
(recall 0.972), unseen-table (plausible labels) 0.828, chinese-test 0.961. Stage 2 keeps
chinese-test, lifts hust-valid through recall (tiles stage 1 called not-a-tile or scored
below 0.3) and leaves unseen-table where it was, short of the 0.85 target: the photo
detector finds 90% of that set's tiles (IoU 0.5, any class), the rest of the loss is
faces named wrong or called not-a-tile. Lifting it wants a GPU retraining of the photo
models (stronger scale, tilt and perspective augmentation; sim frames in the pack).
"""
SIM_NOTE = """\
The photo detector does not carry over to these frames (1280x720, faces about 25 px,
seen from straight above, art filling the face); neither does mahjong-detector.
"""


def _table(metrics: dict) -> str:
    rows = ["| held-out set | reader | photos | F1 | precision | recall | ms/photo (1 thread) |",
            "|---|---|---|---|---|---|---|"]
    for key, m in metrics.items():
        name, reader = key.split(" / ")
        rows.append(f"| {name} | {reader} | {m['photos']} | {m['f1']:.3f} | "
                    f"{m['precision']:.3f} | {m['recall']:.3f} | {m['ms_mean']} |")
    return "\n".join(rows)


def _sim_table(sim: dict) -> str:
    rows = ["| reader | frames | tiles | F1 | precision | recall | ms/frame median "
            "| F1 by art set |", "|---|---|---|---|---|---|---|---|"]
    for name, m in sim["readers"].items():
        arts = ", ".join(f"{k} {v:.2f}" for k, v in m["by_art"].items())
        rows.append(f"| {name} | {m['frames']} | {m['tiles']} | {m['f1']:.3f} | "
                    f"{m['precision']:.3f} | {m['recall']:.3f} | {m['ms_median']} | {arts} |")
    return "\n".join(rows)


def _calibrated(sim: dict, cal: dict) -> str:
    place, busy, sixty = sim["rectified_placement"], sim["busy"], sim["frame_of_60"]
    rectified = sim["readers"]["tablekit rectified"]
    timing = ", ".join(f"{k} {v} ms" for k, v in sixty.items() if isinstance(v, float))
    return f"""## Calibrated path (simulated table, `benchmarks/vision_sim.py`)
{sim['rigs']} rigs x {sim['frames_per_rig']} frames (1280x720), the same frames for every reader;
the rectified path reads the view of the rig's own calibration, the others the raw frame.

{_sim_table(sim)}

{SIM_NOTE}
- Commonest confusions (rectified): {', '.join(rectified['confusions'][:10])}.
- Placement of the rectified path's matched tiles: position error median
  {place['position_median_mm']} mm, 95th percentile {place['position_p95_mm']} mm; angle
  (seat's upright or a quarter to the left, as the truth) right within 10 degrees for
  {place['angle_right_share']:.1%}.
- Busy boxes: {busy['arms_covered_share']:.0%} of {busy['arms']} arms over the table have their
  fingertips in a busy box (30 mm margin); {busy['false_busy_share']:.0%} of
  {busy['armless_frames']} frames without arms have any busy box.
- Speed on the frame whose read found closest to 60 tiles ({sixty['tiles_found']} tiles,
  {sixty['face_up']} face up), one thread, median of 20: {timing}.
- Calibration round trip (`benchmarks/calibration_roundtrip.py`, {cal['calibrated']} of
  {cal['seeds']} rigs calibrated from {cal['frames']} frames, {cal['points']} table points
  each: zone corners and a felt grid, projected with the sim's true camera and mapped back):
  max error {cal['max_mm']} mm over all rigs, per-rig max {cal['mean_of_seed_max_mm']} mm on
  average ({cal['p95_of_seed_max_mm']} mm at the 95th percentile), {cal['seeds_over_2mm']} rigs
  at 2 mm or more. A plain homography of the same 16 corners: max
  {cal['homography_max_mm']} mm.
"""


def _training(log: dict, table: dict) -> str:
    return f"""## Training
- Photo detector (`tile_detector.onnx`, unchanged since {log['date']}): seed {log['seed']},
  torch {log['torch']} on `{log['device']}` (one H200), {log['detector']['steps']} steps in
  {log['detector']['seconds']} s (batch 128 of 320x320 warps).
- Classifier, stage 1 ({log['date']}, same GPU run): {log['classifier']['steps']} steps in
  {log['classifier']['seconds']} s (batch 1024: 55% real crops, 25% not-a-tile, 20% tile art),
  temperature {log['calibration']['temperature']}.
- Classifier, stage 2 and the table detector ({table['date']}, no GPU lent: torch
  {table['torch']} on {table['threads']} CPU threads here, seed {table['seed']}):
  the stage-1 network (batch norms folded, read back from its ONNX) fine-tuned
  {table['classifier']['steps']} steps in {table['classifier']['seconds']} s (batch
  {table['classifier']['batch']}: 55% sim patches, 45% photo patches incl. not-a-tile, 12% of
  it tile art); the table detector trained from scratch {table['detector']['steps']} steps in
  {table['detector']['seconds']} s (batch {table['detector']['batch']} of 128x128 crops of the
  0.5 px/mm views, quarter turns and mirrors, light and noise jitter). Temperature refitted on
  {table['calibration']['crops']} crops of held-apart rigs and photos:
  {table['calibration']['temperature']}, accuracy {table['calibration']['accuracy']} (not-a-tile
  included), expected calibration error {table['calibration']['ece_before']} ->
  {table['calibration']['ece_after']}.
- The cosine schedules end at the step or time budget, whichever comes first: same seed and
  data order, not bit-identical on another machine.
"""


TABLE_PACK = ("python tools/train_table.py pack --data ../shared/data "
              "--out .vision_pack/sim_pack.npz --rigs 220 --frames 4")
TABLE_FIT = ("python tools/train_table.py fit --sim .vision_pack/sim_pack.npz "
             "--photos .vision_pack/pack.npz --out models --det-seconds 480 --cls-seconds 360")


def _commands(log: dict) -> str:
    fit = log['command'].replace('/root/out', 'tablekit/models')
    return f"""Exact commands (from the repository root):

```
python tools/train_vision.py pack --data ../shared/data --pack .vision_pack/pack.npz
python {fit}
{TABLE_PACK}
git show bb68030:models/tile_classifier.onnx > .vision_pack/photo_classifier.onnx
{TABLE_FIT}
python benchmarks/vision_accuracy.py --json tablekit/models/metrics.json
python benchmarks/vision_speed.py --json tablekit/models/speed.json
python benchmarks/vision_sim.py --rigs 12 --frames 4 --json tablekit/models/sim_metrics.json
python benchmarks/calibration_roundtrip.py --seeds 100 \\
    --json tablekit/models/calibration_roundtrip.json
python tools/train_vision.py card --out tablekit/models
```
(the photo `fit` ran as `python3 tools/train_vision.py fit ...` on the GPU machine, writing to
its output folder; the table `fit` wrote to a scratch folder whose ONNX files and
`table_train_log.json` were copied here.)
"""


def _load(out: Path, name: str) -> dict:
    return json.loads((out / name).read_text())


def write_card(out: Path) -> None:
    log, table = _load(out, "train_log.json"), _load(out, "table_train_log.json")
    metrics, speed = _load(out, "metrics.json"), _load(out, "speed.json")
    sim, cal = _load(out, "sim_metrics.json"), _load(out, "calibration_roundtrip.json")["figures"]
    sizes = {p.name: p.stat().st_size / 1e6 for p in sorted(out.glob("*.onnx"))}
    pack = table.get("pack", {})
    data = DATA.format(views=table["views"], rigs=pack.get("rigs_asked", "?"),
                       tiles=table["tiles"])
    text = f"""# Vision models (tile detectors and tile classifier)

Written by `python tools/train_vision.py card` on {table['date']}.

| file | what | size |
|---|---|---|
| `tile_detector.onnx` | {DETECTOR} | {sizes.get('tile_detector.onnx', 0):.2f} MB |
| `table_detector.onnx` | {TABLE_DETECTOR} | {sizes.get('table_detector.onnx', 0):.2f} MB |
| `tile_classifier.onnx` | {CLASSIFIER} | {sizes.get('tile_classifier.onnx', 0):.2f} MB |

{data}
## Results on real photos (generic path, `benchmarks/vision_accuracy.py`)
{_table(metrics)}

{STAGE_ONE}
Speed, `benchmarks/vision_speed.py`: a 1280x720 frame of {speed['tiles']} tiles (two held-out
hust photos side by side), one thread on this project's 2-core x86 machine: tablekit
{speed['tablekit']['ms_median']} ms (F1 {speed['tablekit']['f1']}), mahjong-detector
{speed['mahjong-detector']['ms_median']} ms (F1 {speed['mahjong-detector']['f1']}):
{speed['speedup']}x faster.

{_calibrated(sim, cal)}
{_training(log, table)}
{_commands(log)}"""
    (out / "card-draft.md").write_text(text)
