"""Fuzzed inputs from outside: rules files and rosters mutated at random from valid ones
(wrong types, out of range, deep nesting, huge numbers, unicode oddities, truncation,
garbage bytes), and every screen drawn with names of 32,000 characters.

Each file is read as the commands read it (:func:`~tablekit.rules.presets.load_rules`,
:func:`~tablekit.league.roster.read_roster`). A case is *refused* (one line, the error
tablekit raises on purpose), *accepted* or a *crash* (any other exception). An accepted
file is checked by what it leads to, not by the schema that let it in: points that vanish
on a tsumo with honba, final scores that do not sum to zero, a journal round trip that
changes the rules, text that is not NFC or holds control characters, names lost or a
roster that cannot seat a game. Those are counted as *nonsense accepted*.

>>> import tempfile
>>> report = fuzz_rules(20, Path(tempfile.mkdtemp()), seed=1)
>>> report.cases, report.crashes, report.nonsense
(20, 0, 0)
"""

from __future__ import annotations

import dataclasses
import json
import random
import time
import typing
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tablekit.errors import TablekitError
from tablekit.league.roster import choose_players, read_roster
from tablekit.rules.hand import Win
from tablekit.rules.payments import settle_win
from tablekit.rules.presets import PRESETS, Rules, load_rules, rules_from_dict, rules_to_dict
from tablekit.rules.scoring import score_hand
from tablekit.rules.standings import game_points

LONG = 32_000  # characters of the long names and rules name
ODD_TEXT = ("\u0007", "\x1b[2J", "\x00", "\x7f", "\x85", "\u2028", "\u202e", "\u200b",
            "\ufeff", "\ud800", "e\u0301", "\u200d", "👩\u200d👩\u200d👧", "王芳", "שלום",
            "\t", "\r", " ", "#", ",", '"', "\\", "'''", "\U0010ffff")
NAMES = ("Aki", "Ben", "Cho", "Dai", "Emi", "José", "Zoë", "王芳", "Ólafur", "Ana María",
         "D'Arcy", "Łukasz", "Nguyễn Văn An", "Søren", "Ngozi", "Юлия", "Kaavi", "Mei-Ling")
WEIRD_VALUES = ('"text"', "1.5", "true", "false", "[1, 2]", "{ a = 1 }", "12", "-3", '""',
                "inf", "nan", "1979-05-27", "0x10", "[]", '["a", 2]', "300.0", "[[4]]")
HUGE = (2 ** 63, 2 ** 64 + 300, -2 ** 63, 10 ** 30, 10 ** 200)


@dataclass
class FuzzReport:
    """What the cases of one kind of file gave."""

    cases: int = 0
    accepted: int = 0
    refused: int = 0
    crashes: int = 0
    nonsense: int = 0  # accepted, and what it leads to is wrong
    unclear: int = 0  # refused, but not in one line (of at most 600 characters)
    slowest_ms: float = 0.0
    problems: list[str] = field(default_factory=list)

    def figures(self, kind: str) -> dict[str, Any]:
        return {f"{kind}_cases": self.cases, f"{kind}_accepted": self.accepted,
                f"{kind}_refused": self.refused, f"{kind}_crashes": self.crashes,
                f"{kind}_nonsense_accepted": self.nonsense,
                f"{kind}_unclear_refusals": self.unclear,
                f"{kind}_slowest_ms": round(self.slowest_ms, 1)}


def fuzz_inputs(cases: int, folder: Path, seed: int = 0, long_text: bool = True
                ) -> dict[str, Any]:
    """``cases`` fuzzed rules files and as many rosters, and (``long_text``) the slowest
    draw of a screen with long names; one dict of figures (``input_crashes``: both kinds)."""
    rules = fuzz_rules(cases, folder / "rules", seed)
    rosters = fuzz_rosters(cases, folder / "rosters", seed)
    for kind, report in (("rules", rules), ("roster", rosters)):
        for problem in report.problems[:5]:
            print(f"  inputs: {kind}: {problem}")
    figures = {**rules.figures("rules"), **rosters.figures("roster"),
               "input_crashes": rules.crashes + rosters.crashes}
    if long_text:
        figures.update(long_text_draws())
    return figures


# -- rules files ---------------------------------------------------------------------------

