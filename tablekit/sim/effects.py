"""What a real camera adds: exposure and white balance, uneven light and glare, focus and
motion blur, sensor noise and JPEG artefacts. All of it from numbers in
:class:`Conditions`, drawn from a seeded generator.

>>> import numpy as np
>>> image = np.full((72, 128, 3), 120, np.uint8)
>>> bank = NoiseBank(np.random.default_rng(0), 72, 128)
>>> clean = apply_effects(image, Conditions(), bank, np.random.default_rng(1))
>>> bool((clean == image).all())
True
>>> rough = random_conditions(np.random.default_rng(2))
>>> apply_effects(image, rough, bank, np.random.default_rng(1)).shape
(72, 128, 3)
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, replace
from typing import Any

import cv2
import numpy as np

Glare = tuple[float, float, float, float]
"""(x, y) as fractions of the image, radius as a fraction of its width, strength 0-1."""


@dataclass(frozen=True)
class Conditions:
    """One frame's photometric conditions; the defaults change nothing."""

    exposure: float = 1.0
    white_balance: tuple[float, float, float] = (1.0, 1.0, 1.0)
    """Gains on blue, green and red."""
    light_centre: tuple[float, float] = (0.5, 0.5)
    light_falloff: float = 0.0
    """How much darker the light is at half the image diagonal from its centre."""
    vignette: float = 0.0
    glare: tuple[Glare, ...] = ()
    noise: float = 0.0
    """Sensor noise, standard deviation in grey levels."""
    focus_blur: float = 0.0
    """Gaussian sigma in pixels."""
    motion_blur: float = 0.0
    """Streak length in pixels."""
    motion_angle: float = 0.0
    jpeg_quality: int | None = None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def random_conditions(rng: np.random.Generator) -> Conditions:
    """Conditions as they vary between tables, lamps and cameras."""
    wb = np.exp(rng.normal(0, 0.05, 3))
    glare = tuple((rng.uniform(0.15, 0.85), rng.uniform(0.15, 0.85), rng.uniform(0.03, 0.12),
                   rng.uniform(0.1, 0.45)) for _ in range(int(rng.choice([0, 0, 1, 2]))))
    moving = rng.random() < 0.2
    return Conditions(
        exposure=float(np.exp(rng.normal(0, 0.12))),
        white_balance=tuple(float(v / wb[1]) for v in wb),  # type: ignore[arg-type]
        light_centre=(rng.uniform(0.2, 0.8), rng.uniform(0.2, 0.8)),
        light_falloff=rng.uniform(0.0, 0.35), vignette=rng.uniform(0.0, 0.3), glare=glare,
        noise=rng.uniform(1.0, 6.0),
        focus_blur=0.0 if rng.random() < 0.5 else rng.uniform(0.3, 1.3),
        motion_blur=rng.uniform(2.0, 7.0) if moving else 0.0,
        motion_angle=rng.uniform(0, math.pi),
        jpeg_quality=int(rng.integers(55, 96)) if rng.random() < 0.7 else None)


def drift(conditions: Conditions, rng: np.random.Generator) -> Conditions:
    """The next frame's conditions: auto exposure and white balance wander a little."""
    exposure = conditions.exposure * math.exp(rng.normal(0, 0.01))
    exposure = 1 + (exposure - 1) * 0.98
    wb = tuple(float(g * math.exp(rng.normal(0, 0.003))) for g in conditions.white_balance)
    return replace(conditions, exposure=exposure, white_balance=wb)  # type: ignore[arg-type]


class NoiseBank:
    """Gaussian noise drawn once, a little larger than the frame; each frame takes a
    crop at a random offset (drawing fresh noise every frame would cost more than the
    rest of the frame)."""

    PAD = 64

    def __init__(self, rng: np.random.Generator, height: int, width: int) -> None:
        shape = (height + self.PAD, width + self.PAD, 3)
        self.noise = rng.standard_normal(shape, dtype=np.float32)
        self.height, self.width = height, width

    def crop(self, rng: np.random.Generator) -> np.ndarray:
        y, x = rng.integers(0, self.PAD, 2)
        return self.noise[y:y + self.height, x:x + self.width]


def apply_effects(image: np.ndarray, conditions: Conditions, bank: NoiseBank,
                  rng: np.random.Generator) -> np.ndarray:
    """``image`` (BGR uint8) as the camera delivers it under ``conditions``."""
    out = blur(image, conditions)
    out = light(out, conditions)
    out = add_noise(out, conditions, bank, rng)
    if conditions.jpeg_quality is not None:
        out = jpeg(out, conditions.jpeg_quality)
    return out


