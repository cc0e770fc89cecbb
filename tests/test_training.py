"""The training package's choices that need no torch: the one entry point's commands, which art
sets the rigs train on, and the model card's commands read from the shipped models' logs."""

from __future__ import annotations

import shutil
from pathlib import Path

from training import card, retrain
from training.__main__ import COMMANDS, parser

MODELS = Path(__file__).resolve().parents[1] / "tablekit" / "models"


def test_training_art_is_the_sets_marked_for_training_less_the_fallback(monkeypatch):
    from tablekit.sim import art

    monkeypatch.setattr(art, "training_art", lambda: ("a", "c", "fallback"))
    assert retrain.training_art() == ["a", "c"]


def test_rigs_cycle_through_the_sets():
    assert [retrain.cycling(["x", "y", "z"])(i) for i in range(4)] == ["x", "y", "z", "x"]


def test_small_scale_is_a_few_hundred_steps():
    small = retrain.SMALL
    assert 100 <= small["det_steps"] + small["photo_det_steps"] + small["cls_steps"] <= 400


def test_one_entry_point_runs_every_step():
    assert list(COMMANDS) == ["pack", "photo", "tune-detector", "table", "retrain", "red-fives",
                              "refiner", "photo-classifier", "card"]


def test_every_command_that_trains_a_network_takes_a_device():
    for name in ("photo", "tune-detector", "table", "retrain", "refiner"):
        extra = ["--out", "x"] if name in ("tune-detector", "retrain") else []
        args = parser().parse_args([name, "--device", "cpu", *extra])
        assert args.device == "cpu" and args.run is COMMANDS[name][3]


def test_the_shipped_models_commands_parse_with_their_logged_options():
    """Each shipped log's command, given as the entry point's, parses to the options it ran
    with under the retired script (same defaults, same names)."""
    table = card.entry_command(card._load(MODELS, "table_train_log.json")["command"], "out")
    assert table == ("python -m training table --device cuda --out out --workers 15 "
                     "--render-until 95 --det-until 205 --cls-until 295")
    args = parser().parse_args(table.split()[3:])
    assert (args.seed, args.det_batch, args.cls_batch, args.cls_lr, args.sim_share,
            args.frames) == (8, 128, 1024, 1.5e-3, 0.6, 8)
    photo = card.entry_command(card._load(MODELS, "train_log.json")["command"])
    args = parser().parse_args(photo.split()[3:])
    assert (args.run, args.seed, args.lr, args.det_seconds, args.cls_batch) == \
        (COMMANDS["photo"][3], 6, 3e-3, 180, 1024)
    tune = card.entry_command(card._load(MODELS, "detector_tune_log.json")["command"],
                              "tablekit/models")
    args = parser().parse_args(tune.split()[3:])
    assert (args.seed, args.lr, args.tilt, args.det_batch) == (9, 1e-3, 0.6, 32)


def test_the_card_draft_gives_the_entry_points_commands(tmp_path):
    for path in MODELS.glob("*.json"):
        shutil.copy(path, tmp_path)
    card.write_card(tmp_path)
    draft = (tmp_path / "card-draft.md").read_text()
    assert "python -m training table --device cuda --out $OUT --workers 15" in draft
    assert "python -m training photo --pack .vision_pack/pack.npz --out OUT" in draft
    assert "python -m training tune-detector --out tablekit/models" in draft
    assert "--tilt 0.6 --start OUT/tile_detector.onnx" in draft
    assert "tools/train" not in draft


def test_the_refiners_logged_command_parses_to_the_shipped_net():
    log = card._load(MODELS, "box_refiner_log.json")
    args = parser().parse_args(log["command"].split()[3:])
    assert args.run is COMMANDS["refiner"][3]
    assert (args.widths, args.hidden, args.seconds, args.seed) == ([16, 32, 48, 64], 64, 600, 0)
    assert log["mean_iou_found_refined"]["chinese-test"][1] > \
        log["mean_iou_found_refined"]["chinese-test"][0]


def test_the_photo_classifiers_logged_command_parses_to_its_schedule():
    log = card._load(MODELS, "photo_classifier_log.json")
    args = parser().parse_args(log["command"].split()[3:])
    assert args.run is COMMANDS["photo-classifier"][3]
    assert (args.steps, args.lr, args.seed) == (800, 2e-4, 0) and log["steps"] == 800
    shipped, tuned = log["f1_shipped_tuned"]["hust-valid"]
    assert tuned >= shipped - 0.005  # the trained set's held-out photos read as before
