"""The shared core of the game service: what every part of it reads and calls, held once.

The parts (:mod:`bot.service.lobby`, :mod:`bot.service.play`, ...) are each given the
:class:`Core` and import it from here; :class:`~bot.service.service.GameService` makes the
core and the parts and sits above them all. So the parts need nothing from the module that
composes them, and the imports of the service run one way (core <- parts <- service).

Held here: the storage, the settings, the clock, the games' rules, the limits, the cache of
engine games, the guild settings (read by the parts, changed by moderators), the shards and
claim holder of this process, and the thinker; and the helpers every part uses over them
(the time now, the claim lease, the damage guard, the moderation log)."""

from __future__ import annotations

import dataclasses
import os
import secrets
import socket
from collections.abc import Mapping
from datetime import timedelta
from typing import Any, Literal

from bot.games import GameRules, plugins
from bot.service.clock import Clock, SystemClock, from_ms, to_ms
from bot.service.common import SETTINGS_TTL, SNAPSHOT_EVERY, Limits, shards_of, td_ms
from bot.service.gamelog import Damaged, GameCache
from bot.service.models import GuildSettings, ModerationRecord, ServiceError
from bot.service.pace import PACES, is_pace, valid_zone
from bot.service.storage import Storage, Transaction
from bot.service.thinking import LEVELS, Budget, Thinker
from bot.settings import Settings


class Core:
    """The state and helpers the parts of the game service share (see the module)."""

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
            raise ServiceError("unknown_game")
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
        await tx.people.log_moderation(
            ModerationRecord(0, guild_id, game_id, moderator_id, act, target, detail, now)
        )

    # ================================================================ guild settings

    async def guild_settings(self, guild_id: int) -> GuildSettings:
        """The guild's settings, or the defaults from :class:`Settings`."""
        async with self.storage.read() as tx:
            return await self.guild_settings_in(tx, guild_id)

    async def guild_settings_in(self, tx: Transaction, guild_id: int) -> GuildSettings:
        """:meth:`guild_settings`, read in the caller's transaction."""
        found = await tx.people.guild_settings(guild_id)
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
            raise ServiceError("not_allowed")
        names = {f.name for f in dataclasses.fields(GuildSettings)} - {"guild_id"}
        unknown = set(changes) - names
        if unknown:
            raise ServiceError("unknown_setting")
        async with self.storage.write() as tx:
            old = await self.guild_settings_in(tx, guild_id)
            new = dataclasses.replace(old, **changes)
            _check_settings(new)
            if new == old:
                return new
            await tx.people.save_guild_settings(new)
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
            record = await tx.games.get(game_id)
            if record is not None and record.status in ("active", "lobby"):
                await tx.games.update(game_id, status="error", error=reason[:500], updated_at=now)


class _DamageGuard:
    """Turns a :class:`~bot.service.gamelog.Damaged` load into the game's error state and a
    ServiceError.

    The write transaction that found the damage has been rolled back by then, so marking
    the game is a transaction of its own.
    """

    def __init__(self, core: Core) -> None:
        self.core = core

    async def __aenter__(self) -> None:
        return None

    async def __aexit__(
        self, exc_type: type | None, exc: BaseException | None, tb: object
    ) -> Literal[False]:  # never swallows an error: a damaged game is raised as a refusal
        if isinstance(exc, Damaged):
            await self.core._mark_damaged(exc.game_id, exc.reason)
            raise ServiceError(
                "game_damaged",
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
        raise ServiceError("bad_setting")
