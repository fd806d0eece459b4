"""The fixtures shared by the tests of every game's pictures."""

from __future__ import annotations

import pytest

import render.covenant
import render.noah
from tests.render.fit import Pictures, watch


@pytest.fixture
def pictures(monkeypatch: pytest.MonkeyPatch) -> Pictures:
    """Every text the pictures draw from now on, checked by ``Pictures.problems``."""
    render.covenant.warm_up()  # the palette sample is drawn once, before anything is recorded
    render.noah.warm_up()
    return watch(monkeypatch)
