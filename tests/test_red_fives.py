"""The red-five check: the colour of a far seat's five decides what the classifier cannot."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from tablekit.sim.art import load_art
from tablekit.vision.classes import CLASSES, class_index
from tablekit.vision.red_fives import RedFiveCheck, pair


def far_crop(code: str, pixels: int = 12) -> np.ndarray:
    """A fallback-art face shrunk to ``pixels`` wide (a far seat), blown up again to the
    classifier's 48 x 36, as one NCHW RGB row in [0, 1]."""
    face = load_art("fallback").face(code, 64)[:, :, :3]
    small = cv2.resize(face, (pixels, round(pixels * 4 / 3)), interpolation=cv2.INTER_AREA)
    crop = cv2.resize(small, (36, 48), interpolation=cv2.INTER_LINEAR)[:, :, ::-1]
    return (crop.transpose(2, 0, 1)[None] / 255).astype(np.float32)


def even_split(suit: str) -> np.ndarray:
    """Probabilities that cannot tell ``suit``'s five from its red five."""
    probs = np.full((1, len(CLASSES)), 0.1 / (len(CLASSES) - 2), np.float32)
    probs[0, list(pair(suit))] = 0.45
    return probs


@pytest.fixture(scope="module")
def check() -> RedFiveCheck:
    loaded = RedFiveCheck.load()
    assert loaded is not None, "tablekit/models/red_fives.json ships with the models"
    return loaded


@pytest.mark.parametrize("suit", ["m", "p", "s"])
def test_a_far_seats_five_is_told_by_its_colour(check: RedFiveCheck, suit: str) -> None:
    red, plain = class_index(f"0{suit}"), class_index(f"5{suit}")
    for code, expected in ((f"0{suit}", red), (f"5{suit}", plain)):
        out = check.apply(far_crop(code), even_split(suit))
        assert int(np.argmax(out[0, [red, plain]])) == [red, plain].index(expected), code


def test_only_the_pairs_split_changes(check: RedFiveCheck) -> None:
    probs = even_split("s")
    probs[0, class_index("7z")] = 0.2
    out = check.apply(far_crop("0s"), probs)
    red, plain = pair("s")
    assert out[0, red] + out[0, plain] == pytest.approx(0.9, abs=1e-6)
    others = np.ones(len(CLASSES), bool)
    others[[red, plain]] = False
    assert np.array_equal(out[0, others], probs[0, others])


def test_a_crop_without_a_five_is_left_alone(check: RedFiveCheck) -> None:
    probs = np.zeros((1, len(CLASSES)), np.float32)
    probs[0, class_index("3m")] = 0.99
    probs[0, class_index("5s")] = 0.01
    assert np.array_equal(check.apply(far_crop("3m"), probs), probs)
