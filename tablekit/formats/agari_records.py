"""Read the decoded Tenhou wins of ``agari.jsonl`` and check tablekit's scorer on them.

Each record holds the winner's tiles as Tenhou 136-ids, the melds, the dora and
ura indicators, the situational flags and Tenhou's result. :func:`check_record`
scores the hand with tablekit and lists every difference from Tenhou's result.

Three-player (sanma) wins are scored under ``tenhou-sanma``; their Norths set aside
(``nuki`` melds) are the win's kita, and the empty fourth seat must change by nothing.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tablekit.errors import InvalidHand, RulesError
from tablekit.formats.tenhou_check import value_mismatches
from tablekit.formats.tenhou_rules import lobby_rules
from tablekit.rules.hand import WINDS, Meld, MeldKind, Win
from tablekit.rules.payments import Claim, settle_ron, settle_win
from tablekit.rules.presets import TENHOU, TENHOU_SANMA, Rules, rules_to_dict, with_options
from tablekit.rules.scoring import HandValue, score_hand
from tablekit.tiles import Tile

MELD_KINDS: dict[str, MeldKind] = {
    "chi": "chi", "pon": "pon", "daiminkan": "kan", "ankan": "ankan",
    "shouminkan": "shouminkan"}
LIMIT_NAMES = {"kazoe yakuman": "yakuman"}
SANMA = 0x10  # the GO type bit of a three-player lobby


@dataclass(frozen=True)
class RecordCheck:
    """The outcome of one record: why it was skipped, or its mismatches (empty = match)."""

    record_id: str
    skipped: str | None
    mismatches: tuple[str, ...] = ()
    players: int = 4

    @property
    def ok(self) -> bool:
        return self.skipped is None and not self.mismatches


def read_records(path: Path) -> Iterator[dict[str, Any]]:
    """Yield one dict per line of a JSON-lines file."""
    with path.open(encoding="utf-8") as handle:
        for line in handle:
            if line.strip():
                yield json.loads(line)


def skip_reason(record: dict[str, Any]) -> str | None:
    """Why a record is outside the rules tablekit scores (three or four players), or None."""
    if record["rules"]["players"] not in (3, 4):
        return f"{record['rules']['players']} players"
    return None


def record_rules(record: dict[str, Any]) -> Rules:
    """The rules of the record's lobby: its GO type's options, on ``tenhou-sanma`` for a
    three-player lobby.

    >>> record_rules({"rules": {"go_type": 185, "players": 3}}).name
    'tenhou-sanma'
    """
    go_type = record["rules"]["go_type"]
    if record["rules"]["players"] == 4:
        return lobby_rules(go_type)
    standard = rules_to_dict(TENHOU)
    lobby = rules_to_dict(lobby_rules(go_type & ~SANMA))
    return with_options(TENHOU_SANMA, **{k: v for k, v in lobby.items() if standard[k] != v})


def win_from_record(record: dict[str, Any]) -> Win:
    """The :class:`Win` a record describes, with its recorded situational flags."""
    flags = record["flags_from_events"]
    melds = tuple(_meld(m) for m in record["melds"] if m["type"] != "nuki")
    riichi = flags["is_riichi"] or flags["is_daburu_riichi"]
    return Win(
        hand=tuple(_tiles(record["closed_tiles_136"])),
        win_tile=Tile.from_136(record["win_tile_136"]),
        melds=melds,
        tsumo=record["win_type"] == "tsumo",
        seat_wind=WINDS.index(record["seat_wind"]),
        round_wind=WINDS.index(record["round_wind"]),
        riichi=flags["is_riichi"],
        double_riichi=flags["is_daburu_riichi"],
        ippatsu=flags["is_ippatsu"],
        rinshan=flags["is_rinshan"],
        chankan=flags["is_chankan"],
        haitei=flags["is_haitei"],
        houtei=flags["is_houtei"],
        tenhou=flags["is_tenhou"],
        chiihou=flags["is_chiihou"],
        dora=tuple(_tiles(record["dora_indicators_136"])),
        ura=tuple(_tiles(record["ura_indicators_136"])) if riichi else (),
        honba=record["honba"],
        sticks=record["riichi_sticks"],
        kita=sum(m["type"] == "nuki" for m in record["melds"]),
    )


def _tiles(ids: list[int]) -> list[Tile]:
    return [Tile.from_136(i) for i in ids]


def _meld(data: dict[str, Any]) -> Meld:
    called = Tile.from_136(data["called_tile"]) if data.get("called_tile") is not None else None
    return Meld(MELD_KINDS[data["type"]], tuple(_tiles(data["tiles"])),
                from_seat=data.get("from_seat"), called=called)


def record_deltas(record: dict[str, Any], value: HandValue, rules: Rules = TENHOU) -> list[int]:
    """Score changes for the record's win; on a multiple ron, this winner's share only."""
    winner, dealer = record["winner_seat"], record["dealer_seat"]
    honba, sticks = record["honba"], record["riichi_sticks"]
    if record["win_type"] == "tsumo":
        return settle_win(value, winner, dealer, None, honba, sticks, rules, record["pao_seat"])
    if record.get("multi_ron"):
        honba = record["honba_paid"] and honba
        sticks = record["riichi_sticks_paid"] and sticks
    claim = Claim(winner, value, record["pao_seat"])
    return settle_ron([claim], record["from_seat"], dealer, honba, sticks, rules)


def check_record(record: dict[str, Any], rules: Rules | None = None) -> RecordCheck:
    """Score one record with tablekit and compare every figure with Tenhou's.

    Without ``rules`` the record's own lobby rules apply.
    """
    reason = skip_reason(record)
    players = record["rules"]["players"]
    if reason:
        return RecordCheck(record["id"], reason, players=players)
    try:
        rules = rules or record_rules(record)
    except RulesError as error:
        return RecordCheck(record["id"], f"lobby rules: {error}", players=players)
    try:
        value = score_hand(win_from_record(record), rules)
    except InvalidHand as error:
        return RecordCheck(record["id"], None, (f"refused: {error}",), players)
    return RecordCheck(record["id"], None, tuple(_differences(record, value, rules)), players)


def _differences(record: dict[str, Any], value: HandValue, rules: Rules) -> list[str]:
    result = record["result"]
    out = value_mismatches(value, [(y[2], y[1]) for y in result["yaku"]],
                           [y[1] for y in result["yakuman"]], result["han"], result["fu"],
                           result["points"], rules)
    limit = LIMIT_NAMES.get(value.limit, value.limit)
    if limit == "mangan" and value.fu * 2 ** (value.han + 2) < 2000:
        limit = ""  # Tenhou names no limit for a kiriage mangan
    if limit != result["limit_name"] and not (value.yakuman and "yakuman" in result["limit_name"]):
        out.append(f"limit {limit!r} != tenhou {result['limit_name']!r}")
    deltas = record_deltas(record, value, rules)
    deltas += [0] * (len(result["sc_deltas"]) - len(deltas))  # the empty seat of sanma
    if deltas != result["sc_deltas"]:
        out.append(f"score changes {deltas} != tenhou {result['sc_deltas']}")
    return out


def summarise(checks: list[RecordCheck]) -> dict[str, Any]:
    """Counts for a report: checked, matched, skipped by reason."""
    skipped: dict[str, int] = {}
    for check in checks:
        if check.skipped:
            skipped[check.skipped] = skipped.get(check.skipped, 0) + 1
    checked = [c for c in checks if c.skipped is None]
    by_players = {f"{n}p": {"checked": sum(c.players == n for c in checked),
                            "matched": sum(c.ok and c.players == n for c in checked)}
                  for n in sorted({c.players for c in checks}, reverse=True)}
    return {"records": len(checks), "checked": len(checked),
            "matched": sum(c.ok for c in checked), "skipped": skipped,
            "by_players": by_players}


__all__ = ["RecordCheck", "check_record", "read_records", "record_deltas", "record_rules",
           "summarise", "win_from_record"]
