"""The game service: everything the Discord layer asks of games, without Discord.

Commands stay thin (parse, call one method here, format the reply); this class owns the
rules around the engines: lobbies, whose turn it is, the log in SQLite, moderation,
reminders and time-outs, history and statistics. Users are Discord user ids (ints) with the
display names the caller passes; whether a user is a moderator is decided by the caller
(a role or the Manage Channels permission) and passed in as ``moderator=True``.

Decisions worth knowing:

- **A removed player's seat is taken over by a computer player** (``sensible_action``), not
  frozen. Frozen pieces would leave the seat's turn with nobody to play it: every other
  player would wait for a time-out at each round, and the scores of a seat that never moves
  again would still decide majorities. A computer keeps the game moving at the table's
  pace, its moves are plausible, and they are stored like any other action, so replays
  and history show exactly what happened (``source = "bot"``). If no human is left, the
  game is ended instead of being played out by computers.
- **The log is the truth.** An action is checked against the engine before it is written,
  then written in the same ``BEGIN IMMEDIATE`` transaction as the game's version bump (with
  the computer players' replies that follow it). A stale ``expected_version`` is refused
  with "That turn was already played." Snapshots are a cache: a damaged one is ignored.
- **A damaged game stops alone.** If its row or log cannot be read or replayed, that game
  is put in status ``"error"`` with the reason (moderators see it in :meth:`damaged_games`
  and can end it); every other game keeps working.
- **Reminders are claimed, then marked sent.** :meth:`due` offers a turn until its notice
  is marked sent; a claim hides it from other callers for a lease, so a process that dies
  while sending has it sent again after the lease rather than never.
- **In-memory cache** of loaded games keyed by id and version; the version is verified in
  every write transaction, so another process's writes are picked up by a fresh replay.
"""

from __future__ import annotations

import dataclasses
import json
import secrets
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import aiosqlite

from bot.service.clock import Clock, SystemClock, from_ms, to_ms
from bot.service.games import KINDS, EngineGame, GameKind, move_rng
from bot.service.models import (
    ActionRecord,
    ActionSource,
    DueTurn,
    GameRecord,
    GuildSettings,
    GuildStats,
    ModerationRecord,
    Seat,
    ServiceError,
    TimeoutAction,
    TurnResult,
)
from bot.service.storage import (
    GAME_COLUMNS,
    Storage,
    action_record,
    game_record,
    moderation_record,
)
from bot.settings import Settings
from engine.common.rng import Rng

#: A claimed but unconfirmed notice is offered again after this long.
CLAIM_LEASE = timedelta(minutes=10)
#: Write a snapshot every this many actions (``None``: never).
SNAPSHOT_EVERY = 64
_UNSET: Any = object()
_SEAT_SHUFFLE_SALT = 0x5EA75EA75EA7


#: How long a stored move may wait for its announcement before it counts as missed.
ANNOUNCE_GRACE = timedelta(minutes=2)


class _Damaged(Exception):
    """A game whose stored form cannot be turned back into a game."""

    def __init__(self, game_id: int, reason: str) -> None:
        super().__init__(reason)
        self.game_id = game_id
        self.reason = reason


def _stale() -> ServiceError:
    return ServiceError("stale", "That turn was already played.")


