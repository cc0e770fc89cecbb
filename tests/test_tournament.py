"""Tournament seating plans: `tablekit tournament seat` and tablekit.league.seating_plan."""

import json
import random
from collections import Counter
from itertools import combinations, product

import pytest

from tablekit.cli import main
from tablekit.league.seating_plan import (
    constructed,
    field,
    lower_bound,
    repeated_pairs,
    seat_winds,
    seating_plan,
    wind_counts,
)

NAMES = ["Aki", "Ben", "Cho", "Dai", "Emi", "Fay", "Gus", "Hana", "Ivo", "Jun", "Kai", "Lea",
         "Mio", "Noa", "Oto", "Pia"]


def _roster(tmp_path, names, name="roster.txt"):
    path = tmp_path / name
    path.write_text("# the tournament\n" + "\n".join(names) + "\n", encoding="utf-8")
    return path


def _seat(tmp_path, *words):
    return main(["tournament", "seat", "--out", str(tmp_path / "plan.json"), *words])


def test_sixteen_players_over_five_rounds_never_meet_twice(tmp_path, capsys):
    roster = _roster(tmp_path, NAMES)
    assert _seat(tmp_path, "--players", str(roster), "--rounds", "5", "--seed", "3") == 0
    plan = json.loads((tmp_path / "plan.json").read_text(encoding="utf-8"))
    assert len(plan["rounds"]) == 5
    met = Counter()
    for round_ in plan["rounds"]:
        assert len(round_) == 4 and all(len(table) == 4 for table in round_)
        assert sorted(name for table in round_ for name in table) == sorted(NAMES)
        met.update(frozenset(pair) for table in round_ for pair in combinations(table, 2))
    assert max(met.values()) == 1 and len(met) == 16 * 15 // 2  # everyone met everyone once
    out = capsys.readouterr().out
    assert "repeated pairs: 0 (lower bound 0: none fewer is possible)" in out
    assert "(most apart: 1)" in out
    assert plan["repeated_pairs"] == plan["lower_bound"] == 0 and plan["seed"] == 3


def test_the_winds_printed_are_the_plans(tmp_path, capsys):
    roster = _roster(tmp_path, NAMES[:12])
    assert _seat(tmp_path, "--players", str(roster), "--rounds", "6", "--seed", "1") == 0
    plan = json.loads((tmp_path / "plan.json").read_text(encoding="utf-8"))
    winds = {name: [0] * 4 for name in NAMES[:12]}
    for table in (table for round_ in plan["rounds"] for table in round_):
        for seat, name in enumerate(table):
            winds[name][seat] += 1
    lines = capsys.readouterr().out.splitlines()
    for name, counts in winds.items():
        assert f"  {name:<14}" + "".join(f"{n:6d}" for n in counts) in lines
        assert max(counts) - min(counts) <= 1 and sum(counts) == 6


@pytest.mark.parametrize("players, rounds", [(16, 5), (20, 5), (28, 7), (32, 9), (36, 9),
                                             (64, 21), (100, 25)])
def test_the_constructions_have_no_repeated_pair(players, rounds):
    built = constructed(players)
    assert len(built) == rounds
    for round_ in built:
        assert sorted(p for table in round_ for p in table) == list(range(players))
    assert repeated_pairs([list(round_) for round_ in built]) == 0


@pytest.mark.parametrize("q", [4, 5, 7, 8, 9, 16, 25, 27])
def test_the_finite_fields_are_fields(q):
    add, mul = field(q)
    for a, b, c in product(range(q), repeat=3):
        assert mul[a][add[b][c]] == add[mul[a][b]][mul[a][c]]
    assert all(sorted(mul[a]) == list(range(q)) for a in range(1, q))  # inverses
    assert all(sorted(add[a]) == list(range(q)) for a in range(q))


def test_no_field_for_a_number_that_is_not_a_prime_power():
    assert field(6) is None and field(12) is None and len(constructed(24)) == 1


def _best_by_hand(players, rounds):
    """The fewest repeated pairs of any plan, every plan tried (tiny cases only)."""
    splits = []
    for first in combinations(range(1, players), 3):
        rest = [p for p in range(1, players) if p not in first]
        if players == 8:
            splits.append([(0, *first), tuple(rest)])
        else:  # 12: the rest in two tables, the lowest of them in the first
            for second in combinations(rest[1:], 3):
                third = tuple(p for p in rest[1:] if p not in second)
                splits.append([(0, *first), (rest[0], *second), third])
    start = [tuple(range(i, i + 4)) for i in range(0, players, 4)]  # the first round, any
    return min(repeated_pairs([start, *more]) for more in product(splits, repeat=rounds - 1))


@pytest.mark.parametrize("players, rounds", [(8, 2), (8, 3), (12, 2)])
def test_the_lower_bound_is_never_above_the_best_plan(players, rounds):
    best = _best_by_hand(players, rounds)
    assert lower_bound(players, rounds) <= best
    assert repeated_pairs(seating_plan(players, rounds, seed=1, steps=20_000)) == best


@pytest.mark.parametrize("players, rounds, known", [
    (4, 3, 12), (8, 2, 4), (12, 2, 3), (12, 3, 6), (12, 5, 24), (12, 6, 42), (16, 5, 0),
    (20, 4, 0), (24, 5, 0), (36, 8, 0), (64, 20, 0)])
