"""The fixtures of every game's tests: the pictures' words checked (``pictures``), and the
bot through the in-process harness (``db_path``, ``harness``, from tests.support.bot)."""

from __future__ import annotations

import pytest

import render.covenant
import render.noah
from tests.support.bot import db_path, harness
from tests.support.fit import Pictures, watch

__all__ = ["db_path", "harness", "pictures"]


@pytest.fixture
def pictures(monkeypatch: pytest.MonkeyPatch) -> Pictures:
    """Every text the pictures draw from now on, checked by ``Pictures.problems``."""
    render.covenant.warm_up()  # the palette sample is drawn once, before anything is recorded
    render.noah.warm_up()
    return watch(monkeypatch)
