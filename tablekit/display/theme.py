"""Colours, and the size unit every length on a screen is a multiple of.

>>> unit((800, 480)), unit((1920, 1080)), unit((480, 800))
(4.8, 10.8, 2.88)
"""

from __future__ import annotations

Colour = tuple[int, int, int]

BACKGROUND: Colour = (14, 52, 40)       # table felt
PANEL: Colour = (24, 76, 58)
PANEL_EDGE: Colour = (70, 130, 104)
TEXT: Colour = (246, 242, 230)
MUTED: Colour = (168, 196, 182)
NEGATIVE: Colour = (255, 128, 116)
POSITIVE: Colour = (140, 232, 150)
GOLD: Colour = (242, 190, 36)           # the dealer marker, highlights, limits
DARK: Colour = (22, 26, 30)
STICK: Colour = (250, 250, 244)
STICK_DOT: Colour = (214, 28, 40)
STICK_EMPTY: Colour = (64, 100, 88)
WARNING: Colour = (250, 168, 24)
STATUS: Colour = (34, 38, 44)
TENPAI: Colour = (56, 168, 88)
NOTEN: Colour = (92, 98, 106)
WIN_FRAME: Colour = (242, 190, 36)


def unit(size: tuple[int, int]) -> float:
    """One hundredth of the screen's height, or of its width / (5/3) when narrower."""
    width, height = size
    return round(min(width * 0.6, height) / 100, 3)


def signed(points: int) -> str:
    """Points with a sign (a true minus sign), as deltas and differences are shown.

    >>> signed(7700), signed(-1500), signed(0)
    ('+7,700', '−1,500', '±0')
    """
    if points == 0:
        return "±0"
    return f"{'+' if points > 0 else '−'}{abs(points):,}"


def points_text(points: int) -> str:
    """A score as the table reads it.

    >>> points_text(25000), points_text(-1200)
    ('25,000', '−1,200')
    """
    return f"{'−' if points < 0 else ''}{abs(points):,}"


def delta_colour(points: int) -> Colour:
    return POSITIVE if points > 0 else NEGATIVE if points < 0 else MUTED
