"""The worked examples of the scoring rules, through the ``tablekit score`` command."""

import json

import pytest

from tablekit.cli import main

PINFU = ["234567m234p67899s", "--win", "6s"]
KANCHAN = ["234567m345p67899s", "--win", "7s"]   # 6-8s waiting on the middle 7s
OPEN_CHUN = ["234m567p345s11s", "--win", "1s", "--meld", "pon:777z"]
CHIITOI = ["1199m3355p226688s", "--win", "8s"]


def score(capsys, *args):
    assert main(["score", *args, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


@pytest.mark.parametrize("args, han, fu, pays, total", [
    ([*PINFU, "--riichi"], 2, 30, {"ron": 2000}, 2000),
    ([*PINFU, "--riichi", "--tsumo"], 3, 20, {"dealer": 1300, "non_dealer": 700}, 2700),
    ([*KANCHAN, "--riichi"], 1, 40, {"ron": 1300}, 1300),
    ([*KANCHAN, "--riichi", "--dora", "1m"], 2, 40, {"ron": 2600}, 2600),
    (OPEN_CHUN, 1, 30, {"ron": 1000}, 1000),
    ([*OPEN_CHUN, "--dora", "1m", "--dora", "4p"], 3, 30, {"ron": 3900}, 3900),
    ([*PINFU, "--riichi", "--dora", "1m", "--honba", "2", "--sticks", "1"], 3, 30,
     {"ron": 4500}, 5500),
    ([*KANCHAN, "--riichi", "--tsumo", "--dora", "1m", "--honba", "2", "--sticks", "1"], 3, 30,
     {"dealer": 2200, "non_dealer": 1200}, 5600),
    ([*PINFU, "--riichi", "--dora", "1m", "--dora", "3p"], 4, 30, {"ron": 7700}, 7700),
    ([*PINFU, "--riichi", "--dora", "1m", "--dora", "3p", "--kiriage"], 4, 30, {"ron": 8000}, 8000),
    ([*CHIITOI, "--riichi"], 3, 25, {"ron": 3200}, 3200),
])
def test_non_dealer_worked_examples(capsys, args, han, fu, pays, total):
    result = score(capsys, *args)
    assert (result["han"], result["fu"], result["pays"], result["total"]) == (han, fu, pays, total)


@pytest.mark.parametrize("args, pays", [
    ([*PINFU, "--riichi"], {"ron": 2900}),
    ([*PINFU, "--riichi", "--tsumo"], {"all": 1300}),
    ([*KANCHAN, "--riichi"], {"ron": 2000}),
    ([*KANCHAN, "--riichi", "--dora", "1m"], {"ron": 3900}),
    (OPEN_CHUN, {"ron": 1500}),
    ([*OPEN_CHUN, "--dora", "1m", "--dora", "4p"], {"ron": 5800}),
    ([*PINFU, "--riichi", "--dora", "1m", "--dora", "3p"], {"ron": 11600}),
    ([*PINFU, "--riichi", "--dora", "1m", "--dora", "3p", "--kiriage"], {"ron": 12000}),
    ([*CHIITOI, "--riichi"], {"ron": 4800}),
])
def test_dealer_worked_examples(capsys, args, pays):
    assert score(capsys, *args, "--dealer")["pays"] == pays


def test_ron_completed_triplet_counts_as_open(capsys):
    shanpon = ["234m567p345s22s888m", "--win", "8m", "--riichi"]
    ron = score(capsys, *shanpon)
    assert ron["fu"] == 40 and {"reason": "open triplet", "fu": 2} in ron["fu_items"]
    tsumo = score(capsys, *shanpon, "--tsumo")
    assert tsumo["fu"] == 30 and {"reason": "closed triplet", "fu": 4} in tsumo["fu_items"]


def test_yaku_names_and_limit(capsys):
    result = score(capsys, "111222333m44455p", "--win", "4p", "--tsumo")
    assert result["limit"] == "yakuman" and result["pays"] == {"dealer": 16000, "non_dealer": 8000}
    assert [y["name"] for y in result["yaku"]] == ["suuankou"]
    chuuren = score(capsys, "11123455678999m", "--win", "5m", "--riichi")
    assert [y["name"] for y in chuuren["yaku"]] == ["junsei_chuuren_poutou"]
    assert (chuuren["limit"], chuuren["total"]) == ("yakuman", 32000)


@pytest.mark.parametrize("args, message", [
    (["123456789m12345p", "--win", "4p"], "not a complete hand"),
    (["234567m234p67899s", "--win", "6s", "--meld", "chi:234p"], "concealed tiles"),
    (["22334455m567p88s", "--win", "5m", "--meld", "chi:678s"], "concealed tiles"),
    (["234m567p345s11s", "--win", "1s", "--meld", "chi:678s", "--dora", "2m"], "no yaku"),
    (["234567m234p67899s", "--win", "6s", "--rules", "mleague"], "unknown rules"),
    (["234567m234p67899s", "--win", "6s", "--ippatsu"], "ippatsu needs riichi"),
    (["11111m234p678999s", "--win", "1m"], "5 copies of 1m"),
])
def test_refused_hands_exit_non_zero_with_a_reason(capsys, args, message):
    assert main(["score", *args]) == 2
    assert message in capsys.readouterr().err


def test_readable_breakdown(capsys):
    assert main(["score", *PINFU, "--riichi", "--tsumo", "--honba", "1"]) == 0
    out = capsys.readouterr().out
    assert "Pinfu" in out and "3 han 20 fu" in out
    assert "dealer pays 1,400, others 800 each" in out
