"""SQLite storage of the game service: schema, migrations, transactions and queries.

The log is the truth (see ``shared/design.md``, "Storage"): a ``games`` row holds the seed,
options, status and version of a game, ``seats`` who plays it, ``actions`` one row per
applied action. ``snapshots`` are only a cache of the engine's JSON and may be dropped at
any time. A write is one ``BEGIN IMMEDIATE`` transaction, so the version read at its start
cannot change before its commit, in this process or any other on the same file.

One :class:`Storage` owns one aiosqlite connection. Coroutines of one process share it, so
every use goes through :meth:`Storage.read` or :meth:`Storage.write`, which hold an
``asyncio.Lock``: two coroutines must never interleave statements on one connection, or one
would see (or commit) the other's half-done transaction.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Callable, Iterable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import aiosqlite

from bot.service.clock import from_ms
from bot.service.models import ActionRecord, GameRecord, ModerationRecord, Seat

#: Each entry upgrades the schema by one version (``PRAGMA user_version``). Never edit a
#: released entry: append a new one.
MIGRATIONS: tuple[tuple[str, ...], ...] = (
    (
        """
        CREATE TABLE games (
            id              INTEGER PRIMARY KEY,
            guild_id        INTEGER NOT NULL,
            channel_id      INTEGER NOT NULL,
            kind            TEXT    NOT NULL,
            seed            INTEGER NOT NULL,
            options         TEXT    NOT NULL DEFAULT '{}',
            shuffle_seats   INTEGER NOT NULL DEFAULT 1,
            creator_id      INTEGER NOT NULL,
            status          TEXT    NOT NULL
                CHECK (status IN ('lobby', 'active', 'finished', 'ended', 'error')),
            version         INTEGER NOT NULL DEFAULT 0,
            current_seat    INTEGER,
            waiting_since   INTEGER,
            created_at      INTEGER NOT NULL,
            updated_at      INTEGER NOT NULL,
            started_at      INTEGER,
            finished_at     INTEGER,
            result          TEXT,
            error           TEXT
        )
        """,
        # One open game per channel, enforced by the database itself, so that two processes
        # creating a game in the same channel at the same moment cannot both succeed.
        """
        CREATE UNIQUE INDEX games_open_per_channel ON games (channel_id)
            WHERE status IN ('lobby', 'active', 'error')
        """,
        "CREATE INDEX games_waiting ON games (status, waiting_since)",
        "CREATE INDEX games_guild ON games (guild_id, status)",
        """
        CREATE TABLE seats (
            game_id   INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
            seat      INTEGER NOT NULL,
            user_id   INTEGER,
            name      TEXT    NOT NULL,
            is_bot    INTEGER NOT NULL DEFAULT 0,
            PRIMARY KEY (game_id, seat)
        ) WITHOUT ROWID
        """,
        "CREATE UNIQUE INDEX seats_user ON seats (game_id, user_id) WHERE user_id IS NOT NULL",
        "CREATE INDEX seats_by_user ON seats (user_id)",
        """
        CREATE TABLE actions (
            game_id     INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
            seq         INTEGER NOT NULL,
            seat        INTEGER NOT NULL,
            user_id     INTEGER,
            source      TEXT    NOT NULL CHECK (source IN ('player', 'bot', 'timeout')),
            action      TEXT    NOT NULL,
            created_at  INTEGER NOT NULL,
            PRIMARY KEY (game_id, seq)
        ) WITHOUT ROWID
        """,
        """
        CREATE TABLE snapshots (
            game_id     INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
            version     INTEGER NOT NULL,
            state       TEXT    NOT NULL,
            PRIMARY KEY (game_id, version)
        ) WITHOUT ROWID
        """,
        """
        CREATE TABLE moderation_log (
            id              INTEGER PRIMARY KEY,
            guild_id        INTEGER NOT NULL,
            game_id         INTEGER REFERENCES games (id) ON DELETE SET NULL,
            moderator_id    INTEGER NOT NULL,
            act             TEXT    NOT NULL,
            target_user_id  INTEGER,
            detail          TEXT    NOT NULL DEFAULT '{}',
            created_at      INTEGER NOT NULL
        )
        """,
        "CREATE INDEX moderation_by_guild ON moderation_log (guild_id, id)",
        """
        CREATE TABLE guild_settings (
            guild_id            INTEGER PRIMARY KEY,
            reminder_delay_ms   INTEGER NOT NULL,
            turn_timeout_ms     INTEGER NOT NULL,
            timeout_action      TEXT    NOT NULL CHECK (timeout_action IN ('skip', 'notify')),
            moderator_role_id   INTEGER
        )
        """,
        """
        CREATE TABLE user_prefs (
            user_id         INTEGER PRIMARY KEY,
            dm_reminders    INTEGER NOT NULL DEFAULT 0
        )
        """,
        # A reminder or time-out notice for one waiting turn (game, version, user). It is
        # claimed before it is sent and marked sent afterwards: a process that dies in
        # between leaves a stale claim, which is offered again after a lease.
        """
        CREATE TABLE notices (
            game_id     INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
            version     INTEGER NOT NULL,
            user_id     INTEGER NOT NULL,
            kind        TEXT    NOT NULL CHECK (kind IN ('reminder', 'timeout')),
            claimed_at  INTEGER NOT NULL,
            sent_at     INTEGER,
            PRIMARY KEY (game_id, version, user_id, kind)
        ) WITHOUT ROWID
        """,
    ),
    # 2: the last version of each game that the bot has shown in its channel, so a turn
    # stored just before a crash is still announced after the restart.
    (
        """
        CREATE TABLE announcements (
            game_id     INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
            version     INTEGER NOT NULL
        )
        """,
        # Games from before this table were announced as they went.
        "INSERT INTO announcements (game_id, version) SELECT id, version FROM games "
        "WHERE status IN ('active', 'finished')",
    ),
)
SCHEMA_VERSION = len(MIGRATIONS)

GAME_COLUMNS = (
    "id, guild_id, channel_id, kind, seed, options, shuffle_seats, creator_id, status, "
    "version, current_seat, waiting_since, created_at, updated_at, started_at, finished_at, "
    "result, error"
)


class Storage:
    """One connection to the database file, with the schema brought up to date."""

    def __init__(self, connection: aiosqlite.Connection, path: Path) -> None:
        self.connection = connection
        self.path = path
        self._lock = asyncio.Lock()
        self._closed = False
        #: Test hook: called inside a write transaction right before COMMIT. A test makes
        #: it raise (or kill the process) to simulate a crash between write and commit.
        self.before_commit: Callable[[], None] | None = None

    @classmethod
    async def open(cls, path: str | Path) -> Storage:
        """Open (creating if need be) the database and run any pending migrations."""
        path = Path(path)
        # isolation_level=None: the sqlite3 module must not open transactions on its own;
        # every write transaction is an explicit BEGIN IMMEDIATE.
        connection = await aiosqlite.connect(path, isolation_level=None)
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
        except BaseException:
            await connection.close()
            raise
        return storage

    async def close(self) -> None:
        """Close the connection (a second call does nothing)."""
        async with self._lock:
            if not self._closed:
                self._closed = True
                await self.connection.close()

    async def _migrate(self) -> None:
        async with self._lock:
            await self.connection.execute("BEGIN IMMEDIATE")
            try:
                version = await self.scalar("PRAGMA user_version")
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
    async def read(self) -> AsyncIterator[Storage]:
        """Hold the connection for a few reads (each sees committed data)."""
        async with self._lock:
            yield self

    @asynccontextmanager
    async def write(self) -> AsyncIterator[Storage]:
        """One write transaction: committed if the block ends normally, else rolled back."""
        async with self._lock:
            await self.connection.execute("BEGIN IMMEDIATE")
            try:
                yield self
                if self.before_commit is not None:
                    self.before_commit()
                await self.connection.execute("COMMIT")
            except BaseException:
                await self.connection.execute("ROLLBACK")
                raise

    # ---------------------------------------------------------------- helpers

    # execute_fetchall is one trip to the connection's thread (execute, fetch and close a
    # cursor would be three): it shortens how long a busy bot holds the lock.

    async def scalar(self, sql: str, params: Sequence[Any] = ()) -> Any:
        rows = await self.connection.execute_fetchall(sql, params)
        return rows[0][0] if rows else None

    async def rows(self, sql: str, params: Sequence[Any] = ()) -> list[aiosqlite.Row]:
        return list(await self.connection.execute_fetchall(sql, params))

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        """Run one statement; returns the last row id (for inserts)."""
        async with self.connection.execute(sql, params) as cursor:
            return cursor.lastrowid or 0

    async def executemany(self, sql: str, params: Iterable[Sequence[Any]]) -> None:
        await self.connection.executemany(sql, params)

    # ---------------------------------------------------------------- games

    async def game_row(self, game_id: int) -> aiosqlite.Row | None:
        rows = await self.rows(f"SELECT {GAME_COLUMNS} FROM games WHERE id = ?", (game_id,))
        return rows[0] if rows else None

    async def open_game_row(self, channel_id: int) -> aiosqlite.Row | None:
        rows = await self.rows(
            f"SELECT {GAME_COLUMNS} FROM games WHERE channel_id = ? "
            "AND status IN ('lobby', 'active', 'error')",
            (channel_id,),
        )
        return rows[0] if rows else None

    async def seats(self, game_id: int) -> tuple[Seat, ...]:
        rows = await self.rows(
            "SELECT seat, user_id, name, is_bot FROM seats WHERE game_id = ? ORDER BY seat",
            (game_id,),
        )
        return tuple(Seat(r[0], r[1], r[2], bool(r[3])) for r in rows)

    async def replace_seats(self, game_id: int, seats: Sequence[Seat]) -> None:
        """Write the seats anew (lobby changes renumber them; a start reorders them)."""
        await self.execute("DELETE FROM seats WHERE game_id = ?", (game_id,))
        await self.executemany(
            "INSERT INTO seats (game_id, seat, user_id, name, is_bot) VALUES (?, ?, ?, ?, ?)",
            [(game_id, i, s.user_id, s.name, int(s.is_bot)) for i, s in enumerate(seats)],
        )

    async def record(self, row: aiosqlite.Row) -> GameRecord:
        """A :class:`GameRecord` from a games row (its seats are read too)."""
        return game_record(row, await self.seats(row["id"]))

    async def actions(self, game_id: int, after: int = 0) -> list[aiosqlite.Row]:
        return await self.rows(
            "SELECT seq, seat, user_id, source, action, created_at FROM actions "
            "WHERE game_id = ? AND seq > ? ORDER BY seq",
            (game_id, after),
        )

    async def latest_snapshot(self, game_id: int, version: int) -> tuple[int, str] | None:
        rows = await self.rows(
            "SELECT version, state FROM snapshots WHERE game_id = ? AND version <= ? "
            "ORDER BY version DESC LIMIT 1",
            (game_id, version),
        )
        return (rows[0][0], rows[0][1]) if rows else None

    async def log_moderation(
        self,
        guild_id: int,
        game_id: int | None,
        moderator_id: int,
        act: str,
        target_user_id: int | None,
        detail: dict[str, Any],
        now_ms: int,
    ) -> None:
        await self.execute(
            "INSERT INTO moderation_log (guild_id, game_id, moderator_id, act, target_user_id, "
            "detail, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
            (guild_id, game_id, moderator_id, act, target_user_id, json.dumps(detail), now_ms),
        )


def _json_or(text: str | None, default: Any) -> Any:
    """Parse a JSON column of a row; a damaged one reads as ``default`` (the service's load
    finds and reports damage; listing a game must not fail because of it)."""
    if text is None:
        return default
    try:
        return json.loads(text)
    except ValueError:
        return default


def game_record(row: aiosqlite.Row, seats: tuple[Seat, ...]) -> GameRecord:
    result = _json_or(row["result"], None)
    options = _json_or(row["options"], {})
    return GameRecord(
        id=row["id"],
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        kind=row["kind"],
        seed=row["seed"],
        options=options if isinstance(options, dict) else {},
        shuffle_seats=bool(row["shuffle_seats"]),
        creator_id=row["creator_id"],
        status=row["status"],
        version=row["version"],
        seats=seats,
        created_at=from_ms(row["created_at"]),  # type: ignore[arg-type]
        updated_at=from_ms(row["updated_at"]),  # type: ignore[arg-type]
        started_at=from_ms(row["started_at"]),
        finished_at=from_ms(row["finished_at"]),
        current_seat=row["current_seat"],
        waiting_since=from_ms(row["waiting_since"]),
        scores=tuple(result["scores"]) if isinstance(result, dict) else None,
        winners=tuple(result["winners"]) if isinstance(result, dict) else None,
        error=row["error"],
    )


def action_record(game_id: int, row: aiosqlite.Row) -> ActionRecord:
    return ActionRecord(
        game_id=game_id,
        seq=row["seq"],
        seat=row["seat"],
        user_id=row["user_id"],
        source=row["source"],
        action=_json_or(row["action"], {}),
        created_at=from_ms(row["created_at"]),  # type: ignore[arg-type]
    )


def moderation_record(row: aiosqlite.Row) -> ModerationRecord:
    return ModerationRecord(
        id=row["id"],
        guild_id=row["guild_id"],
        game_id=row["game_id"],
        moderator_id=row["moderator_id"],
        act=row["act"],
        target_user_id=row["target_user_id"],
        detail=_json_or(row["detail"], {}),
        created_at=from_ms(row["created_at"]),  # type: ignore[arg-type]
    )