def fuzz_rules(cases: int, folder: Path, seed: int = 0) -> FuzzReport:
    """``cases`` rules files, each a valid one mutated once or twice, read by load_rules."""
    rng = random.Random(seed)
    folder.mkdir(parents=True, exist_ok=True)
    report = FuzzReport()
    for case in range(cases):
        options = _valid_options(rng)
        text = _toml(options)
        for _ in range(rng.choice((1, 1, 2))):
            text = rng.choice(RULES_MUTATIONS)(rng, text, options)
        path = folder / f"case-{case}.toml"
        path.write_bytes(text if isinstance(text, bytes) else text.encode("utf-8", "replace"))
        _run(report, f"rules case {case}", lambda p=path: load_rules(p), rules_nonsense)
    return report


def _valid_options(rng: random.Random) -> dict[str, Any]:
    """A valid club file's options: a base and some of a preset's options, a few changed."""
    base = rng.choice(list(PRESETS))
    options = {key: value for key, value in rules_to_dict(PRESETS[base]).items()
               if rng.random() < 0.3}
    options.pop("notes", None) if rng.random() < 0.5 else None
    if rng.random() < 0.5:
        options["name"] = rng.choice(("Thursday club", "Club du jeudi", "木曜会", "José's"))
    if rng.random() < 0.3:
        options["uma"] = rng.choice(([30, 10, -10, -30], [15, 5, -5, -15], [20, 10, -10, -20]))
    if rng.random() < 0.3:
        options["start_points"], options["return_points"] = rng.choice(
            ((25000, 30000), (30000, 30000), (25000, 25000), (35000, 40000)))
    return {"base": base, **options}


def _toml(options: dict[str, Any]) -> str:
    return "".join(f"{key} = {_value(value)}\n" for key, value in options.items())


def _value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_value(v) for v in value) + "]"
    return str(value)


def _set(text: str, key: str, value: str) -> str:
    """``text`` with ``key``'s line (or a new one) saying ``value``."""
    lines = [line for line in text.splitlines() if not line.startswith(f"{key} =")]
    return "\n".join([*lines, f"{key} = {value}"]) + "\n"


def _key(rng: random.Random) -> str:
    return rng.choice([f.name for f in dataclasses.fields(Rules)] + ["base"])


def _wrong_type(rng: random.Random, text: str, options: dict) -> str:
    return _set(text, _key(rng), rng.choice(WEIRD_VALUES))


def _out_of_range(rng: random.Random, text: str, options: dict) -> str:
    key = rng.choice(("honba_value", "noten_payment", "riichi_deposit", "start_points",
                      "return_points", "chombo_penalty", "time_limit", "double_wind_fu"))
    value = rng.choice((-1, 0, 7, 50, 100, 150, 299, 301, 1000, 99_999, 10 ** 6 + 100,
                        -25000, *HUGE))
    return _set(text, key, str(value))


def _relations(rng: random.Random, text: str, options: dict) -> str:
    if rng.random() < 0.5:
        return _set(_set(text, "start_points", str(rng.randrange(1, 800) * 100)),
                    "return_points", str(rng.randrange(1, 800) * 100))
    uma = rng.choice(([50, 50, 50, 50], [-20, -10, 10, 20], [10, 20, -10, -20], [0, 0, 0, 0],
                      [rng.randrange(-60, 60) for _ in range(4)], [1, 2, 3], [20, 10, -10]))
    return _set(text, "uma", _value(uma))


def _huge(rng: random.Random, text: str, options: dict) -> str:
    digits = rng.choice((20, 400, 4301, 5000, 100_000))
    return _set(text, _key(rng), rng.choice(("", "-")) + "9" * digits)


def _deep(rng: random.Random, text: str, options: dict) -> str:
    depth = rng.choice((30, 500, 1000, 5000, 20_000))
    shape = rng.randrange(3)
    if shape == 0:
        value = "[" * depth + "1" + "]" * depth
    elif shape == 1:
        value = "{ a = " * depth + "1" + " }" * depth
    else:
        return text + ".".join(["a"] * depth) + " = 1\n"
    return _set(text, rng.choice(("uma", "notes", "name", "extra")), value)


def _unicode(rng: random.Random, text: str, options: dict) -> str:
    odd = rng.choice(ODD_TEXT)
    escaped = rng.random() < 0.5
    shown = json.dumps(odd)[1:-1] if escaped else odd
    name = rng.choice(("Thursday ", "", "Jose\u0301 ", "x" * rng.choice((55, 61, 200, LONG))))
    key = rng.choice(("name", "title", "source", "name", "base"))
    if rng.random() < 0.2:
        return "\ufeff" + text if rng.random() < 0.5 else text + "\ufeff"
    if rng.random() < 0.2:
        return _set(text, "notes", _value([name + shown, "second note"]))
    return _set(text, key, f'"{name}{shown}"')


