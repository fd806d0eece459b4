"""A reminder round on PostgreSQL whose connection the server ends in the middle (a restart,
``pg_terminate_backend``): the round runs again on a fresh connection, the reminder goes out
once, and the log says what happened without an error's traceback."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.client import TableBot
from bot.cogs.reminders import Reminders
from bot.service import FakeClock, GameService
from bot.service.storage.postgres.notices import PostgresNotices
from tests.bot.test_discord import RUTH, scripted_lobby, start
from tests.service.test_lost_connection import terminate
from tests.support.bot import CHANNEL, make_settings
from tests.support.databases import fresh_schema
from tests.support.harness import Harness


@pytest.fixture
async def postgres_url() -> AsyncIterator[str]:
    async with fresh_schema("arkbot_lost") as url:
        yield url


async def test_a_round_whose_connection_is_terminated_runs_again(
    postgres_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: Any
) -> None:
    clock = FakeClock()
    settings = make_settings(tmp_path / "unused.sqlite3")
    service = await GameService.open(postgres_url, settings=settings, clock=clock)
    async with Harness(TableBot(settings, service=service), channel_id=CHANNEL) as h:
        await scripted_lobby(h, ["T21", "T39", "T39"])
        await start(h)
        clock.advance(hours=37)  # half of Ruth's bank: her reminder is due
        # The server ends the session of the round's first claim, in its transaction.
        claim = PostgresNotices.claim
        ended: list[int] = []

        async def claim_on_an_ended_session(self: PostgresNotices, *args: Any) -> bool:
            if not ended:
                ended.append(self._connection.get_server_pid())
                await terminate(postgres_url, ended[0])
            return await claim(self, *args)

        monkeypatch.setattr(PostgresNotices, "claim", claim_on_an_ended_session)
        cog = h.bot.get_cog("Reminders")
        assert isinstance(cog, Reminders)
        with caplog.at_level(logging.INFO, logger="arkbot"):
            async with h.capture() as sent:
                assert await cog.run_once() == 1
        assert ended
        (reminder,) = sent.messages
        assert f"<@{RUTH}>" in reminder.content
        ours = [r for r in caplog.records if r.name.startswith("arkbot")]
        logged = [(r.levelname, r.getMessage()) for r in ours]
        assert [level for level, _ in logged] == ["WARNING"], logged
        assert "reminder round lost its database connection, running it again" in logged[0][1]
        assert not any(r.exc_info for r in ours)
        # Sent once: the next round finds it sent.
        async with h.capture() as again:
            assert await cog.run_once() == 0
        assert list(again) == []
