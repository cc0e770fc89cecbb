"""After a hand: points move, the dealer stays or passes, and the rules may end the game.

End conditions, each from the preset: busting (a score below zero), the last
hand of a hanchan or tonpuusen, the dealer's last-hand finish when leading
after a win (``agari_yame``) or tenpai (``tenpai_yame``; an abortive draw plays
on), and Tenhou's extension into the next wind until someone reaches the return
points at the end of a hand the dealer does not keep (a dealer who keeps the deal
plays on, as in the last hand; Tenhou's records show it). Final standings add
leftover riichi sticks to first place, then oka and uma, rounded as the rules say
(:mod:`tablekit.rules.standings`); ties go to the seat nearer the first dealer.
"""

from __future__ import annotations

from tablekit.game.state import (
    HandResult,
    LedgerEntry,
    Phase,
    ResultKind,
    Standing,
    TableState,
    evolve,
    seat_name,
)
from tablekit.rules.standings import game_points, placing
from tablekit.tiles import WIND_NAMES


def finish_hand(state: TableState, result: HandResult, dealer_continues: bool,
                sticks_taken: bool = False, replay_hand: bool = False,
                penalty_seat: int | None = None) -> TableState:
    """Apply ``result`` and move the table on to the next hand (or the end)."""
    scores = tuple(s + d for s, d in zip(state.scores, result.deltas, strict=True))
    if penalty_seat is not None:
        state = add_penalty(state, penalty_seat, state.rules.chombo_penalty, "chombo")
    played = _hand_index(state)
    state = evolve(state, scores=scores, result=result, phase=Phase.HAND_OVER, turn=None,
                   sticks=0 if sticks_taken else state.sticks)
    if replay_hand:
        return state
    if dealer_continues:
        state = evolve(state, honba=state.honba + 1)
    else:
        number = state.hand_number + 1
        state = evolve(state, round_wind=state.round_wind + number // state.players,
                       hand_number=number % state.players,
                       honba=0 if result.kind == ResultKind.WIN else state.honba + 1)
    may_stop = (result.kind == ResultKind.WIN and state.rules.agari_yame) or (
        result.kind == ResultKind.EXHAUSTIVE_DRAW and state.rules.tenpai_yame)
    reason = _end_reason(state, played, dealer_continues, dealer_may_stop=may_stop)
    return final_standings(state, reason) if reason else state


def add_penalty(state: TableState, seat: int, points: int, reason: str,
                shared: bool = False) -> TableState:
    """``points`` off ``seat``'s final score in the ledger; ``shared``: to the others."""
    entries = [LedgerEntry(seat, points, reason)]
    if shared:
        others = state.players - 1
        entries += [LedgerEntry(other, -points // others, reason)
                    for other in range(state.players) if other != seat]
    penalties = list(state.penalties)
    for entry in entries:
        penalties[entry.seat] += entry.points
    return evolve(state, penalties=tuple(penalties), ledger=(*state.ledger, *entries))


def _hand_index(state: TableState) -> int:
    return state.round_wind * state.players + state.hand_number


def _end_reason(state: TableState, played: int, dealer_continues: bool, dealer_may_stop: bool
                ) -> str:
    """Why the game ends after the hand ``played`` (0 for East 1), as players say it:
    ``South 4 ended``, ``West (Xenia) reached 30,000 in the extra round``; '' if it goes on."""
    rules = state.rules
    seats = state.players
    last = (seats if rules.length == "tonpuusen" else 2 * seats) - 1
    top = max(state.scores)
    ended = f"{WIND_NAMES[played // seats]} {played % seats + 1} ended"
    if rules.busting and min(state.scores) < 0:
        return f"{_named(state, state.scores.index(min(state.scores)))} went below zero"
    if played < last:
        return ""
    if not rules.sudden_death_extension:
        if dealer_continues and not (dealer_may_stop and _dealer_leads(state)):
            return ""
        return ended
    if dealer_continues:  # the last hand, or one of the extension, is played again
        return _dealer_stops(state, dealer_may_stop, ended)
    if played > last and top >= rules.return_points:
        return f"{_named(state, ranking(state)[0])} reached {top:,} in the extra round"
    if top >= rules.return_points or played >= last + seats:
        return ended
    return ""


def _named(state: TableState, seat: int) -> str:
    """A seat named as the final standings name it: by its starting wind."""
    return seat_name(state, seat, state.starting_wind(seat))


def _dealer_stops(state: TableState, dealer_may_stop: bool, ended: str) -> str:
    """A dealer who keeps the deal in the last hand or the extension plays on, unless the
    rules let a dealer leading on the return points stop (Tenhou: after a win or tenpai)."""
    if dealer_may_stop and _dealer_leads(state) and max(state.scores) >= \
            state.rules.return_points:
        return f"{ended} with the dealer in the lead"
    return ""


def _dealer_leads(state: TableState) -> bool:
    return ranking(state)[0] == state.dealer


def ranking(state: TableState) -> list[int]:
    """Seats from first to last; equal points go to the seat nearer the first dealer."""
    return placing(state.scores, state.first_dealer)


def final_standings(state: TableState, reason: str) -> TableState:
    """End the game: leftover sticks, oka, uma and penalties, in rank order."""
    rules = state.rules
    order = ranking(state)
    scores = list(state.scores)
    sticks = state.sticks
    if sticks and rules.leftover_sticks_to_first:
        scores[order[0]] += sticks * rules.riichi_deposit
        sticks = 0
    points = game_points(scores, rules, state.first_dealer, state.penalties)
    standings = [Standing(seat, rank + 1, scores[seat], points[seat])
                 for rank, seat in enumerate(order)]
    return evolve(state, scores=tuple(scores), sticks=sticks, phase=Phase.GAME_OVER,
                  standings=tuple(standings), end_reason=reason,
                  leftover_sticks=state.sticks - sticks)