def _truncate(rng: random.Random, text: str, options: dict) -> str:
    return text[:rng.randrange(len(text) + 1)]


def _garbage(rng: random.Random, text: str | bytes, options: dict) -> bytes:
    data = bytearray(text.encode("utf-8", "replace") if isinstance(text, str) else text)
    for _ in range(rng.choice((1, 2, 5, 50))):
        where = rng.randrange(len(data) + 1)
        junk = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 8)))
        data[where:where + rng.randrange(3)] = junk
    return bytes(data)


def _unknown_or_twice(rng: random.Random, text: str, options: dict) -> str:
    line = rng.choice(("colour = 3", "kiriage = true", "Kiriage = true", "[table]\na = 1",
                       "uma.first = 1", "[[uma]]", "base = \"tenhou\"", "honba_value = 300"))
    return text + line + "\n"


def _text_only(mutate: Callable[..., Any]) -> Callable[..., Any]:
    """``mutate`` applied to text (bytes from an earlier garbage mutation are decoded)."""
    def wrapped(rng: random.Random, text: str | bytes, options: dict) -> Any:
        if isinstance(text, bytes):
            text = text.decode("utf-8", "replace")
        return mutate(rng, text, options)
    return wrapped


RULES_MUTATIONS = [_text_only(m) for m in (_wrong_type, _out_of_range, _relations, _huge,
                                           _deep, _unicode, _truncate, _unknown_or_twice)]
RULES_MUTATIONS.append(_garbage)

TSUMO = Win.parse("234067m234p67899s", win_tile="6s", riichi=True, tsumo=True)


