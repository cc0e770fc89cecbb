"""Who pays what: ron, tsumo, honba, riichi sticks, pao and multiple ron.

Seats are absolute, 0-3; deltas are lists of four score changes.

>>> from tablekit.rules.presets import TENHOU
>>> from tablekit.rules.scoring import HandValue
>>> value = HandValue(han=2, fu=30, yaku=(), fu_items=(), limit="", base=480, yakuman=0,
...                   is_dealer=False, tsumo=True)
>>> hand_payment(value, honba=1, sticks=0, rules=TENHOU).as_dict()
{'dealer': 1100, 'non_dealer': 600}
>>> settle_win(value, winner=1, dealer=0, discarder=None, honba=1, sticks=1, rules=TENHOU)
[-1100, 3300, -600, -600]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from tablekit.errors import InvalidHand
from tablekit.rules.presets import Rules
from tablekit.rules.scoring import PAO_YAKUMAN, HandValue, round_up

SEATS = 4


@dataclass(frozen=True)
class Payment:
    """What each payer hands over for one win, honba included (sticks apart).

    Exactly one shape is filled: ``ron``; ``dealer`` + ``non_dealer`` (a
    non-dealer's tsumo); or ``all`` (the dealer's tsumo).
    """

    ron: int | None = None
    dealer: int | None = None
    non_dealer: int | None = None
    all: int | None = None
    sticks: int = 0

    @property
    def total(self) -> int:
        """What the winner gains, honba and riichi sticks included."""
        if self.ron is not None:
            paid = self.ron
        elif self.all is not None:
            paid = 3 * self.all
        else:
            paid = (self.dealer or 0) + 2 * (self.non_dealer or 0)
        return paid + self.sticks

    def as_dict(self) -> dict[str, int]:
        keys = ("ron", "dealer", "non_dealer", "all")
        return {k: getattr(self, k) for k in keys if getattr(self, k) is not None}


@dataclass(frozen=True)
class Claim:
    """One winner on a discard (or the one tsumo), with the seat liable for pao if any."""

    winner: int
    value: HandValue
    pao_seat: int | None = None


def hand_payment(value: HandValue, honba: int, sticks: int, rules: Rules) -> Payment:
    """The payments of a win without pao, as a table announces them."""
    deposit = sticks * rules.riichi_deposit
    if not value.tsumo:
        return Payment(ron=_ron_points(value.base, value.is_dealer) + honba * rules.honba_value,
                       sticks=deposit)
    per_payer = honba * rules.honba_value // 3
    if value.is_dealer:
        return Payment(all=round_up(2 * value.base) + per_payer, sticks=deposit)
    return Payment(dealer=round_up(2 * value.base) + per_payer,
                   non_dealer=round_up(value.base) + per_payer, sticks=deposit)


def settle_win(value: HandValue, winner: int, dealer: int, discarder: int | None,
               honba: int, sticks: int, rules: Rules, pao_seat: int | None = None) -> list[int]:
    """Score changes for a single win (tsumo when ``discarder`` is None)."""
    claim = Claim(winner, value, pao_seat)
    if discarder is None:
        deltas = _tsumo_deltas(claim, dealer, honba, rules)
    else:
        deltas = _ron_deltas(claim, discarder, honba, rules)
    deltas[winner] += sticks * rules.riichi_deposit
    return deltas


def settle_ron(claims: Sequence[Claim], discarder: int, dealer: int, honba: int, sticks: int,
               rules: Rules) -> list[int]:
    """Score changes when one or more players win on the same discard.

    Winners count from the discarder's right; the nearest takes the riichi sticks,
    and the honba too unless the rules pay honba to each winner.
    """
    ordered = sorted(claims, key=lambda c: (c.winner - discarder) % SEATS)
    if not ordered or any(c.winner == discarder for c in ordered):
        raise InvalidHand("a ron needs at least one winner other than the discarder")
    if len({c.winner for c in ordered}) != len(ordered):
        raise InvalidHand("the same player cannot win twice on one discard")
    if rules.multi_ron == "head_bump":
        ordered = ordered[:1]
    elif rules.multi_ron == "double" and len(ordered) > 2:
        raise InvalidHand("triple ron is an abortive draw under these rules, not a win")
    deltas = [0] * SEATS
    for index, claim in enumerate(ordered):
        own_honba = honba if index == 0 or rules.multi_ron_honba == "each" else 0
        for seat, delta in enumerate(_ron_deltas(claim, discarder, own_honba, rules)):
            deltas[seat] += delta
    deltas[ordered[0].winner] += sticks * rules.riichi_deposit
    return deltas


def _ron_points(base: int, is_dealer: bool) -> int:
    return round_up(base * (6 if is_dealer else 4))


def _pao_yakuman(value: HandValue) -> int:
    return sum(y.yakuman for y in value.yaku if y.name in PAO_YAKUMAN and y.yakuman)


def _ron_deltas(claim: Claim, discarder: int, honba: int, rules: Rules) -> list[int]:
    value = claim.value
    amount = _ron_points(value.base, value.is_dealer)
    deltas = [0] * SEATS
    liable = claim.pao_seat if rules.pao else None
    if liable is not None and liable != discarder and _pao_yakuman(value):
        units = min(_pao_yakuman(value), value.yakuman)
        share = _ron_points(8000 * units, value.is_dealer) // 2
        deltas[liable] -= share
        amount -= share
    deltas[discarder] -= amount + honba * rules.honba_value
    deltas[claim.winner] = -sum(deltas)
    return deltas


def _tsumo_deltas(claim: Claim, dealer: int, honba: int, rules: Rules) -> list[int]:
    value = claim.value
    liable = claim.pao_seat if rules.pao else None
    units = min(_pao_yakuman(value), value.yakuman) if liable is not None else 0
    deltas = [0] * SEATS
    if units:
        deltas[liable] -= _ron_points(8000 * units, value.is_dealer) + honba * rules.honba_value
        honba = 0
    rest = value.base - 8000 * units
    per_payer = honba * rules.honba_value // 3
    for seat in range(SEATS):
        if seat == claim.winner or (rest <= 0 and per_payer == 0):
            continue
        share = 2 * rest if value.is_dealer or seat == dealer else rest
        deltas[seat] -= (round_up(share) if rest > 0 else 0) + per_payer
    deltas[claim.winner] = -sum(deltas)
    return deltas