class GameService:
    """Lobby, play, moderation, time and history of every game, on one SQLite file."""

    def __init__(
        self,
        storage: Storage,
        settings: Settings | None = None,
        clock: Clock | None = None,
        kinds: Mapping[str, GameKind] | None = None,
        cache_size: int = 256,
        snapshot_every: int | None = SNAPSHOT_EVERY,
    ) -> None:
        self.storage = storage
        self.settings = settings or Settings()
        self.clock: Clock = clock or SystemClock()
        self.kinds: Mapping[str, GameKind] = KINDS if kinds is None else kinds
        self.snapshot_every = snapshot_every
        self._cache_size = cache_size
        self._cache: OrderedDict[int, tuple[int, EngineGame]] = OrderedDict()

    @classmethod
    async def open(
        cls,
        path: str | Path | None = None,
        *,
        settings: Settings | None = None,
        clock: Clock | None = None,
        **kwargs: Any,
    ) -> GameService:
        """Open the database (``settings.db_path`` unless ``path`` is given), migrating it."""
        settings = settings or Settings()
        storage = await Storage.open(path if path is not None else settings.db_path)
        return cls(storage, settings, clock, **kwargs)

    async def close(self) -> None:
        await self.storage.close()

    async def __aenter__(self) -> GameService:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()

    # ================================================================ lobby

    async def create_game(
        self,
        guild_id: int,
        channel_id: int,
        user_id: int,
        name: str,
        kind: str = "covenant",
        options: Mapping[str, Any] | None = None,
        *,
        shuffle_seats: bool = True,
        seed: int | None = None,
    ) -> GameRecord:
        """Open a lobby in ``channel_id`` with its creator in the first seat."""
        game_kind = self._kind(kind)
        try:
            clean = game_kind.check_options(dict(options or {}))
        except ValueError as exc:
            raise ServiceError("bad_options", str(exc)) from None
        seed = secrets.randbits(62) if seed is None else seed
        now = self._now_ms()
        try:
            async with self.storage.write() as db:
                if await db.open_game_row(channel_id) is not None:
                    raise ServiceError("channel_busy", "There is already a game in this channel.")
                game_id = await db.execute(
                    "INSERT INTO games (guild_id, channel_id, kind, seed, options, shuffle_seats, "
                    "creator_id, status, created_at, updated_at) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?, 'lobby', ?, ?)",
                    (
                        guild_id,
                        channel_id,
                        kind,
                        seed,
                        json.dumps(clean),
                        int(shuffle_seats),
                        user_id,
                        now,
                        now,
                    ),
                )
                await db.replace_seats(game_id, [Seat(0, user_id, name)])
                return await self._record(db, game_id)
        except aiosqlite.IntegrityError:
            # Another process opened a game here between our check and our insert.
            raise ServiceError("channel_busy", "There is already a game in this channel.") from None

    async def join(self, channel_id: int, user_id: int, name: str) -> GameRecord:
        """Take the next free seat of the lobby in ``channel_id``."""
        async with self.storage.write() as db:
            row = await self._lobby_row(db, channel_id)
            seats = await db.seats(row["id"])
            if any(s.user_id == user_id for s in seats):
                raise ServiceError("already_joined", "You have already joined this game.")
            kind = self._kind(row["kind"])
            if len(seats) >= kind.max_players:
                raise ServiceError(
                    "lobby_full",
                    f"This game is full ({kind.max_players} players).",
                    max=kind.max_players,
                )
            await db.replace_seats(row["id"], [*seats, Seat(len(seats), user_id, name)])
            await self._touch(db, row["id"])
            return await self._record(db, row["id"])

    async def leave(self, channel_id: int, user_id: int) -> GameRecord:
        """Leave the lobby; the last one out closes it, and a leaving creator hands over."""
        async with self.storage.write() as db:
            row = await self._lobby_row(db, channel_id)
            game_id = row["id"]
            seats = await db.seats(game_id)
            rest = [s for s in seats if s.user_id != user_id]
            if len(rest) == len(seats):
                raise ServiceError("not_joined", "You have not joined this game.")
            await db.replace_seats(game_id, rest)
            now = self._now_ms()
            if not rest:
                await db.execute(
                    "UPDATE games SET status = 'ended', finished_at = ?, updated_at = ? "
                    "WHERE id = ?",
                    (now, now, game_id),
                )
            elif row["creator_id"] == user_id:
                await db.execute(
                    "UPDATE games SET creator_id = ?, updated_at = ? WHERE id = ?",
                    (rest[0].user_id, now, game_id),
                )
            else:
                await self._touch(db, game_id)
            return await self._record(db, game_id)

    async def start(self, channel_id: int, user_id: int, *, moderator: bool = False) -> GameRecord:
        """Start the lobby's game (its creator or a moderator): seats are fixed, seat 0 plays."""
        async with self.storage.write() as db:
            row = await self._lobby_row(db, channel_id)
            if row["creator_id"] != user_id and not moderator:
                raise ServiceError(
                    "not_allowed", "Only the game's creator or a moderator can start it."
                )
            game_id = row["id"]
            kind = self._kind(row["kind"])
            seats = list(await db.seats(game_id))
            if len(seats) < kind.min_players:
                raise ServiceError(
                    "too_few_players",
                    f"{kind.title} needs at least {kind.min_players} players.",
                    min=kind.min_players,
                )
            if row["shuffle_seats"]:
                # From the seed, so the seating is part of what the seed reproduces.
                Rng(row["seed"] ^ _SEAT_SHUFFLE_SALT).shuffle(seats)
            try:
                game = kind.new(len(seats), row["seed"], json.loads(row["options"]))
            except ValueError as exc:
                raise ServiceError("bad_options", str(exc)) from None
            now = self._now_ms()
            await db.replace_seats(game_id, seats)
            await db.execute(
                "UPDATE games SET status = 'active', version = 0, current_seat = ?, "
                "started_at = ?, waiting_since = ?, updated_at = ? WHERE id = ?",
                (game.current_player, now, now, now, game_id),
            )
            record = await self._record(db, game_id)
        self._remember(game_id, 0, game)
        return record

    # ================================================================ play

    async def act(
        self,
        channel_id: int,
        user_id: int,
        action: Any,
        expected_version: int | None = None,
    ) -> TurnResult:
        """Play ``action`` (an engine action or its dict form) for ``user_id``.

        ``expected_version`` is the game's version the user saw (on a button, say); if the
        game has moved on since, the action is refused as stale. Raises
        :class:`ServiceError` and changes nothing if the action cannot be played.
        """
        async with self._guard(), self.storage.write() as db:
            row = await self._active_row(db, channel_id)
            seats = await db.seats(row["id"])
            seat = next((s for s in seats if s.user_id == user_id), None)
            if seat is None:
                raise ServiceError("not_a_player", "You are not playing in this game.")
            if expected_version is not None and expected_version != row["version"]:
                raise _stale()
            if seat.index != row["current_seat"]:
                current = seats[row["current_seat"]]
                raise ServiceError(
                    "not_your_turn",
                    f"It is {current.name}'s turn, not yours.",
                    current=current.index,
                )
            kind = self._kind(row["kind"])
            if isinstance(action, Mapping):
                try:
                    action = kind.parse_action(dict(action))
                except ValueError as exc:
                    raise ServiceError("bad_action", f"That is not a move: {exc}") from None
            game = await self._load(db, row, len(seats))
            return await self._play(db, row, seats, game, [(action, seat, "player")])

    async def time_out(self, due: DueTurn) -> TurnResult:
        """Skip a timed-out turn (the guild's ``"skip"`` action): the tile goes where the
        computer would put it, no piece is deployed; the notice is marked sent."""
        async with self._guard(), self.storage.write() as db:
            row = await db.game_row(due.game.id)
            if row is None or row["status"] != "active" or row["version"] != due.version:
                raise _stale()
            seats = await db.seats(row["id"])
            seat = seats[row["current_seat"]]
            if seat.user_id != due.seat.user_id:
                raise _stale()
            game = await self._load(db, row, len(seats))
            result = await self._play(db, row, seats, game, [(None, seat, "timeout")])
            await db.execute(
                "INSERT INTO notices (game_id, version, user_id, kind, claimed_at, sent_at) "
                "VALUES (?, ?, ?, 'timeout', ?, ?) ON CONFLICT DO UPDATE SET "
                "sent_at = excluded.sent_at",
                (row["id"], due.version, seat.user_id, self._now_ms(), self._now_ms()),
            )
            return result

    async def game_in(self, channel_id: int) -> GameRecord | None:
        """The open (lobby, active or damaged) game of a channel, if any."""
        async with self.storage.read() as db:
            row = await db.open_game_row(channel_id)
            return None if row is None else await db.record(row)

    async def get_game(self, game_id: int) -> GameRecord:
        async with self.storage.read() as db:
            return await self._record(db, game_id)

    async def state(self, game_id: int) -> tuple[GameRecord, EngineGame]:
        """The record and a private copy of the engine state (for pictures and menus)."""
        async with self._guard(), self.storage.read() as db:
            row = await db.game_row(game_id)
            if row is None:
                raise ServiceError("no_game", "There is no such game.")
            if row["status"] == "error":
                raise ServiceError("game_damaged", "This game is damaged; a moderator can end it.")
            seats = await db.seats(game_id)
            game = await self._load(db, row, len(seats))
            return game_record(row, seats), self._kind(row["kind"]).from_json(game.to_json())

    # ================================================================ moderation

    async def end_game(
        self, channel_id: int, moderator_id: int, *, moderator: bool, reason: str = ""
    ) -> GameRecord:
        """End the channel's open game without a result (a lobby's creator may cancel it)."""
        async with self.storage.write() as db:
            row = await db.open_game_row(channel_id)
            if row is None:
                raise ServiceError("no_game", "There is no game in this channel.")
            creator_cancels = row["status"] == "lobby" and row["creator_id"] == moderator_id
            if not (moderator or creator_cancels):
                raise ServiceError("not_allowed", "Only a moderator can end a game.")
            now = self._now_ms()
            await db.execute(
                "UPDATE games SET status = 'ended', current_seat = NULL, finished_at = ?, "
                "updated_at = ? WHERE id = ?",
                (now, now, row["id"]),
            )
            await self._forget_caches(db, row["id"])
            await db.log_moderation(
                row["guild_id"], row["id"], moderator_id, "end_game", None,
                {"reason": reason, "was": row["status"], "version": row["version"]}, now,
            )  # fmt: skip
            record = await self._record(db, row["id"])
        self._cache.pop(row["id"], None)
        return record

    async def remove_player(
        self, channel_id: int, moderator_id: int, target_user_id: int, *, moderator: bool
    ) -> TurnResult:
        """Remove a player: from a lobby, their seat goes; in a game, a computer takes it
        over (and plays at once if it is its turn). See the module docstring for why."""
        if not moderator:
            raise ServiceError("not_allowed", "Only a moderator can remove a player.")
        async with self._guard(), self.storage.write() as db:
            row = await db.open_game_row(channel_id)
            if row is None or row["status"] == "error":
                raise ServiceError("no_game", "There is no game in this channel to change.")
            game_id = row["id"]
            seats = list(await db.seats(game_id))
            target = next((s for s in seats if s.user_id == target_user_id), None)
            if target is None:
                raise ServiceError("not_a_player", "That user is not playing in this game.")
            now = self._now_ms()
            await db.log_moderation(
                row["guild_id"], game_id, moderator_id, "remove_player", target_user_id,
                {"seat": target.index, "name": target.name, "status": row["status"]}, now,
            )  # fmt: skip
            if row["status"] == "lobby":
                await db.replace_seats(game_id, [s for s in seats if s is not target])
                record = await self._record(db, game_id)
                return TurnResult(record, (), (), None, False, ())
            seats[target.index] = Seat(target.index, None, target.name, is_bot=True)
            await db.execute(
                "UPDATE seats SET user_id = NULL, is_bot = 1 WHERE game_id = ? AND seat = ?",
                (game_id, target.index),
            )
            if all(s.is_bot for s in seats):
                await db.execute(
                    "UPDATE games SET status = 'ended', current_seat = NULL, "
                    "finished_at = ?, updated_at = ? WHERE id = ?",
                    (now, now, game_id),
                )
                record = await self._record(db, game_id)
                return TurnResult(record, (), (), None, False, ())
            game = await self._load(db, row, len(seats))
            # No action of the player's own: _play lets the computer seats move.
            return await self._play(db, row, tuple(seats), game, [])

    async def hand_seat(
        self,
        channel_id: int,
        moderator_id: int,
        to_user_id: int,
        to_name: str,
        *,
        moderator: bool,
        from_user_id: int | None = None,
        seat_index: int | None = None,
    ) -> GameRecord:
        """Give a seat (``from_user_id``'s, or seat ``seat_index``, also a computer's) to
        another user, who then plays it; their turn's clock restarts."""
        if not moderator:
            raise ServiceError("not_allowed", "Only a moderator can hand a seat over.")
        async with self.storage.write() as db:
            row = await db.open_game_row(channel_id)
            if row is None or row["status"] != "active":
                raise ServiceError("not_started", "There is no game being played in this channel.")
            game_id = row["id"]
            seats = await db.seats(game_id)
            if any(s.user_id == to_user_id for s in seats):
                raise ServiceError("already_joined", "That user already has a seat in this game.")
            if seat_index is not None:
                seat = seats[seat_index] if 0 <= seat_index < len(seats) else None
            else:
                seat = next((s for s in seats if s.user_id == from_user_id), None)
            if seat is None:
                raise ServiceError("not_a_player", "There is no such seat in this game.")
            now = self._now_ms()
            await db.execute(
                "UPDATE seats SET user_id = ?, name = ?, is_bot = 0 WHERE game_id = ? AND seat = ?",
                (to_user_id, to_name, game_id, seat.index),
            )
            if seat.index == row["current_seat"]:
                await db.execute(
                    "UPDATE games SET waiting_since = ?, updated_at = ? WHERE id = ?",
                    (now, now, game_id),
                )
            await db.log_moderation(
                row["guild_id"], game_id, moderator_id, "hand_seat", to_user_id,
                {"seat": seat.index, "from_user_id": seat.user_id, "from_name": seat.name,
                 "to_name": to_name},
                now,
            )  # fmt: skip
            return await self._record(db, game_id)

    async def moderation_log(self, guild_id: int, limit: int = 50) -> list[ModerationRecord]:
        """The guild's latest moderation acts, newest first."""
        async with self.storage.read() as db:
            rows = await db.rows(
                "SELECT * FROM moderation_log WHERE guild_id = ? ORDER BY id DESC LIMIT ?",
                (guild_id, limit),
            )
        return [moderation_record(r) for r in rows]

    async def damaged_games(self, guild_id: int) -> list[GameRecord]:
        """Games of the guild stopped because their stored form is damaged."""
        return await self.games(guild_id, ("error",))

    async def games(
        self, guild_id: int, statuses: Sequence[str] = ("lobby", "active", "error")
    ) -> list[GameRecord]:
        """The guild's games in the given statuses, oldest first."""
        marks = ", ".join("?" for _ in statuses)
        async with self.storage.read() as db:
            rows = await db.rows(
                f"SELECT {GAME_COLUMNS} FROM games WHERE guild_id = ? AND status IN ({marks}) "
                "ORDER BY id",
                (guild_id, *statuses),
            )
            return [await db.record(r) for r in rows]

    # ================================================================ time

    async def guild_settings(self, guild_id: int) -> GuildSettings:
        """The guild's settings, or the defaults from :class:`Settings`."""
        async with self.storage.read() as db:
            return await self._guild_settings(db, guild_id)

    async def set_guild_settings(
        self,
        guild_id: int,
        moderator_id: int,
        *,
        moderator: bool,
        reminder_delay: timedelta | None = None,
        turn_timeout: timedelta | None = None,
        timeout_action: TimeoutAction | None = None,
        moderator_role_id: int | None = _UNSET,
    ) -> GuildSettings:
        """Change some of the guild's settings (moderators only); logged."""
        if not moderator:
            raise ServiceError("not_allowed", "Only a moderator can change the settings.")
        if timeout_action not in (None, "skip", "notify"):
            raise ServiceError("bad_setting", "The time-out action is 'skip' or 'notify'.")
        async with self.storage.write() as db:
            old = await self._guild_settings(db, guild_id)
            new = dataclasses.replace(
                old,
                reminder_delay=reminder_delay or old.reminder_delay,
                turn_timeout=turn_timeout or old.turn_timeout,
                timeout_action=timeout_action or old.timeout_action,
                moderator_role_id=(
                    old.moderator_role_id if moderator_role_id is _UNSET else moderator_role_id
                ),
            )
            if new.reminder_delay <= timedelta(0) or new.turn_timeout <= new.reminder_delay:
                raise ServiceError(
                    "bad_setting", "The time-out must be longer than the reminder delay (> 0)."
                )
            await db.execute(
                "INSERT OR REPLACE INTO guild_settings (guild_id, reminder_delay_ms, "
                "turn_timeout_ms, timeout_action, moderator_role_id) VALUES (?, ?, ?, ?, ?)",
                (
                    guild_id,
                    _td_ms(new.reminder_delay),
                    _td_ms(new.turn_timeout),
                    new.timeout_action,
                    new.moderator_role_id,
                ),
            )
            await db.log_moderation(
                guild_id, None, moderator_id, "settings", None,
                {"reminder_delay_s": new.reminder_delay.total_seconds(),
                 "turn_timeout_s": new.turn_timeout.total_seconds(),
                 "timeout_action": new.timeout_action,
                 "moderator_role_id": new.moderator_role_id},
                self._now_ms(),
            )  # fmt: skip
            return new

    async def set_dm_reminders(self, user_id: int, enabled: bool) -> None:
        """Whether ``user_id`` wants reminders by direct message (stored across games)."""
        async with self.storage.write() as db:
            await db.execute(
                "INSERT INTO user_prefs (user_id, dm_reminders) VALUES (?, ?) "
                "ON CONFLICT (user_id) DO UPDATE SET dm_reminders = excluded.dm_reminders",
                (user_id, int(enabled)),
            )

    async def dm_reminders(self, user_id: int) -> bool:
        async with self.storage.read() as db:
            return bool(
                await db.scalar("SELECT dm_reminders FROM user_prefs WHERE user_id = ?", (user_id,))
            )

    async def due(self, now: datetime | None = None) -> list[DueTurn]:
        """The turns that need a reminder or a time-out now.

        A turn is waiting from its game's last action (or start, or a seat hand-over). It
        is due for a reminder after the guild's reminder delay and for a time-out after its
        turn time-out, once each, until :meth:`mark_sent` (or :meth:`time_out`) records it.
        """
        now_ms = to_ms(now or self.clock.now())
        lease_ms = now_ms - _td_ms(CLAIM_LEASE)
        g_cols = ", ".join(f"g.{c.strip()}" for c in GAME_COLUMNS.split(","))
        blocked = (
            "(SELECT 1 FROM notices n WHERE n.game_id = g.id AND n.version = g.version "
            "AND n.user_id = s.user_id AND n.kind = '{kind}' "
            "AND (n.sent_at IS NOT NULL OR n.claimed_at > :lease))"
        )
        sql = (
            f"SELECT {g_cols}, s.user_id AS s_user, "
            "COALESCE(gs.reminder_delay_ms, :rd) AS rd, COALESCE(gs.turn_timeout_ms, :tt) AS tt, "
            "COALESCE(gs.timeout_action, 'skip') AS ta, gs.moderator_role_id AS role, "
            "COALESCE(p.dm_reminders, 0) AS dm, "
            f"{blocked.format(kind='reminder')} AS r_blocked, "
            f"{blocked.format(kind='timeout')} AS t_blocked, "
            "(SELECT 1 FROM notices n WHERE n.game_id = g.id AND n.version = g.version "
            " AND n.user_id = s.user_id AND n.kind = 'timeout' AND n.sent_at IS NOT NULL) "
            "AS t_sent "
            "FROM games g JOIN seats s ON s.game_id = g.id AND s.seat = g.current_seat "
            "LEFT JOIN guild_settings gs ON gs.guild_id = g.guild_id "
            "LEFT JOIN user_prefs p ON p.user_id = s.user_id "
            "WHERE g.status = 'active' AND s.user_id IS NOT NULL "
            "AND g.waiting_since + COALESCE(gs.reminder_delay_ms, :rd) <= :now "
            "ORDER BY g.waiting_since"
        )
        params = {
            "rd": _td_ms(self.settings.reminder_delay),
            "tt": _td_ms(self.settings.turn_timeout),
            "now": now_ms,
            "lease": lease_ms,
        }
        found: list[DueTurn] = []
        async with self.storage.read() as db:
            rows = await db.rows(sql, params)  # type: ignore[arg-type]
            for row in rows:
                waited = now_ms - row["waiting_since"]
                if row["t_sent"]:
                    continue  # timed out already ("notify"): the moderators have it now
                if waited >= row["tt"]:
                    if row["t_blocked"]:
                        continue
                    kind = "timeout"
                elif row["r_blocked"]:
                    continue
                else:
                    kind = "reminder"
                record = await db.record(row)
                found.append(
                    DueTurn(
                        kind=kind,  # type: ignore[arg-type]
                        game=record,
                        seat=record.seats[row["current_seat"]],
                        version=row["version"],
                        waiting_since=from_ms(row["waiting_since"]),  # type: ignore[arg-type]
                        dm=bool(row["dm"]),
                        timeout_action=row["ta"],
                        moderator_role_id=row["role"],
                    )
                )
        return found

    async def claim(self, due: DueTurn) -> bool:
        """Reserve a due notice for sending; ``False`` if another caller has it (or it
        was sent). Call :meth:`mark_sent` once it went out."""
        now = self._now_ms()
        async with self.storage.write() as db:
            if not await self._still_waiting(db, due):
                return False
            rows = await db.rows(
                "INSERT INTO notices (game_id, version, user_id, kind, claimed_at) "
                "VALUES (?, ?, ?, ?, ?) ON CONFLICT DO UPDATE SET claimed_at = excluded.claimed_at "
                "WHERE sent_at IS NULL AND claimed_at <= ? RETURNING 1",
                (due.game.id, due.version, due.seat.user_id, due.kind, now,
                 now - _td_ms(CLAIM_LEASE)),
            )  # fmt: skip
            return bool(rows)

    async def mark_sent(self, due: DueTurn) -> None:
        """Record that the reminder (or the moderators' time-out notice) went out."""
        now = self._now_ms()
        async with self.storage.write() as db:
            await db.execute(
                "INSERT INTO notices (game_id, version, user_id, kind, claimed_at, sent_at) "
                "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO UPDATE SET sent_at = excluded.sent_at",
                (due.game.id, due.version, due.seat.user_id, due.kind, now, now),
            )

    # ================================================================ history

    async def history(self, game_id: int) -> list[ActionRecord]:
        """Every action of a game in order, with its time, seat and user."""
        async with self.storage.read() as db:
            return [action_record(game_id, r) for r in await db.actions(game_id)]

    # ================================================================ announcements

    async def mark_announced(self, game_id: int, version: int) -> None:
        """Record that the channel has seen the game up to ``version``."""
        async with self.storage.write() as db:
            await db.execute(
                "INSERT INTO announcements (game_id, version) VALUES (?, ?) "
                "ON CONFLICT (game_id) DO UPDATE SET version = MAX(version, excluded.version)",
                (game_id, version),
            )

    async def unannounced(self, grace: timedelta = ANNOUNCE_GRACE) -> list[GameRecord]:
        """Active or finished games changed more than ``grace`` ago that the channel has not
        seen in their latest version: the bot stopped between storing a move and posting it.
        (The grace leaves a move that is being announced right now alone.)"""
        before = self._now_ms() - _td_ms(grace)
        async with self.storage.read() as db:
            rows = await db.rows(
                "SELECT g.id FROM games g LEFT JOIN announcements a ON a.game_id = g.id "
                "WHERE g.status IN ('active', 'finished') AND g.version > COALESCE(a.version, -1) "
                "AND g.updated_at <= ? ORDER BY g.updated_at",
                (before,),
            )
            return [await self._record(db, row["id"]) for row in rows]

    async def replay(self, game_id: int, since: int) -> tuple[EngineGame, list[Any]]:
        """The game as it was at version ``since`` and every event after it, in order.

        A turn may take several requests (place the tile, then a follower, then the Ark);
        this tells the whole turn at once, for the message that closes it.
        """
        async with self.storage.read() as db:
            row = await db.game_row(game_id)
            if row is None:
                raise ServiceError("no_game", "There is no such game.")
            seats = await db.seats(game_id)
            rows = await db.actions(game_id)
        kind = self._kind(row["kind"])
        try:
            game = kind.new(len(seats), row["seed"], kind.check_options(json.loads(row["options"])))
            start: EngineGame | None = None
            events: list[Any] = []
            for action_row in rows:
                if action_row["seq"] > since and start is None:
                    start = kind.from_json(game.to_json())
                action = kind.parse_action(json.loads(action_row["action"]))
                applied = game.apply(action, seat=action_row["seat"])
                if start is not None:
                    events.extend(applied)
        except (ValueError, TypeError, KeyError) as exc:
            await self._mark_damaged(game_id, f"replay: {exc}")
            raise ServiceError("game_damaged", "This game's log is damaged.") from None
        return (start if start is not None else game), events

    async def stats(self, guild_id: int) -> GuildStats:
        """Finished games of a guild and wins per user (computer seats count for nobody)."""
        async with self.storage.read() as db:
            rows = await db.rows(
                "SELECT id, result FROM games WHERE guild_id = ? AND status = 'finished'",
                (guild_id,),
            )
            wins: dict[int, int] = {}
            names: dict[int, str] = {}
            for row in rows:
                try:
                    winners = json.loads(row["result"])["winners"]
                except (ValueError, TypeError, KeyError):
                    continue
                for seat in await db.seats(row["id"]):
                    if seat.index in winners and seat.user_id is not None:
                        wins[seat.user_id] = wins.get(seat.user_id, 0) + 1
                        names[seat.user_id] = seat.name
        return GuildStats(guild_id, len(rows), wins, names)

    # ================================================================ internals

    def _now_ms(self) -> int:
        return to_ms(self.clock.now())

    def _kind(self, name: str) -> GameKind:
        kind = self.kinds.get(name)
        if kind is None:
            raise ServiceError("unknown_kind", f"There is no game called {name!r}.")
        return kind

    def _remember(self, game_id: int, version: int, game: EngineGame) -> None:
        self._cache[game_id] = (version, game)
        self._cache.move_to_end(game_id)
        while len(self._cache) > self._cache_size:
            self._cache.popitem(last=False)

    def forget(self, game_id: int | None = None) -> None:
        """Drop one game (or all) from the in-memory cache."""
        if game_id is None:
            self._cache.clear()
        else:
            self._cache.pop(game_id, None)

    async def _record(self, db: Storage, game_id: int) -> GameRecord:
        row = await db.game_row(game_id)
        if row is None:
            raise ServiceError("no_game", "There is no such game.")
        return await db.record(row)

    async def _touch(self, db: Storage, game_id: int) -> None:
        await db.execute("UPDATE games SET updated_at = ? WHERE id = ?", (self._now_ms(), game_id))

    async def _lobby_row(self, db: Storage, channel_id: int) -> aiosqlite.Row:
        row = await db.open_game_row(channel_id)
        if row is None:
            raise ServiceError("no_game", "There is no game in this channel.")
        if row["status"] != "lobby":
            raise ServiceError("already_started", "This game has already started.")
        return row

    async def _active_row(self, db: Storage, channel_id: int) -> aiosqlite.Row:
        row = await db.open_game_row(channel_id)
        if row is None:
            last = await db.scalar(
                "SELECT status FROM games WHERE channel_id = ? ORDER BY id DESC LIMIT 1",
                (channel_id,),
            )
            if last in ("finished", "ended"):
                raise ServiceError("game_over", "This game is over.")
            raise ServiceError("no_game", "There is no game in this channel.")
        if row["status"] == "lobby":
            raise ServiceError("not_started", "The game has not started yet.")
        if row["status"] == "error":
            raise ServiceError(
                "game_damaged", "This game is damaged and stopped; a moderator can end it."
            )
        return row

    async def _guild_settings(self, db: Storage, guild_id: int) -> GuildSettings:
        rows = await db.rows("SELECT * FROM guild_settings WHERE guild_id = ?", (guild_id,))
        if not rows:
            return GuildSettings(guild_id, self.settings.reminder_delay, self.settings.turn_timeout)
        row = rows[0]
        return GuildSettings(
            guild_id,
            timedelta(milliseconds=row["reminder_delay_ms"]),
            timedelta(milliseconds=row["turn_timeout_ms"]),
            row["timeout_action"],
            row["moderator_role_id"],
        )

    async def _still_waiting(self, db: Storage, due: DueTurn) -> bool:
        row = await db.game_row(due.game.id)
        if row is None or row["status"] != "active" or row["version"] != due.version:
            return False
        user = await db.scalar(
            "SELECT user_id FROM seats WHERE game_id = ? AND seat = ?",
            (row["id"], row["current_seat"]),
        )
        return user == due.seat.user_id

    def _guard(self) -> _DamageGuard:
        return _DamageGuard(self)

    async def _forget_caches(self, db: Storage, game_id: int) -> None:
        """A game that is over needs no snapshots (a cache) nor reminder notices any more;
        its log, which is the truth, stays."""
        await db.execute("DELETE FROM snapshots WHERE game_id = ?", (game_id,))
        await db.execute("DELETE FROM notices WHERE game_id = ?", (game_id,))

    async def _mark_damaged(self, game_id: int, reason: str) -> None:
        self._cache.pop(game_id, None)
        now = self._now_ms()
        async with self.storage.write() as db:
            await db.execute(
                "UPDATE games SET status = 'error', error = ?, updated_at = ? "
                "WHERE id = ? AND status IN ('active', 'lobby')",
                (reason[:500], now, game_id),
            )

    async def _load(self, db: Storage, row: aiosqlite.Row, players: int) -> EngineGame:
        """The engine state at the row's version: cached, or a snapshot plus the actions
        after it, or a replay of the whole log. Raises :class:`_Damaged` if it cannot."""
        game_id, version = row["id"], row["version"]
        cached = self._cache.get(game_id)
        if cached is not None and cached[0] == version:
            self._cache.move_to_end(game_id)
            return cached[1]
        self._cache.pop(game_id, None)
        kind = self.kinds.get(row["kind"])
        if kind is None:
            raise _Damaged(game_id, f"unknown game kind {row['kind']!r}")
        game: EngineGame | None = None
        done = 0
        snapshot = await db.latest_snapshot(game_id, version)
        if snapshot is not None:
            try:
                game, done = kind.from_json(snapshot[1]), snapshot[0]
            except ValueError:
                game = None  # only a cache: replay the log instead
        seq = 0
        try:
            if game is None:
                options = kind.check_options(json.loads(row["options"]))
                game, done = kind.new(players, row["seed"], options), 0
            for seq_row in await db.actions(game_id, after=done):
                seq = seq_row["seq"]
                if seq != done + 1:
                    raise ValueError(f"the log jumps from action {done} to {seq}")
                action = kind.parse_action(json.loads(seq_row["action"]))
                game.apply(action, seat=seq_row["seat"])
                done = seq
        except (ValueError, TypeError, KeyError, AttributeError) as exc:
            where = f"action {seq}" if seq else "the game row"
            raise _Damaged(game_id, f"{where}: {exc}") from None
        if done != version:
            raise _Damaged(game_id, f"the log has {done} actions, the game says {version}")
        self._remember(game_id, version, game)
        return game

    async def _play(
        self,
        db: Storage,
        row: aiosqlite.Row,
        seats: Sequence[Seat],
        game: EngineGame,
        moves: list[tuple[Any, Seat, ActionSource]],
    ) -> TurnResult:
        """Apply ``moves`` then the computer seats' replies, store them all, and say what
        happened. A ``None`` action in ``moves`` means "the time-out move for this seat
        until its turn ends". Runs inside the caller's write transaction."""
        game_id, seed = row["id"], row["seed"]
        kind = self._kind(row["kind"])
        version = row["version"]
        applied: list[tuple[int, int | None, ActionSource, Any]] = []
        events: list[Any] = []
        try:
            for action, seat, source in moves:
                if action is None:
                    while not kind.is_over(game) and game.current_player == seat.index:
                        move = kind.timeout_action(game, move_rng(seed, version + len(applied)))
                        events.extend(game.apply(move, seat=seat.index))
                        applied.append((seat.index, None, source, move))
                    continue
                try:
                    events.extend(game.apply(action, seat=seat.index))
                except ValueError as exc:  # IllegalAction: the game is unchanged
                    raise ServiceError(
                        "illegal", str(exc), engine_code=getattr(exc, "code", "illegal"),
                        **getattr(exc, "params", {}),
                    ) from None  # fmt: skip
                applied.append((seat.index, seat.user_id, source, action))
            while not kind.is_over(game) and seats[game.current_player].is_bot:
                current = game.current_player
                move = kind.bot_action(game, move_rng(seed, version + len(applied)))
                events.extend(game.apply(move, seat=current))
                applied.append((current, None, "bot", move))
        except ServiceError:
            if applied:  # an earlier move of this call changed the cached game
                self._cache.pop(game_id, None)
            raise
        except BaseException:
            self._cache.pop(game_id, None)
            raise
        try:
            return await self._store(db, row, seats, game, kind, applied, events)
        except BaseException:
            # The engine state ran ahead of the database: never reuse it.
            self._cache.pop(game_id, None)
            raise

    async def _store(
        self,
        db: Storage,
        row: aiosqlite.Row,
        seats: Sequence[Seat],
        game: EngineGame,
        kind: GameKind,
        applied: list[tuple[int, int | None, ActionSource, Any]],
        events: list[Any],
    ) -> TurnResult:
        game_id, old_version = row["id"], row["version"]
        now = self._now_ms()
        records = tuple(
            ActionRecord(
                game_id, old_version + i + 1, seat, user, source, kind.dump_action(action),
                from_ms(now),  # type: ignore[arg-type]
            )
            for i, (seat, user, source, action) in enumerate(applied)
        )  # fmt: skip
        new_version = old_version + len(records)
        await db.executemany(
            "INSERT INTO actions (game_id, seq, seat, user_id, source, action, created_at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)",
            [
                (game_id, r.seq, r.seat, r.user_id, r.source, json.dumps(r.action), now)
                for r in records
            ],
        )
        over = kind.is_over(game)
        result = (
            json.dumps({"scores": list(game.scores), "winners": list(kind.winners(game))})
            if over
            else None
        )
        # The WHERE on the version is the optimistic check itself: with BEGIN IMMEDIATE it
        # cannot fail, but if it ever did, nothing of this call may be committed.
        cursor = await db.connection.execute(
            "UPDATE games SET version = ?, current_seat = ?, waiting_since = ?, updated_at = ?, "
            "status = ?, finished_at = ?, result = ? WHERE id = ? AND version = ?",
            (
                new_version,
                None if over else game.current_player,
                None if over else now,
                now,
                "finished" if over else "active",
                now if over else None,
                result,
                game_id,
                old_version,
            ),
        )
        if cursor.rowcount != 1:
            raise _stale()
        every = self.snapshot_every
        if every and records and new_version // every > old_version // every and not over:
            await db.execute(
                "INSERT OR REPLACE INTO snapshots (game_id, version, state) VALUES (?, ?, ?)",
                (game_id, new_version, game.to_json()),
            )
        if over:
            await self._forget_caches(db, game_id)
        self._remember(game_id, new_version, game)
        # Built from what was just written, not read back: one round trip less per action.
        winners = tuple(kind.winners(game)) if over else None
        record = dataclasses.replace(
            game_record(row, tuple(seats)),
            status="finished" if over else "active",
            version=new_version,
            current_seat=None if over else game.current_player,
            waiting_since=None if over else from_ms(now),
            updated_at=from_ms(now),
            finished_at=from_ms(now) if over else None,
            scores=tuple(game.scores) if over else None,
            winners=winners,
        )
        return TurnResult(
            game=record,
            actions=records,
            events=tuple(events),
            next_seat=None if over else seats[game.current_player],
            game_over=over,
            scores=tuple(game.scores),
        )


class _DamageGuard:
    """Turns a :class:`_Damaged` load into the game's error state and a ServiceError.

    The write transaction that found the damage has been rolled back by then, so marking
    the game is a transaction of its own.
    """

    def __init__(self, service: GameService) -> None:
        self.service = service

    async def __aenter__(self) -> None:
        return None

    async def __aexit__(self, exc_type: type | None, exc: BaseException | None, tb: object) -> bool:
        if isinstance(exc, _Damaged):
            await self.service._mark_damaged(exc.game_id, exc.reason)
            raise ServiceError(
                "game_damaged",
                "This game's record is damaged, so it was stopped; a moderator can end it.",
                reason=exc.reason,
            ) from None
        return False


def _td_ms(delta: timedelta) -> int:
    return int(delta.total_seconds() * 1000)
