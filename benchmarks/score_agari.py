"""Score every win of ../shared/data/tenhou/agari.jsonl with tablekit and compare with Tenhou.

Usage: python benchmarks/score_agari.py [PATH] [--show N]
Three-player (sanma) wins are scored under ``tenhou-sanma``, four-player ones under their
lobby's rules. Prints the first mismatches, then one JSON line with the counts (``by_players``:
four- and three-player wins apart) and the time taken.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from tablekit.formats.agari_records import check_record, read_records, summarise

DEFAULT = Path(__file__).resolve().parents[1] / ".." / "shared" / "data" / "tenhou" / "agari.jsonl"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("path", nargs="?", type=Path, default=DEFAULT)
    parser.add_argument("--show", type=int, default=10, help="mismatches to print")
    args = parser.parse_args()
    start = time.perf_counter()
    checks = [check_record(r) for r in read_records(args.path)]
    shown = 0
    for check in checks:
        if check.skipped is None and not check.ok and shown < args.show:
            print(check.record_id, "; ".join(check.mismatches))
            shown += 1
    summary = summarise(checks)
    summary["seconds"] = round(time.perf_counter() - start, 1)
    print(json.dumps(summary))
    return 0 if summary["matched"] == summary["checked"] else 1


if __name__ == "__main__":
    raise SystemExit(main())
