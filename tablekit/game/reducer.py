"""The pure reducer: ``apply(state, event) -> state``.

An event that contradicts the table raises :class:`BadEvent` naming the event
and the reason, and the state is left as it was (states are immutable).

>>> from tablekit.game.events import GameStarted, HandStarted, Draw, Discard
>>> from tablekit.tiles import Tile
>>> state = replay([GameStarted(), HandStarted(), Draw(0)])
>>> state = apply(state, Discard(0, Tile.from_code("1z")))
>>> state.wall, state.turn, state.seats[0].discards
(69, 1, (Tile('1z'),))
>>> apply(state, Discard(3, Tile.from_code("9m")))
Traceback (most recent call last):
...
tablekit.game.events.BadEvent: discard by North (9m): it is South's turn to draw
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from typing import Any

from tablekit.errors import InvalidHand, InvalidTile
from tablekit.game.events import (
    AbortiveDraw,
    BadEvent,
    Call,
    Chombo,
    Discard,
    DiscardCorrected,
    DoraCorrected,
    DoraRevealed,
    Draw,
    Event,
    ExhaustiveDraw,
    GameEnded,
    GameStarted,
    HandStarted,
    Kita,
    MeldCorrected,
    Penalty,
    RiichiDeclared,
    TrackingStopped,
    Won,
    to_dict,
)
from tablekit.game.progression import add_penalty, final_standings, finish_hand
from tablekit.game.state import (
    NORTH,
    SEATS,
    HandResult,
    Phase,
    PondTile,
    ResultKind,
    TableState,
    evolve,
    seat_name,
)
from tablekit.game.wins import score_won
from tablekit.rules.hand import Meld
from tablekit.rules.payments import tsumo_share
from tablekit.rules.presets import TENHOU
from tablekit.rules.scoring import round_up
from tablekit.tiles import Tile

Handler = Callable[[TableState, Any], TableState]
THREE_SEAT_ABORTS = frozenset({"four_winds", "four_riichi", "triple_ron"})
"""Abortive draws that need a fourth player (three seats cannot discard four winds, declare
four riichi or ron three times)."""


def apply(state: TableState, event: Event) -> TableState:
    """The state after ``event``; raises :class:`BadEvent` if the event cannot happen."""
    handler = _HANDLERS.get(type(event))
    if handler is None:
        raise BadEvent(f"{_describe(event, state)}: undo and redo are journal actions, not "
                       "table events")
    try:
        new = handler(state, event)
    except (BadEvent, InvalidHand, InvalidTile) as error:  # e.g. a second red five at a win
        raise BadEvent(f"{_describe(event, state)}: {error}") from None
    if new is state:
        return evolve(new, events=state.events + 1)
    new.__dict__["events"] = state.events + 1  # a state the handler just made: not yet seen
    return new


def replay(events: Iterable[Event], state: TableState | None = None) -> TableState:
    """Fold events into a state (a new game's when none is given)."""
    state = state or TableState.new(TENHOU)
    for event in events:
        state = apply(state, event)
    return state


def _describe(event: Event, state: TableState) -> str:
    """The event as players name it: ``discard by North (9m)``."""
    data = to_dict(event)
    kind = data.pop("type").replace("_", " ")
    seat = data.get("seat")
    tile = data.get("tile") or data.get("called")
    parts = [kind] + ([f"by {seat_name(state, seat)}"] if seat is not None else [])
    return " ".join(parts) + (f" ({tile})" if tile else "")


def _refuse(event: Event, reason: str) -> BadEvent:
    """The refusal of ``event``; :func:`apply` puts the event's description before it."""
    return BadEvent(reason)


def _need_phase(state: TableState, event: Event, *phases: Phase) -> None:
    if state.phase not in phases:
        raise _refuse(event, f"the game is at '{state.phase.value}'")


def _need_tracked(state: TableState, event: Event) -> None:
    if not state.tracked:
        raise _refuse(event, "this hand is kept from the buttons alone; tiles are not followed")


def _need_seat(state: TableState, event: Event, seat: int | None) -> None:
    _need_seat_of(state.players, event, seat)


def _need_seat_of(players: int, event: Event, seat: int | None) -> None:
    if seat is not None and seat not in range(players):
        raise _refuse(event, f"there is no seat {seat} (seats are 0-{players - 1})")


# -- game and hand boundaries ------------------------------------------------------------

def _game_started(state: TableState, event: GameStarted) -> TableState:
    _need_phase(state, event, Phase.NOT_STARTED, Phase.GAME_OVER)
    _need_seat_of(getattr(event.rules, "players", SEATS), event, event.first_dealer)
    new = TableState.new(event.rules, event.names, event.first_dealer)
    return evolve(new, phase=Phase.HAND_OVER)


def _hand_started(state: TableState, event: HandStarted) -> TableState:
    _need_phase(state, event, Phase.HAND_OVER)
    fresh = TableState.new(state.rules)
    return evolve(
        state, phase=Phase.HAND_IN_PLAY, seats=fresh.seats,
        dora=() if event.dora is None else (event.dora,),
        wall=fresh.wall, turn=state.dealer, to_draw=True, last_discard=None,
        pending_riichi=None, last_draw_rinshan=False, kan_draw=False, chankan_tile=None,
        kita_by=None, interrupted=False, kans=0, result=None, tracked=event.tracked)


def _tracking_stopped(state: TableState, event: TrackingStopped) -> TableState:
    """The camera gave up on the hand: from now on it is kept from the buttons."""
    _need_phase(state, event, Phase.HAND_IN_PLAY)
    _need_tracked(state, event)
    return evolve(state, tracked=False)


def _game_ended(state: TableState, event: GameEnded) -> TableState:
    _need_phase(state, event, Phase.HAND_OVER, Phase.HAND_IN_PLAY)
    return final_standings(state, event.reason)


# -- turns ---------------------------------------------------------------------------------

def _draw(state: TableState, event: Draw) -> TableState:
    _need_phase(state, event, Phase.HAND_IN_PLAY)
    _need_tracked(state, event)
    _need_seat(state, event, event.seat)
    if state.turn != event.seat or not state.to_draw:
        raise _refuse(event, _whose_turn(state))
    if state.wall <= 0:
        raise _refuse(event, "the wall is empty: the hand is an exhaustive draw")
    if event.rinshan != state.kan_draw:
        need = "a replacement draw after a kan" if state.kan_draw else "no kan to replace"
        raise _refuse(event, f"expected {need}")
    state = _settle_riichi(state)
    if event.rinshan:  # an added kan or a kita breaks ippatsu only once nobody robbed it
        state = _break_ippatsu(state)
    seats = state.seats_with(event.seat, draws=state.seats[event.seat].draws + 1)
    return state.showing(seats=seats, wall=state.wall - 1, to_draw=False,
                         last_draw_rinshan=event.rinshan, kan_draw=False, chankan_tile=None,
                         kita_by=None, last_discard=None)


def _discard(state: TableState, event: Discard) -> TableState:
    _need_phase(state, event, Phase.HAND_IN_PLAY)
    _need_tracked(state, event)
    _need_seat(state, event, event.seat)
    if state.turn != event.seat or state.to_draw:
        raise _refuse(event, _whose_turn(state))
    seat = state.seats[event.seat]
    riichi_tile = seat.riichi_declared and not seat.riichi and state.pending_riichi is None
    pond = (*seat.pond, PondTile(event.tile, riichi=riichi_tile, tsumogiri=event.tsumogiri))
    seats = state.seats_with(event.seat, pond=pond, ippatsu=seat.ippatsu and not seat.riichi)
    state = state.showing((event.tile.kind,), seats=seats, turn=(event.seat + 1) % state.players,
                          to_draw=True, last_discard=(event.seat, event.tile),
                          last_draw_rinshan=False,
                          pending_riichi=event.seat if riichi_tile else state.pending_riichi)
    _check_counts(state, event)
    return state


def _correct(state: TableState, event: DiscardCorrected) -> TableState:
    _need_phase(state, event, Phase.HAND_IN_PLAY)
    _need_seat(state, event, event.seat)
    pond = state.seats[event.seat].pond
    if not 0 <= event.index < len(pond):
        raise _refuse(event, f"{seat_name(state, event.seat)} has no discard number "
                             f"{event.index + 1}")
    old = pond[event.index]
    if old.claimed:
        raise _refuse(event, "a claimed discard is corrected in its meld, not in the pond")
    fixed = (*pond[:event.index], evolve(old, tile=event.tile), *pond[event.index + 1:])
    state = state.with_seat(event.seat, (event.tile.kind,), (old.tile.kind,), pond=fixed)
    _check_counts(state, event)
    if state.last_discard == (event.seat, old.tile) and event.index == len(pond) - 1:
        state = evolve(state, last_discard=(event.seat, event.tile))
    return state


def _correct_meld(state: TableState, event: MeldCorrected) -> TableState:
    """A meld put right in place: the same kind of meld (a pon still three alike), the
    claimed tile (where it lay in the meld) put right in the discarder's pond too."""
    _need_phase(state, event, Phase.HAND_IN_PLAY)
    _need_seat(state, event, event.seat)
    melds = state.seats[event.seat].melds
    if not 0 <= event.meld < len(melds):
        raise _refuse(event, f"{seat_name(state, event.seat)} has no meld number {event.meld + 1}")
    old = melds[event.meld]
    if len(event.tiles) != len(old.tiles):
        raise _refuse(event, f"the meld {old} has {len(old.tiles)} tiles, not "
                             f"{len(event.tiles)}")
    called = old.called
    if called is not None and called in old.tiles:
        called = event.tiles[old.tiles.index(called)]
    meld = Meld(old.kind, event.tiles, old.from_seat, called)
    state = state.with_seat(event.seat, _kinds(meld), _kinds(old),
                            melds=(*melds[:event.meld], meld, *melds[event.meld + 1:]))
    if called != old.called and old.called is not None and old.from_seat is not None:
        state = _correct_claimed(state, old.from_seat, old.called, called)
    _check_counts(state, event)
    _check_red_fives(state, event)
    return state


def _correct_claimed(state: TableState, seat: int, was: Tile, tile: Tile | None
                     ) -> TableState:
    """The claimed discard ``was`` in ``seat``'s pond, put right as ``tile`` (claimed tiles
    are not counted as showing: the meld shows them)."""
    pond = state.seats[seat].pond
    at = next((i for i, p in enumerate(pond) if p.claimed and p.tile == was), None)
    if at is None or tile is None:
        return state
    fixed = (*pond[:at], evolve(pond[at], tile=tile), *pond[at + 1:])
    return state.showing(seats=state.seats_with(seat, pond=fixed))


def _whose_turn(state: TableState) -> str:
    action = "draw" if state.to_draw else "discard"
    return f"it is {seat_name(state, state.turn)}'s turn to {action}"


def _riichi(state: TableState, event: RiichiDeclared) -> TableState:
    _need_phase(state, event, Phase.HAND_IN_PLAY)
    _need_seat(state, event, event.seat)
    seat = state.seats[event.seat]
    if not state.tracked:
        return _untracked_riichi(state, event)
    problems = [
        (state.turn != event.seat or state.to_draw, "only after drawing, before discarding"),
        (seat.riichi or seat.riichi_declared, "this seat is already in riichi"),
        (any(m.opened for m in seat.melds), "riichi needs a closed hand"),
        (state.scores[event.seat] < state.rules.riichi_deposit,
         f"needs {state.rules.riichi_deposit:,} points for the stick"),
        (state.wall < state.players, "too few tiles left in the wall"),
    ]
    for broken, reason in problems:
        if broken:
            raise _refuse(event, reason)
    double = seat.draws == 1 and not seat.pond and not state.interrupted
    return state.with_seat(event.seat, riichi_declared=True, double_riichi=double)


def _untracked_riichi(state: TableState, event: RiichiDeclared) -> TableState:
    """Without tile tracking the stick goes down at once."""
    if state.seats[event.seat].riichi:
        raise _refuse(event, "this seat is already in riichi")
    if state.scores[event.seat] < state.rules.riichi_deposit:
        raise _refuse(event, f"needs {state.rules.riichi_deposit:,} points for the stick")
    state = evolve(state, pending_riichi=event.seat)
    return _settle_riichi(state.with_seat(event.seat, riichi_declared=True))


def _settle_riichi(state: TableState) -> TableState:
    """Put down the stick of a riichi whose discard was not ronned."""
    seat_index = state.pending_riichi
    if seat_index is None:
        return state
    scores = list(state.scores)
    scores[seat_index] -= state.rules.riichi_deposit
    state = state.with_seat(seat_index, riichi=True, ippatsu=True)
    return evolve(state, scores=tuple(scores), sticks=state.sticks + 1, pending_riichi=None)


# -- calls and dora ------------------------------------------------------------------------

def _call(state: TableState, event: Call) -> TableState:
    _need_phase(state, event, Phase.HAND_IN_PLAY)
    _need_tracked(state, event)
    _need_seat(state, event, event.seat)
    meld = event.meld()
    if event.kind != "shouminkan" and len(state.seats[event.seat].melds) >= 4:
        raise _refuse(event, "a hand holds at most four melds")
    if event.kind in ("ankan", "shouminkan"):
        state = _own_kan(state, event, meld)
    else:
        state = _claim(state, event, meld)
    if event.kind != "shouminkan":
        state = _break_ippatsu(state)
    _check_counts(state, event)
    _check_red_fives(state, event)
    return evolve(state, interrupted=True)


def _claim(state: TableState, event: Call, meld: Meld) -> TableState:
    if state.last_discard is None or not state.to_draw:
        raise _refuse(event, "there is no discard to claim")
    discarder, tile = state.last_discard
    checks = [
        (event.from_seat != discarder, f"the last discard came from {seat_name(state, discarder)}"),
        (event.seat == discarder, "a player cannot claim their own discard"),
        (event.called != tile, f"the last discard is {tile}"),
        (event.called is not None and event.called not in event.tiles,
         "the claimed tile is not in the meld"),
        (event.kind == "chi" and state.players == 3, "there is no chi with three players"),
        (event.kind == "chi" and event.seat != (discarder + 1) % state.players,
         "chi only from the player on the left"),
    ]
    for broken, reason in checks:
        if broken:
            raise _refuse(event, reason)
    state = _settle_riichi(state)
    pond = state.seats[discarder].pond
    state = state.with_seat(discarder, removed=(pond[-1].tile.kind,),
                            pond=(*pond[:-1], evolve(pond[-1], claimed=True)))
    seat = state.seats[event.seat]
    is_kan = event.kind == "kan"
    state = state.with_seat(event.seat, _kinds(meld), melds=(*seat.melds, meld))
    return evolve(state, turn=event.seat, to_draw=is_kan, kan_draw=is_kan, last_discard=None,
                  kans=state.kans + is_kan)


def _own_kan(state: TableState, event: Call, meld: Meld) -> TableState:
    if state.turn != event.seat or state.to_draw:
        raise _refuse(event, "a closed or added kan is declared after drawing")
    seat = state.seats[event.seat]
    melds = seat.melds
    removed: tuple[int, ...] = ()
    if event.kind == "shouminkan":
        kind = event.tiles[0].kind
        pons = [i for i, m in enumerate(melds) if m.kind == "pon" and m.tiles[0].kind == kind]
        if not pons:
            raise _refuse(event, f"{seat_name(state, event.seat)} has no pon of "
                                 f"{event.tiles[0].plain_code}")
        old = melds[pons[0]]
        meld = Meld("shouminkan", meld.tiles, old.from_seat, old.called)
        removed = _kinds(old)
        melds = (*melds[:pons[0]], meld, *melds[pons[0] + 1:])
    else:
        melds = (*melds, meld)
    state = state.with_seat(event.seat, _kinds(meld), removed, melds=melds)
    chankan = event.tiles[0].plain if event.kind == "shouminkan" else None
    return evolve(state, to_draw=True, kan_draw=True, kans=state.kans + 1,
                  chankan_tile=chankan, last_discard=None)


def _kita(state: TableState, event: Kita) -> TableState:
    """A North set aside: shown beside the hand, a dora for its seat, a replacement to draw.
    As a call does, it ends every ippatsu (once nobody ronned the North) and the first
    go-round's double riichi, tenhou and chiihou (Tenhou's records show both). In a hand
    kept from the buttons alone (no camera) the North is only counted: the turns and the
    wall are not followed there."""
    _need_phase(state, event, Phase.HAND_IN_PLAY)
    _need_seat(state, event, event.seat)
    rules = state.rules
    problems = [
        (rules.players != 3, "kita is played with three players only"),
        (rules.north == "yakuhai", 'North is kept in the hand under north = "yakuhai"'),
        (state.seats[event.seat].kita >= 4, "four Norths are already set aside"),
    ]
    if state.tracked:
        problems += [
            (state.turn != event.seat or state.to_draw, "a North is set aside after drawing"),
            (state.wall <= 0, "the wall is empty: there is no replacement to draw"),
        ]
    for broken, reason in problems:
        if broken:
            raise _refuse(event, reason)
    kita = state.seats[event.seat].kita + 1
    state = state.with_seat(event.seat, (NORTH,), kita=kita)
    _check_counts(state, event)
    if not state.tracked:
        return state
    return evolve(state, to_draw=True, kan_draw=True, kita_by=event.seat, last_discard=None,
                  chankan_tile=None, last_draw_rinshan=False, interrupted=True)


def _kinds(meld: Meld) -> tuple[int, ...]:
    return tuple(t.kind for t in meld.tiles)


def _break_ippatsu(state: TableState) -> TableState:
    if not any(s.ippatsu for s in state.seats):
        return state
    return state.showing(seats=tuple(evolve(s, ippatsu=False) for s in state.seats))


def _dora(state: TableState, event: DoraRevealed) -> TableState:
    _need_phase(state, event, Phase.HAND_IN_PLAY, Phase.HAND_OVER)
    if len(state.dora) >= 5:
        raise _refuse(event, "five dora indicators are already showing")
    state = state.showing((event.indicator.kind,), dora=(*state.dora, event.indicator))
    _check_counts(state, event)
    return state


def _correct_dora(state: TableState, event: DoraCorrected) -> TableState:
    _need_phase(state, event, Phase.HAND_IN_PLAY)
    if not 0 <= event.index < len(state.dora):
        raise _refuse(event, f"there is no dora indicator number {event.index + 1}")
    dora = list(state.dora)
    old, dora[event.index] = dora[event.index], event.tile
    state = state.showing((event.tile.kind,), (old.kind,), dora=tuple(dora))
    _check_counts(state, event)
    return state


def _check_counts(state: TableState, event: Event) -> None:
    """At most four of a kind can be visible on the table."""
    counts = state.kind_counts()
    if max(counts) > 4:
        over = [Tile(k).plain_code for k, n in enumerate(counts) if n > 4]
        raise _refuse(event, f"more than four {', '.join(over)} would be on the table")


def _check_red_fives(state: TableState, event: Event) -> None:
    """A set holds one red five of a suit: two on the table are a misreading (a hand with
    them could never be scored, and would never end)."""
    reds = Counter(t.kind for t in state.dora if t.red)
    for seat in state.seats:
        reds.update(p.tile.kind for p in seat.pond if p.tile.red and not p.claimed)
        reds.update(t.kind for m in seat.melds for t in m.tiles if t.red)
    over = [Tile(k).plain_code for k, n in sorted(reds.items()) if n > 1]
    if over:
        raise _refuse(event, f"two red {', '.join(over)} would be on the table (a set has one)")


# -- the end of a hand ---------------------------------------------------------------------

def _won(state: TableState, event: Won) -> TableState:
    _need_phase(state, event, Phase.HAND_IN_PLAY)
    for seat in (*(winner.seat for winner in event.winners), event.from_seat):
        _need_seat(state, event, seat)
    wins, deltas, riichi_returned = score_won(state, event)  # its refusals name the seats
    if riichi_returned:
        state = evolve(state, pending_riichi=None)
    result = HandResult(ResultKind.WIN, tuple(deltas), wins=wins, detail=_label(state))
    dealer_won = any(w.seat == state.dealer for w in wins)
    return finish_hand(state, result, dealer_continues=dealer_won, sticks_taken=True)


def _exhaustive(state: TableState, event: ExhaustiveDraw) -> TableState:
    _need_phase(state, event, Phase.HAND_IN_PLAY)
    if state.tracked and state.wall != event.wall_left:
        raise _refuse(event, f"the wall still has {state.wall} tiles")
    for seat in (*event.tenpai, *event.nagashi):
        _need_seat(state, event, seat)
    state = _settle_riichi(state)
    deltas = _nagashi_deltas(state, event.nagashi) if event.nagashi else _noten_deltas(
        state, event.tenpai)
    result = HandResult(ResultKind.EXHAUSTIVE_DRAW, tuple(deltas),
                        tenpai=tuple(sorted(event.tenpai)),
                        detail="nagashi mangan" if event.nagashi else _label(state))
    return finish_hand(state, result, dealer_continues=state.dealer in event.tenpai)


def _noten_deltas(state: TableState, tenpai: tuple[int, ...]) -> list[int]:
    ready = set(tenpai)
    players = state.players
    if len(ready) in (0, players):
        return [0] * players
    gain = state.rules.noten_payment // len(ready)
    loss = state.rules.noten_payment // (players - len(ready))
    return [gain if s in ready else -loss for s in range(players)]


def _nagashi_deltas(state: TableState, seats: tuple[int, ...]) -> list[int]:
    deltas = [0] * state.players
    for winner in seats:  # a mangan tsumo each, paid as the rules pay a tsumo
        for payer in range(state.players):
            if payer != winner:
                pays = tsumo_share(2000, payer == state.dealer, winner == state.dealer,
                                   state.rules)
                deltas[payer] -= pays
                deltas[winner] += pays
    return deltas


def _abortive(state: TableState, event: AbortiveDraw) -> TableState:
    _need_phase(state, event, Phase.HAND_IN_PLAY)
    allowed = state.rules.abortive_draws or (
        event.kind == "triple_ron" and state.rules.multi_ron == "double")
    if not allowed:
        raise _refuse(event, f"there are no abortive draws under {state.rules.title}")
    if state.players == 3 and event.kind in THREE_SEAT_ABORTS:
        raise _refuse(event, f"there is no {event.kind.replace('_', ' ')} draw with three "
                             "players")
    if event.kind != "triple_ron":
        state = _settle_riichi(state)
    else:
        state = evolve(state, pending_riichi=None)
    result = HandResult(ResultKind.ABORTIVE_DRAW, (0,) * state.players,
                        detail=event.kind.replace("_", " "))
    return finish_hand(state, result, dealer_continues=True)


def _chombo(state: TableState, event: Chombo) -> TableState:
    _need_phase(state, event, Phase.HAND_IN_PLAY)
    _need_seat(state, event, event.seat)
    deltas = [0] * state.players
    refunds = [s for s in range(state.players) if state.seats[s].riichi]
    for seat in refunds:
        deltas[seat] += state.rules.riichi_deposit
    if state.rules.chombo == "mangan":
        for payer_to in range(state.players):
            if payer_to != event.seat:
                pays = round_up(4000 if state.dealer in (event.seat, payer_to) else 2000)
                deltas[event.seat] -= pays
                deltas[payer_to] += pays
    state = evolve(state, sticks=state.sticks - len(refunds), pending_riichi=None)
    result = HandResult(ResultKind.CHOMBO, tuple(deltas), detail=seat_name(state, event.seat))
    state = finish_hand(state, result, dealer_continues=True, replay_hand=True,
                        penalty_seat=None if state.rules.chombo == "mangan" else event.seat)
    if state.rules.chombo == "end_game":
        return final_standings(state, f"chombo by {seat_name(state, event.seat)}: the game "
                                      "ends")
    return state


def _penalty(state: TableState, event: Penalty) -> TableState:
    _need_phase(state, event, Phase.HAND_OVER, Phase.HAND_IN_PLAY)
    _need_seat(state, event, event.seat)
    unit = 300 if event.shared else 100
    if event.points <= 0 or event.points % unit:
        raise _refuse(event, f"a penalty is a positive number of points in {unit}s, "
                             f"not {event.points}")
    return add_penalty(state, event.seat, event.points, event.reason, event.shared)


def _label(state: TableState) -> str:
    return state.short_label


_HANDLERS: dict[type, Handler] = {
    GameStarted: _game_started, HandStarted: _hand_started,
    TrackingStopped: _tracking_stopped, Draw: _draw, Discard: _discard,
    RiichiDeclared: _riichi, Call: _call, Kita: _kita, DiscardCorrected: _correct,
    MeldCorrected: _correct_meld,
    DoraRevealed: _dora, DoraCorrected: _correct_dora, Won: _won,
    ExhaustiveDraw: _exhaustive, AbortiveDraw: _abortive, Chombo: _chombo,
    Penalty: _penalty, GameEnded: _game_ended,
}
