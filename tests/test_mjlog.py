"""The Tenhou mjlog parser: hand-picked melds, a committed game, refusals, and all shared logs.

The shared-data tests check the parser against ``agari.jsonl`` (decoded independently from the
same logs) and against the logs' own arithmetic: every score Tenhou writes must follow from the
previous one, the riichi sticks and the recorded changes.
"""

from __future__ import annotations

import functools
import gzip
import json
from collections import defaultdict
from pathlib import Path

import pytest
from conftest import DATA

from tablekit.errors import InvalidRecord, TablekitError
from tablekit.formats.mjlog import (
    Agari,
    Call,
    Discard,
    Draw,
    Init,
    MjlogGame,
    MjlogMeld,
    NewDora,
    Reach,
    Ryuukyoku,
    decode_meld,
    parse_mjlog,
    read_mjlog,
)

FIXTURE_GAME = DATA / "tenhou-python-bot-28.xml"
REFUSED_LOGS: dict[str, str] = {}
"""Shared log files the parser refuses, by path under logs/, and why (none at present)."""

# (m, who) -> the meld agari.jsonl records for it. Sanma claims count seats on a four-seat
# table with the empty seat 3 (seat 2 claiming from offset 3 takes seat 1's tile).
HAND_PICKED = [
    (45447, 1, MjlogMeld("chi", 1, (72, 76, 83), called=83, from_seat=0)),
    (6199, 0, MjlogMeld("chi", 0, (10, 13, 16), called=10, from_seat=3)),
    (50186, 1, MjlogMeld("pon", 1, (129, 130, 131), called=131, from_seat=3)),
    (20553, 0, MjlogMeld("pon", 0, (52, 53, 55), called=53, from_seat=1)),
    (9219, 0, MjlogMeld("daiminkan", 0, (36, 37, 38, 39), called=36, from_seat=3)),
    (27906, 1, MjlogMeld("daiminkan", 1, (108, 109, 110, 111), called=109, from_seat=3)),
    (41489, 2, MjlogMeld("shouminkan", 2, (108, 109, 110, 111), 109, 108, 3)),
    (6738, 3, MjlogMeld("shouminkan", 3, (16, 17, 18, 19), 17, 18, 1)),
    (28672, 0, MjlogMeld("ankan", 0, (112, 113, 114, 115))),
    (22784, 2, MjlogMeld("ankan", 2, (88, 89, 90, 91))),
    (30752, 1, MjlogMeld("nuki", 1, (120,))),
    (51819, 2, MjlogMeld("pon", 2, (132, 133, 134), called=134, from_seat=1)),
    (47690, 0, MjlogMeld("pon", 0, (124, 125, 127), called=124, from_seat=2)),
    (515, 1, MjlogMeld("daiminkan", 1, (0, 1, 2, 3), called=2, from_seat=0)),
]


@pytest.mark.parametrize(("code", "who", "expected"), HAND_PICKED)
def test_hand_picked_meld_codes_decode_as_recorded(code, who, expected):
    assert decode_meld(code, who) == expected


def test_a_meld_reads_in_mpsz():
    assert str(decode_meld(6738, 3)) == "shouminkan 0555m, 5m from seat 1, 5m added"
    assert str(decode_meld(6199, 0)) == "chi 340m, 3m from seat 3"


@pytest.mark.parametrize("code", [0x10000, -1, (63 << 10) | 0x4, (110 << 9) | 0x8 | 1, 140 << 8])
def test_impossible_meld_codes_are_refused(code):
    with pytest.raises(InvalidRecord):
        decode_meld(code, 0)


# --- the committed game ------------------------------------------------------------------


