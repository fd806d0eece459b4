"""The server backend: PostgreSQL through asyncpg, for several bot processes on one database.

A :class:`PostgresStorage` holds a small pool of connections; each transaction takes one, so
the coroutines of a process run their transactions side by side (SQLite's one connection
runs them one after another). What the service relies on (see :mod:`.base`) is kept so:

- **Writes** run in READ COMMITTED and lock every game they read (``SELECT ... FOR UPDATE``)
  *before* reading it, in a statement of its own: a statement that waited for the lock then
  reads the game (seats included) as committed by the transaction it waited for. So the
  version that ``advance`` checks cannot change before commit, and two joins cannot both
  rewrite the seats from the same old list.
- **Reads** are one REPEATABLE READ, READ ONLY transaction: a game's row and its log come
  from one snapshot, even while another process appends to that log.
- **Notices** (reminders, time-outs, stall warnings) are written with their game's row
  locked first, in the same order as every other write of the game (the game, then the
  rest): a claim of a notice in one process and its marking as sent in another, each
  holding one of the two rows and waiting for the other, deadlocked.
- **Claims** of background work take rows with ``FOR UPDATE SKIP LOCKED``: a process
  claiming never waits for another's claim, and never gets the same rows.
- The partial unique index on open games per channel raises :class:`ChannelBusy`.
"""

from __future__ import annotations

import json
import re
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from typing import Any

import asyncpg

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
from bot.service.storage.postgres_schema import MIGRATIONS, SCHEMA_VERSION
from bot.service.storage.rows import GAME_FIELDS_G, game_of, json_or

_SEATS_JSON = (
    "(SELECT COALESCE(json_agg(json_build_array(s.seat, s.user_id, s.name, s.is_bot, "
    "s.left_user_id, p.away_start, p.away_until, COALESCE(p.ping, 'channel'), s.level) "
    "ORDER BY s.seat), '[]') FROM seats s LEFT JOIN user_prefs p ON p.user_id = s.user_id "
    "WHERE s.game_id = g.id) AS seats_json"
)
_GAME_FIELDS_SQL = f"{GAME_FIELDS_G}, {_SEATS_JSON}"
_GAME_SELECT = f"SELECT {_GAME_FIELDS_SQL} FROM games g"
_OPEN = "('lobby', 'active', 'error')"
#: Games whose latest version the channel has not seen (params $1: before_ms, $2: now_ms).
_UNANNOUNCED = (
    "g.status IN ('active', 'finished') AND g.version > g.announced AND g.updated_at <= $1 "
    "AND (g.post_retry_at IS NULL OR g.post_retry_at <= $2)"
)
#: Active games waiting for a computer's move since before a moment ($1).
_COMPUTER_TURN = (
    "g.status = 'active' AND g.updated_at <= $1 AND EXISTS (SELECT 1 FROM seats c "
    "WHERE c.game_id = g.id AND c.seat = g.current_seat AND c.is_bot)"
)
#: Connections per process: a click holds one for a few milliseconds.
POOL_MIN, POOL_MAX = 1, 10


def _on_shards(shards: Shards | None, alias: str = "g") -> str:
    """`` AND`` the guild of ``alias`` is on one of ``shards``; nothing when all are ours."""
    if shards is None:
        return ""
    ids = ", ".join(str(int(i)) for i in shards.ids)
    return f" AND (({alias}.guild_id >> 22) % {int(shards.count)}) IN ({ids})"


def redacted(url: str) -> str:
    """The URL without its password, for messages and logs."""
    return re.sub(r"(://[^:/@]+):[^@/]*@", r"\1:***@", url)


