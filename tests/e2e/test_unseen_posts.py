"""Posts a kill kept from the channel (issue 41), on SQLite and PostgreSQL, with the
unmodified bot against the fake Discord: a lobby opened just before a kill is posted at the
restart.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.support.databases import RawDb, database
from tests.support.e2e import Arkbot
from tests.support.fake_discord import FakeDiscord, FakeMessage
from tests.support.players import WAIT, wait_until_up


@pytest.fixture(params=["sqlite", "postgres"])
async def db_path(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[str | Path]:
    """The bot's database (the e2e fixtures' name for it): a file, or a fresh schema."""
    async with database(request.param, tmp_path) as target:
        yield target


def custom_ids(components: list[Any]) -> Iterator[str]:
    for item in components:
        if "custom_id" in item:
            yield item["custom_id"]
        yield from custom_ids(item.get("components") or [])


def lobby_messages(fake: FakeDiscord, channel_id: int, game_id: int) -> list[FakeMessage]:
    """The public messages in the channel that carry the lobby's controls."""
    return [
        m
        for m in fake.recorder.messages_in(channel_id)
        if not m.ephemeral and any(c.startswith(f"lb:{game_id}:") for c in custom_ids(m.components))
    ]


async def test_a_lobby_opened_just_before_a_kill_is_posted_at_the_restart(
    fake_discord: FakeDiscord, arkbot: Arkbot, db_path: str | Path
) -> None:
    fake, rec = fake_discord, fake_discord.recorder
    proc = await arkbot()
    channel = fake.channel("games")
    # Discord holds the lobby's message back (a long 429): the bot is killed before it goes.
    held = fake.rate_limit(r"^POST /channels/\d+/messages$", retry_after=60)
    await fake.slash(fake.user("alice"), channel, "table", {"game": "covenant"}, subcommand="new")
    await rec.wait_until(lambda: held.hits, WAIT, "the held-up lobby message")
    raw = RawDb(db_path)
    (game_id,) = [r[0] for r in await raw.rows("SELECT id FROM games WHERE status = 'lobby'")]
    await proc.kill()
    assert lobby_messages(fake, channel.id, game_id) == []
    await proc.start()
    await wait_until_up(fake, proc)
    (lobby,) = await rec.wait_until(
        lambda: lobby_messages(fake, channel.id, game_id), WAIT, "the lobby, posted again"
    )
    assert "Alice" in lobby.content
    await until_stored(raw, "SELECT lobby_message_id FROM games WHERE id = ?", game_id, lobby.id)
    # Anyone can join it now.
    await fake.slash(fake.user("bob"), channel, "table", {}, subcommand="join")
    await rec.wait_until(
        lambda: "Bob" in fake.recorder.messages[lobby.id].content, WAIT, "Bob in the lobby"
    )
    assert len(lobby_messages(fake, channel.id, game_id)) == 1


async def until_stored(raw: RawDb, sql: str, game_id: int, expected: object) -> None:
    """Wait until ``sql`` on the game gives ``expected`` (the bot writes it soon after)."""
    for _ in range(int(WAIT * 10)):
        if await raw.scalar(sql, game_id) == expected:
            return
        await asyncio.sleep(0.1)
    assert await raw.scalar(sql, game_id) == expected
