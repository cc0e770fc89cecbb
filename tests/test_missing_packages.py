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


def test_the_last_lines_list_skips_for_a_missing_package_with_the_command(pytester):
    result = run_tiny(pytester, TINY)
    result.assert_outcomes(passed=1, skipped=4)
    assert result.outlines[-3:-1] == [
        "1 test skipped: ../shared/data is not here (it is not part of a user's clone)",
        "2 tests skipped: mosquitto: not installed here (sudo apt-get install mosquitto)"]
    assert "1 passed, 4 skipped" in result.outlines[-1]
    assert "not this machine's business" not in result.stdout.str()


def test_a_run_with_nothing_missing_adds_no_lines(pytester):
    result = run_tiny(pytester, "def test_runs():\n    pass\n")
    result.assert_outcomes(passed=1)
    assert "lacks" not in result.stdout.str()


def test_the_browser_test_names_the_packages_it_needs(monkeypatch):
    monkeypatch.setattr(shutil, "which", lambda name: None)
    with pytest.raises(pytest.skip.Exception, match=f"{INSTALL} chromium-driver"):
        need_program("chromedriver", packages="chromium-driver")
