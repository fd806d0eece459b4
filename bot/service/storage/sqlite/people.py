"""SQLite: players and guilds (:class:`~bot.service.storage.parts.People`)."""

from __future__ import annotations

import json
from collections.abc import Sequence

from bot.service.clock import from_ms
from bot.service.models import GuildSettings, ModerationRecord, Rating
from bot.service.storage.parts import People
from bot.service.storage.rows import json_dict, json_or
from bot.service.storage.sqlite.statements import Statements


class SqlitePeople(People):
    """Pings, time away, ratings, guild settings and the moderation log in the SQLite file."""

    def __init__(self, statements: Statements) -> None:
        self._sql = statements

    async def ping(self, user_id: int) -> str:
        found = await self._sql.text("SELECT ping FROM user_prefs WHERE user_id = ?", (user_id,))
        return found or "channel"

    async def set_ping(self, user_id: int, ping: str) -> None:
        await self._sql.execute(
            "INSERT INTO user_prefs (user_id, ping) VALUES (?, ?) "
            "ON CONFLICT (user_id) DO UPDATE SET ping = excluded.ping",
            (user_id, ping),
        )

    async def set_away(self, user_id: int, start_ms: int | None, until_ms: int | None) -> None:
        await self._sql.execute(
            "INSERT INTO user_prefs (user_id, away_start, away_until) VALUES (?, ?, ?) "
            "ON CONFLICT (user_id) DO UPDATE SET away_start = excluded.away_start, "
            "away_until = excluded.away_until",
            (user_id, start_ms, until_ms),
        )

    async def begin_practice(self, user_id: int, now_ms: int, since_ms: int) -> int | None:
        stamped = await self._sql.rows(
            "INSERT INTO user_prefs (user_id, practice_begun) VALUES (?, ?) "
            "ON CONFLICT (user_id) DO UPDATE SET practice_begun = excluded.practice_begun "
            "WHERE practice_begun IS NULL OR practice_begun <= ? RETURNING 1",
            (user_id, now_ms, since_ms),
        )
        if stamped:
            return None
        begun = await self._sql.integer(
            "SELECT practice_begun FROM user_prefs WHERE user_id = ?", (user_id,)
        )
        if begun is None:  # the upsert found a row it would not stamp: it has a time
            raise RuntimeError(f"user {user_id}'s practice_begun vanished")
        return begun

    async def ratings(self, guild_id: int, game_name: str) -> list[Rating]:
        rows = await self._sql.rows(
            "SELECT user_id, name, rating, games, wins FROM ratings "
            "WHERE guild_id = ? AND kind = ? ORDER BY rating DESC, games DESC, name",
            (guild_id, game_name),
        )
        return [Rating(r[0], r[1], r[2], r[3], r[4]) for r in rows]

    async def save_ratings(self, guild_id: int, game_name: str, ratings: Sequence[Rating]) -> None:
        await self._sql.executemany(
            "INSERT OR REPLACE INTO ratings (guild_id, kind, user_id, name, rating, games, wins) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)",
            [(guild_id, game_name, r.user_id, r.name, r.rating, r.games, r.wins) for r in ratings],
        )

    async def guild_settings(self, guild_id: int) -> GuildSettings | None:
        rows = await self._sql.rows(
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
        await self._sql.execute(
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

    async def log_moderation(self, record: ModerationRecord) -> None:
        await self._sql.execute(
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
        rows = await self._sql.rows(
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
                detail=json_dict(r[6]),
                created_at=from_ms(r[7]),
            )
            for r in rows
        ]
