"""``tablekit score``: score one hand from the command line.

>>> from tablekit.cli import main
>>> main(["score", "234567m234p67899s", "--win", "6s", "--riichi"])
234567m234p67899s  winning on 6s (ron, seat S, round E, rules tenhou)
<BLANKLINE>
  Riichi                  1 han
  Pinfu                   1 han
<BLANKLINE>
  fu: base 30  -> 30 fu
  2 han 30 fu
<BLANKLINE>
  Ron: the discarder pays 2,000
  Winner gains 2,000
0
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from tablekit.errors import TablekitError
from tablekit.rules.hand import WINDS, Meld, Win
from tablekit.rules.payments import Payment, hand_payment
from tablekit.rules.presets import Rules, load_rules, with_options
from tablekit.rules.scoring import HandValue, score_hand
from tablekit.tiles import Tile, parse_tiles, to_mpsz

FLAGS = ("tsumo", "riichi", "double_riichi", "ippatsu", "rinshan", "chankan", "haitei",
         "houtei", "tenhou", "chiihou")


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "score", help="score a winning hand",
        description="Score a winning hand. HAND is the concealed tiles in mpsz notation "
                    "(winning tile included, 0 = red five); melds go apart with --meld.")
    parser.add_argument("hand", metavar="HAND")
    parser.add_argument("--win", required=True, metavar="TILE", help="the winning tile")
    for flag in FLAGS:
        parser.add_argument(f"--{flag.replace('_', '-')}", action="store_true")
    parser.add_argument("--dealer", action="store_true", help="the winner is East (dealer)")
    parser.add_argument("--seat-wind", choices=list(WINDS), default=None)
    parser.add_argument("--round-wind", choices=list(WINDS), default="E")
    parser.add_argument("--meld", action="append", default=[], metavar="KIND:TILES",
                        help="chi:234p, pon:777z, kan:1111z, ankan:5555p, shouminkan:3333s")
    parser.add_argument("--dora", action="append", default=[], metavar="IND",
                        help="dora indicator(s), e.g. --dora 3m --dora 7z")
    parser.add_argument("--ura", action="append", default=[], metavar="IND")
    parser.add_argument("--honba", type=int, default=0)
    parser.add_argument("--sticks", type=int, default=0, help="riichi sticks on the table")
    parser.add_argument("--rules", default=None, metavar="PRESET|FILE.toml",
                        help="tenhou (the default), ema2016, wrc2025, tenhou-sanma or a file")
    parser.add_argument("--players", type=int, choices=(3, 4), default=None,
                        help="3: three-player (sanma) rules, tenhou-sanma unless --rules says")
    parser.add_argument("--kita", type=int, default=0, metavar="N",
                        help="Norths the winner set aside as dora (three players)")
    parser.add_argument("--kiriage", action="store_true", help="round 4/30 and 3/60 to mangan")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    try:
        rules = rules_from_args(args)
        if args.kiriage:
            rules = with_options(rules, kiriage=True)
        win = win_from_args(args)
        value = score_hand(win, rules)
    except TablekitError as error:
        print(f"tablekit score: {error}", file=sys.stderr)
        return 2
    payment = hand_payment(value, win.honba, win.sticks, rules)
    if args.json:
        print(json.dumps(score_json(value, payment, rules)))
    else:
        print(score_text(win, value, payment, rules))
    return 0


def rules_from_args(args: argparse.Namespace) -> Rules:
    """``--rules``, or ``tenhou-sanma`` for ``--players 3`` alone; a mismatch is refused.

    >>> from argparse import Namespace
    >>> rules_from_args(Namespace(rules=None, players=3)).name
    'tenhou-sanma'
    >>> rules_from_args(Namespace(rules="ema2016", players=3))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    tablekit.errors.TablekitError: --players 3 needs three-player rules (...), not ema2016
    """
    if args.rules is None:
        return load_rules("tenhou-sanma" if args.players == 3 else "tenhou")
    rules = load_rules(args.rules)
    if args.players is not None and args.players != rules.players:
        need = ("three-player rules (--rules tenhou-sanma or a file with players = 3)"
                if args.players == 3 else "four-player rules")
        raise TablekitError(f"--players {args.players} needs {need}, not {rules.name}")
    return rules


def win_from_args(args: argparse.Namespace) -> Win:
    """The :class:`Win` the command line describes."""
    if args.dealer and args.seat_wind not in (None, "E"):
        raise TablekitError(f"--dealer means seat wind E, not {args.seat_wind}")
    seat = "E" if args.dealer else (args.seat_wind or "S")
    return Win(
        hand=tuple(parse_tiles(args.hand)),
        win_tile=Tile.from_code(args.win),
        melds=tuple(Meld.parse(m) for m in args.meld),
        seat_wind=WINDS.index(seat),
        round_wind=WINDS.index(args.round_wind),
        dora=tuple(t for d in args.dora for t in parse_tiles(d)),
        ura=tuple(t for u in args.ura for t in parse_tiles(u)),
        honba=args.honba,
        sticks=args.sticks,
        kita=args.kita,
        **{flag: getattr(args, flag) for flag in FLAGS},
    )


def score_json(value: HandValue, payment: Payment, rules: Rules) -> dict[str, Any]:
    """The ``--json`` object."""
    return {
        "han": value.han, "fu": value.fu,
        "yaku": [{"name": y.name, "han": y.han} for y in value.yaku],
        "dora": value.dora, "red": value.red, "ura": value.ura, "yakuman": value.yakuman,
        "limit": value.limit, "base": value.base,
        "fu_items": [{"reason": i.reason, "fu": i.fu} for i in value.fu_items],
        "pays": payment.as_dict(), "total": payment.total, "rules": rules.name,
        **({"players": 3} if rules.players == 3 else {}),
    }


def score_text(win: Win, value: HandValue, payment: Payment, rules: Rules) -> str:
    """A readable breakdown, as a person would check it."""
    melds = "".join(f"  {m}" for m in win.melds)
    lines = [f"{to_mpsz(win.hand)}{melds}  winning on {win.win_tile} "
             f"({'tsumo' if win.tsumo else 'ron'}, seat {WINDS[win.seat_wind]}, "
             f"round {WINDS[win.round_wind]}{_kita(win)}, rules {rules.name})", ""]
    for item in value.yaku:
        amount = f"yakuman x{item.yakuman}" if item.yakuman else f"{item.han} han"
        lines.append(f"  {item.title:<23} {amount}")
    if not value.yakuman:
        lines.append("")
        lines.append(f"  fu: {', '.join(f'{i.reason} {i.fu}' for i in value.fu_items)}"
                     f"  -> {value.fu} fu")
        limit = f"  {value.limit}" if value.limit else ""
        lines.append(f"  {value.han} han {value.fu} fu{limit}")
    else:
        lines.append(f"  {value.limit}")
    lines.append("")
    lines.extend(_payment_lines(payment, win))
    return "\n".join(lines)


def _kita(win: Win) -> str:
    return f", {win.kita} kita" if win.kita else ""


def _payment_lines(payment: Payment, win: Win) -> list[str]:
    extras = []
    if win.honba:
        extras.append(f"{win.honba} honba")
    if win.sticks:
        extras.append(f"{win.sticks} riichi stick(s) {payment.sticks:,}")
    suffix = f" (with {', '.join(extras)})" if extras else ""
    if payment.ron is not None:
        pays = f"  Ron: the discarder pays {payment.ron:,}"
    elif payment.all is not None:
        pays = f"  Tsumo: {payment.all:,} from each player"
    elif payment.payers == 2:
        pays = f"  Tsumo: dealer pays {payment.dealer:,}, the other {payment.non_dealer:,}"
    else:
        pays = f"  Tsumo: dealer pays {payment.dealer:,}, others {payment.non_dealer:,} each"
    return [pays, f"  Winner gains {payment.total:,}{suffix}"]
