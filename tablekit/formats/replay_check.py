"""Replay recorded games through importer, engine and scorer, and compare with the record.

Tenhou mjlog files and tenhou.net/6 JSON files are both read (told apart by their content);
any other record is refused naming what it is. A tablekit journal has no record to compare
with: :func:`play_journal` plays it back as the app would, hand by hand.

Each hand is checked three ways: the table before the deal (round, dealer, honba,
sticks, scores) against Tenhou's INIT; every seat's score change against the
record; every win's han, fu, points and yaku against Tenhou's AGARI. At the end
the final scores are compared with Tenhou's ``owari``.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from tablekit.errors import InvalidRecord, TablekitError
from tablekit.formats.sniff import JOURNAL, MJAI, OTHER_FILES, TENHOU6, UNKNOWN, record_format
from tablekit.formats.tenhou import YAKU_BY_ID, ImportedGame, ImportedHand, import_file
from tablekit.formats.tenhou6_read import read_tenhou6_file
from tablekit.formats.tenhou_check import value_mismatches
from tablekit.game.hands import HandReport, walk
from tablekit.game.journal import read_journal
from tablekit.game.session import replay_checked
from tablekit.game.state import Phase, TableState


@dataclass
class GameReport:
    path: Path
    skipped: str | None = None  # why it was not played, in short (the summary counts these)
    refusal: str = ""           # the importer's whole message
    hands: int = 0
    hands_ok: int = 0
    wins: int = 0
    wins_ok: int = 0
    final_ok: bool = False
    mismatches: list[str] = field(default_factory=list)
    seconds: float = 0.0
    table: list[str] = field(default_factory=list)
    players: int = 4  # the game's seats: 4, or 3 (sanma)

    @property
    def ok(self) -> bool:
        return self.skipped is None and not self.mismatches and self.final_ok

    def add_hand(self, report: HandReport) -> None:
        """One hand, as checked."""
        self.hands += 1
        self.hands_ok += report.exact
        self.mismatches.extend(report.lines)


def log_files(paths: Iterable[Path]) -> Iterator[Path]:
    """Every file under the given files and folders, sorted."""
    for path in paths:
        if path.is_dir():
            yield from sorted(p for p in path.rglob("*") if p.is_file())
        else:
            yield path


READS = "Tenhou mjlog XML, tenhou.net/6 JSON and tablekit journals"


class OtherRecord(InvalidRecord):
    """A game record of another kind than the one wanted; ``kind`` names it."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind


def read_game(path: Path, three_players: bool = False) -> ImportedGame:
    """A Tenhou record, mjlog or tenhou.net/6 (told by its content, not its name); a
    journal or mjai is :class:`OtherRecord`, naming what it is. A three-player mjlog is
    read only for a caller that plays it (``three_players``), as the check does.

    >>> import tempfile, pathlib
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "game.json"
    >>> _ = path.write_text('{"type": "start_game", "names": ["A", "B", "C", "D"]}')
    >>> read_game(path)
    Traceback (most recent call last):
    tablekit.formats.replay_check.OtherRecord: ...game.json: it is mjai JSON lines, not a Tenhou log
    """
    kind = record_format(path)
    if kind == TENHOU6 or (kind == UNKNOWN and path.suffix == ".json"):
        return read_tenhou6_file(path)
    if kind in (JOURNAL, MJAI):
        raise OtherRecord(kind, f"{path}: it is {kind}, not a Tenhou log")
    if kind in OTHER_FILES:  # a picture, an archive, a database: no record at all
        raise OtherRecord(kind, f"{path}: it looks like {kind}, not a game record")
    return import_file(path, three_players)


def check_game(path: Path) -> GameReport:
    """The game in ``path`` checked against its record, hand by hand."""
    start = time.perf_counter()
    report = GameReport(path)
    try:
        game = read_game(path, three_players=True)
    except OtherRecord as error:
        report.skipped = error.kind
        report.refusal = (f"{path}: it is {JOURNAL}, which has no record to check it against "
                          f"(`tablekit replay {path}` plays it back)" if error.kind == JOURNAL
                          else f"{error}; replay reads {READS}")
        return report
    except TablekitError as error:
        report.skipped, report.refusal = _reason(error, path), str(error)
        return report
    _run(game, report)
    report.seconds = time.perf_counter() - start
    return report


