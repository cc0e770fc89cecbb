"""tablekit's scorer against Tenhou's recorded results.

A committed sample runs everywhere; the whole data set runs when ../shared/data is here
(``python benchmarks/score_agari.py`` prints the full counts).
"""

import itertools

from conftest import FIXTURES

from tablekit.formats.agari_records import check_record, read_records, summarise


def test_committed_sample_matches_tenhou_exactly():
    checks = [check_record(r) for r in read_records(FIXTURES / "agari_sample.jsonl")]
    bad = [(c.record_id, c.mismatches) for c in checks if c.skipped is None and not c.ok]
    assert not bad
    assert summarise(checks)["matched"] == len(checks) > 250


def test_first_wins_of_the_shared_data_match_tenhou(shared_data):
    records = itertools.islice(read_records(shared_data / "tenhou" / "agari.jsonl"), 3000)
    checks = [check_record(r) for r in records]
    summary = summarise(checks)
    assert summary["checked"] > 2000
    bad = [(c.record_id, c.mismatches) for c in checks if c.skipped is None and not c.ok]
    assert not bad[:5]


def test_a_wrong_rule_is_caught():
    from tablekit.rules import TENHOU, with_options
    records = list(read_records(FIXTURES / "agari_sample.jsonl"))
    checks = [check_record(r, with_options(TENHOU, honba_value=600)) for r in records]
    assert any("score changes" in m for c in checks for m in c.mismatches)