def test_the_committed_game_parses_to_its_hands_and_results():
    game = read_mjlog(FIXTURE_GAME)
    assert (game.go_type, game.players, game.header.lobby) == (1, 4, 7994)
    assert game.names == ("Wanjirou", "Kaavi", "Xenia", "Ichihime")
    kinds = [type(e).__name__ for e in game.events]
    assert [kinds.count(k) for k in ("Init", "Agari", "Ryuukyoku", "Call")] == [6, 5, 1, 15]
    assert sum(isinstance(e, Reach) and e.step == 2 for e in game.events) == 6
    assert all(e.round_index < 4 for e in game.events if isinstance(e, Init))  # East only


def test_the_committed_game_records_its_first_hand():
    game = read_mjlog(FIXTURE_GAME)
    init = game.events[0]
    assert init == Init(0, 0, 0, (1, 2), 87, (25000,) * 4, 0, init.hands)
    assert init.hands[0] == (53, 103, 58, 80, 93, 102, 126, 0, 14, 15, 72, 134, 13)
    draw = next(e for e in game.events if isinstance(e, Ryuukyoku))
    assert draw.kind is None and sorted(draw.revealed) == [2, 3]
    assert draw.deltas == (-1500, -1500, 1500, 1500)


def test_the_committed_game_ends_with_its_final_scores():
    last = read_mjlog(FIXTURE_GAME).events[-1]
    assert isinstance(last, Agari)
    assert (last.who, last.from_who, last.fu, last.points, last.limit) == (1, 1, 30, 16000, 3)
    assert last.yaku == ((1, 1), (2, 1), (0, 1), (8, 1), (54, 1), (53, 3))
    assert last.final == (24000, 38500, 9700, 27800)
    assert last.final_points == (-16.0, 48.0, -40.0, 8.0)


def test_the_committed_game_keeps_its_own_arithmetic():
    assert score_problems(read_mjlog(FIXTURE_GAME)) == []
    assert call_problems(read_mjlog(FIXTURE_GAME)) == []


# --- refusals ----------------------------------------------------------------------------

MINIMAL = '<mjloggm ver="2.3"><GO type="{go}"/>{body}</mjloggm>'
INIT4 = ('<INIT seed="0,0,0,1,1,5" ten="250,250,250,250" oya="0"'
         ' hai0="1" hai1="2" hai2="3" hai3="4"/>')
INIT3 = ('<INIT seed="0,0,0,1,1,5" ten="350,350,350,0" oya="0"'
         ' hai0="1" hai1="2" hai2="3" hai3=""/>')


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("", "empty"),
        ('{"title": [], "log": [[]]}', "JSON"),
        ("mjlog", "not XML"),
        ('<mjloggm ver="2.3"><GO type="169"/><INIT', "well-formed"),
        ("<html><body/></html>", "<html>"),
        ('<mjloggm ver="2.3"><T4/></mjloggm>', "no <GO>"),
        (MINIMAL.format(go=169, body=INIT4 + "<X1/>"), "not part of"),
        (MINIMAL.format(go=169, body=INIT4 + "<T136/>"), "outside 0..135"),
        (MINIMAL.format(go=169, body=INIT3), "4-player"),
        (MINIMAL.format(go=185, body=INIT3 + "<W5/>"), "seat 3"),
        (MINIMAL.format(go=169, body=INIT4 + '<N who="0" m="65535"/>'), "meld code"),
        (MINIMAL.format(go=169, body=INIT4 + '<REACH who="x" step="1"/>'), "invalid literal"),
    ],
)
def test_broken_records_are_refused_with_a_reason(text, reason):
    with pytest.raises(InvalidRecord, match=reason) as caught:
        parse_mjlog(text)
    assert isinstance(caught.value, TablekitError) and isinstance(caught.value, ValueError)


def test_compressed_and_binary_files_are_refused(tmp_path):
    packed = tmp_path / "game.mjlog"
    packed.write_bytes(gzip.compress(FIXTURE_GAME.read_bytes()))
    with pytest.raises(InvalidRecord, match="gzip"):
        read_mjlog(packed)
    binary = tmp_path / "game.bin"
    binary.write_bytes(b"<mjloggm \xff\xfe")
    with pytest.raises(InvalidRecord, match="UTF-8"):
        read_mjlog(binary)


