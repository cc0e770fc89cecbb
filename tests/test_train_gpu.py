"""The GPU training script's choices that need no torch: which art sets the rigs train on."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tools"))

import train_gpu


def test_training_art_leaves_out_the_never_trained_sets(monkeypatch):
    from tablekit.sim import art

    class Marked:
        def __init__(self, use):
            self.use = use

    uses = {"a": "train", "b": "test", "hongkong": "train", "fallback": "train"}
    monkeypatch.setattr(art, "available_art", lambda: ("a", "b", "c", "hongkong", "fallback"))
    monkeypatch.setattr(art, "load_art", lambda name: Marked(uses.get(name, "train")))
    assert train_gpu.training_art() == ["a", "c"]


def test_rigs_cycle_through_the_sets():
    assert [train_gpu.cycling(["x", "y", "z"])(i) for i in range(4)] == ["x", "y", "z", "x"]


def test_small_scale_is_a_few_hundred_steps():
    small = train_gpu.SMALL
    assert 100 <= small["det_steps"] + small["photo_det_steps"] + small["cls_steps"] <= 400
