"""A face's pixels, compared beside the classifier's features by the nearest-face search:
the face's middle in grey, averaged in blocks, less its mean, at unit length.
:mod:`tablekit.vision.nearest` makes a bank's rows of them and
:func:`tablekit.vision.classifier_graph.with_bank` computes the same inside the reader's model.

>>> PIXEL_WIDTH
300
"""

from __future__ import annotations

import numpy as np

FEATURE_WIDTH = 256
"""The classifier's penultimate features a face."""
PIXEL_CUT = (4, 44, 3, 33)
"""The face's middle (rows, then columns of the 48 x 36 crop) its pixels are compared on."""
PIXEL_BLOCK = 2
"""Pixels averaged in blocks of this side: 20 x 15 numbers a face."""
PIXEL_WIDTH = ((PIXEL_CUT[1] - PIXEL_CUT[0]) // PIXEL_BLOCK) * \
    ((PIXEL_CUT[3] - PIXEL_CUT[2]) // PIXEL_BLOCK)
PIXEL_WEIGHT = 0.7
"""How much the pixels count beside the features: a face's similarity to a face of the bank
is ``(features' cosine + PIXEL_WEIGHT**2 * pixels' cosine) / (1 + PIXEL_WEIGHT**2)``. The
classifier learned other sets' faces; a set of the same colours throughout (KDE jade:
white strokes on red) differs between its characters by a stroke the features blur, and the
pixels keep it. Measured on the faces the reader cut from play after enrolling from each
rig's table (weights 0.7, 1 and 1.5, blocks of 2, 3 and 4 tried; the model card): the share
named right went 0.970 -> 0.993 on KDE jade (1,208 faces, 5 rigs), 0.990 -> 0.993 on GNOME
smooth (609, 2 rigs), 0.990 -> 0.990 on KDE classic (482, 2 rigs). Not for photos: a set
enrolled from labelled photos of the unseen-table group named 0.897-0.909 of its faces right
with pixels, 0.936-0.956 without (the faces of a photo lie at any angle and scale)."""


def unit(features: np.ndarray) -> np.ndarray:
    """Rows scaled to unit length (float32)."""
    features = np.asarray(features, np.float32)
    return features / np.maximum(np.linalg.norm(features, axis=1, keepdims=True), 1e-6)


def pixel_features(crops: np.ndarray) -> np.ndarray:
    """Each crop's (``(N, 3, 48, 36)``, as the classifier takes them) middle in grey,
    averaged in blocks, less its mean, at unit length: ``(N, PIXEL_WIDTH)``. The reader's
    model computes the same (:func:`~tablekit.vision.classifier_graph.with_bank`).

    >>> crops = np.zeros((2, 3, 48, 36), np.float32); crops[1, :, 4:24] = 1.0
    >>> found = pixel_features(crops)
    >>> found.shape, np.round(np.linalg.norm(found, axis=1), 3).tolist()
    ((2, 300), [0.0, 1.0])
    """
    top, bottom, left, right = PIXEL_CUT
    grey = np.asarray(crops, np.float32).mean(axis=1)[:, top:bottom, left:right]
    n, rows, columns = grey.shape
    block = PIXEL_BLOCK
    pooled = grey.reshape(n, rows // block, block, columns // block, block).mean(axis=(2, 4))
    pooled = pooled.reshape(n, -1)
    return unit(pooled - pooled.mean(axis=1, keepdims=True))  # plain grey: all zero


def with_pixels(bank: np.ndarray) -> bool:
    """Whether a bank's rows hold the faces' pixels too
    (:func:`tablekit.vision.nearest.embed`).

    >>> with_pixels(np.zeros((1, FEATURE_WIDTH + PIXEL_WIDTH))), with_pixels(np.zeros((1, 256)))
    (True, False)
    """
    return int(np.shape(bank)[1]) == FEATURE_WIDTH + PIXEL_WIDTH
