"""A game may come without computer players: the table then offers none, refuses hints
with the game named, and a seat that must be played for someone is played as a time-out.

The game is the example tic-tac-toe with its ``engine/ai`` package left out, installed from
outside the tree as a new engineer's first game would be.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.games import plugin
from bot.service import GameService, ServiceError
from engine import registry
from tests.support.bot import CHANNEL, make_bot, make_settings
from tests.support.harness import Harness
from tests.support.installed import installed

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "tictactoe"
RUTH, BOAZ = 41, 42


@pytest.fixture(scope="module", autouse=True)
def without_computers(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    copy = tmp_path_factory.mktemp("tictactoe") / "tictactoe"
    shutil.copytree(EXAMPLE, copy, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.rmtree(copy / "arkbot_tictactoe" / "engine" / "ai")
    with installed(copy):
        yield


def test_the_registry_says_it_has_none() -> None:
    described = registry.game("tictactoe")
    assert described.computers is None and not described.has_computers
    assert not plugin("tictactoe").has_computers


def test_a_seat_played_for_someone_gets_the_time_out_move() -> None:
    rules = plugin("tictactoe").rules
    game = registry.game_class("tictactoe").new(players=2, seed=1)
    action = rules.computer_action(game, "strong", seed=3, seconds=1.0, iterations=None)
    assert action in game.legal_actions()


async def test_the_service_adds_no_computer_and_gives_no_hint(tmp_path: Path) -> None:
    service = await GameService.open(tmp_path / "db.sqlite3", settings=make_settings(tmp_path))
    try:
        await service.lobby.create_game(1, 2, RUTH, "Ruth", "tictactoe", shuffle_seats=False)
        with pytest.raises(ServiceError) as refused:
            await service.lobby.add_computer(2, RUTH, "normal")
        assert refused.value.code == "no_computers"
        await service.lobby.join(2, BOAZ, "Boaz")
        record = await service.lobby.start(2, RUTH)
        with pytest.raises(ServiceError) as refused:
            await service.computers.hint(record.id, RUTH)
        assert refused.value.code == "no_computers"
    finally:
        await service.close()


async def test_the_table_offers_no_computer_and_refuses_a_hint_politely(tmp_path: Path) -> None:
    async with Harness(await make_bot(tmp_path / "db.sqlite3"), channel_id=CHANNEL) as h:
        h.user(RUTH, "Ruth")
        h.user(BOAZ, "Boaz")
        lobby = (await h.slash(RUTH, "table new", game="tictactoe", seats="kept")).last
        assert not any("add_computer" in cid for cid in lobby.custom_ids)
        game_id = int(lobby.custom_ids[0].split(":")[1])
        await h.click(BOAZ, lobby, f"lb:{game_id}:join")
        await h.click(RUTH, lobby, f"lb:{game_id}:start")
        hint = (await h.slash(RUTH, "table hint")).last
        assert hint.ephemeral
        assert hint.content == "Tic-tac-toe has no computer players, so there are no hints for it."
