"""Pairing a revealed hand's faces with its confirmed tiles in the order players lay them.

A winner lays the hand face up in order: each suit's tiles together, low to high (the
suits in the player's own order), the winning tile apart at the right end, the melds
beyond it. The faces found in the winner's hand row, taken left to right as the winner
sees them, are paired with that sequence by :func:`align` (a face the camera missed, or
one it found twice, is skipped), in the suits' order that explains the row best; the
melds' tiles are paired with the faces left over by the reader's likeliest pairing
(:func:`tablekit.recording.faces.assign`). Pairing by place is what a weak reader gets
right: on the simulated table with the KDE default art (the reader naming 68% of the
winning hands' faces right) the faces paired by likelihood alone were named right 88% of
the time, in order 93% (GNOME smooth: 97% and 100%; a whole game's five won hands, the three
frames of each that enrollment reads, against the simulator's truth).

>>> probs = np.array([[0.5, 0.4, 0.1], [0.6, 0.3, 0.1], [0.1, 0.1, 0.8]])
>>> align(np.log(probs[:, [0, 1, 2]]))[1]      # face 1 is 0 more surely, but lies second
[(0, 0), (1, 1), (2, 2)]
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

import numpy as np

SUITS = ("m", "p", "s", "z")
SKIP = float(np.log(1e-3))
"""The log-probability that pays for a face left unpaired (found twice, or not a tile of
the hand) or a tile left without a face (hidden by an arm, not found)."""
FLOOR = 1e-6


def laid(codes: Sequence[str], suits: Sequence[str] = SUITS) -> list[int]:
    """The positions of ``codes`` in the order a player lays them: by suit in the order
    ``suits``, low to high (a red five beside the plain fives; equal codes as they come).

    >>> codes = ["7p", "1m", "5z", "3m"]
    >>> [codes[k] for k in laid(codes, ("z", "m", "p", "s"))]
    ['5z', '1m', '3m', '7p']
    """
    def place(k: int) -> tuple[int, float]:
        code = codes[k]
        return suits.index(code[1]), 5.5 if code[0] == "0" else float(code[0])
    return sorted(range(len(codes)), key=place)


def align(logp: np.ndarray, skip: float = SKIP) -> tuple[float, list[tuple[int, int]]]:
    """The pairs ``(face, tile)`` of the monotone pairing of faces (rows) with tiles
    (columns), both in order, that has the most log-probability ``logp`` (each skipped
    face or tile costs ``skip``; the faces after the last tile's are free: the melds lie
    there), and that log-probability."""
    faces, tiles = logp.shape
    score = np.full((faces + 1, tiles + 1), -np.inf)
    score[0, :] = np.arange(tiles + 1) * skip
    score[:, 0] = np.arange(faces + 1) * skip
    step = np.zeros((faces + 1, tiles + 1), np.int8)
    for i in range(1, faces + 1):
        for j in range(1, tiles + 1):
            options = (score[i - 1, j - 1] + logp[i - 1, j - 1], score[i - 1, j] + skip,
                       score[i, j - 1] + skip)
            step[i, j] = int(np.argmax(options))
            score[i, j] = options[step[i, j]]
    last = int(np.argmax(score[:, tiles]))
    pairs, i, j = [], last, tiles
    while i > 0 and j > 0:
        if step[i, j] == 0:
            pairs.append((i - 1, j - 1))
        i, j = (i - 1, j - 1) if step[i, j] == 0 else (i - 1, j) if step[i, j] == 1 else (i, j - 1)
    return float(score[last, tiles]), sorted(pairs)


def pair_in_order(probs: np.ndarray, xs: Sequence[float], hand: Sequence[str],
                  win_tile: str | None, columns: Sequence[int]
                  ) -> list[tuple[int, int]]:
    """Pairs ``(face, position in hand)`` of the faces (``probs`` their class
    probabilities, ``xs`` their places left to right) with the revealed ``hand``
    (``columns``: each code's class), the winning tile last, in the suits' order that
    pairs them likeliest.

    >>> probs = np.full((3, 4), 0.1); probs[[0, 1, 2], [2, 1, 3]] = 0.7
    >>> pair_in_order(probs, [30.0, 10.0, 20.0], ["2m", "1m", "3m", "9p"], "3m", [0, 1, 2, 3])
    [(0, 2), (1, 1), (2, 3)]
    """
    order = np.argsort(np.asarray(xs, np.float64), kind="stable")
    won = list(hand).index(win_tile) if win_tile in hand else None
    rest = [k for k in range(len(hand)) if k != won]
    logp = np.log(np.clip(np.asarray(probs, np.float64)[order], FLOOR, 1.0))
    best: tuple[float, list[tuple[int, int]]] | None = None
    tried: set[tuple[int, ...]] = set()
    for suits in itertools.permutations(SUITS):
        sequence = [rest[k] for k in laid([hand[k] for k in rest], suits)]
        sequence += [won] if won is not None else []
        if tuple(sequence) in tried:   # the suits the hand lacks moved about
            continue
        tried.add(tuple(sequence))
        score, pairs = align(logp[:, [columns[k] for k in sequence]])
        if best is None or score > best[0]:
            best = (score, [(int(order[face]), sequence[at]) for face, at in pairs])
    return sorted(best[1]) if best else []
