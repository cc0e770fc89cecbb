"""Point sticks: what a player should hold for a score, and what a payment hands over.

A standard set has 10,000, 5,000, 1,000 and 100 sticks. :func:`holding` keeps change the
way the starting stacks do (up to ten 100s, four 1,000s and two 5,000s); :func:`handing_over`
uses the fewest sticks.

>>> holding(25000)
Sticks(ten_thousand=1, five_thousand=2, thousand=4, hundred=10)
>>> holding(25000).label()
'10k×1 5k×2 1k×4 100×10'
>>> handing_over(7700).label()
'5k×1 1k×2 100×7'
"""

from __future__ import annotations

from dataclasses import dataclass

VALUES = (10000, 5000, 1000, 100)
SHORT = {10000: "10k", 5000: "5k", 1000: "1k", 100: "100"}
# (stick value, how many make the next stick up, most kept as change)
_CHANGE = ((100, 10, 10), (1000, 5, 4), (5000, 2, 2))


@dataclass(frozen=True)
class Sticks:
    """Counts of each stick, largest first."""

    ten_thousand: int = 0
    five_thousand: int = 0
    thousand: int = 0
    hundred: int = 0

    @property
    def counts(self) -> tuple[tuple[int, int], ...]:
        """``(value, count)`` pairs, largest value first."""
        return tuple(zip(VALUES, (self.ten_thousand, self.five_thousand, self.thousand,
                                  self.hundred), strict=True))

    @property
    def total(self) -> int:
        """The points the sticks are worth.

        >>> Sticks(1, 2, 4, 10).total
        25000
        """
        return sum(value * count for value, count in self.counts)

    def label(self, skip_zero: bool = True) -> str:
        """``10k×1 5k×2 ...``; ``-`` when there is nothing to show."""
        parts = [f"{SHORT[v]}×{n}" for v, n in self.counts if n or not skip_zero]
        return " ".join(parts) or "-"


def holding(points: int) -> Sticks:
    """The sticks a player with ``points`` should hold, keeping change like the start stacks.

    Nothing is held at zero or below (the player owes); odd amounts under 100 are dropped.

    >>> holding(38500).label(), holding(9700).label()
    ('10k×3 5k×1 1k×3 100×5', '5k×1 1k×4 100×7')
    >>> holding(30000).label(), holding(1000).label(), holding(-2300).label()
    ('10k×2 5k×1 1k×4 100×10', '1k×1', '-')
    >>> all(holding(p).total == p for p in range(0, 200000, 100))
    True
    """
    rest = max(points, 0) // 100 * 100
    counts: dict[int, int] = {}
    for value, per_next, keep in _CHANGE:
        group = value * per_next
        count = rest % group // value
        while count + per_next <= keep and rest - count * value >= 2 * group:
            count += per_next
        counts[value] = count
        rest -= count * value
    return Sticks(rest // 10000, counts[5000], counts[1000], counts[100])


def handing_over(amount: int) -> Sticks:
    """The fewest sticks that pay ``amount`` (its absolute value; under 100 is dropped).

    >>> handing_over(12000), handing_over(-2600).label()
    (Sticks(ten_thousand=1, five_thousand=0, thousand=2, hundred=0), '1k×2 100×6')
    """
    rest = abs(amount) // 100 * 100
    counts = []
    for value in VALUES:
        counts.append(rest // value)
        rest %= value
    return Sticks(*counts)
