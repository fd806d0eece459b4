"""An installed game that cannot be loaded stops no other game: it is said once in the log
("game X left out: ...") and left out, and the built-in games play on.

The broken games are copies of the example tic-tac-toe, installed from outside the tree, one
whose engine fails to import and one whose front does (a bug in someone else's package, a
dependency missing).
"""

from __future__ import annotations

import logging
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.games import plugin, plugins
from bot.service import GameService
from engine import registry
from tests.support.bot import make_settings
from tests.support.installed import installed

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "tictactoe"
RUTH, BOAZ, NAOMI = 41, 42, 43


def broken_copy(into: Path, part: str) -> Path:
    """The example game with ``part`` (a module of it) raising as it is imported."""
    copy = into / "tictactoe"
    shutil.copytree(EXAMPLE, copy, ignore=shutil.ignore_patterns("__pycache__"))
    module = copy / "arkbot_tictactoe" / part
    module.write_text(module.read_text() + "\nimport a_module_nobody_installed  # noqa: E402\n")
    return copy


@pytest.fixture(params=["engine/game.py", "front/front.py"])
def broken(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    with installed(broken_copy(tmp_path, request.param)):
        yield request.param


async def test_a_game_that_fails_to_import_is_left_out_and_said_once(
    broken: str, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    assert "tictactoe" in registry.games()  # it is installed, but cannot be loaded
    with caplog.at_level(logging.ERROR, logger="arkbot.games"):
        assert {"covenant", "noah"} <= plugins().keys() and "tictactoe" not in plugins()
        with pytest.raises(KeyError):
            plugin("tictactoe")
        assert plugin("covenant").rules.max_players == 5
        assert ("tictactoe" in registry.playable()) == broken.startswith("front")
        plugins()  # asked again: said once only
    said = [r.getMessage() for r in caplog.records if "tictactoe" in r.getMessage()]
    assert said == [
        "game tictactoe left out: ModuleNotFoundError: No module named 'a_module_nobody_installed'"
    ]
    # The other games play on: a table of the card game opens, fills and starts.
    service = await GameService.open(tmp_path / "db.sqlite3", settings=make_settings(tmp_path))
    try:
        await service.lobby.create_game(1, 2, RUTH, "Ruth", "noah", shuffle_seats=False)
        await service.lobby.join(2, BOAZ, "Boaz")
        await service.lobby.join(2, NAOMI, "Naomi")
        record = await service.lobby.start(2, RUTH)
        assert record.status == "active" and len(record.seats) == 3
    finally:
        await service.close()
