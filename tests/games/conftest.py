"""The fixtures of every game's tests: the pictures' words checked (``pictures``), and the
bot through the in-process harness (``db_path``, ``harness``, from tests.support.bot)."""

from __future__ import annotations

from importlib import import_module

import pytest

from engine import registry
from tests.support.bot import db_path, harness
from tests.support.fit import Pictures, watch

__all__ = ["db_path", "harness", "pictures"]


@pytest.fixture
def pictures(monkeypatch: pytest.MonkeyPatch) -> Pictures:
    """Every text the pictures draw from now on, checked by ``Pictures.problems``."""
    # What a game's pictures draw once (a palette sample) is drawn before anything is recorded.
    for described in registry.games().values():
        if described.pictures is not None:
            warm = getattr(import_module(described.pictures), "warm_up", None)
            if warm is not None:
                warm()
    return watch(monkeypatch)
