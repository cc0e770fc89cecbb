"""A second look at a five's colour: red or plain.

A red five differs from its plain five by its ink alone: every mark of a red five is red,
where a plain five has black, blue or green marks beside one red one (a plain 5s has four
green sticks and a red one; a plain 5m a black numeral over a red character). At a far
seat, about a dozen pixels a tile, the classifier's shapes blur and it can split about
evenly between the two, while the crop's colours still tell them apart. The check
measures how much of the crop's ink is redder, cooler, or no colour at all against the
face around it (:func:`colour_features`) and, with the classifier's own odds, gives each
suit's red-or-plain split by a logistic regression fitted on simulated tables
(``python -m training red-fives``, weights in ``tablekit/models/red_fives.json``). Only the
share between a five and its red five changes: their sum and every other class stay as the
classifier said.

>>> pair("s")
(36, 22)
>>> odds_only = Weights(np.zeros(7), np.ones(7), np.array([0, 0, 0, 0, 0, 0, 0, 5.0]))
>>> check = RedFiveCheck({"s": odds_only})
>>> probs = np.zeros((1, 39), np.float32); probs[0, [22, 36]] = 0.5, 0.3
>>> out = check.apply(np.zeros((1, 3, 48, 36), np.float32), probs)
>>> round(float(out[0, 36] + out[0, 22]), 3), bool(out[0, 36] < out[0, 22])
(0.8, True)
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from tablekit.vision.classes import class_index

SUITS = ("m", "p", "s")
WEIGHTS_PATH = Path(__file__).resolve().parents[1] / "models" / "red_fives.json"
SPLIT_FROM = 0.05
"""The check looks at a crop whose five and red five of one suit hold at least this much."""


def pair(suit: str) -> tuple[int, int]:
    """The classifier's indices of ``suit``'s red five and plain five."""
    return class_index(f"0{suit}"), class_index(f"5{suit}")


def colour_features(batch: np.ndarray) -> np.ndarray:
    """Six colour figures per crop of an NCHW RGB batch in [0, 1]: the ink redder than the
    face (mean, 90th percentile), cooler (mean, 90th percentile), without colour (darker
    or lighter, not redder or cooler), and the red share of all ink.

    >>> face = np.full((2, 3, 48, 36), 0.9, np.float32)
    >>> face[0, 1:, 10:30, 10:20] = 0.2   # red marks on the first, green on the second
    >>> face[1, ::2, 10:30, 10:20] = 0.2
    >>> f = colour_features(face); bool(f[0, 0] > f[1, 0]), bool(f[1, 2] > f[0, 2])
    (True, True)
    """
    inner = batch[:, :, 4:-4, 3:-3].reshape(len(batch), 3, -1)
    red, green, blue = inner[:, 0], inner[:, 1], inner[:, 2]
    redness = red - np.maximum(green, blue)
    light = inner.mean(axis=1)
    redder = redness - np.median(redness, axis=1, keepdims=True)
    lighter = light - np.median(light, axis=1, keepdims=True)
    warm, cool = np.clip(redder, 0, None), np.clip(-redder, 0, None)
    plain = np.clip(np.abs(lighter) - np.abs(redder), 0, None)
    totals = [warm.mean(1), np.percentile(warm, 90, axis=1), cool.mean(1),
              np.percentile(cool, 90, axis=1), plain.mean(1)]
    share = totals[0] / (totals[0] + totals[2] + totals[4] + 0.01)
    return np.stack([*totals, share], axis=1).astype(np.float64)


FEATURES = ("red", "red_p90", "cool", "cool_p90", "plain_ink", "red_share", "odds")


def features(colours: np.ndarray, probs: np.ndarray, suit: str) -> np.ndarray:
    """:data:`FEATURES` per crop for ``suit``: its :func:`colour_features` and the
    classifier's log odds of the red five against the plain one."""
    red, plain = pair(suit)
    odds = np.log((probs[:, [red]] + 1e-4) / (probs[:, [plain]] + 1e-4))
    return np.concatenate([colours, odds], axis=1)


