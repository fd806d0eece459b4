"""The embedded backend's file: one SQLite connection through aiosqlite (WAL,
synchronous=FULL), its migrations, and its transactions.

One :class:`SqliteStorage` owns one connection. Coroutines of one process share it, so every
use goes through :meth:`~SqliteStorage.read` or :meth:`~SqliteStorage.write`, which hold an
``asyncio.Lock``: two coroutines must never interleave statements on one connection, or one
would see (or commit) the other's half-done transaction. A write is one ``BEGIN IMMEDIATE``
transaction, so the version read at its start cannot change before its commit, in this
process or any other on the same file.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import secrets
import sqlite3
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager, suppress
from pathlib import Path

import aiosqlite

from bot.service.storage.base import Storage, Transaction
from bot.service.storage.sqlite.games import SqliteGames
from bot.service.storage.sqlite.log import SqliteLog
from bot.service.storage.sqlite.notices import SqliteNotices
from bot.service.storage.sqlite.people import SqlitePeople
from bot.service.storage.sqlite.place import FilePlace
from bot.service.storage.sqlite.seasons import SqliteSeasons
from bot.service.storage.sqlite.statements import Statements
from bot.service.storage.sqlite_schema import MIGRATIONS, SCHEMA_VERSION
from bot.service.storage.values import StorageError


class SqliteTransaction(Transaction):
    """One transaction on the file: its parts run their statements on the one connection,
    under the lock that :class:`SqliteStorage` holds while the transaction lasts."""

    def __init__(self, statements: Statements) -> None:
        self.games = SqliteGames(statements)
        self.log = SqliteLog(statements)
        self.people = SqlitePeople(statements)
        self.notices = SqliteNotices(statements)
        self.seasons = SqliteSeasons(statements)
        #: Called once the (write) transaction has committed.
        self.committed: list[Callable[[], None]] = []

    def on_commit(self, callback: Callable[[], None]) -> None:
        self.committed.append(callback)


class SqliteStorage(Storage):
    """The database file: one connection, one lock, a transaction at a time."""

    def __init__(self, connection: aiosqlite.Connection, path: Path) -> None:
        self.connection = connection
        #: The connection's statements, which every transaction's parts share (tests use
        #: them to look at, or damage, the file directly).
        self.statements = Statements(connection)
        self.path = path
        self._lock = asyncio.Lock()
        self._closed = False
        self._place = FilePlace(path)
        self.before_commit: Callable[[], None] | None = None

    @classmethod
    async def open(cls, path: str | Path) -> SqliteStorage:
        """Open (creating if need be) the database and run any pending migrations.

        Raises :class:`StorageError` with a sentence saying which file and what to do when
        the file cannot be used. An existing file of 0 bytes is refused: a database is never
        empty, so it was truncated (a full disk, a failed copy), and starting afresh on it
        would quietly lose every game.
        """
        path = Path(path)
        if not path.parent.is_dir():
            raise StorageError(
                f"cannot open the database file {path}: the folder {path.parent} does not "
                "exist. Create it, or point ARKBOT_DB at a file in a folder that does."
            )
        if not path.exists():
            await cls._create(path)
        if path.is_file() and path.stat().st_size == 0:
            raise StorageError(
                f"the database file {path} is empty (0 bytes): it was probably cut short. "
                "Restore it from a backup; or, to start with no games at all, delete it."
            )
        return await cls._connect(path)

    @classmethod
    async def _create(cls, path: Path) -> None:
        """Make a new database beside ``path`` and link it in place whole: another process
        opening the same new file at this moment never sees it empty (it would refuse it as
        cut short). If one was quicker, its file stays and ours goes."""
        aside = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}.new")
        try:
            await (await cls._connect(aside)).close()
            with contextlib.suppress(FileExistsError):
                os.link(aside, path)
        except OSError as exc:
            raise StorageError(
                f"cannot create the database file {path}: {exc}. Check that this user may "
                "write in its folder (ARKBOT_DB names the file)."
            ) from None
        finally:
            for leftover in (aside, Path(f"{aside}-wal"), Path(f"{aside}-shm")):
                leftover.unlink(missing_ok=True)

    @classmethod
    async def _connect(cls, path: Path) -> SqliteStorage:
        try:
            # isolation_level=None: the sqlite3 module must not open transactions on its
            # own; every write transaction is an explicit BEGIN IMMEDIATE.
            connection = await aiosqlite.connect(path, isolation_level=None)
        except sqlite3.Error as exc:
            raise StorageError(
                f"cannot open the database file {path}: {exc}. Check that its folder exists "
                "and that this user may read and write there (ARKBOT_DB names the file)."
            ) from None
        try:
            connection.row_factory = aiosqlite.Row
            # Wait for another process's write instead of failing at once.
            await connection.execute("PRAGMA busy_timeout = 10000")
            await connection.execute("PRAGMA journal_mode = WAL")
            # FULL: a committed turn survives even a power cut, not only a crash of the
            # process. Turns are rare (minutes apart), so an fsync per commit is cheap.
            await connection.execute("PRAGMA synchronous = FULL")
            await connection.execute("PRAGMA foreign_keys = ON")
            storage = cls(connection, path)
            await storage._migrate()
        except sqlite3.DatabaseError as exc:
            await connection.close()
            raise StorageError(
                f"{path} cannot be used as arkbot's database: {exc}. If it is another "
                "program's file, point ARKBOT_DB elsewhere; if it is damaged, restore it "
                "from a backup."
            ) from None
        except BaseException:
            await connection.close()
            raise
        return storage

    @property
    def closed(self) -> bool:
        return self._closed

    async def hold_place(self) -> tuple[int, bool]:
        return self._place.hold()

    async def close(self) -> None:
        async with self._lock:
            if not self._closed:
                self._closed = True
                await self.connection.close()
                self._place.close()

    async def _migrate(self) -> None:
        async with self._lock:
            await self.connection.execute("BEGIN IMMEDIATE")
            try:
                version = await self.statements.integer("PRAGMA user_version") or 0
                if version > SCHEMA_VERSION:
                    raise RuntimeError(
                        f"{self.path} has schema {version}, newer than this bot's "
                        f"{SCHEMA_VERSION}; upgrade the bot"
                    )
                for number in range(version, SCHEMA_VERSION):
                    for statement in MIGRATIONS[number]:
                        await self.connection.execute(statement)
                # user_version is part of the transaction: a failed migration leaves both
                # the schema and its number as they were.
                await self.connection.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
                await self.connection.execute("COMMIT")
            except BaseException:
                await self.connection.execute("ROLLBACK")
                raise

    # ---------------------------------------------------------------- transactions

    @asynccontextmanager
    async def read(self) -> AsyncIterator[Transaction]:
        # One read transaction, so every query of the block sees the same moment, as on
        # PostgreSQL (repeatable read): without it, another process's move committed between
        # reading a game and reading its log looked like a damaged record (and the reader
        # stopped the game). In WAL mode a reader never blocks the writer, nor it the reader.
        async with self._lock:
            await self.connection.execute("BEGIN")
            try:
                yield SqliteTransaction(self.statements)
            except BaseException:
                with suppress(sqlite3.Error):  # the block's own error is the one to report
                    await self.connection.execute("ROLLBACK")
                raise
            await self.connection.execute("COMMIT")

    @asynccontextmanager
    async def write(self) -> AsyncIterator[Transaction]:
        async with self._lock:
            tx = SqliteTransaction(self.statements)
            await self.connection.execute("BEGIN IMMEDIATE")
            try:
                yield tx
                if self.before_commit is not None:
                    self.before_commit()
                await self.connection.execute("COMMIT")
            except BaseException as failure:
                try:
                    await self.connection.execute("ROLLBACK")
                except sqlite3.Error:
                    # A failed COMMIT (a full disk, say) may have ended the transaction
                    # already; the real error is the one to report, not "cannot rollback".
                    raise failure from None
                raise
            for callback in tx.committed:
                callback()