def play_journal(path: Path) -> GameReport:
    """A tablekit journal played back as the app would: each hand's line in ``table``; the
    first event it refuses (a damaged or hand-edited journal) in ``mismatches``."""
    report = GameReport(path)
    try:
        contents = read_journal(path)
    except TablekitError as error:
        report.skipped, report.refusal = "unreadable journal", str(error)
        return report
    probe, refused = replay_checked(contents.events, contents.joins)
    if refused is not None:
        report.mismatches.append(f"line {contents.lines[refused[0]]}: refused: {refused[1]}")
    for hand in walk(probe.in_force_read()[1]):
        if hand.ended:
            report.hands += 1
            report.table.append(_table_line(hand.label, hand.end))
    return report


def check_imported(game: ImportedGame, path: Path) -> GameReport:
    """The report for a game already imported (``path`` names it in the report)."""
    report = GameReport(path)
    _run(game, report)
    return report


def _reason(error: Exception, path: Path) -> str:
    """The kind of refusal, for counting: the message's first part after the file's name.

    >>> _reason(ValueError("/tmp/a.xml: not XML: line 1"), Path("/tmp/a.xml"))
    'not XML'
    """
    text = str(error).removeprefix(f"{path}: ")
    return text.split(":")[0] if "three-player" not in text else "three-player (sanma) game"


def _run(game: ImportedGame, report: GameReport) -> None:
    report.players = game.rules.players
    last = None
    for record, hand in zip(game.hands, walk(game.events), strict=False):
        if hand.refused:
            report.add_hand(HandReport(hand.label, (f"engine refused: {hand.refused}",)))
            return
        problems = _table_mismatches(hand.start, record)
        problems += _result_mismatches(hand.last, record, report)
        report.add_hand(HandReport(hand.label, tuple(problems)))
        report.table.append(_table_line(hand.label, hand.last))
        last = hand.last
    _check_final(last, game, report)


def _table_mismatches(state: TableState, hand: ImportedHand) -> list[str]:
    init = hand.init
    expected = (init.round_index // 4, init.round_index % 4, init.dealer, init.honba, init.sticks,
                tuple(init.scores))
    got = (state.round_wind, state.hand_number, state.dealer, state.honba, state.sticks,
           state.scores)
    if got == expected:
        return []
    return [f"table before the deal (wind, hand, dealer, honba, sticks, scores) {got} "
            f"!= tenhou {expected}"]


def _result_mismatches(state: TableState, hand: ImportedHand, report: GameReport) -> list[str]:
    result = state.result
    if result is None:
        return ["the hand did not end"]
    problems = []
    if result.deltas != hand.deltas:
        problems.append(f"score changes {list(result.deltas)} != tenhou {list(hand.deltas)}")
    for agari in hand.wins:
        report.wins += 1
        mine = [w for w in result.wins if w.seat == agari.who]
        if not mine:
            problems.append(f"seat {agari.who}'s win is missing")
            continue
        found = value_mismatches(
            mine[0].value, [(YAKU_BY_ID[i], h) for i, h in agari.yaku],
            [YAKU_BY_ID[i] for i in agari.yakuman], _han(agari), agari.fu, agari.points,
            state.rules)
        report.wins_ok += not found
        problems.extend(f"seat {agari.who}: {p}" for p in found)
    return problems


def _han(agari: object) -> int:
    return sum(h for _, h in agari.yaku)  # type: ignore[attr-defined]


def _check_final(state: TableState | None, game: ImportedGame, report: GameReport) -> None:
    final = game.hands[-1].final if game.hands else None
    if final is None or state is None:
        report.mismatches.append("the record has no final scores")
        return
    if state.phase is not Phase.GAME_OVER:
        report.mismatches.append(f"tenhou ended the game, the engine did not ({state.round_label})")
        return
    points = tuple(s.points for s in sorted(state.standings, key=lambda s: s.seat))
    if points != tuple(final):
        report.mismatches.append(f"final scores {list(points)} != tenhou {list(final)}")
        return
    report.final_ok = True


def _table_line(label: str, state: TableState) -> str:
    result = state.result
    kind = result.kind.replace("_", " ") if result else "?"
    deltas = " ".join(f"{d:+7d}" for d in (result.deltas if result else ()))
    scores = " ".join(f"{s:7d}" for s in state.scores)
    return f"{label:<7} {kind:<16} {deltas}   {scores}"
