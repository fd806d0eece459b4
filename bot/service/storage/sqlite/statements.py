"""What the SQLite parts share: the statements of one connection, and the SQL they reuse."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import aiosqlite

from bot.service.models import Shards
from bot.service.storage.rows import GAME_FIELDS_G

#: A game's row with its seats as one JSON array: a game is read in one statement.
_SEATS_JSON = (
    "(SELECT json_group_array(json_array(s.seat, s.user_id, s.name, s.is_bot, s.left_user_id, "
    "p.away_start, p.away_until, COALESCE(p.ping, 'channel'), s.level)) FROM "
    "(SELECT * FROM seats WHERE game_id = g.id ORDER BY seat) s "
    "LEFT JOIN user_prefs p ON p.user_id = s.user_id) AS seats_json"
)
GAME_FIELDS_SQL = f"{GAME_FIELDS_G}, {_SEATS_JSON}"
GAME_SELECT = f"SELECT {GAME_FIELDS_SQL} FROM games g"
#: Active games waiting for a computer's move since before a moment (params: before_ms,
#: now_ms, now_ms).
COMPUTER_TURN = (
    "g.status = 'active' AND (g.updated_at <= ? OR g.take_back_until <= ?) "
    # A computer plays after a move that may be taken back once that time is over.
    "AND (g.take_back_until IS NULL OR g.take_back_until <= ?) AND EXISTS (SELECT 1 FROM seats c "
    "WHERE c.game_id = g.id AND c.seat = g.current_seat AND c.is_bot)"
)
#: Games whose latest version the channel has not seen (params: before_ms, now_ms, now_ms,
#: now_ms).
UNANNOUNCED = (
    "(g.status IN ('active', 'finished') AND g.version > g.announced "
    # A lobby whose message never went out (the bot stopped between opening it and posting).
    "OR g.status = 'lobby' AND g.lobby_message_id IS NULL) "
    # A move that may be taken back is posted when that time is over, not before.
    "AND (g.updated_at <= ? OR g.take_back_until <= ?) "
    "AND (g.take_back_until IS NULL OR g.take_back_until <= ?) "
    "AND (g.post_retry_at IS NULL OR g.post_retry_at <= ?)"
)


def on_shards(shards: Shards | None, alias: str = "g") -> str:
    """`` AND`` the guild of ``alias`` is on one of ``shards`` (Discord's formula); nothing
    when every shard is this process's. The numbers are ints, so written in place."""
    if shards is None:
        return ""
    ids = ", ".join(str(int(i)) for i in shards.ids)
    return f" AND (({alias}.guild_id >> 22) % {int(shards.count)}) IN ({ids})"


#: A value SQLite hands back: its five storage classes.
SqlValue = int | float | str | bytes | None


class Statements:
    """Statements on one connection, each in one trip.

    execute_fetchall is one trip to the connection's thread (execute, fetch and close a
    cursor would be three): it shortens how long a busy bot holds the lock. The caller holds
    the storage's lock (inside a transaction). Tests use these to look at (or damage) the
    file directly.
    """

    def __init__(self, connection: aiosqlite.Connection) -> None:
        self.connection = connection

    async def scalar(self, sql: str, params: Sequence[Any] = ()) -> SqlValue:
        """The first column of the first row (None without a row): what SQLite stores."""
        rows = await self.connection.execute_fetchall(sql, params)
        first = next(iter(rows), None)
        value: SqlValue = first[0] if first is not None else None
        return value

    async def integer(self, sql: str, params: Sequence[Any] = ()) -> int | None:
        """:meth:`scalar` where the column holds a whole number (or NULL, or no row)."""
        value = await self.scalar(sql, params)
        if value is not None and not isinstance(value, int):
            raise TypeError(f"expected a whole number from {sql!r}, not {value!r}")
        return value

    async def text(self, sql: str, params: Sequence[Any] = ()) -> str | None:
        """:meth:`scalar` where the column holds text (or NULL, or no row)."""
        value = await self.scalar(sql, params)
        if value is not None and not isinstance(value, str):
            raise TypeError(f"expected text from {sql!r}, not {value!r}")
        return value

    async def rows(self, sql: str, params: Sequence[Any] | dict[str, Any] = ()) -> list[Any]:
        return list(await self.connection.execute_fetchall(sql, params))

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        """Run one statement; returns the last row id (for inserts)."""
        async with self.connection.execute(sql, params) as cursor:
            return cursor.lastrowid or 0

    async def executemany(self, sql: str, params: Iterable[Sequence[Any]]) -> None:
        await self.connection.executemany(sql, params)
