"""What the PostgreSQL parts share: one transaction's connection and the game rows it has
locked, and the SQL they reuse."""

from __future__ import annotations

import asyncpg

from bot.service.models import Shards
from bot.service.storage.rows import GAME_FIELDS_G

_SEATS_JSON = (
    "(SELECT COALESCE(json_agg(json_build_array(s.seat, s.user_id, s.name, s.is_bot, "
    "s.left_user_id, p.away_start, p.away_until, COALESCE(p.ping, 'channel'), s.level) "
    "ORDER BY s.seat), '[]') FROM seats s LEFT JOIN user_prefs p ON p.user_id = s.user_id "
    "WHERE s.game_id = g.id) AS seats_json"
)
GAME_FIELDS_SQL = f"{GAME_FIELDS_G}, {_SEATS_JSON}"
GAME_SELECT = f"SELECT {GAME_FIELDS_SQL} FROM games g"
OPEN = "('lobby', 'active', 'error')"
#: Games whose latest version the channel has not seen (params $1: before_ms, $2: now_ms).
UNANNOUNCED = (
    "(g.status IN ('active', 'finished') AND g.version > g.announced "
    # A lobby whose message never went out (the bot stopped between opening it and posting).
    "OR g.status = 'lobby' AND g.lobby_message_id IS NULL) "
    # A move that may be taken back is posted when that time is over, not before.
    "AND (g.updated_at <= $1 OR g.take_back_until <= $2) "
    "AND (g.take_back_until IS NULL OR g.take_back_until <= $2) "
    "AND (g.post_retry_at IS NULL OR g.post_retry_at <= $2)"
)
#: Active games waiting for a computer's move since before a moment ($1; $2: now).
COMPUTER_TURN = (
    "g.status = 'active' AND (g.updated_at <= $1 OR g.take_back_until <= $2) "
    # A computer plays after a move that may be taken back once that time is over.
    "AND (g.take_back_until IS NULL OR g.take_back_until <= $2) AND EXISTS (SELECT 1 FROM seats c "
    "WHERE c.game_id = g.id AND c.seat = g.current_seat AND c.is_bot)"
)


def on_shards(shards: Shards | None, alias: str = "g") -> str:
    """`` AND`` the guild of ``alias`` is on one of ``shards``; nothing when all are ours."""
    if shards is None:
        return ""
    ids = ", ".join(str(int(i)) for i in shards.ids)
    return f" AND (({alias}.guild_id >> 22) % {int(shards.count)}) IN ({ids})"


class Session:
    """One transaction's pooled connection, and the games it has locked: every part of the
    transaction shares one, so a game locked by one part is not locked again by another."""

    def __init__(self, connection: asyncpg.Connection, *, writing: bool) -> None:
        self.connection = connection
        self.writing = writing
        #: Games this (write) transaction has locked already.
        self.locked: set[int] = set()

    async def lock(self, game_id: int) -> None:
        """Lock the game's row for this write transaction, unless it is already locked."""
        if self.writing and game_id not in self.locked:
            await self.connection.execute("SELECT 1 FROM games WHERE id = $1 FOR UPDATE", game_id)
            self.locked.add(game_id)
