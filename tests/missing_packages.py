"""Skips for what this machine lacks (a program from a Debian package, the shared data next
to the clone), and the lines at the end of the test run that name every skip, those with
how to get what they lack first: a skip there is a test that did not run, not one that passed.

>>> reason_of(("tests/test_web.py", 95, "Skipped: chromium: not installed here "
...            "(sudo apt-get install chromium)"))
'chromium: not installed here (sudo apt-get install chromium)'
>>> len(wanting(["chromium: not installed here (sudo apt-get install chromium)",
...              "this OpenCV build cannot write MJPG", SHARED_MISSING, SHARED_MISSING]))
2
"""

from __future__ import annotations

import shutil
from collections import Counter
from collections.abc import Iterable
from typing import Any, NoReturn

import pytest

INSTALL = "sudo apt-get install"
SHARED_MISSING = "../shared/data is not here (it is not part of a user's clone)"


def missing_program(what: str, packages: str) -> NoReturn:
    """Skip: ``what`` is not installed, and the Debian ``packages`` that give it."""
    pytest.skip(f"{what}: not installed here ({INSTALL} {packages})")


def need_program(*names: str, packages: str) -> str:
    """The path of the first of ``names`` on the PATH, or a skip naming the ``packages``
    to install."""
    found = next((path for path in map(shutil.which, names) if path), None)
    if found is None:
        missing_program(names[0], packages)
    return found


def reason_of(longrepr: Any) -> str:
    """A skipped report's reason (its ``longrepr`` is ``(path, line, "Skipped: ...")``)."""
    if isinstance(longrepr, tuple) and len(longrepr) == 3:
        return str(longrepr[2]).removeprefix("Skipped: ")
    return str(longrepr)


def wanting(reasons: Iterable[str]) -> list[str]:
    """The reasons that name something this machine lacks, each once, sorted."""
    return sorted({reason for reason in reasons if INSTALL in reason or reason == SHARED_MISSING})


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """After the run, before its totals: every test skipped, by its reason, each counted:
    first those for want of a package or the shared data (with how to get it), then the
    others (a skip there is a test that did not run, whatever the reason)."""
    reasons = Counter(reason_of(report.longrepr)
                      for report in terminalreporter.stats.get("skipped", ()))
    if not reasons:
        return
    lacking = wanting(reasons)
    lines = [*lacking, *sorted(reason for reason in reasons if reason not in lacking)]
    total = sum(reasons.values())
    terminalreporter.write_sep("-", f"not run: {total} test{'s' * (total > 1)} skipped"
                               + (" (this machine lacks what the first need)" if lacking else ""))
    for reason in lines:
        count = reasons[reason]
        terminalreporter.write_line(f"{count} test{'s' * (count > 1)} skipped: {reason}")
