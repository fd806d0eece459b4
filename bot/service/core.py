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

import asyncio
import dataclasses
import logging
import os
import secrets
import socket
from collections.abc import Collection, Mapping
from datetime import timedelta
from typing import Any, Literal

from bot.service.clock import Clock, SystemClock, from_ms, to_ms
from bot.service.common import SETTINGS_TTL, SNAPSHOT_EVERY, Limits, shards_of, td_ms
from bot.service.gamelog import Damaged, GameCache
from bot.service.models import GuildSettings, ModerationRecord, ServiceError
from bot.service.pace import CUSTOM, PACES, is_pace, pace_of, valid_zone
from bot.service.storage import Storage, Transaction
from bot.service.thinking import LEVELS, Budget, Thinker
from bot.service.zones import better_locale
from bot.settings import Settings
from engine import registry
from engine.rules import Rules

log = logging.getLogger("arkbot.service")


class Core:
    """The state and helpers the parts of the game service share (see the module)."""

    def __init__(
        self,
        storage: Storage,
        settings: Settings | None = None,
        clock: Clock | None = None,
        rules: Mapping[str, Rules[Any, Any]] | None = None,
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
        #: Games this process is ending or has ended before their end (a moderator, a
        #: stall), marked before the end is stored: a post composed before it looks at the
        #: stored status again (see :meth:`bot.service.posts.Posts.may_have_ended`).
        self.ending: set[int] = set()
        #: Guild settings read recently: guild id -> (read at, in ms; the settings).
        self._settings_cache: dict[int, tuple[int, GuildSettings]] = {}
        #: How often this process changed each guild's settings: a read that began before
        #: a change must not keep what it read (see recent_guild_settings).
        self._settings_changes: dict[int, int] = {}
        #: The shards whose guilds' background work is this process's (None: every guild).
        self.shards = shards_of(self.settings)
        #: This run of this process, as the claims name it after its place.
        self._run = f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(3)}"
        #: Who holds this process's claims, once it has its place (see :meth:`claimant`).
        self._holder: str | None = None
        self._claiming = asyncio.Lock()
        #: Where computer players think (see :mod:`bot.service.thinking`).
        self.thinker = thinker or Thinker(
            self.settings.think_workers,
            Budget(self.settings.think_seconds, self.settings.think_iterations),
        )

    @property
    def rules(self) -> Mapping[str, Rules[Any, Any]]:
        """Every game this service runs, by name (by default every registered game whose
        engine loads)."""
        if self._rules is not None:
            return self._rules
        return registry.playable()

    def game_rules(self, name: str) -> Rules[Any, Any]:
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

    async def claimant(self) -> str:
        """Who claims background work for this process, ``<place>/<host>:<pid>:<tag>``:
        call it right before each claim.

        Each process that claims holds a place on the database (see
        :meth:`Storage.hold_place <bot.service.storage.base.Storage.hold_place>`), which no
        other live process holds. So a claim in this process's place that is not its own
        was made by a process that has stopped (a crash, a kill, a crash loop at start-up):
        it is given back when the place is taken, and this process (or another) takes the
        work on at once instead of after the claim's lease. A live process's claims are
        never given back: they are in a place it still holds."""
        async with self._claiming:
            number, taken = await self.storage.hold_place()
            holder = f"{number}/{self._run}"
            if taken or holder != self._holder:
                self._holder = None  # until its predecessors' claims are given back
                async with self.storage.write() as tx:
                    released = await tx.notices.release(f"{number}/", holder)
                if released:
                    log.info(
                        "took place %s of a stopped process: %s of its claims given back",
                        number,
                        released,
                    )
                self._holder = holder
            return holder

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
        changes at once, even while a read of the old ones is on its way; other processes'
        within the TTL)."""
        now = self.now_ms()
        cached = self._settings_cache.get(guild_id)
        if cached is not None and now - cached[0] < td_ms(SETTINGS_TTL):
            return cached[1]
        changes = self._settings_changes.get(guild_id, 0)
        settings = await self.guild_settings(guild_id)
        if self._settings_changes.get(guild_id, 0) == changes:
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
        # The locale is what Discord says (note_locale), not a choice.
        names = {f.name for f in dataclasses.fields(GuildSettings)} - {"guild_id", "locale"}
        changes = _as_settings(changes)
        unknown = set(changes) - names
        if unknown:
            raise ServiceError("unknown_setting")
        async with self.storage.write() as tx:
            old = await self.guild_settings_in(tx, guild_id)
            new = dataclasses.replace(old, **changes)
            _check_settings(new, changes)
            if new == old:
                return new
            await tx.people.save_guild_settings(new)
            detail = {
                name: (value.total_seconds() if isinstance(value, timedelta) else value)
                for name, value in changes.items()
                if getattr(old, name) != value
            }
            await self.log_act(tx, guild_id, None, moderator_id, "settings", None, detail)
        self.settings_changed(new)
        return new

    async def note_locale(
        self, guild_id: int, guild_locale: str | None, user_locale: str | None
    ) -> None:
        """Keep the server's Discord locale (what its time zone is guessed from until a
        moderator sets one), as :func:`~bot.service.zones.better_locale` says, having seen a
        member with ``user_locale`` act in it; written only when it changed."""
        known = (await self.recent_guild_settings(guild_id)).locale
        if guild_id <= 0 or better_locale(known, guild_locale, user_locale) == known:
            return
        async with self.storage.write() as tx:
            noted = await self.note_locale_in(tx, guild_id, guild_locale, user_locale)
        self.settings_changed(noted)

    async def note_locale_in(
        self, tx: Transaction, guild_id: int, guild_locale: str | None, user_locale: str | None
    ) -> GuildSettings | None:
        """:meth:`note_locale` in the caller's write (the caller passes what it returns to
        :meth:`settings_changed` once it committed)."""
        old = await self.guild_settings_in(tx, guild_id)
        locale = better_locale(old.locale, guild_locale, user_locale)[:20]
        if guild_id <= 0 or locale == old.locale:
            return None
        new = dataclasses.replace(old, locale=locale)
        await tx.people.save_guild_settings(new)
        return new

    def settings_changed(self, new: GuildSettings | None) -> None:
        """Settings this process committed: it uses them from now on. A read of the old ones
        still on its way (another connection, before the commit) ends after this and keeps
        nothing."""
        if new is None:
            return
        guild_id = new.guild_id
        self._settings_changes[guild_id] = self._settings_changes.get(guild_id, 0) + 1
        self._settings_cache[guild_id] = (self.now_ms(), new)

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


#: What a moderator may choose: the languages public posts are written in (None: the
#: server's own), and the bounds of the durations. A waiting table closes after an hour to
#: thirty days, a silent game ends after a day to a year: both what the command offers, and
#: far inside what a ``timedelta`` and the database hold (a forged ``1e308`` is refused
#: before it is made a duration).
LANGUAGES = ("en", "nl", "es", "es-419")  # bot.i18n.LANGUAGES, which the service cannot import
LOBBY_HOURS = (1, 720)
STALL_DAYS = (1, 365)
TIMEOUT_ACTIONS = ("computer", "skip", "notify")


def _shown(value: object) -> str:
    """A forged value as a refusal may quote it: short, whatever was sent."""
    return (f"{value:g}" if isinstance(value, float) else str(value))[:40]


def _within(value: object, bounds: tuple[int, int]) -> bool:
    """``value`` is a number within ``bounds`` (NaN is not: every comparison with it fails)."""
    number = isinstance(value, int | float) and not isinstance(value, bool)
    return number and bounds[0] <= value <= bounds[1]  # type: ignore[operator]


def _as_settings(changes: Mapping[str, Any]) -> dict[str, Any]:
    """The changes as :class:`GuildSettings` names them: the command's ``lobby_hours`` and
    ``stall_days`` become durations, ``threads`` "on"/"off" a flag, each refused when out of
    range before it is converted (so no forged number can overflow)."""
    out = dict(changes)
    if "lobby_hours" in out:
        hours = out.pop("lobby_hours")
        if not _within(hours, LOBBY_HOURS):
            raise ServiceError("bad_lobby_hours", hours=_shown(hours), min=1, max=720)
        out["lobby_expiry"] = timedelta(hours=hours)
    if "stall_days" in out:
        days = out.pop("stall_days")
        if not _within(days, STALL_DAYS):
            raise ServiceError("bad_stall_days", days=_shown(days), min=1, max=365)
        out["stall_after"] = timedelta(days=days)
    if out.get("threads") in ("on", "off"):
        out["threads"] = out["threads"] == "on"
    return out


def _check_settings(settings: GuildSettings, names: Collection[str]) -> None:
    """Refuse settings no server can have (a clock that does not exist, 25 o'clock...), each
    with its own reason and the value that was wrong. Only the ``names`` being changed are
    checked: a value stored under older rules does not block changing another."""
    _check_clock(settings, names)
    _check_posts(settings, names)
    _check_durations(settings, names)


def _check_clock(settings: GuildSettings, names: Collection[str]) -> None:
    """The pace, what a time-out does, and the computer that may take a seat over."""
    if "pace" in names and settings.timezone is None and "timezone" not in names:
        chosen = pace_of(settings.pace) if is_pace(settings.pace) else None
        if chosen is not None and chosen.sleeps:
            # Its clock stops in the server's night and school hours: they must be the
            # server's own, not a guess.
            raise ServiceError("pace_needs_timezone", zone=settings.zone())
    if "pace" in names and not is_pace(settings.pace):
        pace = _shown(settings.pace)
        if settings.pace.startswith(CUSTOM):
            raise ServiceError("bad_custom_pace", pace=pace)
        raise ServiceError("bad_pace", pace=pace, known=", ".join(PACES))
    if "timeout_action" in names and settings.timeout_action not in TIMEOUT_ACTIONS:
        raise ServiceError(
            "bad_timeout_action",
            action=_shown(settings.timeout_action),
            known=", ".join(TIMEOUT_ACTIONS),
        )
    if "computer_level" in names and settings.computer_level not in LEVELS:
        raise ServiceError(
            "bad_computer_level", level=_shown(settings.computer_level), known=", ".join(LEVELS)
        )


def _check_posts(settings: GuildSettings, names: Collection[str]) -> None:
    """Where and in which language the bot posts, and when it keeps quiet."""
    if "language" in names and settings.language not in (None, *LANGUAGES):
        raise ServiceError(
            "bad_language", language=_shown(settings.language), known=", ".join(LANGUAGES)
        )
    zone = settings.timezone
    if "timezone" in names and not (isinstance(zone, str) and valid_zone(zone)):
        raise ServiceError("bad_timezone", zone=_shown(settings.timezone))
    for name in ("quiet_start", "quiet_end", "busy_start", "busy_end"):
        hour = getattr(settings, name)
        if name in names and not (
            isinstance(hour, int) and not isinstance(hour, bool) and 0 <= hour < 24
        ):
            raise ServiceError("bad_quiet_hour", hour=_shown(hour))
    if "threads" in names and not isinstance(settings.threads, bool):
        raise ServiceError("bad_threads", value=_shown(settings.threads))
    role = settings.moderator_role_id
    forged = not isinstance(role, int) or isinstance(role, bool) or role <= 0
    if "moderator_role_id" in names and role is not None and forged:
        raise ServiceError("bad_role")


def _check_durations(settings: GuildSettings, names: Collection[str]) -> None:
    """How long a waiting table and a silent game are kept."""
    lobby = settings.lobby_expiry
    if "lobby_expiry" in names and not timedelta(hours=LOBBY_HOURS[0]) <= lobby <= timedelta(
        hours=LOBBY_HOURS[1]
    ):
        hours = lobby.total_seconds() / 3600
        raise ServiceError("bad_lobby_hours", hours=_shown(hours), min=1, max=720)
    stall = settings.stall_after
    if "stall_after" in names and not timedelta(days=STALL_DAYS[0]) <= stall <= timedelta(
        days=STALL_DAYS[1]
    ):
        days = stall.total_seconds() / 86400
        raise ServiceError("bad_stall_days", days=_shown(days), min=1, max=365)
