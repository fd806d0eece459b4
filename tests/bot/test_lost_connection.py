"""A reminder round on PostgreSQL whose connection the server ends in the middle (a restart,
``pg_terminate_backend``): the round runs again on a fresh connection, the reminder goes out
once, and the log says what happened without an error's traceback."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
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


@asynccontextmanager
async def reminder_due(
    url: str, folder: Path
) -> AsyncIterator[tuple[Harness, Reminders, FakeClock]]:
    """The bot on PostgreSQL, Ruth's turn, and half of her bank used: a reminder is due."""
    clock = FakeClock()
    settings = make_settings(folder / "unused.sqlite3")
    service = await GameService.open(url, settings=settings, clock=clock)
    async with Harness(TableBot(settings, service=service), channel_id=CHANNEL) as h:
        await scripted_lobby(h, ["T21", "T39", "T39"])
        await start(h)
        clock.advance(hours=37)
        cog = h.bot.get_cog("Reminders")
        assert isinstance(cog, Reminders)
        yield h, cog, clock


def arkbot_records(caplog: Any) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.name.startswith("arkbot")]


async def test_a_round_whose_connection_is_terminated_runs_again(
    postgres_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: Any
) -> None:
    async with reminder_due(postgres_url, tmp_path) as (h, cog, _clock):
        # The server ends the session of the round's first claim, in its transaction.
        claim = PostgresNotices.claim
        ended: list[int] = []

        async def claim_on_an_ended_session(self: PostgresNotices, *args: Any) -> bool:
            if not ended:
                ended.append(self._connection.get_server_pid())
                await terminate(postgres_url, ended[0])
            return await claim(self, *args)

        monkeypatch.setattr(PostgresNotices, "claim", claim_on_an_ended_session)
        with caplog.at_level(logging.INFO, logger="arkbot"):
            async with h.capture() as sent:
                assert await cog.run_once() == 1
        assert ended
        (reminder,) = sent.messages
        assert f"<@{RUTH}>" in reminder.content
        ours = arkbot_records(caplog)
        logged = [(r.levelname, r.getMessage()) for r in ours]
        assert [level for level, _ in logged] == ["WARNING"], logged
        assert "reminder round lost its database connection, running it again" in logged[0][1]
        assert not any(r.exc_info for r in ours)
        # Sent once: the next round finds it sent.
        async with h.capture() as again:
            assert await cog.run_once() == 0
        assert list(again) == []


async def test_a_round_cancelled_in_a_commit_ends_quietly(
    postgres_url: str, tmp_path: Path, caplog: Any
) -> None:
    """A bot process told to stop (SIGTERM) cancels its reminder task, maybe in a COMMIT:
    the round ends as cancelled, and nothing is logged as a failure (the reminders loop
    would have logged "reminder round failed" with a traceback, and gone on)."""
    async with reminder_due(postgres_url, tmp_path) as (h, cog, clock):
        storage = h.bot.service.storage  # type: ignore[attr-defined]
        with caplog.at_level(logging.INFO, logger="arkbot"):
            round_ = asyncio.create_task(cog.run_once())
            storage.before_commit = round_.cancel  # the round's first COMMIT: its claim
            try:
                with pytest.raises(asyncio.CancelledError):
                    await round_
            finally:
                storage.before_commit = None
        assert [(r.levelname, r.getMessage()) for r in arkbot_records(caplog)] == []
        # The claim may or may not have been committed: either way the reminder goes out
        # (at once, or once the claim's lease has run out), and once.
        async with h.capture() as sent:
            await cog.run_once()
            clock.advance(minutes=11)  # past the claim's lease (ten minutes)
            await cog.run_once()
        assert [m for m in sent.messages if f"<@{RUTH}>" in m.content] == sent.messages
        assert len(sent.messages) == 1