def rules_nonsense(rules: Rules) -> list[str]:
    """What is wrong with accepted ``rules``, judged by what they lead to."""
    wrong = _wrong_types(rules) + [f"{key}: {problem}" for key in ("name", "title", "source")
                                   if (problem := _text_wrong(getattr(rules, key)))]
    wrong += [f"notes: {problem}" for note in rules.notes if (problem := _text_wrong(note))]
    if wrong:
        return wrong  # the checks below would raise on the wrong types
    if not 0 < rules.start_points <= rules.return_points:
        wrong.append(f"start {rules.start_points}, return {rules.return_points}")
    if any(abs(v) >= 2 ** 53 for v in (rules.start_points * 4, rules.return_points * 4,
                                       rules.chombo_penalty, rules.honba_value * 3)):
        wrong.append("points past what the league keeps")
    if list(rules.uma) != sorted(rules.uma, reverse=True):
        wrong.append(f"a lower place gets more uma: {rules.uma}")
    value = score_hand(TSUMO, rules)
    for honba in (1, 2):
        deltas = settle_win(value, 1, 0, None, honba, 0, rules)
        gained = deltas[1] - settle_win(value, 1, 0, None, 0, 0, rules)[1]
        if gained != honba * rules.honba_value or any(d % 100 for d in deltas):
            wrong.append(f"{honba} honba of {rules.honba_value} pays {gained}: {deltas}")
    for ready in (1, 2, 3):
        gain, loss = rules.noten_payment // ready, rules.noten_payment // (4 - ready)
        if gain * ready != loss * (4 - ready):
            wrong.append(f"noten payment {rules.noten_payment} loses points ({ready} ready)")
    start = rules.start_points
    for scores in ((start,) * 4, (start * 2, start, start // 2 * 1, start // 2),
                   (start * 4 - 300, 100, 100, 100)):
        total = sum(game_points(scores, rules))
        if abs(total) > 0.25:
            wrong.append(f"final scores of {scores} sum to {total:+.1f}")
    if rules_from_dict(json.loads(json.dumps(rules_to_dict(rules)))) != rules:
        wrong.append("the journal's copy of the rules differs")
    if any("\n" in value for _, value in rules.describe()):
        wrong.append("a rule shown on two lines")
    return wrong


def _wrong_types(rules: Rules) -> list[str]:
    hints = typing.get_type_hints(Rules)
    wrong = []
    for key, hint in hints.items():
        value = getattr(rules, key)
        choices = typing.get_args(hint) if typing.get_origin(hint) is typing.Literal else ()
        if choices and (value not in choices or type(value) is not type(choices[0])):
            wrong.append(f"{key} = {value!r}, not one of {choices}")
        elif hint in (bool, int, str) and type(value) is not hint:
            wrong.append(f"{key} = {value!r} is not {hint.__name__}")
        elif key == "uma" and (len(value) != 4 or any(type(u) is not int for u in value)):
            wrong.append(f"uma = {value!r}")
        elif key == "notes" and any(type(note) is not str for note in value):
            wrong.append(f"notes = {value!r}")
    return wrong


def _text_wrong(text: str) -> str | None:
    """Why ``text`` must not reach a screen or terminal (independently of the schema)."""
    if unicodedata.normalize("NFC", text) != text:
        return f"{text[:40]!r} is not NFC"
    for char in text:
        if unicodedata.category(char) in ("Cc", "Cf", "Cs", "Zl", "Zp") and char not in (
                "\u200c\u200d"):
            return f"{text[:40]!r} holds U+{ord(char):04X}"
    return None


# -- rosters -------------------------------------------------------------------------------

def fuzz_rosters(cases: int, folder: Path, seed: int = 0) -> FuzzReport:
    """``cases`` roster files, each a valid one mutated once or twice, read by read_roster."""
    rng = random.Random(seed + 1)
    folder.mkdir(parents=True, exist_ok=True)
    report = FuzzReport()
    for case in range(cases):
        text: str | bytes = _valid_roster(rng)
        for _ in range(rng.choice((1, 1, 2))):
            text = rng.choice(ROSTER_MUTATIONS)(rng, text, {})
        path = folder / f"case-{case}.txt"
        path.write_bytes(text if isinstance(text, bytes) else text.encode("utf-8", "replace"))
        _run(report, f"roster case {case}", lambda p=path: read_roster(p),
             lambda names, p=path: roster_nonsense(names, p.read_bytes()))
    return report


def _valid_roster(rng: random.Random) -> str:
    names = rng.sample(NAMES, rng.randrange(4, len(NAMES) + 1))
    lines = [rng.choice(("", "  ")) + name + rng.choice(("", "  # plays Thursdays", " ", "\t"))
             for name in names]
    if rng.random() < 0.5:
        lines.insert(0, "# Thursday club")
        lines.insert(rng.randrange(len(lines) + 1), "")
    return rng.choice(("\n", "\r\n")).join(lines) + rng.choice(("\n", ""))


def _roster_odd(rng: random.Random, text: str, options: dict) -> str:
    lines = text.split("\n")
    where = rng.randrange(len(lines))
    odd = rng.choice(ODD_TEXT)
    kind = rng.randrange(5)
    if kind == 0:
        return "\ufeff" + text
    if kind == 1:  # a name again in the other normal form
        name = rng.choice(("José", "Zoë", "Nguyễn Văn An", "Łukasz"))
        return f"{name}\n{text}\n{unicodedata.normalize('NFD', name)}\n"
    if kind == 2:
        lines[where] = lines[where][:2] + odd + lines[where][2:]
    elif kind == 3:
        lines[where] = odd * rng.choice((1, 3))
    else:
        lines[where] = rng.choice(NAMES) + "x" * rng.choice((40, 61, 1000, LONG))
    return "\n".join(lines)


def _roster_lines(rng: random.Random, text: str, options: dict) -> str:
    lines = text.split("\n")
    kind = rng.randrange(4)
    if kind == 0:  # down to fewer names than seats
        return "\n".join(rng.sample(NAMES, rng.randrange(4))) + "\n"
    if kind == 1:
        return text + "\n" + rng.choice([line for line in lines if line.strip()] or ["Aki"])
    if kind == 2:
        return rng.choice(("", "\n", "# nobody\n", "   \n\t\n", "\r\n\r\n"))
    many = rng.choice((1000, 100_000)) if rng.random() < 0.05 else 200
    return "".join(f"Player {i}\n" for i in range(many))


def _roster_encoding(rng: random.Random, text: str, options: dict) -> bytes:
    return text.encode(rng.choice(("utf-16", "latin-1", "cp1252", "utf-32")), "replace")


ROSTER_MUTATIONS = [_text_only(m) for m in (_roster_odd, _roster_odd, _roster_lines,
                                            _truncate, _roster_encoding)]
ROSTER_MUTATIONS.append(_garbage)


def roster_nonsense(names: list[str], data: bytes) -> list[str]:
    """What is wrong with accepted roster ``names`` read from ``data``."""
    wrong = [f"name {problem}" for name in names if (problem := _text_wrong(name))]
    wrong += [f"{name[:40]!r} is not trimmed or holds a comma or #" for name in names
              if name != name.strip() or not name or set(name) & {",", "#"}]
    if len(names) < 4 or len(set(names)) != len(names):
        wrong.append(f"{len(names)} names, {len(set(names))} different")
    text = unicodedata.normalize("NFC", data.decode("utf-8").removeprefix("\ufeff"))
    written = [line.split("#", 1)[0].strip() for line in text.split("\n")]
    if len([name for name in written if name]) != len(names):
        wrong.append(f"{len(names)} names read from {len([n for n in written if n])} lines")
    if wrong:
        return wrong
    typed = ", ".join(unicodedata.normalize("NFD", name) for name in names[:4])
    if choose_players(typed, names) != tuple(names[:4]):
        wrong.append("the first four names typed do not seat a game")
    return wrong


# -- both ----------------------------------------------------------------------------------

def _run(report: FuzzReport, case: str, read: Callable[[], Any],
         nonsense: Callable[[Any], list[str]]) -> None:
    """Read one case into ``report``: refused, accepted (and judged) or a crash."""
    report.cases += 1
    began = time.perf_counter()
    try:
        result = read()
    except TablekitError as error:
        report.refused += 1
        message = str(error)
        if len(message.splitlines()) != 1 or len(message) > 600:
            report.unclear += 1
            report.problems.append(f"{case}: refusal not one short line: {message[:200]!r}")
    except Exception as error:  # the point: anything else is a crash, counted
        report.crashes += 1
        report.problems.append(f"{case}: {type(error).__name__}: {str(error)[:200]}")
    else:
        report.accepted += 1
        try:
            wrong = nonsense(result)
        except Exception as error:  # the accepted input breaks what uses it
            wrong = [f"using it raised {type(error).__name__}: {str(error)[:200]}"]
        if wrong:
            report.nonsense += 1
            report.problems.append(f"{case}: accepted: {'; '.join(wrong)[:300]}")
    report.slowest_ms = max(report.slowest_ms, (time.perf_counter() - began) * 1000)


# -- long text on the screen ---------------------------------------------------------------

def long_text_draws(length: int = LONG, repeats: int = 3) -> dict[str, Any]:
    """Every example screen drawn with its players' names and the rules' name and title
    ``length`` characters long; the slowest screen (best of ``repeats`` draws) against the
    slowest with the names as they are."""
    import pygame

    from tablekit.display.examples import example_screens
    from tablekit.display.render import render

    pygame.font.init()
    surface = pygame.Surface((800, 480))

    def best(model: Any) -> float:
        times = []
        for _ in range(repeats):
            began = time.perf_counter()
            render(model, surface)
            times.append((time.perf_counter() - began) * 1000)
        return min(times)

    normal, long, worst = 0.0, 0.0, ""
    for example in example_screens():
        model = lengthened(example.model, length)
        normal = max(normal, best(example.model))
        took = best(model)
        if took > long:
            long, worst = took, example.name
    return {"long_text_chars": length, "long_text_worst_draw_ms": round(long, 1),
            "long_text_worst_screen": worst, "normal_text_worst_draw_ms": round(normal, 1)}


def lengthened(model: Any, length: int = LONG) -> Any:
    """``model`` with every player's name, and the rules' name and title, ``length``
    characters long (the name repeated)."""
    state = model.state
    names = {name: (name + " ") * (length // (len(name) + 1) + 1) for name in
             (*state.names, "Emi")}
    names = {name: long[:length] for name, long in names.items()}
    rules = dataclasses.replace(state.rules, name="R" * length,
                                title=("Rules " * (length // 6 + 1))[:length])
    model = _renamed(model, names)
    return dataclasses.replace(model, state=dataclasses.replace(model.state, rules=rules))


def _renamed(value: Any, names: dict[str, str]) -> Any:
    """``value`` (dataclasses and tuples all the way down) with the strings in ``names``
    replaced, wherever they are a whole field."""
    if isinstance(value, str):
        return names.get(value, value)
    if isinstance(value, tuple) and not hasattr(value, "_fields"):
        return tuple(_renamed(item, names) for item in value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type) and not isinstance(
            value, Rules):
        changes = {f.name: _renamed(getattr(value, f.name), names)
                   for f in dataclasses.fields(value) if f.init}
        return dataclasses.replace(value, **changes)
    return value
