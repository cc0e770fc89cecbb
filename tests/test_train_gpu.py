"""The GPU training script's choices that need no torch: which art sets the rigs train on."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tools"))

import train_gpu


def test_training_art_is_the_sets_marked_for_training_less_the_fallback(monkeypatch):
    from tablekit.sim import art

    monkeypatch.setattr(art, "training_art", lambda: ("a", "c", "fallback"))
    assert train_gpu.training_art() == ["a", "c"]


def test_rigs_cycle_through_the_sets():
    assert [train_gpu.cycling(["x", "y", "z"])(i) for i in range(4)] == ["x", "y", "z", "x"]


def test_small_scale_is_a_few_hundred_steps():
    small = train_gpu.SMALL
    assert 100 <= small["det_steps"] + small["photo_det_steps"] + small["cls_steps"] <= 400
