"""PostgreSQL transactions that end badly say why: a connection the server ended raises
:class:`ConnectionLost`, a cancelled COMMIT stays a cancellation, and neither is hidden by
asyncpg's refusal to roll back a transaction it can no longer end. The pool goes on."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import asyncpg
import pytest

from bot.service.storage.postgres import PostgresStorage
from bot.service.storage.postgres.lost import ConnectionLost
from bot.service.storage.postgres.notices import PostgresNotices
from tests.support.databases import fresh_schema


async def terminate(url: str, pid: int) -> None:
    """End the server session ``pid`` as ``pg_terminate_backend`` does (an administrator, a
    restart), and wait (a bounded while) until it is gone."""
    admin = await asyncpg.connect(url, timeout=10)
    try:
        assert await admin.fetchval("SELECT pg_terminate_backend($1)", pid)
        for _ in range(500):
            alive = "SELECT count(*) FROM pg_stat_activity WHERE pid = $1"
            if not await admin.fetchval(alive, pid):
                return
            await admin.execute("SELECT pg_sleep(0.01)")
        raise AssertionError(f"the server session {pid} did not end")
    finally:
        await admin.close()


@pytest.fixture
async def storage() -> AsyncIterator[tuple[PostgresStorage, str]]:
    async with fresh_schema("arkbot_lost") as url:
        opened = await PostgresStorage.open(url)
        try:
            yield opened, url
        finally:
            await opened.close()


def server_pid(notices: object) -> int:
    """The server session of the transaction whose part ``notices`` is."""
    assert isinstance(notices, PostgresNotices)
    return int(notices._connection.get_server_pid())


async def still_works(storage: PostgresStorage) -> None:
    async with storage.read() as tx:
        assert await tx.people.ping(1) == "channel"


async def test_a_write_whose_session_is_ended_raises_connection_lost(
    storage: tuple[PostgresStorage, str],
) -> None:
    db, url = storage
    with pytest.raises(ConnectionLost):
        async with db.write() as tx:
            await tx.people.set_ping(7, "dm")
            await terminate(url, server_pid(tx.notices))
    await still_works(db)
    async with db.read() as tx:
        assert await tx.people.ping(7) == "channel"  # nothing of it was committed


async def test_a_read_whose_session_is_ended_raises_connection_lost(
    storage: tuple[PostgresStorage, str],
) -> None:
    db, url = storage
    with pytest.raises(ConnectionLost):
        async with db.read() as tx:
            await terminate(url, server_pid(tx.notices))
            await tx.people.ping(7)
    await still_works(db)


async def test_a_commit_cancelled_stays_a_cancellation(
    storage: tuple[PostgresStorage, str],
) -> None:
    """How a bot process stops (SIGTERM): its reminder task is cancelled, maybe in a COMMIT.
    asyncpg then refuses the rollback ("the transaction is in error state"); that refusal
    must not replace the cancellation, or the round's loop logs it as a failure and runs on."""
    db, _url = storage

    async def write() -> None:
        async with db.write() as tx:
            await tx.people.set_ping(7, "dm")

    task = asyncio.create_task(write())
    db.before_commit = task.cancel  # cancelled as the COMMIT begins
    try:
        with pytest.raises(asyncio.CancelledError):
            await task
    finally:
        db.before_commit = None
    await still_works(db)
