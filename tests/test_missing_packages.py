"""The test run's last lines name the tests skipped for want of a package, and how to get it."""

from __future__ import annotations

import shutil

import pytest
from missing_packages import INSTALL, need_program

TINY = """
import pytest
from missing_packages import missing_program, SHARED_MISSING

def test_runs():
    pass

def test_broker():
    missing_program("mosquitto", "mosquitto")

def test_another_broker():
    missing_program("mosquitto", "mosquitto")

def test_shared():
    pytest.skip(SHARED_MISSING)

@pytest.mark.skip(reason="not this machine's business")
def test_other():
    pass
"""


def run_tiny(pytester, text: str):
    """``text`` as a test file, run with the hook wired as tests/conftest.py wires it."""
    pytester.makeconftest("from missing_packages import pytest_terminal_summary")
    pytester.makepyfile(test_tiny=text)
    return pytester.runpytest()


def test_the_last_lines_name_every_skip_a_missing_package_first_with_the_command(pytester):
    result = run_tiny(pytester, TINY)
    result.assert_outcomes(passed=1, skipped=4)
    assert "not run: 4 tests skipped" in result.outlines[-5]
    assert result.outlines[-4:-1] == [
        "1 test skipped: ../shared/data is not here (it is not part of a user's clone)",
        "2 tests skipped: mosquitto: not installed here (sudo apt-get install mosquitto)",
        "1 test skipped: not this machine's business"]   # every skip, each counted
    assert "1 passed, 4 skipped" in result.outlines[-1]


def test_skips_of_another_reason_alone_are_named_too(pytester):
    result = run_tiny(pytester, "import pytest\n\n@pytest.mark.skip(reason='slow')\n"
                                "def test_slow():\n    pass\n")
    assert result.outlines[-2] == "1 test skipped: slow"


def test_a_run_with_nothing_missing_adds_no_lines(pytester):
    result = run_tiny(pytester, "def test_runs():\n    pass\n")
    result.assert_outcomes(passed=1)
    assert "not run" not in result.stdout.str()


def test_the_browser_test_names_the_packages_it_needs(monkeypatch):
    monkeypatch.setattr(shutil, "which", lambda name: None)
    with pytest.raises(pytest.skip.Exception, match=f"{INSTALL} chromium-driver"):
        need_program("chromedriver", packages="chromium-driver")