def test_the_plan_reaches_the_bound_where_a_plan_is_known(players, rounds, known):
    assert lower_bound(players, rounds) == known
    assert repeated_pairs(seating_plan(players, rounds, seed=2)) == known


@pytest.mark.parametrize("players, rounds", [(12, 4), (20, 6), (20, 8), (24, 6), (24, 8)])
def test_a_searched_plan_is_a_plan_never_below_the_bound(players, rounds):
    plan = seating_plan(players, rounds, seed=5, steps=20_000)
    assert len(plan) == rounds
    for round_ in plan:
        assert sorted(p for table in round_ for p in table) == list(range(players))
    assert repeated_pairs(plan) >= lower_bound(players, rounds)
    start = repeated_pairs(seating_plan(players, rounds, seed=5, steps=0))
    assert repeated_pairs(plan) < start  # the search does something


@pytest.mark.parametrize("players, rounds", [(4, 7), (12, 4), (12, 8), (16, 5), (20, 7),
                                             (24, 6), (36, 8), (64, 21)])
def test_every_players_winds_are_within_one(players, rounds):
    counts = wind_counts(seating_plan(players, rounds, seed=1, steps=1000), players)
    for player in counts:
        assert sum(player) == rounds
        assert max(player) - min(player) <= (0 if rounds % 4 == 0 else 1)


@pytest.mark.parametrize("seed", range(6))
def test_any_plans_tables_can_be_seated_with_winds_within_one(seed):
    rng = random.Random(seed)
    players, rounds = 4 * rng.randint(1, 9), rng.randint(1, 13)
    plan = []
    for _ in range(rounds):
        order = rng.sample(range(players), players)
        plan.append([tuple(order[i:i + 4]) for i in range(0, players, 4)])
    seated = seat_winds(plan)
    assert [[sorted(t) for t in r] for r in seated] == [[sorted(t) for t in r] for r in plan]
    for counts in wind_counts(seated, players):
        assert max(counts) - min(counts) <= (0 if rounds % 4 == 0 else 1)


def test_a_seed_makes_the_same_plan_and_another_seed_another(tmp_path, capsys):
    roster = _roster(tmp_path, NAMES[:12])
    texts = []
    for seed in ("9", "9", "10"):
        assert _seat(tmp_path, "--players", str(roster), "--rounds", "3", "--seed", seed) == 0
        texts.append((tmp_path / "plan.json").read_text(encoding="utf-8"))
    assert texts[0] == texts[1] != texts[2]
    assert seating_plan(20, 6, seed=4, steps=5000) == seating_plan(20, 6, seed=4, steps=5000)


def test_without_a_seed_the_seed_drawn_is_printed_and_makes_the_plan_again(tmp_path, capsys):
    roster = _roster(tmp_path, NAMES[:12])
    assert _seat(tmp_path, "--players", str(roster), "--rounds", "3") == 0
    first = (tmp_path / "plan.json").read_text(encoding="utf-8")
    seed = json.loads(first)["seed"]
    assert f"--seed {seed} makes this plan again" in capsys.readouterr().out
    assert _seat(tmp_path, "--players", str(roster), "--rounds", "3", "--seed", str(seed)) == 0
    assert (tmp_path / "plan.json").read_text(encoding="utf-8") == first


@pytest.mark.parametrize("names, rounds, words", [
    (None, "3", "cannot read the roster"),
    (NAMES[:3], "3", "names 3 players: a game needs 4"),
    (NAMES[:8], "0", "--rounds must be 1 or more, not 0"),
    (NAMES[:8], "-2", "--rounds must be 1 or more, not -2"),
    (NAMES[:8], "41", "a plan has 40 rounds at most"),
    ([*NAMES[:6], "Ben"], "3", "names Ben twice (lines 3 and 8)"),
    (NAMES[:13], "3", "13 players do not fill tables of four: add 3 substitutes or let 1 sit "
                      "out each round"),
    (NAMES[:14], "3", "add 2 substitutes or let 2 sit out each round"),
    ([f"P{i}" for i in range(404)], "3", "404 players: a plan seats 400 at most"),
])
def test_bad_input_is_one_line_and_writes_no_plan(tmp_path, capsys, names, rounds, words):
    roster = tmp_path / "missing.txt" if names is None else _roster(tmp_path, names)
    assert _seat(tmp_path, "--players", str(roster), "--rounds", rounds) == 2
    captured = capsys.readouterr()
    err = captured.err.strip()
    assert words in err and len(err.splitlines()) == 1 and err.startswith("tablekit tournament:")
    assert captured.out == "" and not (tmp_path / "plan.json").exists()


def test_a_plan_that_cannot_be_written_or_a_folder_is_one_line(tmp_path, capsys):
    roster = _roster(tmp_path, NAMES)
    (tmp_path / "taken").write_text("a file, not a folder")
    code = main(["tournament", "seat", "--players", str(roster), "--rounds", "2",
                 "--out", str(tmp_path / "taken" / "plan.json")])
    err = capsys.readouterr().err.strip()
    assert code == 2 and len(err.splitlines()) == 1 and "taken" in err
    (tmp_path / "plans").mkdir()
    code = main(["tournament", "seat", "--players", str(roster), "--rounds", "2",
                 "--out", str(tmp_path / "plans")])
    err = capsys.readouterr().err.strip()
    assert code == 2
    assert err == (f"tablekit tournament: --out {tmp_path / 'plans'} is a folder: "
                   "name the plan's file")
