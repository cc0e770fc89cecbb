"""Rule presets (``tenhou``, ``ema2016``, ``wrc2025``; ``tenhou-sanma`` for three players)
and house-rule files.

A preset is a frozen :class:`Rules`; a club's TOML file names a base preset
and overrides single options::

    base = "tenhou"
    name = "Thursday club"
    kiriage = true
    uma = [15, 5, -5, -15]

>>> rules = load_rules("tenhou")
>>> rules.red_fives, rules.kiriage, rules.multi_ron
(True, False, 'double')
>>> with_options(rules, kiriage=True).kiriage
True
>>> ("Kiriage mangan", "no") in load_rules("tenhou").describe()
True

Three players (sanma) keep every four-player option and add how a tsumo is paid without
the fourth player and what North is:

>>> sanma = load_rules("tenhou-sanma")
>>> sanma.players, sanma.tsumo_payment, sanma.north, sanma.uma, sanma.oka
(3, 'loss', 'kita', (20, 0, -20), 15000)
"""

from __future__ import annotations

import dataclasses
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from tablekit.errors import RulesError, one_line
from tablekit.rules.schema import (
    THREE_PLAYER_OPTIONS,
    Kazoe,
    Length,
    MultiRon,
    North,
    Rounding,
    TsumoPayment,
    check_rules,
    shown,
)
from tablekit.untrusted import Untrusted
from tablekit.untrusted.files import looks_like, read_bytes


