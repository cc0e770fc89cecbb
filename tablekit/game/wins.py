"""Scoring a :class:`~tablekit.game.events.Won` event against the table.

The situational flags come from the event history the state keeps: riichi,
double riichi and ippatsu per seat, rinshan from the last draw, chankan from an
added kan, haitei and houtei from the wall, tenhou and chiihou from the first
uninterrupted draw, kita (three players) from the Norths the winner set aside; a ron on a
North set aside is no chankan. Pao follows from who fed the third dragon or fourth wind set.
"""

from __future__ import annotations

from tablekit.game.events import BadEvent, WinnerHand, Won
from tablekit.game.state import NORTH, TableState, WinResult, seat_name
from tablekit.rules.hand import Meld, Win
from tablekit.rules.payments import Claim, settle_ron, settle_win
from tablekit.rules.scoring import HandValue, YakuItem, basic_points, score_hand

DRAGONS = range(31, 34)
WINDS = range(27, 31)


def score_won(state: TableState, event: Won) -> tuple[tuple[WinResult, ...], list[int], bool]:
    """The scored wins, the score changes, and whether a riichi stick goes back."""
    tsumo = event.from_seat is None or (
        len(event.winners) == 1 and event.winners[0].seat == event.from_seat)
    if tsumo:
        wins = (_tsumo_win(state, event),)
        return wins, _tsumo_deltas(state, wins[0]), False
    winners = _ron_winners(state, event)
    wins = tuple(_ron_win(state, event, hand) for hand in winners)
    claims = [Claim(w.seat, w.value, w.pao_seat) for w in wins]
    deltas = settle_ron(claims, event.from_seat, state.dealer, state.honba, state.sticks,
                        state.rules)
    return wins, deltas, state.pending_riichi == event.from_seat


def _tsumo_win(state: TableState, event: Won) -> WinResult:
    if len(event.winners) != 1:
        raise BadEvent("a tsumo has exactly one winner")
    hand = event.winners[0]
    if not state.tracked:
        return _scored(state, hand, None, {"tsumo": True}, event.ura)
    if state.turn != hand.seat or state.to_draw:
        raise BadEvent(f"{seat_name(state, hand.seat)} has not just drawn")
    seat = state.seats[hand.seat]
    first_draw = seat.draws == 1 and not seat.pond and not state.interrupted
    flags = {
        "tsumo": True,
        "rinshan": state.last_draw_rinshan,
        "haitei": state.wall == 0 and not state.last_draw_rinshan,
        "tenhou": first_draw and hand.seat == state.dealer,
        "chiihou": first_draw and hand.seat != state.dealer,
    }
    return _scored(state, hand, None, flags, event.ura)


def _ron_winners(state: TableState, event: Won) -> list[WinnerHand]:
    discarder = event.from_seat
    order = sorted(event.winners, key=lambda w: (w.seat - discarder) % state.players)
    if state.rules.multi_ron == "head_bump":
        order = order[:1]
    if state.rules.multi_ron == "double" and len(order) > 2:
        raise BadEvent("triple ron is an abortive draw under these rules")
    return order


def _ron_win(state: TableState, event: Won, hand: WinnerHand) -> WinResult:
    discarder = event.from_seat
    if hand.seat == discarder or discarder not in range(state.players):
        raise BadEvent(f"{seat_name(state, hand.seat)} cannot win on "
                       f"{seat_name(state, discarder)}'s tile")
    if not state.tracked:
        return _scored(state, hand, discarder, {}, event.ura)
    entered = hand.han is not None or hand.yakuman > 0  # a value entered, no tiles
    if state.chankan_tile is not None and state.turn == discarder:
        if not entered and hand.win_tile.kind != state.chankan_tile.kind:
            raise BadEvent(f"the added kan was of {state.chankan_tile}, not {hand.win_tile}")
        flags = {"chankan": True}
    elif state.last_discard is not None and state.last_discard[0] == discarder:
        tile = state.last_discard[1]
        if not entered and hand.win_tile != tile:
            raise BadEvent(f"{seat_name(state, discarder)}'s last discard is {tile}, "
                           f"not {hand.win_tile}")
        flags = {"houtei": state.wall == 0}
    elif state.kita_by == discarder and state.turn == discarder:  # a ron on a North set aside
        if not entered and hand.win_tile.kind != NORTH:
            raise BadEvent(f"{seat_name(state, discarder)} set aside a North, not "
                           f"{hand.win_tile}")
        flags = {}
    else:
        raise BadEvent(f"{seat_name(state, discarder)} has no discard or added kan to "
                       "win on")
    return _scored(state, hand, discarder, flags, event.ura)


def _scored(state: TableState, hand: WinnerHand, discarder: int | None, flags: dict[str, bool],
            ura: tuple) -> WinResult:
    seat = state.seats[hand.seat]
    if hand.han is not None or hand.yakuman:
        value = entered_value(state, hand, tsumo=discarder is None)
        return WinResult(hand.seat, value, discarder, None, (), hand.win_tile, seat.melds)
    if hand.win_tile is None:
        raise BadEvent(f"{seat_name(state, hand.seat)}'s win has neither tiles nor an "
                       "entered value")
    riichi = seat.riichi
    win = Win(
        hand=hand.hand, win_tile=hand.win_tile, melds=seat.melds,
        seat_wind=state.seat_wind(hand.seat), round_wind=state.round_wind,
        riichi=riichi and not seat.double_riichi, double_riichi=riichi and seat.double_riichi,
        ippatsu=riichi and seat.ippatsu, dora=state.dora, ura=ura if riichi else (),
        honba=state.honba, sticks=state.sticks, kita=seat.kita, **flags,
    )
    value = score_hand(win, state.rules)
    return WinResult(hand.seat, value, discarder, _pao_seat(seat.melds, hand.seat), hand.hand,
                     hand.win_tile, seat.melds, state.dora, win.ura)


def entered_value(state: TableState, hand: WinnerHand, tsumo: bool) -> HandValue:
    """A hand value people entered as han and fu (or a yakuman count)."""
    han, fu = hand.han or 0, hand.fu or 30
    if not hand.yakuman and (han < 1 or fu < 20 or (fu != 25 and fu % 10)):
        raise BadEvent(f"{han} han {fu} fu is not a hand value")
    base, limit = basic_points(han, fu, hand.yakuman, state.rules)
    item = YakuItem("entered", 13 * hand.yakuman or han, hand.yakuman)
    return HandValue(han=13 * hand.yakuman or han, fu=fu, yaku=(item,), fu_items=(),
                     limit=limit, base=base, yakuman=hand.yakuman,
                     is_dealer=hand.seat == state.dealer, tsumo=tsumo)


def _pao_seat(melds: tuple[Meld, ...], winner: int) -> int | None:
    """Who fed the third dragon set or the fourth wind set, if anyone did."""
    for group, needed in ((DRAGONS, 3), (WINDS, 4)):
        sets = [m for m in melds if m.kind != "chi" and m.tiles[0].kind in group]
        if len(sets) == needed:
            last = sets[-1]
            if last.kind != "ankan" and last.from_seat not in (None, winner):
                return last.from_seat
    return None


def _tsumo_deltas(state: TableState, win: WinResult) -> list[int]:
    return settle_win(win.value, win.seat, state.dealer, None, state.honba, state.sticks,
                      state.rules, pao_seat=win.pao_seat)
