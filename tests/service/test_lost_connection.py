"""PostgreSQL transactions that end badly say why: a connection the server ended raises
:class:`ConnectionLost`, a cancelled COMMIT stays a cancellation, and neither is hidden by
asyncpg's refusal to roll back a transaction it can no longer end. The pool goes on."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import asyncpg
import pytest

from bot.service import GameService
from bot.service.storage.postgres import PostgresStorage
from bot.service.storage.postgres.games import PostgresGames
from bot.service.storage.postgres.lost import ConnectionLost
from bot.service.storage.postgres.notices import PostgresNotices
from tests.service.conftest import ALICE, QUICK_THINKING, started_game
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


async def test_a_connection_gone_while_it_sat_in_the_pool_is_replaced_at_begin(
    storage: tuple[PostgresStorage, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 41: the server ended a pooled connection (a restart, a cut) just before a
    transaction took it; its BEGIN fails ("cannot switch to state 15", or closed), nothing
    has been asked of it, and a fresh connection is taken once."""
    db, url = storage
    acquire = asyncpg.pool.Pool.acquire
    cut: list[int] = []

    class DeadOne:
        """The pool's first connection, its server session ended before it is used (taken
        with ``await`` or ``async with``, as the pool's own is)."""

        def __init__(self, pool: asyncpg.Pool, args: Any, kwargs: Any) -> None:
            self.pool, self.taken = pool, acquire(pool, *args, **kwargs)

        async def connection(self) -> Any:
            connection = await self.taken
            cut.append(connection.get_server_pid())
            await terminate(url, cut[0])
            return connection

        def __await__(self) -> Any:
            return self.connection().__await__()

        async def __aenter__(self) -> Any:
            self.held = await self.connection()
            return self.held

        async def __aexit__(self, *exc: object) -> None:
            await self.pool.release(self.held)

    def acquire_a_dead_one(pool: asyncpg.Pool, *args: Any, **kwargs: Any) -> Any:
        if pool is db.pool and not cut:
            return DeadOne(pool, args, kwargs)
        return acquire(pool, *args, **kwargs)

    monkeypatch.setattr(asyncpg.pool.Pool, "acquire", acquire_a_dead_one)
    async with db.write() as tx:
        await tx.people.set_ping(7, "dm")
        assert server_pid(tx.notices) != cut[0]
    async with db.read() as tx:
        assert await tx.people.ping(7) == "dm"


async def test_a_move_whose_connection_is_cut_before_its_commit_is_stored_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Issue 41: a tap's write loses its connection mid-way (before the COMMIT): nothing of
    it was kept, so it is played once more on a fresh connection, and stored once."""
    async with fresh_schema("arkbot_lost") as url:
        service = await GameService.open(url, settings=QUICK_THINKING)
        try:
            record = await started_game(service)
            _, game = await service.play.state(record.id)
            action = game.legal_actions()[0]
            get = PostgresGames.get
            cut: list[int] = []

            async def get_then_cut(self: PostgresGames, game_id: int) -> Any:
                found = await get(self, game_id)
                if self._session.writing and not cut:
                    cut.append(self._connection.get_server_pid())
                    await terminate(url, cut[0])
                return found

            monkeypatch.setattr(PostgresGames, "get", get_then_cut)
            result = await service.play.act(record.id, ALICE, action, record.version)
            assert cut and result.record.version == record.version + 1
            assert len(await service.history.actions(record.id)) == 1
        finally:
            await service.close()
