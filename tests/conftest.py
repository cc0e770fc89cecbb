"""Shared fixtures: paths to committed fixtures and to the optional shared data; the run's
last lines name every test skipped, those for want of a package or the shared data first
(:mod:`missing_packages`)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from missing_packages import SHARED_MISSING, pytest_terminal_summary  # noqa: F401 (the hook)

pytest_plugins = ["pytester"]

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "tests" / "fixtures"
DATA = ROOT / "tablekit" / "data"
SHARED_DATA = ROOT.parent / "shared" / "data"


@pytest.fixture
def shared_data() -> Path:
    """../shared/data, or a clean skip when a fresh clone does not have it."""
    if not (SHARED_DATA / "tenhou").is_dir():
        pytest.skip(SHARED_MISSING)
    return SHARED_DATA


@pytest.fixture(scope="module")
def pygame_dummy_video():
    """pygame on SDL's dummy driver for a whole module; the previous setting comes back after."""
    import pygame

    saved = os.environ.get("SDL_VIDEODRIVER")
    os.environ["SDL_VIDEODRIVER"] = "dummy"
    pygame.init()
    try:
        yield
    finally:
        pygame.quit()
        if saved is None:
            os.environ.pop("SDL_VIDEODRIVER", None)
        else:
            os.environ["SDL_VIDEODRIVER"] = saved