def test_a_three_player_game_has_three_seats():
    body = INIT3 + "<T6/><D6/><U7/>" + '<N who="1" m="30752"/>'
    game = parse_mjlog(MINIMAL.format(go=185, body=body))
    assert game.players == 3 and game.names == ("", "", "")
    init, *moves, call = game.events
    assert init.scores == (35000,) * 3 and len(init.hands) == 3
    assert moves == [Draw(0, 6), Discard(0, 6, True), Draw(1, 7)]
    assert call == Call(MjlogMeld("nuki", 1, (120,)))


# --- invariants, shared by the fixture and the shared logs ---------------------------------


def score_problems(game: MjlogGame) -> list[str]:
    """Every score Tenhou writes, rebuilt from the previous ones (empty list = all exact).

    Riichi step 2 takes 1,000 from the declarer; a win's changes add up to the sticks it
    collects, a draw's to zero; each hand starts from the last one's scores; at the end
    the sticks left on the table go to the first player (ties: nearest the first dealer).
    """
    problems: list[str] = []
    running: list[int] = []
    for event in game.events:
        if isinstance(event, Init):
            _expect(problems, event, event.scores, running or list(event.scores))
            running = list(event.scores)
        elif isinstance(event, Reach) and event.step == 2:
            running[event.seat] -= 1000
            _expect(problems, event, event.scores or tuple(running), running)
        elif isinstance(event, Agari | Ryuukyoku):
            collected = event.sticks * 1000 if isinstance(event, Agari) else 0
            _expect(problems, event, sum(event.deltas), collected)
            _expect(problems, event, event.scores_before, running)
            running = [s + d for s, d in zip(running, event.deltas, strict=True)]
            if event.final is not None:
                _expect(problems, event, event.final, _with_leftover(game, running, event))
    return problems


def _with_leftover(game: MjlogGame, scores: list[int], end: Agari | Ryuukyoku) -> list[int]:
    leftover = end.sticks * 1000 if isinstance(end, Ryuukyoku) else 0
    first = game.header.first_dealer or 0
    top = max(range(game.players), key=lambda s: (scores[s], -((s - first) % game.players)))
    return [s + (leftover if seat == top else 0) for seat, s in enumerate(scores)]


def _expect(problems: list[str], event: object, got: object, expected: object) -> None:
    def plain(value: object) -> object:
        return list(value) if isinstance(value, tuple) else value

    if plain(got) != plain(expected):
        problems.append(f"{type(event).__name__}: {got} != {expected}")


def call_problems(game: MjlogGame) -> list[str]:
    """Claims that do not take the tile just discarded, by the seat that discarded it."""
    problems = []
    previous: object = None
    for event in game.events:
        if isinstance(event, Call) and event.meld.kind in ("chi", "pon", "daiminkan"):
            meld = event.meld
            discarded = isinstance(previous, Discard) and previous.tile == meld.called
            if not discarded or previous.seat != meld.from_seat:
                problems.append(f"{meld} after {previous}")
        if isinstance(event, Draw | Discard | Call):
            previous = event
    return problems


# --- the shared data ---------------------------------------------------------------------


@functools.cache
def _all_logs(logs: Path) -> tuple[dict[Path, MjlogGame], dict[Path, str]]:
    games: dict[Path, MjlogGame] = {}
    refused: dict[Path, str] = {}
    for path in sorted(p for p in logs.rglob("*") if p.is_file()):
        try:
            games[path] = read_mjlog(path)
        except InvalidRecord as err:
            refused[path] = str(err)
    return games, refused


