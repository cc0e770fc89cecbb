"""Export a tracked game as mjai JSON lines, so clubs can keep records.

Tiles nobody saw (draws the camera cannot see, the concealed hands) are ``"?"``.
Scores, deltas and reach acceptance come from replaying the events through
the engine, so the export always agrees with what the scoreboard showed. A discard or a
dora indicator corrected later (by the camera or a person) is written as it was put right.
A three-player (sanma) game is written as Mortal's libriichi 3p reads it: four columns of
names, scores, hands and deltas, the fourth seat empty (0 points), and a North set aside as
``{"type": "nukidora", "actor": seat, "pai": "N"}``.

>>> from tablekit.game.events import GameStarted, HandStarted, Draw, Discard
>>> from tablekit.tiles import Tile
>>> lines = to_mjai([GameStarted(), HandStarted(Tile.from_code("5z")),
...                  Draw(0), Discard(0, Tile.from_code("0p"))])
>>> [line["type"] for line in lines]
['start_game', 'start_kyoku', 'tsumo', 'dahai']
>>> lines[1]["dora_marker"], lines[3]["pai"], lines[2]["pai"]
('P', '5pr', '?')
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from typing import Any

from tablekit.game.events import (
    AbortiveDraw,
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
    RiichiDeclared,
    Won,
)
from tablekit.game.reducer import apply
from tablekit.game.state import Phase, TableState
from tablekit.tiles import Tile

HONORS = ("E", "S", "W", "N", "P", "F", "C")
WINDS = ("E", "S", "W", "N")
COLUMNS = 4  # names, scores and deltas: a three-player game's fourth seat is empty
MJAI_CALLS = {"chi": "chi", "pon": "pon", "kan": "daiminkan", "ankan": "ankan",
              "shouminkan": "kakan"}


def mjai_tile(tile: Tile | None) -> str:
    """A tile in mjai notation (``5mr`` is a red five, ``P``/``F``/``C`` the dragons).

    >>> [mjai_tile(Tile.from_code(c)) for c in ("1m", "0s", "1z", "5z", "7z")] + [mjai_tile(None)]
    ['1m', '5sr', 'E', 'P', 'C', '?']
    """
    if tile is None:
        return "?"
    if tile.is_honor:
        return HONORS[tile.kind - 27]
    return f"{tile.number}{tile.suit}" + ("r" if tile.red else "")


def to_mjai(events: Iterable[Event]) -> list[dict[str, Any]]:
    """The mjai records for a list of engine events (undo/redo already resolved)."""
    out: list[dict[str, Any]] = []
    state = TableState.new()
    for event in events:
        before = state
        state = apply(state, event)
        if isinstance(event, (DiscardCorrected, DoraCorrected)):
            _rewrite_corrected(out, event)
        elif isinstance(event, MeldCorrected):
            _rewrite_meld(out, event, state)
        out.extend(_records(before, state, event))
    if state.phase is Phase.GAME_OVER and (not out or out[-1]["type"] != "end_game"):
        out.append({"type": "end_game", "scores": _four(state.scores)})
    return out


def _four(values: Iterable[int]) -> list[int]:
    """Four columns, a three-player game's fourth 0.

    >>> _four((35000, 35000, 35000)), _four((1, 2, 3, 4))
    ([35000, 35000, 35000, 0], [1, 2, 3, 4])
    """
    out = list(values)
    return out + [0] * (COLUMNS - len(out))


def write_mjai(events: Iterable[Event]) -> Iterator[str]:
    for record in to_mjai(events):
        yield json.dumps(record, ensure_ascii=False)


def _rewrite_corrected(out: list[dict[str, Any]], event: DiscardCorrected | DoraCorrected) -> None:
    """Rewrite the record of this hand that ``event`` corrects.

    >>> from tablekit.game.events import GameStarted, HandStarted, Draw, Discard
    >>> t = Tile.from_code
    >>> lines = to_mjai([GameStarted(), HandStarted(), DoraRevealed(t("1z")),
    ...                  Draw(0), Discard(0, t("9m")), DiscardCorrected(0, 0, t("8m")),
    ...                  DoraCorrected(0, t("2z"))])
    >>> [(line["type"], line.get("pai") or line.get("dora_marker")) for line in lines[1:]]
    [('start_kyoku', '?'), ('dora', 'S'), ('tsumo', '?'), ('dahai', '8m')]
    """
    start = max(i for i, record in enumerate(out) if record["type"] == "start_kyoku")
    hand = out[start:]
    if isinstance(event, DiscardCorrected):
        record = [r for r in hand if r["type"] == "dahai" and r["actor"] == event.seat][
            event.index]
        record["pai"] = mjai_tile(event.tile)
        return
    markers = [r for r in hand[:1] if r["dora_marker"] != "?"] + [
        r for r in hand if r["type"] == "dora"]
    markers[event.index]["dora_marker"] = mjai_tile(event.tile)


def _rewrite_meld(out: list[dict[str, Any]], event: MeldCorrected, after: TableState) -> None:
    """Rewrite the call record of this hand that ``event`` corrects (an added kan's pon is
    its first three tiles), and the claimed discard's record before it.

    >>> from tablekit.game.events import GameStarted, HandStarted, Draw, Discard, Call
    >>> from tablekit.tiles import parse_tiles
    >>> t, pon = Tile.from_code, lambda code: tuple(parse_tiles(code))
    >>> lines = to_mjai([GameStarted(), HandStarted(t("1m")), Draw(0), Discard(0, t("1z")),
    ...                  Call(1, "pon", pon("111z"), t("1z"), 0), MeldCorrected(1, 0, pon("222z"))])
    >>> [(r["type"], r.get("pai"), r.get("consumed")) for r in lines[3:]]
    [('dahai', 'S', None), ('pon', 'S', ['S', 'S'])]
    """
    start = max(i for i, record in enumerate(out) if record["type"] == "start_kyoku")
    calls = [i for i in range(start, len(out)) if out[i]["type"] in MJAI_CALLS.values()
             and out[i]["type"] != "kakan" and out[i]["actor"] == event.seat]
    at = calls[event.meld]
    meld = after.seats[event.seat].melds[event.meld]
    kind = next(k for k, name in MJAI_CALLS.items() if name == out[at]["type"])
    tiles = meld.tiles[:3] if kind == "pon" else meld.tiles
    out[at] = _call(Call(event.seat, kind, tiles, meld.called, meld.from_seat))
    claimed = [i for i in range(start, at) if out[i]["type"] == "dahai"
               and out[i]["actor"] == meld.from_seat]
    if meld.called is not None and kind != "ankan" and claimed:
        out[claimed[-1]]["pai"] = mjai_tile(meld.called)


def _records(before: TableState, after: TableState, event: Event) -> list[dict[str, Any]]:
    out = _accepted_reach(before, after)
    out.extend(_event_records(before, after, event))
    if after.phase is not Phase.HAND_IN_PLAY and before.phase is Phase.HAND_IN_PLAY:
        out.append({"type": "end_kyoku"})
    return out


def _accepted_reach(before: TableState, after: TableState) -> list[dict[str, Any]]:
    seat = before.pending_riichi
    if seat is None or after.sticks <= before.sticks:
        return []
    deltas = [0] * COLUMNS
    deltas[seat] = -before.rules.riichi_deposit
    scores = [s + d for s, d in zip(_four(before.scores), deltas, strict=True)]
    return [{"type": "reach_accepted", "actor": seat, "deltas": deltas, "scores": scores}]


def _event_records(before: TableState, after: TableState, event: Event) -> list[dict[str, Any]]:
    if isinstance(event, GameStarted):
        names = list(event.names)
        return [{"type": "start_game", "names": names + [""] * (COLUMNS - len(names))}]
    if isinstance(event, HandStarted):
        return [{"type": "start_kyoku", "bakaze": WINDS[after.round_wind],
                 "dora_marker": mjai_tile(event.dora), "kyoku": after.hand_number + 1,
                 "honba": after.honba, "kyotaku": after.sticks, "oya": after.dealer,
                 "scores": _four(after.scores), "tehais": [["?"] * 13 for _ in range(COLUMNS)]}]
    if isinstance(event, Draw):
        return [{"type": "tsumo", "actor": event.seat, "pai": mjai_tile(event.tile)}]
    if isinstance(event, Discard):
        return [{"type": "dahai", "actor": event.seat, "pai": mjai_tile(event.tile),
                 "tsumogiri": event.tsumogiri}]
    if isinstance(event, RiichiDeclared):
        return [{"type": "reach", "actor": event.seat}]
    if isinstance(event, Call):
        return [_call(event)]
    if isinstance(event, Kita):
        return [{"type": "nukidora", "actor": event.seat, "pai": "N"}]
    if isinstance(event, DoraRevealed):
        return [{"type": "dora", "dora_marker": mjai_tile(event.indicator)}]
    return _hand_end(before, after, event)


def _call(event: Call) -> dict[str, Any]:
    record: dict[str, Any] = {"type": MJAI_CALLS[event.kind], "actor": event.seat}
    tiles = list(event.tiles)
    if event.kind == "ankan":
        record["consumed"] = [mjai_tile(t) for t in tiles]
        return record
    called = event.called if event.called in tiles else tiles[0]
    tiles.remove(called)
    record["pai"] = mjai_tile(called)
    record["consumed"] = [mjai_tile(t) for t in tiles]
    if event.kind != "shouminkan":
        record["target"] = event.from_seat
    return record


def _hand_end(before: TableState, after: TableState, event: Event) -> list[dict[str, Any]]:
    result = after.result
    if isinstance(event, Won) and result is not None:
        return [{"type": "hora", "actor": w.seat,
                 "target": w.seat if w.from_seat is None else w.from_seat,
                 "deltas": _four(result.deltas) if i == 0 else [0] * COLUMNS,
                 "ura_markers": [mjai_tile(t) for t in event.ura]}
                for i, w in enumerate(result.wins)]
    if isinstance(event, (ExhaustiveDraw, AbortiveDraw, Chombo)) and result is not None:
        return [{"type": "ryukyoku", "deltas": _four(result.deltas)}]
    if isinstance(event, GameEnded):
        return [{"type": "end_game", "scores": _four(after.scores)}]
    return []