def fit_logistic(x: np.ndarray, y: np.ndarray, l2: float = 1.0, steps: int = 50) -> np.ndarray:
    """Weights (bias first) of an L2-penalised logistic regression by Newton's method.

    >>> x = np.array([[-2.0], [-1.0], [1.0], [2.0]]); y = np.array([0.0, 0.0, 1.0, 1.0])
    >>> w = fit_logistic(x, y, l2=0.1); bool(w[1] > 1)
    True
    """
    design = np.concatenate([np.ones((len(x), 1)), x], axis=1)
    w = np.zeros(design.shape[1])
    penalty = np.full(len(w), l2)
    penalty[0] = 0.0
    for _ in range(steps):
        p = 1 / (1 + np.exp(-np.clip(design @ w, -30, 30)))
        grad = design.T @ (p - y) + penalty * w
        hess = (design * (p * (1 - p))[:, None]).T @ design + np.diag(penalty + 1e-9)
        step = np.linalg.solve(hess, grad)
        w -= step
        if np.abs(step).max() < 1e-8:
            break
    return w


@dataclass(frozen=True)
class Weights:
    """One suit's standardisation (``mean``, ``scale``) and weights (bias first)."""

    mean: np.ndarray
    scale: np.ndarray
    w: np.ndarray

    def red_probability(self, x: np.ndarray) -> np.ndarray:
        z = self.w[0] + ((x - self.mean) / self.scale) @ self.w[1:]
        return 1 / (1 + np.exp(-np.clip(z, -30, 30)))


@dataclass(frozen=True)
class RedFiveCheck:
    """Each suit's fitted :class:`Weights`; :meth:`apply` splits the fives' probability."""

    suits: dict[str, Weights]

    @classmethod
    def from_dict(cls, data: dict) -> RedFiveCheck:
        return cls({suit: Weights(*(np.asarray(data[suit][key], np.float64)
                                    for key in ("mean", "scale", "w")))
                    for suit in SUITS if suit in data})

    @classmethod
    def load(cls, path: Path = WEIGHTS_PATH) -> RedFiveCheck | None:
        """The shipped weights, or None where there are none (the classifier alone)."""
        return cls.from_dict(json.loads(path.read_text())) if path.is_file() else None

    def without(self, suits: tuple[str, ...]) -> RedFiveCheck | None:
        """The check for the other suits only (None: none left). A set named by its nearest
        faces that holds its own red fives of ``suits`` tells them apart by those faces: on
        KDE jade (white ink on red tiles, far from the art the check was fitted on) the check
        turned 6 of the 59 fives the nearest faces named right into the other five, and righted
        none (5 rigs, faces cut from play).

        >>> check = RedFiveCheck({"m": None, "s": None})
        >>> sorted(check.without(("m",)).suits), check.without(("m", "s"))
        (['s'], None)
        """
        left = {suit: weights for suit, weights in self.suits.items() if suit not in suits}
        return RedFiveCheck(left) if left else None

    def apply(self, batch: np.ndarray, probs: np.ndarray) -> np.ndarray:
        """``probs`` with each suit's five-or-red-five split from the colours of ``batch``
        (the classifier's NCHW input), where that pair holds at least :data:`SPLIT_FROM`."""
        pairs = {suit: pair(suit) for suit in self.suits}
        held = {suit: probs[:, red] + probs[:, plain] for suit, (red, plain) in pairs.items()}
        looked = np.nonzero(np.any([both >= SPLIT_FROM for both in held.values()], axis=0))[0]
        if len(looked) == 0:
            return probs
        colours = colour_features(batch[looked])  # once a crop, whichever suits it may be
        out = probs.copy()
        for suit, weights in self.suits.items():
            (red, plain), both = pairs[suit], held[suit][looked]
            mine = both >= SPLIT_FROM
            rows = looked[mine]
            q = weights.red_probability(features(colours[mine], probs[rows], suit))
            out[rows, red] = both[mine] * q
            out[rows, plain] = both[mine] * (1 - q)
        return out