class PostgresStorage(Storage):
    """A PostgreSQL database (the schema on the URL's ``search_path``, or ``public``)."""

    def __init__(self, pool: asyncpg.Pool, url: str) -> None:
        self.pool = pool
        self.url = url
        self._closed = False
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

    async def close(self) -> None:
        if not self._closed:
            self._closed = True
            await self.pool.close()

    @asynccontextmanager
    async def read(self) -> AsyncIterator[Transaction]:
        async with (
            self.pool.acquire() as connection,
            connection.transaction(isolation="repeatable_read", readonly=True),
        ):
            yield PostgresTransaction(connection, writing=False)

    @asynccontextmanager
    async def write(self) -> AsyncIterator[Transaction]:
        async with self.pool.acquire() as connection:
            transaction = connection.transaction()
            await transaction.start()
            tx = PostgresTransaction(connection, writing=True)
            try:
                yield tx
                if self.before_commit is not None:
                    self.before_commit()
                await transaction.commit()
            except BaseException:
                if not connection.is_closed():
                    await transaction.rollback()
                raise
        for callback in tx.committed:
            callback()


class PostgresTransaction(Transaction):
    """The queries of one transaction on one pooled connection."""

    def __init__(self, connection: asyncpg.Connection, *, writing: bool) -> None:
        self.connection = connection
        self.writing = writing
        self.committed: list[Callable[[], None]] = []
        #: Games this (write) transaction has locked already.
        self._locked: set[int] = set()

    def on_commit(self, callback: Callable[[], None]) -> None:
        self.committed.append(callback)

    async def _lock(self, game_id: int) -> None:
        """Lock the game's row for this write transaction, unless it is already locked."""
        if self.writing and game_id not in self._locked:
            await self.connection.execute("SELECT 1 FROM games WHERE id = $1 FOR UPDATE", game_id)
            self._locked.add(game_id)

    # ---------------------------------------------------------------- games

    async def game(self, game_id: int) -> GameRecord | None:
        await self._lock(game_id)
        row = await self.connection.fetchrow(f"{_GAME_SELECT} WHERE g.id = $1", game_id)
        return game_of(row) if row is not None else None

    async def open_game(self, channel_id: int) -> GameRecord | None:
        if self.writing:
            # Lock first: the game read next is the one committed once the lock is ours.
            game_id = await self.connection.fetchval(
                f"SELECT id FROM games WHERE channel_id = $1 AND status IN {_OPEN} FOR UPDATE",
                channel_id,
            )
            if game_id is None:
                return None
            self._locked.add(game_id)
        row = await self.connection.fetchrow(
            f"{_GAME_SELECT} WHERE g.channel_id = $1 AND g.status IN {_OPEN}", channel_id
        )
        return game_of(row) if row is not None else None

    async def last_game(self, channel_id: int) -> GameRecord | None:
        row = await self.connection.fetchrow(
            f"{_GAME_SELECT} WHERE g.channel_id = $1 ORDER BY g.id DESC LIMIT 1", channel_id
        )
        return game_of(row) if row is not None else None

    async def games(self, guild_id: int, statuses: Sequence[str]) -> list[GameRecord]:
        rows = await self.connection.fetch(
            f"{_GAME_SELECT} WHERE g.guild_id = $1 AND g.status = ANY($2::text[]) ORDER BY g.id",
            guild_id,
            list(statuses),
        )
        return [game_of(r) for r in rows]

    async def lobbies(
        self, shards: Shards | None = None, *, claim: bool = False
    ) -> list[GameRecord]:
        if not (claim and self.writing):
            rows = await self.connection.fetch(
                f"{_GAME_SELECT} WHERE g.status = 'lobby'{_on_shards(shards)} ORDER BY g.id"
            )
            return [game_of(r) for r in rows]
        ids = [
            r[0]
            for r in await self.connection.fetch(
                f"SELECT g.id FROM games g WHERE g.status = 'lobby'{_on_shards(shards)} "
                "ORDER BY g.id FOR UPDATE SKIP LOCKED"
            )
        ]
        self._locked.update(ids)
        rows = await self.connection.fetch(
            f"{_GAME_SELECT} WHERE g.id = ANY($1::bigint[]) AND g.status = 'lobby' ORDER BY g.id",
            ids,
        )
        return [game_of(r) for r in rows]

    async def lobby_counts(self, guild_id: int, user_id: int) -> tuple[int, int, int | None]:
        row = await self.connection.fetchrow(
            "SELECT (SELECT COUNT(*) FROM games WHERE creator_id = $1 AND status = 'lobby'), "
            "(SELECT COUNT(*) FROM games WHERE guild_id = $2 AND status = 'lobby'), "
            "(SELECT MAX(created_at) FROM games WHERE creator_id = $1 AND status = 'lobby')",
            user_id,
            guild_id,
        )
        assert row is not None
        return row[0], row[1], row[2]

    async def insert_game(self, game: NewGame) -> int:
        try:
            game_id = await self.connection.fetchval(
                "INSERT INTO games (guild_id, channel_id, kind, seed, options, shuffle_seats, "
                "creator_id, status, created_at, updated_at) "
                "VALUES ($1, $2, $3, $4, $5, $6, $7, 'lobby', $8, $8) RETURNING id",
                game.guild_id,
                game.channel_id,
                game.game_name,
                game.seed,
                game.options,
                game.shuffle_seats,
                game.creator_id,
                game.now_ms,
            )
        except asyncpg.UniqueViolationError as exc:
            if exc.constraint_name == "games_open_per_channel":
                # Another open game in this channel, maybe another process's, created
                # between our check and our insert (the insert waited for it to commit).
                raise ChannelBusy(game.channel_id) from None
            raise
        self._locked.add(game_id)
        return int(game_id)

    async def update_game(self, game_id: int, **fields: Any) -> None:
        unknown = set(fields) - GAME_FIELDS
        if unknown:
            raise ValueError(f"not columns of games: {sorted(unknown)}")
        sets = ", ".join(f"{name} = ${i}" for i, name in enumerate(fields, start=2))
        await self.connection.execute(
            f"UPDATE games SET {sets} WHERE id = $1", game_id, *fields.values()
        )

    async def advance(self, game_id: int, old_version: int, row: Advance) -> bool:
        # The WHERE on the version is the optimistic check; the row lock taken when the
        # game was read makes it hold, but if it ever failed nothing may be committed.
        status = await self.connection.execute(
            "UPDATE games SET version = $3, current_seat = $4, waiting_since = $5, "
            "updated_at = $6, status = $7, finished_at = $8, result = $9, "
            "announced = GREATEST(announced, COALESCE($10::integer, -1)), "
            # A claim on an older version's post is void: this version is news of its own.
            "lease_until = 0, "
            "board_message_id = COALESCE($11::bigint, board_message_id), "
            "lobby_message_id = COALESCE($13::bigint, lobby_message_id), "
            "post_error = CASE WHEN $12::boolean THEN NULL ELSE post_error END, "
            "post_failures = CASE WHEN $12::boolean THEN 0 ELSE post_failures END, "
            "post_retry_at = CASE WHEN $12::boolean THEN NULL ELSE post_retry_at END, "
            "clock = $14, next_due_at = $15, last_move_at = $6 "
            "WHERE id = $1 AND version = $2",
            game_id,
            old_version,
            row.version,
            row.current_seat,
            row.waiting_since_ms,
            row.now_ms,
            row.status,
            row.finished_at_ms,
            row.result,
            row.announced,
            row.board_message_id,
            row.posted,
            row.lobby_message_id,
            row.clock,
            row.next_due_ms,
        )
        return status == "UPDATE 1"

    async def set_seats(self, game_id: int, seats: Sequence[Seat]) -> None:
        await self.connection.execute("DELETE FROM seats WHERE game_id = $1", game_id)
        await self.connection.executemany(
            "INSERT INTO seats (game_id, seat, user_id, name, is_bot, level) "
            "VALUES ($1, $2, $3, $4, $5, $6)",
            [(game_id, i, s.user_id, s.name, s.is_bot, s.level) for i, s in enumerate(seats)],
        )

    async def update_seat(self, game_id: int, seat: Seat) -> None:
        await self.connection.execute(
            "UPDATE seats SET user_id = $3, name = $4, is_bot = $5, left_user_id = $6, "
            "level = $7 WHERE game_id = $1 AND seat = $2",
            game_id,
            seat.index,
            seat.user_id,
            seat.name,
            seat.is_bot,
            seat.left_user_id,
            seat.level,
        )

    # ---------------------------------------------------------------- the log

    async def append_actions(self, records: Sequence[ActionRecord]) -> None:
        await self.connection.executemany(
            "INSERT INTO actions (game_id, seq, seat, user_id, source, action, created_at) "
            "VALUES ($1, $2, $3, $4, $5, $6, $7)",
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
        rows = await self.connection.fetch(
            "SELECT seq, seat, user_id, source, action, created_at FROM actions "
            "WHERE game_id = $1 AND seq > $2 ORDER BY seq",
            game_id,
            after,
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
        await self.connection.execute(
            "INSERT INTO snapshots (game_id, version, state, digest) VALUES ($1, $2, $3, $4) "
            "ON CONFLICT (game_id, version) DO UPDATE "
            "SET state = EXCLUDED.state, digest = EXCLUDED.digest",
            game_id,
            version,
            state,
            digest,
        )

    async def latest_snapshot(self, game_id: int, version: int) -> tuple[int, str, str] | None:
        row = await self.connection.fetchrow(
            "SELECT version, state, digest FROM snapshots WHERE game_id = $1 AND version <= $2 "
            "ORDER BY version DESC LIMIT 1",
            game_id,
            version,
        )
        return (row[0], row[1], row[2]) if row is not None else None

    async def forget_caches(self, game_id: int) -> None:
        await self.connection.execute("DELETE FROM snapshots WHERE game_id = $1", game_id)
        await self.connection.execute("DELETE FROM notices WHERE game_id = $1", game_id)

    # ---------------------------------------------------------------- moderation, settings

    async def log_moderation(self, record: ModerationRecord) -> None:
        await self.connection.execute(
            "INSERT INTO moderation_log (guild_id, game_id, moderator_id, act, target_user_id, "
            "detail, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7)",
            record.guild_id,
            record.game_id,
            record.moderator_id,
            record.act,
            record.target_user_id,
            json.dumps(record.detail),
            int(record.created_at.timestamp() * 1000),
        )

    async def moderation_log(self, guild_id: int, limit: int) -> list[ModerationRecord]:
        rows = await self.connection.fetch(
            "SELECT id, guild_id, game_id, moderator_id, act, target_user_id, detail, created_at "
            "FROM moderation_log WHERE guild_id = $1 ORDER BY id DESC LIMIT $2",
            guild_id,
            limit,
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
        r = await self.connection.fetchrow(
            "SELECT timeout_action, moderator_role_id, extra FROM guild_settings "
            "WHERE guild_id = $1",
            guild_id,
        )
        if r is None:
            return None
        # The time-out action had a column of its own before schema 6: the JSON wins.
        base = GuildSettings(guild_id, timeout_action=r[0], moderator_role_id=r[1])
        return base.with_extra(json_or(r[2], {}))

    async def save_guild_settings(self, settings: GuildSettings) -> None:
        # The columns of schema 4 stay filled for an older bot reading the database.
        legacy_action = settings.timeout_action if settings.timeout_action != "computer" else "skip"
        await self.connection.execute(
            "INSERT INTO guild_settings (guild_id, reminder_delay_ms, turn_timeout_ms, "
            "timeout_action, moderator_role_id, extra) VALUES ($1, $2, $3, $4, $5, $6) "
            "ON CONFLICT (guild_id) DO UPDATE SET "
            "timeout_action = EXCLUDED.timeout_action, "
            "moderator_role_id = EXCLUDED.moderator_role_id, extra = EXCLUDED.extra",
            settings.guild_id,
            12 * 3_600_000,
            72 * 3_600_000,
            legacy_action,
            settings.moderator_role_id,
            json.dumps(settings.extra()),
        )

    async def ping(self, user_id: int) -> str:
        found = await self.connection.fetchval(
            "SELECT ping FROM user_prefs WHERE user_id = $1", user_id
        )
        return found or "channel"

    # ---------------------------------------------------------------- reminders, time-outs

    async def due_games(
        self, now_ms: int, lease_ms: int, shards: Shards | None = None
    ) -> list[DueGame]:
        rows = await self.connection.fetch(
            f"SELECT {_GAME_FIELDS_SQL}, "
            "(SELECT COALESCE(json_agg(n.kind), '[]') FROM notices n WHERE n.game_id = g.id "
            " AND n.version = g.version AND n.user_id = s.user_id "
            " AND (n.sent_at IS NOT NULL OR n.claimed_at > $1)) AS sent_json "
            "FROM games g JOIN seats s ON s.game_id = g.id AND s.seat = g.current_seat "
            "WHERE g.status = 'active' AND s.user_id IS NOT NULL AND g.next_due_at <= $2"
            f"{_on_shards(shards)} ORDER BY g.next_due_at",
            lease_ms,
            now_ms,
        )
        return [DueGame(game_of(r), tuple(json_or(r["sent_json"], []))) for r in rows]

    async def games_of_user(self, user_id: int, statuses: Sequence[str]) -> list[GameRecord]:
        rows = await self.connection.fetch(
            f"{_GAME_SELECT} WHERE g.status = ANY($1::text[]) AND g.id IN "
            "(SELECT game_id FROM seats WHERE user_id = $2) ORDER BY g.id",
            list(statuses),
            user_id,
        )
        return [game_of(r) for r in rows]

    async def quiet_games(self, before_ms: int, shards: Shards | None = None) -> list[GameRecord]:
        rows = await self.connection.fetch(
            f"{_GAME_SELECT} WHERE g.status = 'active' AND g.last_move_at <= $1"
            f"{_on_shards(shards)} ORDER BY g.last_move_at",
            before_ms,
        )
        return [game_of(r) for r in rows]

    async def set_away(self, user_id: int, start_ms: int | None, until_ms: int | None) -> None:
        await self.connection.execute(
            "INSERT INTO user_prefs (user_id, away_start, away_until) VALUES ($1, $2, $3) "
            "ON CONFLICT (user_id) DO UPDATE SET away_start = EXCLUDED.away_start, "
            "away_until = EXCLUDED.away_until",
            user_id,
            start_ms,
            until_ms,
        )

    async def set_ping(self, user_id: int, ping: str) -> None:
        await self.connection.execute(
            "INSERT INTO user_prefs (user_id, ping) VALUES ($1, $2) "
            "ON CONFLICT (user_id) DO UPDATE SET ping = EXCLUDED.ping",
            user_id,
            ping,
        )

    async def ratings(self, guild_id: int, game_name: str) -> list[Rating]:
        rows = await self.connection.fetch(
            "SELECT user_id, name, rating, games, wins FROM ratings "
            "WHERE guild_id = $1 AND kind = $2 ORDER BY rating DESC, games DESC, name",
            guild_id,
            game_name,
        )
        return [Rating(r[0], r[1], r[2], r[3], r[4]) for r in rows]

    async def save_ratings(self, guild_id: int, game_name: str, ratings: Sequence[Rating]) -> None:
        await self.connection.executemany(
            "INSERT INTO ratings (guild_id, kind, user_id, name, rating, games, wins) "
            "VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (guild_id, kind, user_id) "
            "DO UPDATE SET name = EXCLUDED.name, rating = EXCLUDED.rating, "
            "games = EXCLUDED.games, wins = EXCLUDED.wins",
            [(guild_id, game_name, r.user_id, r.name, r.rating, r.games, r.wins) for r in ratings],
        )

    async def claim_notice(
        self, game_id: int, version: int, user_id: int, kind: str, now_ms: int, stale_ms: int
    ) -> bool:
        await self._lock(game_id)  # the game first, then the notice (see the module's notes)
        # One statement: of two processes claiming at once, the second waits for the first's
        # row, then finds it claimed.
        claimed = await self.connection.fetchval(
            "INSERT INTO notices (game_id, version, user_id, kind, claimed_at) "
            "VALUES ($1, $2, $3, $4, $5) ON CONFLICT (game_id, version, user_id, kind) "
            "DO UPDATE SET claimed_at = EXCLUDED.claimed_at "
            "WHERE notices.sent_at IS NULL AND notices.claimed_at <= $6 RETURNING 1",
            game_id,
            version,
            user_id,
            kind,
            now_ms,
            stale_ms,
        )
        return claimed is not None

    async def notice_sent(self, game_id: int, version: int, user_id: int, kind: str) -> bool:
        found = await self.connection.fetchval(
            "SELECT 1 FROM notices WHERE game_id = $1 AND version = $2 AND user_id = $3 "
            "AND kind = $4 AND sent_at IS NOT NULL",
            game_id,
            version,
            user_id,
            kind,
        )
        return found is not None

    async def mark_notice_sent(
        self, game_id: int, version: int, user_id: int, kind: str, now_ms: int
    ) -> None:
        await self._lock(game_id)  # the game first, then the notice (see the module's notes)
        await self.connection.execute(
            "INSERT INTO notices (game_id, version, user_id, kind, claimed_at, sent_at) "
            "VALUES ($1, $2, $3, $4, $5, $5) ON CONFLICT (game_id, version, user_id, kind) "
            "DO UPDATE SET sent_at = EXCLUDED.sent_at",
            game_id,
            version,
            user_id,
            kind,
            now_ms,
        )

    # ---------------------------------------------------------------- announcements

    async def mark_announced(self, game_id: int, version: int) -> None:
        await self.connection.execute(
            # Seen up to its version: the claim on its post (if any) is done with.
            "UPDATE games SET announced = GREATEST(announced, $2), "
            "lease_until = CASE WHEN $2 >= version THEN 0 ELSE lease_until END WHERE id = $1",
            game_id,
            version,
        )

    async def unannounced(
        self, before_ms: int, now_ms: int, shards: Shards | None = None
    ) -> list[int]:
        rows = await self.connection.fetch(
            f"SELECT g.id FROM games g WHERE {_UNANNOUNCED}{_on_shards(shards)} "
            "ORDER BY g.updated_at",
            before_ms,
            now_ms,
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
        return await self._lease(_UNANNOUNCED, before_ms, now_ms, until_ms, holder, shards, limit)

    async def claim_computer_turns(
        self,
        before_ms: int,
        now_ms: int,
        until_ms: int,
        holder: str,
        shards: Shards | None = None,
        limit: int = 100,
    ) -> list[int]:
        return await self._lease(_COMPUTER_TURN, before_ms, now_ms, until_ms, holder, shards, limit)

    async def _lease(
        self,
        where: str,
        before_ms: int,
        now_ms: int,
        until_ms: int,
        holder: str,
        shards: Shards | None,
        limit: int,
    ) -> list[int]:
        """Lease the games matching ``where`` ($1: before_ms, $2: now_ms) whose lease ran out."""
        # SKIP LOCKED: games another process is claiming (or a click is writing) right now
        # are left to it; the lease keeps them from the next claimer until it runs out.
        rows = await self.connection.fetch(
            "UPDATE games SET lease_holder = $3, lease_until = $4 WHERE id IN ("
            f"SELECT g.id FROM games g WHERE {where} AND g.lease_until <= $2"
            f"{_on_shards(shards)} ORDER BY g.updated_at LIMIT $5 FOR UPDATE SKIP LOCKED) "
            "RETURNING id",
            before_ms,
            now_ms,
            holder,
            until_ms,
            limit,
        )
        ids = [r[0] for r in rows]
        self._locked.update(ids)
        return ids

    # ---------------------------------------------------------------- statistics

    async def finished_games(self, guild_id: int) -> list[GameRecord]:
        return await self.games(guild_id, ("finished",))