def blur(image: np.ndarray, conditions: Conditions) -> np.ndarray:
    out = image
    if conditions.focus_blur > 0.05:
        out = cv2.GaussianBlur(out, (0, 0), conditions.focus_blur)
    if conditions.motion_blur >= 1.5:
        out = cv2.filter2D(out, -1, motion_kernel(conditions.motion_blur,
                                                  conditions.motion_angle))
    return out


def motion_kernel(length: float, angle: float) -> np.ndarray:
    """A normalised line of ``length`` pixels at ``angle`` radians.

    >>> (motion_kernel(3, 0.0) * 3).round(2).tolist()
    [[0.0, 0.0, 0.0], [1.0, 1.0, 1.0], [0.0, 0.0, 0.0]]
    """
    size = math.ceil(length) | 1
    kernel = np.zeros((size, size), np.float32)
    centre = size // 2
    dx, dy = math.cos(angle) * (length - 1) / 2, math.sin(angle) * (length - 1) / 2
    start = (round(centre - dx), round(centre - dy))
    end = (round(centre + dx), round(centre + dy))
    cv2.line(kernel, start, end, 1.0, 1)
    return kernel / kernel.sum()


def light(image: np.ndarray, conditions: Conditions) -> np.ndarray:
    """Exposure, white balance, uneven light, vignette (gains) and glare (added light)."""
    if _neutral_light(conditions):
        return image
    h, w = image.shape[:2]
    gain, glare = light_fields(conditions, (max(2, h // 20), max(2, w // 20)))
    gain = cv2.resize(gain, (w, h), interpolation=cv2.INTER_LINEAR)
    out = cv2.multiply(image, gain, dtype=cv2.CV_32F)
    if conditions.glare:
        glare = cv2.resize(glare, (w, h), interpolation=cv2.INTER_LINEAR)
        out = cv2.add(out, glare)
    return out


def _neutral_light(c: Conditions) -> bool:
    return (c.exposure == 1 and c.white_balance == (1, 1, 1) and c.light_falloff == 0
            and c.vignette == 0 and not c.glare)


def light_fields(conditions: Conditions, shape: tuple[int, int]
                 ) -> tuple[np.ndarray, np.ndarray]:
    """Low-resolution gain (H, W, 3) and added light (H, W, 3) fields."""
    h, w = shape
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    u, v = (xx + 0.5) / w, (yy + 0.5) / h
    aspect = w / h
    cx, cy = conditions.light_centre
    spot = ((u - cx) * aspect) ** 2 + (v - cy) ** 2
    edge = ((u - 0.5) * aspect) ** 2 + (v - 0.5) ** 2
    half_diagonal = (aspect ** 2 + 1) / 4
    base = (1 - conditions.light_falloff * spot / half_diagonal)
    base *= 1 - conditions.vignette * (edge / half_diagonal) ** 2
    wb = np.asarray(conditions.white_balance, np.float32)
    gain = base[..., None] * wb[None, None, :] * conditions.exposure
    added = np.zeros((h, w), np.float32)
    for gx, gy, radius, strength in conditions.glare:
        d2 = ((u - gx) * aspect) ** 2 + (v - gy) ** 2
        added += 255 * strength * np.exp(-d2 / (2 * (radius * aspect) ** 2))
    glare = added[..., None] * wb[None, None, :]
    return gain.astype(np.float32), glare.astype(np.float32)


def add_noise(image: np.ndarray, conditions: Conditions, bank: NoiseBank,
              rng: np.random.Generator) -> np.ndarray:
    """Sensor noise, then back to 8 bits (saturating)."""
    out = image if image.dtype == np.float32 else image.astype(np.float32)
    if conditions.noise > 0:
        out = cv2.scaleAdd(bank.crop(rng), conditions.noise, out)
    if image.dtype == np.uint8 and conditions.noise <= 0:
        return image
    return cv2.add(out, 0.0, dtype=cv2.CV_8U)


def jpeg(image: np.ndarray, quality: int) -> np.ndarray:
    ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, int(quality)])
    if not ok:
        raise RuntimeError("OpenCV could not encode a JPEG")
    return cv2.imdecode(data, cv2.IMREAD_COLOR)
