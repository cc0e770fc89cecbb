"""After a hand: points move, the dealer stays or passes, and the rules may end the game.

End conditions, each from the preset: busting (a score below zero), the last
hand of a hanchan or tonpuusen, the dealer's last-hand finish when leading
after a win (``agari_yame``) or tenpai (``tenpai_yame``; an abortive draw plays
on), and Tenhou's extension into the next wind until someone reaches the return
points. Final standings add leftover riichi sticks to first
place, then oka and uma; ties go to the seat nearer the first dealer.
"""

from __future__ import annotations

from dataclasses import replace

from tablekit.game.state import SEATS, HandResult, Phase, ResultKind, Standing, TableState


def finish_hand(state: TableState, result: HandResult, dealer_continues: bool,
                sticks_taken: bool = False, replay_hand: bool = False,
                penalty_seat: int | None = None) -> TableState:
    """Apply ``result`` and move the table on to the next hand (or the end)."""
    scores = tuple(s + d for s, d in zip(state.scores, result.deltas, strict=True))
    penalties = list(state.penalties)
    if penalty_seat is not None:
        penalties[penalty_seat] += state.rules.chombo_penalty
    played = _hand_index(state)
    state = replace(state, scores=scores, result=result, phase=Phase.HAND_OVER, turn=None,
                    sticks=0 if sticks_taken else state.sticks, penalties=tuple(penalties))
    if replay_hand:
        return state
    if dealer_continues:
        state = replace(state, honba=state.honba + 1)
    else:
        number = state.hand_number + 1
        state = replace(state, round_wind=state.round_wind + number // SEATS,
                        hand_number=number % SEATS,
                        honba=0 if result.kind == ResultKind.WIN else state.honba + 1)
    may_stop = (result.kind == ResultKind.WIN and state.rules.agari_yame) or (
        result.kind == ResultKind.EXHAUSTIVE_DRAW and state.rules.tenpai_yame)
    reason = _end_reason(state, played, dealer_continues, dealer_may_stop=may_stop)
    return final_standings(state, reason) if reason else state


def _hand_index(state: TableState) -> int:
    return state.round_wind * SEATS + state.hand_number


def _end_reason(state: TableState, played: int, dealer_continues: bool, dealer_may_stop: bool
                ) -> str:
    rules = state.rules
    last = (SEATS if rules.length == "tonpuusen" else 2 * SEATS) - 1
    top = max(state.scores)
    if rules.busting and min(state.scores) < 0:
        return "a player went below zero"
    if played < last:
        return ""
    if played > last and top >= rules.return_points:
        return f"{top:,} points reached in the extra round"
    if not rules.sudden_death_extension:
        if dealer_continues and not (dealer_may_stop and _dealer_leads(state)):
            return ""
        return "the last hand was played"
    if dealer_continues:
        if dealer_may_stop and _dealer_leads(state) and top >= rules.return_points:
            return "the dealer finished the last hand in the lead"
        return ""
    if top >= rules.return_points or played >= last + SEATS:
        return "the last hand was played"
    return ""


def _dealer_leads(state: TableState) -> bool:
    return ranking(state)[0] == state.dealer


def ranking(state: TableState) -> list[int]:
    """Seats from first to last; equal points go to the seat nearer the first dealer."""
    return sorted(range(SEATS),
                  key=lambda s: (-state.scores[s], (s - state.first_dealer) % SEATS))


def final_standings(state: TableState, reason: str) -> TableState:
    """End the game: leftover sticks, oka, uma and penalties, in rank order."""
    rules = state.rules
    order = ranking(state)
    scores = list(state.scores)
    sticks = state.sticks
    if sticks and rules.leftover_sticks_to_first:
        scores[order[0]] += sticks * rules.riichi_deposit
        sticks = 0
    standings = []
    for rank, seat in enumerate(order):
        value = (scores[seat] - rules.return_points) / 1000 + rules.uma[rank]
        value += rules.oka / 1000 if rank == 0 else 0
        value -= state.penalties[seat] / 1000
        standings.append(Standing(seat, rank + 1, scores[seat], round(value, 1)))
    return replace(state, scores=tuple(scores), sticks=sticks, phase=Phase.GAME_OVER,
                   standings=tuple(standings), end_reason=reason)