@dataclass(frozen=True)
class Rules:
    """Every rule choice tablekit needs, with Tenhou's values as defaults."""

    name: str = "tenhou"
    title: str = "Tenhou (ranked lobbies)"
    source: str = "tenhou.net rules page (https://tenhou.net/man/#RULE)"
    # players: four, or three (sanma: no 2m-8m, no chi, no North seat)
    players: Literal[3, 4] = 4
    tsumo_payment: TsumoPayment | None = None  # three players only: who pays the absent share
    north: North | None = None  # three players only: North set aside as dora, or a yakuhai
    # tiles and hand value
    red_fives: bool = True
    open_tanyao: bool = True
    kiriage: bool = False
    kazoe: Kazoe = "yakuman"
    yakuman_stacking: bool = True
    double_yakuman_hands: bool = False
    double_wind_fu: int = 4
    # payments
    honba_value: int = 300
    noten_payment: int = 3000
    riichi_deposit: int = 1000
    pao: bool = True
    multi_ron: MultiRon = "double"
    multi_ron_honba: Literal["nearest", "each"] = "nearest"
    # game flow and final score
    start_points: int = 25000
    return_points: int = 30000
    uma: tuple[int, ...] = (20, 10, -10, -20)  # one per place, first to last
    final_rounding: Rounding = "tenhou"  # all but first to the thousand, first the rest
    tied_places_share: bool = False  # equal final points split their places' uma and oka
    busting: bool = True
    length: Length = "hanchan"
    agari_yame: bool = True
    tenpai_yame: bool = True
    sudden_death_extension: bool = True
    leftover_sticks_to_first: bool = True
    abortive_draws: bool = True
    nagashi_mangan: bool = True
    time_limit: int = 0  # minutes a game may last (0: no limit), for tournaments
    end_of_time: Literal["finish_hand", "one_more_hand"] = "finish_hand"
    chombo: Literal["mangan", "penalty", "end_game"] = "mangan"
    chombo_penalty: int = 20000  # points off the final score ("penalty", "end_game")
    penalties_shared: bool = False  # a penalty is paid to the other three: the ledger sums to 0
    notes: tuple[str, ...] = field(default_factory=tuple)

    @property
    def oka(self) -> int:
        """Points the winner receives from the others' return points (20,000 on Tenhou,
        15,000 on Tenhou's three-player tables)."""
        return (self.return_points - self.start_points) * self.players

    def describe(self) -> list[tuple[str, str]]:
        """Every choice as ``(label, value)`` lines, for the display and ``--help``."""
        yes = {True: "yes", False: "no"}
        multi = {"all": "double and triple ron", "double": "double ron; triple ron is a draw",
                 "head_bump": "head bump (nearest winner only)"}
        uma = "/".join(f"{u:+d}" for u in self.uma)
        return [
            ("Rules", self.title),
            *self._three_player_lines(),
            ("Red fives", yes[self.red_fives]),
            ("Open tanyao", yes[self.open_tanyao]),
            ("Kiriage mangan", yes[self.kiriage]),
            ("13+ han", "kazoe yakuman" if self.kazoe == "yakuman" else "sanbaiman"),
            ("Yakuman stack", yes[self.yakuman_stacking]),
            ("Double yakuman hands", yes[self.double_yakuman_hands]),
            ("Double-wind pair", f"{self.double_wind_fu} fu"),
            ("Honba", f"{self.honba_value:,}" if self.players == 4 else
             f"{self.honba_value:,} ({self.honba_value // 2:,} from each payer on a tsumo)"),
            ("Noten payment", f"{self.noten_payment:,}"),
            ("Pao", yes[self.pao]),
            ("Multiple ron", multi[self.multi_ron]),
            ("Honba on multiple ron", "nearest winner" if self.multi_ron_honba == "nearest"
             else "each winner"),
            ("Start / return", f"{self.start_points:,} / {self.return_points:,}"),
            ("Uma", uma),
            ("Final scores", "rounded to the thousand, first takes the rest"
             if self.final_rounding == "tenhou" else "to the hundred"),
            ("Equal points", "share their places' uma" if self.tied_places_share
             else "nearer the first dealer ranks higher"),
            ("Busting", yes[self.busting]),
            ("Length", "East only" if self.length == "tonpuusen" else "East + South"),
            ("Last hand ends on a leading dealer's win", yes[self.agari_yame]),
            ("... or tenpai", yes[self.tenpai_yame]),
            ("Extension to West", yes[self.sudden_death_extension]),
            ("Leftover sticks", "to first place" if self.leftover_sticks_to_first else "lost"),
            ("Abortive draws", yes[self.abortive_draws]),
            ("Nagashi mangan", yes[self.nagashi_mangan]),
            ("Time limit", f"{self.time_limit} minutes, then " + (
                "the hand in play is finished" if self.end_of_time == "finish_hand"
                else "one more hand is played") if self.time_limit else "none"),
            ("Chombo", {"mangan": "mangan payment, hand replayed",
                        "penalty": f"{self.chombo_penalty:,} off the final score, hand "
                                   "replayed",
                        "end_game": f"{self.chombo_penalty:,} off the final score, the "
                                    "game ends"}[self.chombo]),
            ("Penalties", "paid to the other three (zero-sum)" if self.penalties_shared
             else "off the final score"),
        ]

    def _three_player_lines(self) -> list[tuple[str, str]]:
        """The sanma choices for :meth:`describe` (none for four players)."""
        if self.players == 4:
            return []
        tsumo = {"loss": "tsumo loss: the absent player's share is not paid",
                 "bisection": "the absent player's share split between the two payers",
                 "full": "the ron value, half from each payer"}
        north = {"kita": "kita: set aside as a dora, a replacement drawn",
                 "yakuhai": "a yakuhai for everyone"}
        return [("Players", "three (no 2m-8m, no chi)"),
                ("Tsumo", tsumo[self.tsumo_payment or "loss"]),
                ("North", north[self.north or "kita"])]


TENHOU = Rules(
    notes=(
        "Ends after South 4 (East 4 East-only) when someone has 30,000, or on busting; a "
        "dealer on 30,000 and in the lead may stop after a win or tenpai in the last hand. "
        "Short of 30,000 it goes on into the next wind until a hand the dealer does not keep "
        "ends with someone on 30,000 (a dealer who keeps it plays on unless leading on "
        "30,000), at the latest after West 4 (South 4 East-only).",
        "Kan dora: at once for a closed kan, after the discard for open and added kans.",
        "Triple ron is an abortive draw; double ron pays honba and sticks to the nearest winner.",
    ),
)

