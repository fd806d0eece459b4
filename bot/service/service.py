"""The game service: everything the table asks of games, without Discord, for every game.

Commands stay thin (parse, call one method here, format the reply); the service owns the
rules around the engines: lobbies, whose turn it is, the log, moderation, reminders and
time-outs, history and statistics. It knows no game: each game's
:class:`~bot.games.base.GameRules` runs its engine. Users are Discord user ids (ints) with
the display names the caller passes; whether a user is a moderator is decided by the caller
and passed in as ``moderator=True``.

:class:`GameService` holds what every part shares (the storage, the settings, the clock,
the limits, the caches, the thinker) and composes the parts, each a small class of its own
module given the service: ``service.lobby`` (:mod:`bot.service.lobby`), ``service.play``
(:mod:`bot.service.play`), ``service.computers``, ``service.moderation``,
``service.notices`` (reminders, time-outs, stalled games, away), ``service.posts`` (what the
channel has seen, message ids) and ``service.history``.

Decisions worth knowing:

- **A removed player's seat is taken over by a computer player**, not frozen. Frozen pieces
  would leave the seat's turn with nobody to play it: every other player would wait for a
  time-out at each round, and the scores of a seat that never moves again would still
  decide majorities. A computer keeps the game moving at the table's pace, its moves are
  plausible, and they are stored like any other action (``source = "bot"``), so replays and
  history show exactly what happened. If no human is left, the game is ended instead.
- **The log is the truth.** An action is checked against the engine before it is written,
  then written in the same write transaction as the game's version bump (with the computer
  players' replies that follow it). A stale ``expected_version`` is refused with "That
  turn was already played." Snapshots are a cache, always taken where a turn begins (so the
  turn in progress can be told from the actions after it); a damaged one is ignored.
- **One click, one write.** The engine game of each busy game is cached in memory with the
  events of the turn in progress, keyed by version; ``play.act`` reads the game's row (one
  statement), applies the move to the cached game and writes the log and the row in one
  transaction, and returns the new state and the whole turn so far. The log is replayed only
  when the cache misses (a restart, another process's write, an evicted game), from the
  latest snapshot. A move that needs no public post (a step in the middle of a turn) is
  recorded as seen by the channel in that same transaction.
- **A damaged game stops alone.** If its row or log cannot be read or replayed, that game
  is put in status ``"error"`` with the reason (moderators see it in
  ``moderation.damaged_games`` and can end it); every other game keeps working.
- **Reminders are claimed, then marked sent.** ``notices.due`` offers a turn until its
  notice is marked sent; a claim hides it from other callers for a lease, so a process that
  dies while sending has it sent again after the lease rather than never.
- **Background work is claimed in the database, and done for this process's shards.** With
  several bot processes over one database (``settings.shard_ids``), each looks only at the
  guilds on its own shards (their channels are in its cache, their interactions come to it),
  and still claims every piece, so two processes that serve the same shard for a moment (a
  rolling restart, a mistake in the settings) do it once: reminders and time-outs by their
  notice, a missed post by a lease on the game (``posts.claim_missed``), an expired lobby by
  locking it while it is closed (``lobby.expire_lobbies``).
"""

from __future__ import annotations

import dataclasses
import os
import secrets
import socket
from collections.abc import Awaitable, Callable, Mapping
from datetime import timedelta
from pathlib import Path
from typing import Any, Literal

from bot.games import GameRules, plugins
from bot.service.clock import Clock, SystemClock, from_ms, to_ms
from bot.service.common import (
    ANNOUNCE_GRACE,
    NO_LIMITS,
    SETTINGS_TTL,
    SNAPSHOT_EVERY,
    Limits,
    move_rng,
    shards_of,
    td_ms,
)
from bot.service.computers import Computers
from bot.service.gamelog import Damaged, GameCache
from bot.service.history import History
from bot.service.lobby import Lobby
from bot.service.models import (
    GuildSettings,
    ModerationRecord,
    ServiceError,
    TurnResult,
)
from bot.service.moderation import Moderation
from bot.service.notices import Notices
from bot.service.pace import PACES, is_pace, valid_zone
from bot.service.play import Play
from bot.service.posts import Posts
from bot.service.storage import Storage, Transaction, open_storage
from bot.service.thinking import LEVELS, Budget, Thinker
from bot.settings import Settings

