"""Who pays what: ron, tsumo, honba, riichi sticks, pao and multiple ron.

Seats are absolute, 0-3 (0-2 with three players); deltas hold one score change per player.

>>> from tablekit.rules.presets import TENHOU
>>> from tablekit.rules.scoring import HandValue
>>> value = HandValue(han=2, fu=30, yaku=(), fu_items=(), limit="", base=480, yakuman=0,
...                   is_dealer=False, tsumo=True)
>>> hand_payment(value, honba=1, sticks=0, rules=TENHOU).as_dict()
{'dealer': 1100, 'non_dealer': 600}
>>> settle_win(value, winner=1, dealer=0, discarder=None, honba=1, sticks=1, rules=TENHOU)
[-1100, 3300, -600, -600]

With three players the absent North's share of a tsumo is, by ``tsumo_payment``:
``"loss"`` not paid (Tenhou: a non-dealer mangan is 4,000 + 2,000); ``"bisection"`` split
between the two payers, so the winner gains what a ron would (each payer's four-player
share plus half the absent one's, rounded up to the 100: 5,000 + 3,000); ``"full"`` the ron
value, half from each payer whoever deals (4,000 + 4,000; a dealer's mangan is 6,000 from
each under either). A ron is paid as with four. Honba (``honba_value`` on a ron) are split
between the two payers of a tsumo: 100 each on Tenhou.

>>> from tablekit.rules.presets import TENHOU_SANMA, with_options
>>> mangan = HandValue(han=5, fu=30, yaku=(), fu_items=(), limit="mangan", base=2000,
...                    yakuman=0, is_dealer=False, tsumo=True)
>>> [settle_win(mangan, 1, 0, None, 1, 0, with_options(TENHOU_SANMA, tsumo_payment=way))
...  for way in ("loss", "bisection", "full")]
[[-4100, 6200, -2100], [-5100, 8200, -3100], [-4100, 8200, -4100]]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from tablekit.errors import InvalidHand
from tablekit.rules.presets import Rules
from tablekit.rules.scoring import PAO_YAKUMAN, HandValue, round_up


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
    payers: int = 3  # who pay a tsumo: the other players

    @property
    def total(self) -> int:
        """What the winner gains, honba and riichi sticks included."""
        if self.ron is not None:
            paid = self.ron
        elif self.all is not None:
            paid = self.payers * self.all
        else:
            paid = (self.dealer or 0) + (self.payers - 1) * (self.non_dealer or 0)
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
    payers = rules.players - 1
    per_payer = honba * rules.honba_value // payers
    if value.is_dealer:
        return Payment(all=tsumo_share(value.base, True, True, rules) + per_payer,
                       sticks=deposit, payers=payers)
    return Payment(dealer=tsumo_share(value.base, True, False, rules) + per_payer,
                   non_dealer=tsumo_share(value.base, False, False, rules) + per_payer,
                   sticks=deposit, payers=payers)


def tsumo_share(base: int, payer_is_dealer: bool, winner_is_dealer: bool, rules: Rules) -> int:
    """What one payer of a tsumo hands over for ``base`` basic points, honba apart.

    >>> from tablekit.rules.presets import TENHOU, TENHOU_SANMA, with_options
    >>> tsumo_share(480, True, False, TENHOU), tsumo_share(480, False, False, TENHOU_SANMA)
    (1000, 500)
    >>> halves = with_options(TENHOU_SANMA, tsumo_payment="bisection")
    >>> tsumo_share(480, True, False, halves), tsumo_share(480, False, False, halves)
    (1200, 800)
    """
    own = base * (2 if payer_is_dealer or winner_is_dealer else 1)
    if rules.players == 4 or rules.tsumo_payment in (None, "loss"):
        return round_up(own)
    if rules.tsumo_payment == "bisection":  # the absent North is never the dealer
        return round_up(own + base * (2 if winner_is_dealer else 1) / 2)
    return round_up(_ron_points(base, winner_is_dealer) / 2)


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
    ordered = sorted(claims, key=lambda c: (c.winner - discarder) % rules.players)
    if not ordered or any(c.winner == discarder for c in ordered):
        raise InvalidHand("a ron needs at least one winner other than the discarder")
    if len({c.winner for c in ordered}) != len(ordered):
        raise InvalidHand("the same player cannot win twice on one discard")
    if rules.multi_ron == "head_bump":
        ordered = ordered[:1]
    elif rules.multi_ron == "double" and len(ordered) > 2:
        raise InvalidHand("triple ron is an abortive draw under these rules, not a win")
    deltas = [0] * rules.players
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
    deltas = [0] * rules.players
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
    deltas = [0] * rules.players
    if units:
        deltas[liable] -= _ron_points(8000 * units, value.is_dealer) + honba * rules.honba_value
        honba = 0
    rest = value.base - 8000 * units
    per_payer = honba * rules.honba_value // (rules.players - 1)
    for seat in range(rules.players):
        if seat == claim.winner or (rest <= 0 and per_payer == 0):
            continue
        share = tsumo_share(rest, seat == dealer, value.is_dealer, rules) if rest > 0 else 0
        deltas[seat] -= share + per_payer
    deltas[claim.winner] = -sum(deltas)
    return deltas