EMA2016 = Rules(
    name="ema2016",
    title="EMA Riichi Competition Rules 2016",
    source="European Mahjong Association, Rules for Japanese Mahjong, 2016 edition",
    red_fives=False,
    kazoe="sanbaiman",
    yakuman_stacking=False,
    double_wind_fu=4,
    multi_ron="all",
    multi_ron_honba="each",
    start_points=30000,
    return_points=30000,
    uma=(15, 5, -5, -15),
    final_rounding="none",
    tied_places_share=True,
    busting=False,
    agari_yame=False,
    tenpai_yame=False,
    sudden_death_extension=False,
    abortive_draws=False,
    nagashi_mangan=False,
    chombo="penalty",
    notes=(
        "No abortive draws; the game plays East 1 to South 4 (a dealer who keeps the deal "
        "in South 4 plays again), no extension, no busting.",
        "Double and triple ron: the discarder pays each winner.",
    ),
)

WRC2025 = dataclasses.replace(
    EMA2016,  # the same tournament frame; the differences are written out
    name="wrc2025",
    title="World Riichi Championship Rules 2025",
    source="World Riichi Championship rule book (WRC rules, 2025 edition)",
    double_wind_fu=2,
    multi_ron="head_bump",
    multi_ron_honba="nearest",
    notes=(
        "No abortive draws; the game plays East 1 to South 4 (a dealer who keeps the deal "
        "in South 4 plays again), no extension, no busting.",
        "Head bump: only the first winner counter-clockwise from the discarder wins.",
        "A double-wind pair gives 2 fu.",
    ),
)

TENHOU_SANMA = dataclasses.replace(
    TENHOU,  # Tenhou's three-player lobbies; each value below is read off their records
    name="tenhou-sanma",
    title="Tenhou three-player (sanma) lobbies",
    source="tenhou.net rules page (https://tenhou.net/man/#RULE); values checked against "
           "379 three-player game records",
    players=3,
    tsumo_payment="loss",
    north="kita",
    honba_value=200,
    noten_payment=2000,
    start_points=35000,
    return_points=40000,
    uma=(20, 0, -20),
    notes=(
        "Three players, East, South and West; 2m-8m are taken out (a 1m indicator makes 9m "
        "the dora), one red 5p and one red 5s, no chi.",
        "A North may be set aside (kita) for a replacement draw: each counts as a dora. A "
        "tsumo is paid by the two others alone (tsumo loss); honba are 200 on a ron, 100 "
        "from each payer on a tsumo; noten payments 2,000 in all.",
        "Ends after South 3 when someone has 40,000, or when a score falls below zero; "
        "short of 40,000 it goes on into West.",
    ),
)

PRESETS: dict[str, Rules] = {r.name: r for r in (TENHOU, EMA2016, WRC2025)}
# Three-player presets: scored, played by the engine and checked against Tenhou's sanma records;
# not yet offered to the table (the scoreboard and the flow show four seats).
THREE_PLAYER_PRESETS: dict[str, Rules] = {TENHOU_SANMA.name: TENHOU_SANMA}
ALL_PRESETS: dict[str, Rules] = {**PRESETS, **THREE_PLAYER_PRESETS}
LARGEST_FILE = 64 << 10  # bytes: a rules file is a few lines
LONGEST_LINE = 4000  # characters: tomllib takes quadratic time over a deeply dotted key


def with_options(rules: Rules, **options: Any) -> Rules:
    """A copy of ``rules`` with some options changed, the whole set checked against
    :class:`~tablekit.rules.schema.RulesSchema`."""
    return Rules(**check_rules({**rules_to_dict(rules), **options}, rules.name))


def rules_to_dict(rules: Rules) -> dict[str, Any]:
    """Every option as plain JSON values, for the journal.

    >>> rules_from_dict(rules_to_dict(WRC2025)) == WRC2025
    True
    """
    data = dataclasses.asdict(rules)
    if rules.players == 4:  # a four-player game's journal reads as it always has
        data = {k: v for k, v in data.items() if k not in THREE_PLAYER_OPTIONS}
    return {k: list(v) if isinstance(v, tuple) else v for k, v in data.items()}


def rules_from_dict(data: dict[str, Any]) -> Rules:
    """Rules from :func:`rules_to_dict` output, or ``{"base": preset, **overrides}``."""
    if not isinstance(data, dict):
        raise RulesError(f"rules must be a table of options, not {shown(data)}")
    data = dict(data)
    return with_options(_base(data.pop("base", "tenhou"), "rules"), **data)