@functools.cache
def _agari_records(data: Path) -> dict[Path, list[dict]]:
    """agari.jsonl's log-file records, by log file, in file order (network ones left out)."""
    records: dict[Path, list[dict]] = defaultdict(list)
    with (data / "agari.jsonl").open(encoding="utf-8") as handle:
        for line in handle:
            record = json.loads(line)
            source = record["source"]
            if not source["network"]:
                folder = source["repo"].replace("/", "+")
                records[data / "logs" / folder / Path(source["path"]).name].append(record)
    return dict(records)


@pytest.mark.slow  # every log in ../shared: over ten seconds
def test_every_shared_log_parses_or_is_refused_for_a_known_reason(shared_data):
    games, refused = _all_logs(shared_data / "tenhou" / "logs")
    logs = shared_data / "tenhou" / "logs"
    assert {str(p.relative_to(logs)) for p in refused} == set(REFUSED_LOGS)
    assert len(games) + len(refused) == 1529
    assert {g.players for g in games.values()} == {3, 4}
    assert sum(g.players == 3 for g in games.values()) == 379


def test_every_shared_log_keeps_its_own_arithmetic(shared_data):
    games, _ = _all_logs(shared_data / "tenhou" / "logs")
    bad = {p.name: score_problems(g)[:2] for p, g in games.items() if score_problems(g)}
    assert not bad
    claims = {p.name: call_problems(g)[:2] for p, g in games.items() if call_problems(g)}
    assert not claims


def test_every_recorded_meld_decodes_as_agari_jsonl_says(shared_data):
    checked = 0
    for records in _agari_records(shared_data / "tenhou").values():
        for record in records:
            for meld in record["melds"]:
                got = decode_meld(meld["m"], record["winner_seat"])
                expected = (meld["type"], tuple(meld["tiles"]), meld["called_tile"],
                            meld.get("added_tile"), meld["from_seat"])
                assert (got.kind, got.tiles, got.called, got.added, got.from_seat) == expected
                checked += 1
    assert checked == 10731


def test_every_win_matches_its_agari_jsonl_record(shared_data):
    games, _ = _all_logs(shared_data / "tenhou" / "logs")
    records = _agari_records(shared_data / "tenhou")
    assert sum(map(len, records.values())) == 12245
    for path, file_records in records.items():
        wins = [e for e in games[path].events if isinstance(e, Agari)]
        assert len(wins) == len(file_records), path
        for win, record in zip(wins, file_records, strict=True):
            assert _win_summary(win) == _record_summary(record, games[path].players), path


def _win_summary(win: Agari) -> tuple:
    melds = tuple((m.kind, m.tiles, m.called, m.from_seat) for m in win.melds)
    return (win.who, win.from_who, tuple(sorted(win.hand)), win.win_tile, melds,
            win.fu, win.points, win.limit, win.yaku, win.dora, win.ura, win.pao_who,
            win.honba, win.sticks, win.scores_before, win.deltas)


def _record_summary(record: dict, players: int) -> tuple:
    result = record["result"]
    melds = tuple((m["type"], tuple(m["tiles"]), m["called_tile"], m["from_seat"])
                  for m in record["melds"])
    return (record["winner_seat"], record["from_seat"], tuple(record["closed_tiles_136"]),
            record["win_tile_136"], melds, result["fu"], result["points"], result["limit"],
            tuple((y[0], y[1]) for y in result["yaku"]), tuple(record["dora_indicators_136"]),
            tuple(record["ura_indicators_136"]), record["pao_seat"], record["honba"],
            record["riichi_sticks"], tuple(result["scores_before"][:players]),
            tuple(result["sc_deltas"][:players]))


def test_new_dora_and_tsumogiri_turn_up_in_the_shared_logs(shared_data):
    games, _ = _all_logs(shared_data / "tenhou" / "logs")
    events = [e for g in games.values() for e in g.events]
    assert sum(isinstance(e, NewDora) for e in events) == 1269
    discards = [e for e in events if isinstance(e, Discard)]
    assert 0.3 < sum(d.tsumogiri for d in discards) / len(discards) < 0.45
