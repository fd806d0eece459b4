"""PostgreSQL: players and guilds (:class:`~bot.service.storage.parts.People`)."""

from __future__ import annotations

import json
from collections.abc import Sequence

from bot.service.clock import from_ms
from bot.service.models import GuildSettings, ModerationRecord, Rating
from bot.service.storage.parts import People
from bot.service.storage.postgres.session import Session
from bot.service.storage.rows import json_dict, json_or


class PostgresPeople(People):
    """Pings, time away, ratings, guild settings and the moderation log in PostgreSQL."""

    def __init__(self, session: Session) -> None:
        self._session = session
        self._connection = session.connection

    async def ping(self, user_id: int) -> str:
        found = await self._connection.fetchval(
            "SELECT ping FROM user_prefs WHERE user_id = $1", user_id
        )
        return found or "channel"

    async def set_ping(self, user_id: int, ping: str) -> None:
        await self._connection.execute(
            "INSERT INTO user_prefs (user_id, ping) VALUES ($1, $2) "
            "ON CONFLICT (user_id) DO UPDATE SET ping = EXCLUDED.ping",
            user_id,
            ping,
        )

    async def set_away(self, user_id: int, start_ms: int | None, until_ms: int | None) -> None:
        await self._connection.execute(
            "INSERT INTO user_prefs (user_id, away_start, away_until) VALUES ($1, $2, $3) "
            "ON CONFLICT (user_id) DO UPDATE SET away_start = EXCLUDED.away_start, "
            "away_until = EXCLUDED.away_until",
            user_id,
            start_ms,
            until_ms,
        )

    async def begin_practice(self, user_id: int, now_ms: int, since_ms: int) -> int | None:
        # Two at once: the second waits for the first's row and checks it again.
        stamped = await self._connection.fetchval(
            "INSERT INTO user_prefs (user_id, practice_begun) VALUES ($1, $2) "
            "ON CONFLICT (user_id) DO UPDATE SET practice_begun = EXCLUDED.practice_begun "
            "WHERE user_prefs.practice_begun IS NULL OR user_prefs.practice_begun <= $3 "
            "RETURNING 1",
            user_id,
            now_ms,
            since_ms,
        )
        if stamped:
            return None
        return int(
            await self._connection.fetchval(
                "SELECT practice_begun FROM user_prefs WHERE user_id = $1", user_id
            )
        )

    async def ratings(self, guild_id: int, game_name: str) -> list[Rating]:
        rows = await self._connection.fetch(
            "SELECT user_id, name, rating, games, wins FROM ratings "
            "WHERE guild_id = $1 AND kind = $2 ORDER BY rating DESC, games DESC, name",
            guild_id,
            game_name,
        )
        return [Rating(r[0], r[1], r[2], r[3], r[4]) for r in rows]

    async def save_ratings(self, guild_id: int, game_name: str, ratings: Sequence[Rating]) -> None:
        await self._connection.executemany(
            "INSERT INTO ratings (guild_id, kind, user_id, name, rating, games, wins) "
            "VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (guild_id, kind, user_id) "
            "DO UPDATE SET name = EXCLUDED.name, rating = EXCLUDED.rating, "
            "games = EXCLUDED.games, wins = EXCLUDED.wins",
            [(guild_id, game_name, r.user_id, r.name, r.rating, r.games, r.wins) for r in ratings],
        )

    async def guild_settings(self, guild_id: int) -> GuildSettings | None:
        r = await self._connection.fetchrow(
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
        await self._connection.execute(
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

    async def log_moderation(self, record: ModerationRecord) -> None:
        await self._connection.execute(
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
        rows = await self._connection.fetch(
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
                detail=json_dict(r[6]),
                created_at=from_ms(r[7]),
            )
            for r in rows
        ]
