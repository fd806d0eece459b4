"""The PostgreSQL database: its pool of connections, its migrations, and its transactions
(the notes of :mod:`bot.service.storage.postgres` say what they keep)."""

from __future__ import annotations

import contextlib
import logging
import re
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any

import asyncpg

from bot.service.storage.base import Storage, Transaction
from bot.service.storage.postgres.games import PostgresGames
from bot.service.storage.postgres.log import PostgresLog
from bot.service.storage.postgres.lost import (
    BROKEN_AT_BEGIN,
    NO_CONNECTION,
    SESSION_ENDED,
    ConnectionLost,
    connection_gone,
)
from bot.service.storage.postgres.notices import PostgresNotices
from bot.service.storage.postgres.people import PostgresPeople
from bot.service.storage.postgres.place import SessionPlace
from bot.service.storage.postgres.seasons import PostgresSeasons
from bot.service.storage.postgres.session import Session
from bot.service.storage.postgres_schema import MIGRATIONS, SCHEMA_VERSION
from bot.service.storage.values import StorageError

log = logging.getLogger("arkbot.storage")

#: Connections per process: a click holds one for a few milliseconds.
POOL_MIN, POOL_MAX = 1, 10


def redacted(url: str) -> str:
    """The URL without its password, for messages and logs."""
    return re.sub(r"(://[^:/@]+):[^@/]*@", r"\1:***@", url)