# Kept importable from here, where they were defined before the service was split.
__all__ = ["ANNOUNCE_GRACE", "NO_LIMITS", "GameService", "Limits", "move_rng"]


class GameService:
    """Lobby, play, moderation, time and history of every game, on one database: the
    shared core, with each concern a part (``service.lobby``, ``service.play``, ...)."""

    def __init__(
        self,
        storage: Storage,
        settings: Settings | None = None,
        clock: Clock | None = None,
        rules: Mapping[str, GameRules] | None = None,
        cache_size: int = 256,
        snapshot_every: int | None = SNAPSHOT_EVERY,
        limits: Limits | None = None,
        thinker: Thinker | None = None,
    ) -> None:
        self.storage = storage
        self.settings = settings or Settings()
        self.clock: Clock = clock or SystemClock()
        self._rules = rules
        self.snapshot_every = snapshot_every
        self.limits = limits or Limits()
        #: The engine games of busy games (see :mod:`bot.service.gamelog`).
        self.cache = GameCache(cache_size)
        #: Guild settings read recently: guild id -> (read at, in ms; the settings).
        self._settings_cache: dict[int, tuple[int, GuildSettings]] = {}
        #: The shards whose guilds' background work is this process's (None: every guild).
        self.shards = shards_of(self.settings)
        #: Who holds this process's claims (shown in the lease columns, for whoever looks).
        self.holder = f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(3)}"
        #: Where computer players think (see :mod:`bot.service.thinking`).
        self.thinker = thinker or Thinker(
            self.settings.think_workers,
            Budget(self.settings.think_seconds, self.settings.think_iterations),
        )
        #: Called with each computer turn stored in the background (the table posts it).
        self.on_computer_turn: Callable[[TurnResult], Awaitable[None]] | None = None
        self.lobby = Lobby(self)
        self.play = Play(self)
        self.computers = Computers(self)
        self.moderation = Moderation(self)
        self.notices = Notices(self)
        self.posts = Posts(self)
        self.history = History(self)

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
        storage = await open_storage(path if path is not None else settings.db_path)
        return cls(storage, settings, clock, **kwargs)

    async def close(self) -> None:
        await self.computers.stop()
        self.thinker.close()
        if not self.storage.closed:
            await self.posts.flush_posted()
        await self.storage.close()

    async def __aenter__(self) -> GameService:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()

    @property
    def rules(self) -> Mapping[str, GameRules]:
        """Every game this service runs, by name (all registered games by default)."""
        if self._rules is not None:
            return self._rules
        return {name: p.rules for name, p in plugins().items()}

    def game_rules(self, name: str) -> GameRules:
        """The rules of the game called ``name``, or the refusal that there is none."""
        rules = self.rules.get(name)
        if rules is None:
            raise ServiceError("unknown_kind", f"There is no game called {name!r}.")
        return rules

    def forget(self, game_id: int | None = None) -> None:
        """Drop one game (or all) from the in-memory cache."""
        self.cache.drop(game_id)

    def now_ms(self) -> int:
        return to_ms(self.clock.now())

    @property
    def lease_ms(self) -> int:
        """How long a claim of background work holds, in ms (``settings.claim_lease``)."""
        return td_ms(self.settings.claim_lease)

    def guard(self) -> _DamageGuard:
        """A context that turns a damaged game met inside it into the game's error state and
        a ServiceError (see :class:`_DamageGuard`)."""
        return _DamageGuard(self)

    async def log_act(
        self,
        tx: Transaction,
        guild_id: int,
        game_id: int | None,
        moderator_id: int,
        act: str,
        target: int | None,
        detail: dict[str, Any],
    ) -> None:
        """Write a moderation act (or the bot's own, ``moderator_id`` 0) to the guild's log."""
        now = from_ms(self.now_ms())
        assert now is not None
        await tx.log_moderation(
            ModerationRecord(0, guild_id, game_id, moderator_id, act, target, detail, now)
        )

    # ================================================================ guild settings

    async def guild_settings(self, guild_id: int) -> GuildSettings:
        """The guild's settings, or the defaults from :class:`Settings`."""
        async with self.storage.read() as tx:
            return await self.guild_settings_in(tx, guild_id)

    async def guild_settings_in(self, tx: Transaction, guild_id: int) -> GuildSettings:
        """:meth:`guild_settings`, read in the caller's transaction."""
        found = await tx.guild_settings(guild_id)
        if found is None:
            return GuildSettings(guild_id, pace=self.settings.pace)
        return found

    async def recent_guild_settings(self, guild_id: int) -> GuildSettings:
        """The guild's settings as read at most :data:`SETTINGS_TTL` ago (for what every post
        needs, such as its language, without a read per post; this process sees its own
        changes at once, other processes' within the TTL)."""
        now = self.now_ms()
        cached = self._settings_cache.get(guild_id)
        if cached is not None and now - cached[0] < td_ms(SETTINGS_TTL):
            return cached[1]
        settings = await self.guild_settings(guild_id)
        self._settings_cache[guild_id] = (now, settings)
        return settings

    async def set_guild_settings(
        self, guild_id: int, moderator_id: int, *, moderator: bool, **changes: Any
    ) -> GuildSettings:
        """Change some of the guild's settings (moderators only; names as in
        :class:`GuildSettings`); logged when something changed. ``moderator_role_id`` and
        ``language`` may be set to None (no role; the server's own language)."""
        if not moderator:
            raise ServiceError("not_allowed", "Only a moderator can change the settings.")
        names = {f.name for f in dataclasses.fields(GuildSettings)} - {"guild_id"}
        unknown = set(changes) - names
        if unknown:
            raise ServiceError("bad_setting", f"Unknown settings: {sorted(unknown)}.")
        async with self.storage.write() as tx:
            old = await self.guild_settings_in(tx, guild_id)
            new = dataclasses.replace(old, **changes)
            _check_settings(new)
            if new == old:
                return new
            await tx.save_guild_settings(new)
            self._settings_cache.pop(guild_id, None)
            detail = {
                name: (value.total_seconds() if isinstance(value, timedelta) else value)
                for name, value in changes.items()
                if getattr(old, name) != value
            }
            await self.log_act(tx, guild_id, None, moderator_id, "settings", None, detail)
            return new

    async def _mark_damaged(self, game_id: int, reason: str) -> None:
        self.cache.drop(game_id)
        now = self.now_ms()
        async with self.storage.write() as tx:
            record = await tx.game(game_id)
            if record is not None and record.status in ("active", "lobby"):
                await tx.update_game(game_id, status="error", error=reason[:500], updated_at=now)


