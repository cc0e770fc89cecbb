"""What a recorded game's journal says people confirmed, hand by hand, and when.

A hand won is the moment a recording shows the most that people stood behind: the winner's
hand lies revealed (the win confirmed, or fixed, by the players), the dora indicators (and
ura) are turned, and every discard lies in its pond. :func:`won_hands` takes, from the
journal's events in force, each won hand's confirmed tiles: each winner's revealed hand
with its melds (they lie in the winner's hand row), the dora and ura indicators as
corrected, and each seat's pond (its discards as corrected, less those called away).
:func:`when_won` finds when each was won on the recording's clock: the WIN press of a
winner that follows the last hand won's (and its confirmation, where the recording keeps
when the journal's lines were written).

>>> from tablekit.game.events import Discard, DoraRevealed, HandStarted, Won, WinnerHand
>>> from tablekit.tiles import Tile
>>> t = Tile.from_code
>>> events = [HandStarted(), DoraRevealed(t("3s")), Discard(1, t("9m")),
...           Won((WinnerHand(0, tuple(map(t, ["1m", "1m", "2p"]))),), from_seat=1)]
>>> hand = won_hands(events)[0]
>>> hand.winners, hand.dora, hand.ponds
({0: ['1m', '1m', '2p']}, ['3s'], {1: ['9m']})
>>> when_won([{"t": 9.5, "button": "win", "seat": 2}, {"t": 12.0, "button": "win", "seat": 0}],
...          [hand])
[12.0]
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from tablekit.game.events import (
    Call,
    Discard,
    DiscardCorrected,
    DoraCorrected,
    DoraRevealed,
    HandStarted,
    Won,
)
from tablekit.game.session import in_force


@dataclass
class WonHand:
    """One hand won, as the journal has it confirmed (tile codes, red fives as ``0m``...)."""

    winners: dict[int, list[str]] = field(default_factory=dict)
    """Each winner's seat: the revealed hand with the winning tile and the seat's melds."""
    win_tiles: dict[int, str] = field(default_factory=dict)
    """Each winner's winning tile."""
    revealed: dict[int, int] = field(default_factory=dict)
    """How many of ``winners[seat]`` are the concealed hand (with the winning tile); the
    rest are the melds."""
    dora: list[str] = field(default_factory=list)
    ura: list[str] = field(default_factory=list)
    ponds: dict[int, list[str]] = field(default_factory=dict)
    """Each seat's discards lying in its pond when the hand was won."""

    def too_many(self) -> set[str]:
        """Kinds the hand's tiles show more of than a set holds (four of a kind, one red
        five each): a discard among them was read wrong and left uncorrected.

        >>> sorted(WonHand({0: ["0p", "5p"]}, ponds={1: ["0p", "5p", "5p", "1z"]}).too_many())
        ['0p', '5p']
        """
        codes = [c for tiles in (*self.winners.values(), self.dora, self.ura,
                                 *self.ponds.values()) for c in tiles]
        kinds = Counter(code.replace("0", "5") for code in codes)
        reds = Counter(code for code in codes if code.startswith("0"))
        over = {kind for kind, n in kinds.items() if n > 4}
        over |= {red for red, n in reds.items() if n > 1}
        return over | {red for red in ("0m", "0p", "0s") if red.replace("0", "5") in over}


@dataclass
class _Hand:
    dora: list[str] = field(default_factory=list)
    discards: dict[int, list[str | None]] = field(default_factory=dict)
    melds: dict[int, list[list[str]]] = field(default_factory=dict)

    def call(self, event: Call) -> None:
        tiles = [tile.code for tile in event.tiles]
        melds = self.melds.setdefault(event.seat, [])
        if event.kind == "shouminkan":   # the pon it adds to becomes the kan
            plain = tiles[0].replace("0", "5")
            melds[:] = [m for m in melds if {c.replace("0", "5") for c in m} != {plain}]
        melds.append(tiles)
        if event.from_seat is not None and event.kind in ("chi", "pon", "kan"):
            pond = self.discards.get(event.from_seat, [])
            if pond:
                pond[-1] = None   # the called tile left the pond (its index still counts)


def won_hands(events: Sequence[Any]) -> list[WonHand]:
    """Each hand won in ``events`` (undone ones left out), with the tiles people confirmed."""
    active, _ = in_force(list(events))
    hand, out = _Hand(), []
    for event in active:
        if isinstance(event, HandStarted):
            hand = _Hand()
            if event.dora is not None:
                hand.dora.append(event.dora.code)
        elif isinstance(event, DoraRevealed):
            hand.dora.append(event.indicator.code)
        elif isinstance(event, DoraCorrected) and 0 <= event.index < len(hand.dora):
            hand.dora[event.index] = event.tile.code
        elif isinstance(event, Discard):
            hand.discards.setdefault(event.seat, []).append(event.tile.code)
        elif isinstance(event, DiscardCorrected):
            pond = hand.discards.get(event.seat, [])
            if 0 <= event.index < len(pond) and pond[event.index] is not None:
                pond[event.index] = event.tile.code
        elif isinstance(event, Call):
            hand.call(event)
        elif isinstance(event, Won):
            won = WonHand(dora=list(hand.dora), ura=[tile.code for tile in event.ura])
            for winner in event.winners:
                if winner.hand:
                    melds = hand.melds.get(winner.seat, [])
                    won.winners[winner.seat] = [tile.code for tile in winner.hand] + [
                        code for meld in melds for code in meld]
                    won.revealed[winner.seat] = len(winner.hand)
                    if winner.win_tile is not None:
                        won.win_tiles[winner.seat] = winner.win_tile.code
            won.ponds = {seat: [code for code in pond if code is not None]
                         for seat, pond in sorted(hand.discards.items())}
            out.append(won)
    return out


def when_won(presses: Sequence[dict[str, Any]], hands: Sequence[WonHand],
             confirmed: Sequence[float | None] | None = None) -> list[float | None]:
    """The recording's time of each won hand: the first WIN press by one of its winners
    after the last hand's (None: no such press; a hand scored without a revealed hand
    has no winners and no time).

    ``confirmed``: when each hand's win was confirmed (written to the journal), where the
    recording says so (format 2). A winner's presses while the last hand's win waited for
    its confirmation (a corrected hand is fixed with the seats' buttons, WIN among them)
    are not this hand's WIN, nor are presses after this hand's own confirmation:

    >>> again = [{"t": 5.0, "button": "win", "seat": 0}, {"t": 6.0, "button": "win", "seat": 0},
    ...          {"t": 9.0, "button": "win", "seat": 0}]
    >>> hands = [WonHand({0: ["1m"]}), WonHand({0: ["2m"]})]
    >>> when_won(again, hands), when_won(again, hands, [7.0, 9.5])
    ([5.0, 6.0], [5.0, 9.0])
    """
    times: list[float | None] = []
    at, after = 0, float("-inf")
    for index, hand in enumerate(hands):
        until = confirmed[index] if confirmed is not None else None
        found, look = None, at
        while hand.winners and look < len(presses):
            press = presses[look]
            look += 1
            t = float(press["t"])
            if until is not None and t > until:
                break
            if t > after and press.get("button") == "win" and press.get("seat") in hand.winners:
                found, at = t, look
                break
        times.append(found)
        after = until if until is not None else after
    return times