class PostgresStorage(Storage):
    """A PostgreSQL database (the schema on the URL's ``search_path``, or ``public``)."""

    def __init__(self, pool: asyncpg.Pool, url: str) -> None:
        self.pool = pool
        self.url = url
        self._closed = False
        self._place = SessionPlace(url, redacted(url))
        self.before_commit: Callable[[], None] | None = None

    @classmethod
    async def open(cls, url: str) -> PostgresStorage:
        """Connect and run any pending migrations; :class:`StorageError` says what is wrong
        (the server is not there, the database does not exist, the login is refused)."""
        where = redacted(url)
        try:
            pool = await asyncpg.create_pool(
                url, min_size=POOL_MIN, max_size=POOL_MAX, timeout=10, command_timeout=60
            )
        except (OSError, TimeoutError, asyncpg.PostgresError, asyncpg.InterfaceError) as exc:
            raise StorageError(
                f"cannot connect to the PostgreSQL database {where}: {exc}. Check that the "
                "server runs and that ARKBOT_DB names its host, port, database and user."
            ) from None
        storage = cls(pool, url)
        try:
            await storage._migrate()
        except asyncpg.PostgresError as exc:
            await pool.close()
            raise StorageError(
                f"{where} cannot be used as arkbot's database: {exc}. Check that the user "
                "may create tables there (or point ARKBOT_DB at another database)."
            ) from None
        except BaseException:
            await pool.close()
            raise
        return storage

    async def _migrate(self) -> None:
        async with self.pool.acquire() as connection, connection.transaction():
            schema = await connection.fetchval("SELECT current_schema()")
            if schema is None:
                raise StorageError(
                    f"{redacted(self.url)}: its search_path names no schema that exists. "
                    "Create the schema first, or leave search_path out of ARKBOT_DB."
                )
            # Several processes may start at once: one migrates, the others wait, then
            # find the schema current. The lock is the schema's own (tests use many).
            await connection.execute(
                "SELECT pg_advisory_xact_lock(hashtextextended($1, 0))", f"arkbot:{schema}"
            )
            await connection.execute(
                "CREATE TABLE IF NOT EXISTS arkbot_schema (version INTEGER NOT NULL)"
            )
            version = await connection.fetchval("SELECT version FROM arkbot_schema")
            if version is None:
                await connection.execute("INSERT INTO arkbot_schema (version) VALUES (0)")
                version = 0
            if version > SCHEMA_VERSION:
                raise RuntimeError(
                    f"{redacted(self.url)} has schema {version}, newer than this bot's "
                    f"{SCHEMA_VERSION}; upgrade the bot"
                )
            for number in range(version, SCHEMA_VERSION):
                for statement in MIGRATIONS[number]:
                    await connection.execute(statement)
            # In the same transaction: a failed migration leaves schema and number as they were.
            await connection.execute("UPDATE arkbot_schema SET version = $1", SCHEMA_VERSION)

    @property
    def closed(self) -> bool:
        return self._closed

    async def hold_place(self) -> tuple[int, bool]:
        return await self._place.hold()

    async def close(self) -> None:
        if not self._closed:
            self._closed = True
            await self._place.close()
            await self.pool.close()

    @asynccontextmanager
    async def read(self) -> AsyncIterator[Transaction]:
        async with self._transaction(writing=False) as tx:
            yield tx

    @asynccontextmanager
    async def write(self) -> AsyncIterator[Transaction]:
        async with self._transaction(writing=True) as tx:
            yield tx
        for callback in tx.committed:
            callback()

    @asynccontextmanager
    async def _transaction(self, *, writing: bool) -> AsyncIterator[PostgresTransaction]:
        """One transaction on a pooled connection, committed when the block ends and rolled
        back when it raises. The error that ended it is the one raised: a lost connection as
        :class:`ConnectionLost` (from the error that said so; ``committing`` if it was lost
        in the COMMIT), a cancellation as itself."""
        connection, transaction = await self._begin(writing)
        committing = False
        try:
            try:
                yield PostgresTransaction(Session(connection, writing=writing))
                if writing and self.before_commit is not None:
                    self.before_commit()
                committing = True
                await transaction.commit()
            except BaseException as exc:
                await _roll_back(transaction)
                if connection_gone(connection, exc):
                    lost = f"{redacted(self.url)}: {exc}"
                    raise ConnectionLost(lost, committing=committing) from exc
                raise
        finally:
            await self.pool.release(connection)

    async def _begin(self, writing: bool) -> tuple[asyncpg.Connection, Any]:
        """A pooled connection with a transaction begun on it. A connection the server ended
        while it sat in the pool (a restart, an administrator, a network cut just before)
        fails its BEGIN; nothing has been asked of it yet, so a fresh one is taken once."""
        for attempt in (1, 2):
            try:
                connection = await self.pool.acquire()
            except NO_CONNECTION as exc:
                # No connection to be had just now (the server restarts, or is full).
                raise ConnectionLost(f"{redacted(self.url)}: {exc}") from exc
            try:
                transaction = (
                    connection.transaction()
                    if writing
                    else connection.transaction(isolation="repeatable_read", readonly=True)
                )
                await transaction.start()
                return connection, transaction
            except BaseException as exc:
                # A BEGIN that fails on a connection just taken from the pool says the
                # connection is broken (asyncpg: "cannot switch to state 15" when the
                # server's farewell came first; or the pool took it back as it closed),
                # whatever words it uses.
                broken = isinstance(exc, BROKEN_AT_BEGIN) or connection_gone(connection, exc)
                if broken:
                    with contextlib.suppress(asyncpg.InterfaceError):
                        connection.terminate()  # not given to anyone again
                await self.pool.release(connection)
                if not broken:
                    raise
                if attempt == 2:
                    raise ConnectionLost(f"{redacted(self.url)}: {exc}") from exc
                log.warning("a pooled database connection was gone; taking another: %s", exc)
        raise AssertionError("unreachable")


async def _roll_back(transaction: Any) -> None:
    """Roll ``transaction`` back after an error, where there is something to roll back. A
    connection that is gone took its transaction with it, and after a failed or cancelled
    COMMIT asyncpg refuses a rollback ("the transaction is in error state"): the pool resets
    the connection, or drops it, when it is given back. Either refusal would hide the error
    that brought us here, so it is not raised."""
    with contextlib.suppress(
        asyncpg.InterfaceError, asyncpg.InternalClientError, *SESSION_ENDED, OSError
    ):
        await transaction.rollback()


class PostgresTransaction(Transaction):
    """The queries of one transaction on one pooled connection, in parts sharing its
    :class:`Session` (the connection and the games locked so far)."""

    def __init__(self, session: Session) -> None:
        self.games = PostgresGames(session)
        self.log = PostgresLog(session)
        self.people = PostgresPeople(session)
        self.notices = PostgresNotices(session)
        self.seasons = PostgresSeasons(session)
        #: Called once the (write) transaction has committed.
        self.committed: list[Callable[[], None]] = []

    def on_commit(self, callback: Callable[[], None]) -> None:
        self.committed.append(callback)
