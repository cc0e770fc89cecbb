"""Shared fixtures: paths to committed fixtures and to the optional shared data."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "tests" / "fixtures"
DATA = ROOT / "tablekit" / "data"
SHARED_DATA = ROOT.parent / "shared" / "data"


@pytest.fixture
def shared_data() -> Path:
    """../shared/data, or a clean skip when a fresh clone does not have it."""
    if not (SHARED_DATA / "tenhou").is_dir():
        pytest.skip("../shared/data is not here (it is not part of a user's clone)")
    return SHARED_DATA
