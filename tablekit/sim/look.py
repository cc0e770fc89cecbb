"""How one simulated table looks: felt, rim, tile colours, art set and the main light.

>>> import numpy as np
>>> look = random_look(np.random.default_rng(3), art="fallback")
>>> look.art, len(look.felt), round(float(np.linalg.norm(look.light)), 6)
('fallback', 3, 1.0)
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

from tablekit.sim.art import load_art, training_art

BGR = tuple[int, int, int]

FELTS: dict[str, BGR] = {
    "green": (52, 104, 38), "blue": (118, 72, 28), "teal": (96, 102, 30),
    "grey": (74, 72, 70), "burgundy": (40, 32, 104), "black": (36, 36, 38),
    "navy": (72, 44, 24), "olive": (44, 92, 80),
}
BACKS: dict[str, BGR] = {
    "yellow": (40, 170, 226), "blue": (170, 96, 30), "green": (70, 140, 40),
    "orange": (30, 110, 225), "pink": (150, 110, 226), "navy": (90, 50, 30),
    "red": (40, 40, 190), "sky": (215, 165, 95),
}
RIMS: dict[str, BGR] = {"oak": (60, 105, 150), "walnut": (35, 55, 85), "black": (34, 34, 36),
                        "grey": (120, 120, 118)}


@dataclass(frozen=True)
class Look:
    """One table's appearance. Colours are BGR; ``light`` points towards the lamp."""

    art: str
    felt: BGR
    felt_grain: float
    back: BGR
    rim: BGR
    floor: BGR
    light: tuple[float, float, float]
    ambient: float
    shadow: float
    panel: bool

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def random_look(rng: np.random.Generator, art: str | None = None,
                felt: str | None = None) -> Look:
    """A table from the palettes, art from the training sets here (``use = "train"``) unless
    named; a set whose ``set.toml`` gives a back colour has its backs that colour."""
    art = art or str(rng.choice(training_art()))
    felt_name = felt or str(rng.choice(sorted(FELTS)))
    elevation = np.radians(rng.uniform(55, 85))
    azimuth = rng.uniform(0, 2 * np.pi)
    light = (np.cos(elevation) * np.cos(azimuth), np.cos(elevation) * np.sin(azimuth),
             np.sin(elevation))
    return Look(
        art=art, felt=_vary(rng, FELTS[felt_name], 10), felt_grain=rng.uniform(4, 11),
        back=_vary(rng, _back(art, BACKS[str(rng.choice(sorted(BACKS)))]), 8),
        rim=_vary(rng, RIMS[str(rng.choice(sorted(RIMS)))], 10),
        floor=_vary(rng, (48, 52, 58), 12),
        light=tuple(float(v) for v in light),  # type: ignore[arg-type]
        ambient=rng.uniform(0.45, 0.65), shadow=rng.uniform(0.35, 0.6),
        panel=bool(rng.random() < 0.7))


def _back(art: str, drawn: BGR) -> BGR:
    """The set's own back colour, else ``drawn`` (drawn either way: the rig stays the same)."""
    return load_art(art).back or drawn


def _vary(rng: np.random.Generator, colour: BGR, spread: float) -> BGR:
    varied = np.clip(np.asarray(colour) + rng.normal(0, spread, 3), 0, 255)
    blue, green, red = (int(v) for v in varied)
    return blue, green, red
