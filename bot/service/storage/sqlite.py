"""The embedded backend: one SQLite file through aiosqlite (WAL, synchronous=FULL).

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
import json
import os
import secrets
import sqlite3
from collections.abc import AsyncIterator, Callable, Iterable, Sequence
from contextlib import asynccontextmanager, suppress
from pathlib import Path
from typing import Any

import aiosqlite

from bot.service.clock import from_ms
from bot.service.models import (
    ActionRecord,
    GameRecord,
    GuildSettings,
    ModerationRecord,
    Rating,
    Seat,
    Shards,
)
from bot.service.storage.base import (
    GAME_FIELDS,
    Advance,
    ChannelBusy,
    DueGame,
    NewGame,
    Storage,
    StorageError,
    Transaction,
)
from bot.service.storage.rows import GAME_FIELDS_G, game_of, json_or
from bot.service.storage.sqlite_schema import MIGRATIONS, SCHEMA_VERSION

#: A game's row with its seats as one JSON array: a game is read in one statement.
_SEATS_JSON = (
    "(SELECT json_group_array(json_array(s.seat, s.user_id, s.name, s.is_bot, s.left_user_id, "
    "p.away_start, p.away_until, COALESCE(p.ping, 'channel'), s.level)) FROM "
    "(SELECT * FROM seats WHERE game_id = g.id ORDER BY seat) s "
    "LEFT JOIN user_prefs p ON p.user_id = s.user_id) AS seats_json"
)
_GAME_FIELDS_SQL = f"{GAME_FIELDS_G}, {_SEATS_JSON}"
_GAME_SELECT = f"SELECT {_GAME_FIELDS_SQL} FROM games g"
#: Active games waiting for a computer's move since before a moment (param: before_ms).
_COMPUTER_TURN = (
    "g.status = 'active' AND g.updated_at <= ? AND EXISTS (SELECT 1 FROM seats c "
    "WHERE c.game_id = g.id AND c.seat = g.current_seat AND c.is_bot)"
)
#: Games whose latest version the channel has not seen (params: before_ms, now_ms).
_UNANNOUNCED = (
    "g.status IN ('active', 'finished') AND g.version > g.announced AND g.updated_at <= ? "
    "AND (g.post_retry_at IS NULL OR g.post_retry_at <= ?)"
)


def _on_shards(shards: Shards | None, alias: str = "g") -> str:
    """`` AND`` the guild of ``alias`` is on one of ``shards`` (Discord's formula); nothing
    when every shard is this process's. The numbers are ints, so written in place."""
    if shards is None:
        return ""
    ids = ", ".join(str(int(i)) for i in shards.ids)
    return f" AND (({alias}.guild_id >> 22) % {int(shards.count)}) IN ({ids})"


class SqliteStorage(Storage, Transaction):
    """The database file; it is its own transaction object (one connection, one lock)."""

    def __init__(self, connection: aiosqlite.Connection, path: Path) -> None:
        self.connection = connection
        self.path = path
        self._lock = asyncio.Lock()
        self._closed = False
        self._committed: list[Callable[[], None]] = []
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

    async def close(self) -> None:
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
    async def read(self) -> AsyncIterator[Transaction]:
        # One read transaction, so every query of the block sees the same moment, as on
        # PostgreSQL (repeatable read): without it, another process's move committed between
        # reading a game and reading its log looked like a damaged record (and the reader
        # stopped the game). In WAL mode a reader never blocks the writer, nor it the reader.
        async with self._lock:
            await self.connection.execute("BEGIN")
            try:
                yield self
            except BaseException:
                with suppress(sqlite3.Error):  # the block's own error is the one to report
                    await self.connection.execute("ROLLBACK")
                raise
            await self.connection.execute("COMMIT")

    def on_commit(self, callback: Callable[[], None]) -> None:
        self._committed.append(callback)

    @asynccontextmanager
    async def write(self) -> AsyncIterator[Transaction]:
        async with self._lock:
            self._committed = []
            await self.connection.execute("BEGIN IMMEDIATE")
            try:
                yield self
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
            callbacks, self._committed = self._committed, []
            for callback in callbacks:
                callback()

    # ---------------------------------------------------------------- raw helpers
    # execute_fetchall is one trip to the connection's thread (execute, fetch and close a
    # cursor would be three): it shortens how long a busy bot holds the lock. Tests use
    # these to look at (or damage) the file directly.

    async def scalar(self, sql: str, params: Sequence[Any] = ()) -> Any:
        rows = await self.connection.execute_fetchall(sql, params)
        first = next(iter(rows), None)
        return first[0] if first is not None else None

    async def rows(self, sql: str, params: Sequence[Any] | dict[str, Any] = ()) -> list[Any]:
        return list(await self.connection.execute_fetchall(sql, params))

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        """Run one statement; returns the last row id (for inserts)."""
        async with self.connection.execute(sql, params) as cursor:
            return cursor.lastrowid or 0

    async def executemany(self, sql: str, params: Iterable[Sequence[Any]]) -> None:
        await self.connection.executemany(sql, params)

    # ---------------------------------------------------------------- games

    async def game(self, game_id: int) -> GameRecord | None:
        rows = await self.rows(f"{_GAME_SELECT} WHERE g.id = ?", (game_id,))
        return game_of(rows[0]) if rows else None

    async def open_game(self, channel_id: int) -> GameRecord | None:
        rows = await self.rows(
            f"{_GAME_SELECT} WHERE (g.channel_id = ? OR g.thread_id = ?) "
            "AND g.status IN ('lobby', 'active', 'error')",
            (channel_id, channel_id),
        )
        return game_of(rows[0]) if rows else None

    async def last_game(self, channel_id: int) -> GameRecord | None:
        rows = await self.rows(
            f"{_GAME_SELECT} WHERE g.channel_id = ? OR g.thread_id = ? ORDER BY g.id DESC LIMIT 1",
            (channel_id, channel_id),
        )
        return game_of(rows[0]) if rows else None

    async def games(self, guild_id: int, statuses: Sequence[str]) -> list[GameRecord]:
        marks = ", ".join("?" for _ in statuses)
        rows = await self.rows(
            f"{_GAME_SELECT} WHERE g.guild_id = ? AND g.status IN ({marks}) ORDER BY g.id",
            (guild_id, *statuses),
        )
        return [game_of(r) for r in rows]

    async def lobbies(
        self, shards: Shards | None = None, *, claim: bool = False
    ) -> list[GameRecord]:
        # ``claim`` needs nothing more here: BEGIN IMMEDIATE already keeps every other writer
        # out until this transaction ends.
        rows = await self.rows(
            f"{_GAME_SELECT} WHERE g.status = 'lobby'{_on_shards(shards)} ORDER BY g.id"
        )
        return [game_of(r) for r in rows]

    async def lobby_counts(self, guild_id: int, user_id: int) -> tuple[int, int, int | None]:
        rows = await self.rows(
            "SELECT (SELECT COUNT(*) FROM games WHERE creator_id = :user AND status = 'lobby'), "
            "(SELECT COUNT(*) FROM games WHERE guild_id = :guild AND status = 'lobby'), "
            "(SELECT MAX(created_at) FROM games WHERE creator_id = :user AND status = 'lobby')",
            {"user": user_id, "guild": guild_id},
        )
        return rows[0][0], rows[0][1], rows[0][2]

    async def insert_game(self, game: NewGame) -> int:
        try:
            return await self.execute(
                "INSERT INTO games (guild_id, channel_id, kind, seed, options, shuffle_seats, "
                "creator_id, status, created_at, updated_at) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, 'lobby', ?, ?)",
                (
                    game.guild_id,
                    game.channel_id,
                    game.game_name,
                    game.seed,
                    game.options,
                    int(game.shuffle_seats),
                    game.creator_id,
                    game.now_ms,
                    game.now_ms,
                ),
            )
        except aiosqlite.IntegrityError:
            # The partial unique index: another open game in this channel (maybe another
            # process's, created between our check and our insert).
            raise ChannelBusy(game.channel_id) from None

    async def update_game(self, game_id: int, **fields: Any) -> None:
        unknown = set(fields) - GAME_FIELDS
        if unknown:
            raise ValueError(f"not columns of games: {sorted(unknown)}")
        sets = ", ".join(f"{name} = ?" for name in fields)
        await self.execute(f"UPDATE games SET {sets} WHERE id = ?", (*fields.values(), game_id))

    async def advance(self, game_id: int, old_version: int, row: Advance) -> bool:
        # ``announced`` never goes down: MAX with what is stored.
        # The WHERE on the version is the optimistic check itself: inside BEGIN IMMEDIATE it
        # cannot fail, but if it ever did, nothing of the transaction may be committed.
        cursor = await self.connection.execute(
            "UPDATE games SET version = ?, current_seat = ?, waiting_since = ?, updated_at = ?, "
            "status = ?, finished_at = ?, result = ?, announced = MAX(announced, COALESCE(?, -1)), "
            # A claim on an older version's post is void: this version is news of its own.
            "lease_until = 0, "
            "board_message_id = COALESCE(?, board_message_id), "
            "lobby_message_id = COALESCE(?, lobby_message_id), "
            "post_error = CASE WHEN ? THEN NULL ELSE post_error END, "
            "post_failures = CASE WHEN ? THEN 0 ELSE post_failures END, "
            "post_retry_at = CASE WHEN ? THEN NULL ELSE post_retry_at END, "
            "clock = ?, next_due_at = ?, last_move_at = ? "
            "WHERE id = ? AND version = ?",
            (
                row.version,
                row.current_seat,
                row.waiting_since_ms,
                row.now_ms,
                row.status,
                row.finished_at_ms,
                row.result,
                row.announced,
                row.board_message_id,
                row.lobby_message_id,
                row.posted,
                row.posted,
                row.posted,
                row.clock,
                row.next_due_ms,
                row.now_ms,
                game_id,
                old_version,
            ),
        )
        return cursor.rowcount == 1

    async def set_seats(self, game_id: int, seats: Sequence[Seat]) -> None:
        await self.execute("DELETE FROM seats WHERE game_id = ?", (game_id,))
        await self.executemany(
            "INSERT INTO seats (game_id, seat, user_id, name, is_bot, level) "
            "VALUES (?, ?, ?, ?, ?, ?)",
            [(game_id, i, s.user_id, s.name, int(s.is_bot), s.level) for i, s in enumerate(seats)],
        )

    async def update_seat(self, game_id: int, seat: Seat) -> None:
        await self.execute(
            "UPDATE seats SET user_id = ?, name = ?, is_bot = ?, left_user_id = ?, level = ? "
            "WHERE game_id = ? AND seat = ?",
            (
                seat.user_id,
                seat.name,
                int(seat.is_bot),
                seat.left_user_id,
                seat.level,
                game_id,
                seat.index,
            ),
        )

    # ---------------------------------------------------------------- the log

    async def append_actions(self, records: Sequence[ActionRecord]) -> None:
        await self.executemany(
            "INSERT INTO actions (game_id, seq, seat, user_id, source, action, created_at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)",
            [
                (
                    r.game_id,
                    r.seq,
                    r.seat,
                    r.user_id,
                    r.source,
                    json.dumps(r.action),
                    int(r.created_at.timestamp() * 1000),
                )
                for r in records
            ],
        )

    async def actions(self, game_id: int, after: int = 0) -> list[ActionRecord]:
        rows = await self.rows(
            "SELECT seq, seat, user_id, source, action, created_at FROM actions "
            "WHERE game_id = ? AND seq > ? ORDER BY seq",
            (game_id, after),
        )
        return [
            ActionRecord(
                game_id=game_id,
                seq=r[0],
                seat=r[1],
                user_id=r[2],
                source=r[3],
                action=json_or(r[4], None),
                created_at=from_ms(r[5]),
            )
            for r in rows
        ]

    async def save_snapshot(self, game_id: int, version: int, state: str, digest: str) -> None:
        await self.execute(
            "INSERT OR REPLACE INTO snapshots (game_id, version, state, digest) "
            "VALUES (?, ?, ?, ?)",
            (game_id, version, state, digest),
        )

    async def latest_snapshot(self, game_id: int, version: int) -> tuple[int, str, str] | None:
        rows = await self.rows(
            "SELECT version, state, digest FROM snapshots WHERE game_id = ? AND version <= ? "
            "ORDER BY version DESC LIMIT 1",
            (game_id, version),
        )
        return (rows[0][0], rows[0][1], rows[0][2]) if rows else None

    async def forget_caches(self, game_id: int) -> None:
        await self.execute("DELETE FROM snapshots WHERE game_id = ?", (game_id,))
        await self.execute("DELETE FROM notices WHERE game_id = ?", (game_id,))

    # ---------------------------------------------------------------- moderation, settings

    async def log_moderation(self, record: ModerationRecord) -> None:
        await self.execute(
            "INSERT INTO moderation_log (guild_id, game_id, moderator_id, act, target_user_id, "
            "detail, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
            (
                record.guild_id,
                record.game_id,
                record.moderator_id,
                record.act,
                record.target_user_id,
                json.dumps(record.detail),
                int(record.created_at.timestamp() * 1000),
            ),
        )

    async def moderation_log(self, guild_id: int, limit: int) -> list[ModerationRecord]:
        rows = await self.rows(
            "SELECT id, guild_id, game_id, moderator_id, act, target_user_id, detail, created_at "
            "FROM moderation_log WHERE guild_id = ? ORDER BY id DESC LIMIT ?",
            (guild_id, limit),
        )
        return [
            ModerationRecord(
                id=r[0],
                guild_id=r[1],
                game_id=r[2],
                moderator_id=r[3],
                act=r[4],
                target_user_id=r[5],
                detail=json_or(r[6], {}),
                created_at=from_ms(r[7]),
            )
            for r in rows
        ]

    async def guild_settings(self, guild_id: int) -> GuildSettings | None:
        rows = await self.rows(
            "SELECT timeout_action, moderator_role_id, extra FROM guild_settings "
            "WHERE guild_id = ?",
            (guild_id,),
        )
        if not rows:
            return None
        action, role, extra = rows[0]
        # The time-out action had a column of its own before schema 6: the JSON wins.
        base = GuildSettings(guild_id, timeout_action=action, moderator_role_id=role)
        return base.with_extra(json_or(extra, {}))

    async def save_guild_settings(self, settings: GuildSettings) -> None:
        # The columns of schema 1 stay filled for an older bot reading the file.
        legacy_action = settings.timeout_action if settings.timeout_action != "computer" else "skip"
        await self.execute(
            "INSERT OR REPLACE INTO guild_settings (guild_id, reminder_delay_ms, "
            "turn_timeout_ms, timeout_action, moderator_role_id, extra) VALUES (?, ?, ?, ?, ?, ?)",
            (
                settings.guild_id,
                12 * 3_600_000,
                72 * 3_600_000,
                legacy_action,
                settings.moderator_role_id,
                json.dumps(settings.extra()),
            ),
        )

    async def ping(self, user_id: int) -> str:
        found = await self.scalar("SELECT ping FROM user_prefs WHERE user_id = ?", (user_id,))
        return found or "channel"

    # ---------------------------------------------------------------- reminders, time-outs

    async def due_games(
        self, now_ms: int, lease_ms: int, shards: Shards | None = None
    ) -> list[DueGame]:
        rows = await self.rows(
            f"SELECT {_GAME_FIELDS_SQL}, "
            "(SELECT json_group_array(n.kind) FROM notices n WHERE n.game_id = g.id "
            " AND n.version = g.version AND n.user_id = s.user_id "
            " AND (n.sent_at IS NOT NULL OR n.claimed_at > ?)) "
            "AS sent_json "
            "FROM games g JOIN seats s ON s.game_id = g.id AND s.seat = g.current_seat "
            "WHERE g.status = 'active' AND s.user_id IS NOT NULL AND g.next_due_at <= ?"
            f"{_on_shards(shards)} ORDER BY g.next_due_at",
            (lease_ms, now_ms),
        )
        return [DueGame(game_of(r), tuple(json_or(r["sent_json"], []))) for r in rows]

    async def games_of_user(self, user_id: int, statuses: Sequence[str]) -> list[GameRecord]:
        marks = ", ".join("?" for _ in statuses)
        rows = await self.rows(
            f"{_GAME_SELECT} WHERE g.status IN ({marks}) AND g.id IN "
            "(SELECT game_id FROM seats WHERE user_id = ?) ORDER BY g.id",
            (*statuses, user_id),
        )
        return [game_of(r) for r in rows]

    async def quiet_games(self, before_ms: int, shards: Shards | None = None) -> list[GameRecord]:
        rows = await self.rows(
            f"{_GAME_SELECT} WHERE g.status = 'active' AND g.last_move_at <= ?"
            f"{_on_shards(shards)} ORDER BY g.last_move_at",
            (before_ms,),
        )
        return [game_of(r) for r in rows]

    async def set_away(self, user_id: int, start_ms: int | None, until_ms: int | None) -> None:
        await self.execute(
            "INSERT INTO user_prefs (user_id, away_start, away_until) VALUES (?, ?, ?) "
            "ON CONFLICT (user_id) DO UPDATE SET away_start = excluded.away_start, "
            "away_until = excluded.away_until",
            (user_id, start_ms, until_ms),
        )

    async def set_ping(self, user_id: int, ping: str) -> None:
        await self.execute(
            "INSERT INTO user_prefs (user_id, ping) VALUES (?, ?) "
            "ON CONFLICT (user_id) DO UPDATE SET ping = excluded.ping",
            (user_id, ping),
        )

    async def ratings(self, guild_id: int, game_name: str) -> list[Rating]:
        rows = await self.rows(
            "SELECT user_id, name, rating, games, wins FROM ratings "
            "WHERE guild_id = ? AND kind = ? ORDER BY rating DESC, games DESC, name",
            (guild_id, game_name),
        )
        return [Rating(r[0], r[1], r[2], r[3], r[4]) for r in rows]

    async def save_ratings(self, guild_id: int, game_name: str, ratings: Sequence[Rating]) -> None:
        await self.executemany(
            "INSERT OR REPLACE INTO ratings (guild_id, kind, user_id, name, rating, games, wins) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)",
            [(guild_id, game_name, r.user_id, r.name, r.rating, r.games, r.wins) for r in ratings],
        )

    async def claim_notice(
        self, game_id: int, version: int, user_id: int, kind: str, now_ms: int, stale_ms: int
    ) -> bool:
        rows = await self.rows(
            "INSERT INTO notices (game_id, version, user_id, kind, claimed_at) "
            "VALUES (?, ?, ?, ?, ?) ON CONFLICT DO UPDATE SET claimed_at = excluded.claimed_at "
            "WHERE sent_at IS NULL AND claimed_at <= ? RETURNING 1",
            (game_id, version, user_id, kind, now_ms, stale_ms),
        )
        return bool(rows)

    async def notice_sent(self, game_id: int, version: int, user_id: int, kind: str) -> bool:
        return bool(
            await self.scalar(
                "SELECT 1 FROM notices WHERE game_id = ? AND version = ? AND user_id = ? "
                "AND kind = ? AND sent_at IS NOT NULL",
                (game_id, version, user_id, kind),
            )
        )

    async def mark_notice_sent(
        self, game_id: int, version: int, user_id: int, kind: str, now_ms: int
    ) -> None:
        await self.execute(
            "INSERT INTO notices (game_id, version, user_id, kind, claimed_at, sent_at) "
            "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO UPDATE SET sent_at = excluded.sent_at",
            (game_id, version, user_id, kind, now_ms, now_ms),
        )

    # ---------------------------------------------------------------- announcements

    async def mark_announced(self, game_id: int, version: int) -> None:
        await self.execute(
            # Seen up to its version: the claim on its post (if any) is done with.
            "UPDATE games SET announced = MAX(announced, ?), "
            "lease_until = CASE WHEN ? >= version THEN 0 ELSE lease_until END WHERE id = ?",
            (version, version, game_id),
        )

    async def unannounced(
        self, before_ms: int, now_ms: int, shards: Shards | None = None
    ) -> list[int]:
        rows = await self.rows(
            f"SELECT g.id FROM games g WHERE {_UNANNOUNCED}{_on_shards(shards)} "
            "ORDER BY g.updated_at",
            (before_ms, now_ms),
        )
        return [r[0] for r in rows]

    async def claim_unannounced(
        self,
        before_ms: int,
        now_ms: int,
        until_ms: int,
        holder: str,
        shards: Shards | None = None,
        limit: int = 100,
    ) -> list[int]:
        where, params = _UNANNOUNCED, (before_ms, now_ms)
        return await self._lease(where, params, now_ms, until_ms, holder, shards, limit)

    async def claim_computer_turns(
        self,
        before_ms: int,
        now_ms: int,
        until_ms: int,
        holder: str,
        shards: Shards | None = None,
        limit: int = 100,
    ) -> list[int]:
        where, params = _COMPUTER_TURN, (before_ms,)
        return await self._lease(where, params, now_ms, until_ms, holder, shards, limit)

    async def _lease(
        self,
        where: str,
        params: tuple[Any, ...],
        now_ms: int,
        until_ms: int,
        holder: str,
        shards: Shards | None,
        limit: int,
    ) -> list[int]:
        """Lease the games matching ``where`` (with ``params``) whose lease ran out."""
        # Inside BEGIN IMMEDIATE no other writer runs: the lease check and the lease taken
        # are one step for every process on the file.
        rows = await self.rows(
            "UPDATE games SET lease_holder = ?, lease_until = ? WHERE id IN ("
            f"SELECT g.id FROM games g WHERE {where} AND g.lease_until <= ?"
            f"{_on_shards(shards)} ORDER BY g.updated_at LIMIT ?) RETURNING id",
            (holder, until_ms, *params, now_ms, limit),
        )
        return [r[0] for r in rows]

    # ---------------------------------------------------------------- statistics

    async def finished_games(self, guild_id: int) -> list[GameRecord]:
        return await self.games(guild_id, ("finished",))
