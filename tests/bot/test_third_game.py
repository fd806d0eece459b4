"""A third game is one folder of code and one registration: the take-away game of
tests/bot/takeaway.py, played through the real table with the in-process harness."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.client import TableBot
from bot.games import register, unregister
from tests.bot import takeaway
from tests.support.bot import CHANNEL, make_bot
from tests.support.harness import Harness, Sent

RUTH, BOAZ, STRANGER = 11, 12, 13


@pytest.fixture
async def table(db_path: Path) -> AsyncIterator[Harness]:
    register(takeaway.PLUGIN)  # the one line a new game needs
    try:
        async with Harness(await make_bot(db_path), channel_id=CHANNEL) as h:
            h.user(RUTH, "Ruth")
            h.user(BOAZ, "Boaz")
            h.user(STRANGER, "Stranger")
            yield h
    finally:
        unregister("takeaway")


def board_of(reply: list[Sent]) -> Sent:
    return [s for s in reply if s.kind == "channel_message" and not s.ephemeral][-1]


async def test_a_third_game_is_played_through_the_real_table(table: Harness) -> None:
    h = table
    bot: TableBot = h.bot  # type: ignore[assignment]
    lobby = (await h.slash(RUTH, "table new", game="takeaway", seats="kept")).last
    assert "Take-away" in lobby.content and "2 to 2 players" in lobby.content
    game_id = int(lobby.custom_ids[0].split(":")[1])
    await h.click(BOAZ, lobby, f"lb:{game_id}:join")
    board = board_of(await h.click(RUTH, lobby, f"lb:{game_id}:start"))
    assert "Stones left: 10" in board.content and f"<@{RUTH}>" in board.content
    assert board.images[0].format == "PNG"
    # A stranger and the wrong player are refused privately, as in every game.
    stranger = await h.click(STRANGER, board, f"ob:{game_id}:1")
    assert stranger.last.ephemeral and "not playing in this game" in stranger.last.content
    early = await h.click(BOAZ, board, f"ob:{game_id}:1")
    assert early.last.ephemeral and "It is Ruth's turn" in early.last.content
    # Ruth taps: her private panel offers 1 to 3 stones.
    panel = (await h.click(RUTH, board, f"ob:{game_id}:1")).last
    assert panel.ephemeral and "10 stones are left" in panel.content
    assert panel.custom_ids == [f"tb:{game_id}:0:take:{n}" for n in (1, 2, 3)]
    board = board_of(await h.click(RUTH, panel, f"tb:{game_id}:0:take:3"))
    assert "Ruth took 3 stones; 7 left." in board.content and f"<@{BOAZ}>" in board.content
    # Boaz types instead; a refusal from the engine is said in the game's own words.
    wrong = await h.slash(BOAZ, "takeaway take", count=5)
    assert wrong.last.ephemeral and "no more than are left" in wrong.last.content
    for user, count in ((BOAZ, 3), (RUTH, 3), (BOAZ, 1)):
        post = board_of(await h.slash(user, "takeaway take", count=count))
    assert "Boaz took 1 stone; 0 left." in post.content
    assert "Boaz took the last stone and wins!" in post.content
    record = await bot.service.get_game(game_id)
    assert record.status == "finished" and record.winners == (1,) and record.version == 4
    stats = await h.slash(RUTH, "table stats", game="takeaway")
    assert "1. Boaz: 1016 (1 game, 1 win)" in stats.last.content
    rules = await h.slash(STRANGER, "table rules", game="takeaway")
    assert rules.last.ephemeral and "whoever takes the last one wins" in rules.last.content