class _DamageGuard:
    """Turns a :class:`~bot.service.gamelog.Damaged` load into the game's error state and a
    ServiceError.

    The write transaction that found the damage has been rolled back by then, so marking
    the game is a transaction of its own.
    """

    def __init__(self, service: GameService) -> None:
        self.service = service

    async def __aenter__(self) -> None:
        return None

    async def __aexit__(
        self, exc_type: type | None, exc: BaseException | None, tb: object
    ) -> Literal[False]:  # never swallows an error: a damaged game is raised as a refusal
        if isinstance(exc, Damaged):
            await self.service._mark_damaged(exc.game_id, exc.reason)
            raise ServiceError(
                "game_damaged",
                "This game's record is damaged, so it was stopped; a moderator can end it.",
                reason=exc.reason,
            ) from None
        return False


def _check_settings(settings: GuildSettings) -> None:
    """Refuse settings no server can have (a clock that does not exist, 25 o'clock...)."""
    problem = None
    if not is_pace(settings.pace):
        problem = f"The pace is one of {', '.join(PACES)}."
    elif settings.timeout_action not in ("computer", "skip", "notify"):
        problem = "The time-out action is 'computer', 'skip' or 'notify'."
    elif settings.computer_level not in LEVELS:
        problem = f"A computer plays at one of the levels {', '.join(LEVELS)}."
    elif not valid_zone(settings.timezone):
        problem = f"{settings.timezone[:40]!r} is not a time zone (try Europe/Amsterdam)."
    elif not (0 <= settings.quiet_start < 24 and 0 <= settings.quiet_end < 24):
        problem = "Quiet hours run from one o'clock of the day (0 to 23) to another."
    elif settings.stall_after < timedelta(days=1):
        problem = "A game may wait a day at least before it counts as stalled."
    elif settings.lobby_expiry <= timedelta(0):
        problem = "Waiting tables must get some time."
    if problem is not None:
        raise ServiceError("bad_setting", problem)