def rules_as_played(data: dict[str, Any]) -> Rules:
    """Rules read back from a journal: checked as a club's file is, except that a game
    already played under options this tablekit refuses (an older one took them: a long
    name, honba in 100s) is read as it was played rather than lost; an option that is no
    option at all, or a value of the wrong kind, is still refused.

    >>> rules_as_played({**rules_to_dict(TENHOU), "honba_value": 100}).honba_value
    100
    >>> rules_as_played({**rules_to_dict(TENHOU), "honba": 100})  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    tablekit.errors.RulesError: tenhou: unknown rule option 'honba' (known: name, ...)
    """
    try:
        return rules_from_dict(data)
    except RulesError as refused:
        options = dict(data)
        base = options.pop("base", None)
        played = {**rules_to_dict(_base(base, "rules") if base is not None else TENHOU),
                  **options}
        kinds = {k: type(v) for k, v in {**rules_to_dict(TENHOU),
                                          **rules_to_dict(TENHOU_SANMA)}.items()}
        if not set(rules_to_dict(TENHOU)) <= set(played) <= set(kinds) or any(
                not isinstance(v, kinds[k]) or isinstance(v, bool) is not (kinds[k] is bool)
                for k, v in played.items()):
            raise refused from None
        return Rules(**{k: tuple(v) if isinstance(v, list) else v for k, v in played.items()})


def _base(name: Any, where: str) -> Rules:
    if not isinstance(name, str) or name not in ALL_PRESETS:
        raise RulesError(f"{where}: base {shown(name)} is not a preset ({', '.join(ALL_PRESETS)})")
    return ALL_PRESETS[name]


def load_rules(spec: str | Path | None = None) -> Rules:
    """A preset by name, or a TOML file of house rules on top of a preset.

    >>> load_rules("wrc2025").double_wind_fu
    2
    >>> load_rules("mleague")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    tablekit.errors.RulesError: unknown rules 'mleague': use a preset (tenhou, ...) or a .toml file
    """
    if spec is None:
        return TENHOU
    text = str(spec)
    if text in ALL_PRESETS:
        return ALL_PRESETS[text]
    path = Path(text)
    if path.suffix != ".toml" and not path.exists():
        names = ", ".join(ALL_PRESETS)
        raise RulesError(f"unknown rules {text!r}: use a preset ({names}) or a .toml file")
    return rules_from_toml(path)


def rules_from_toml(path: Path) -> Rules:
    """Read a house-rules file: ``base`` (a preset name) plus options to override."""
    data = _read_toml(path)
    base = _base(data.pop("base", "tenhou"), str(path))
    data.setdefault("name", path.stem)
    name = data["name"] if isinstance(data["name"], str) else shown(data["name"])
    data.setdefault("title", f"{name} (house rules on {base.name})")
    return Rules(**check_rules({**rules_to_dict(base), **data}, str(path)))


def _read_toml(path: Path) -> dict[str, Any]:
    """The TOML table in ``path`` (a byte-order mark is allowed), or one line saying why not."""
    try:
        try:
            data = read_bytes(path, limit=LARGEST_FILE)  # a FIFO or a device: refused
        except Untrusted as error:
            raise RulesError(f"rules file {error}: not rules") from None
        text = data.decode("utf-8-sig")
        for number, line in enumerate(text.splitlines(), 1):
            if len(line) > LONGEST_LINE:
                raise RulesError(f"rules file {path}: line {number} is over {LONGEST_LINE:,} "
                                 "characters")
        return tomllib.loads(text)
    except RulesError:
        raise
    except FileNotFoundError:
        raise RulesError(f"rules file {path} does not exist") from None
    except OSError as error:
        raise RulesError(f"rules file {one_line(error)}") from None
    except UnicodeDecodeError:
        raise RulesError(f"rules file {path} is not UTF-8 text ({looks_like(data)})") from None
    except tomllib.TOMLDecodeError as error:
        raise RulesError(f"rules file {path} is not valid TOML: {one_line(error)}") from None
    except ValueError:  # a number past Python's 4,300 digits (were lines let be longer)
        raise RulesError(f"rules file {path} holds a number too long to read") from None
    except RecursionError:
        raise RulesError(f"rules file {path} is nested too deeply to read") from None
