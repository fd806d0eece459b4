"""Settings of the bot, read once from the environment.

Only the Discord layer needs the token; the game service needs the database path and the
defaults a guild has until its moderators change them. Everything is read through
:meth:`Settings.from_env` so that tests pass a plain dict instead of patching ``os.environ``.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path

DEFAULT_DB = "./arkbot.sqlite3"
DEFAULT_REMINDER_HOURS = 12.0
DEFAULT_TIMEOUT_HOURS = 72.0


class SettingsError(ValueError):
    """An environment variable holds a value that cannot be used."""


def _optional_int(environ: Mapping[str, str], name: str) -> int | None:
    raw = environ.get(name, "").strip()
    if not raw:
        return None
    try:
        return int(raw)
    except ValueError:
        raise SettingsError(f"{name} must be a number (a Discord id), not {raw!r}") from None


def _positive(environ: Mapping[str, str], name: str, default: float, unit: str) -> float:
    """A number above 0 from ``name``, or ``default`` when it is unset."""
    raw = environ.get(name, "").strip()
    if not raw:
        return default
    try:
        value = float(raw)
    except ValueError:
        raise SettingsError(f"{name} must be a number of {unit}, not {raw!r}") from None
    if value <= 0:
        raise SettingsError(f"{name} must be more than 0 {unit}, not {raw!r}")
    return value


def _hours(environ: Mapping[str, str], name: str, default: float) -> timedelta:
    return timedelta(hours=_positive(environ, name, default, "hours"))


def _count(environ: Mapping[str, str], name: str, default: int) -> int:
    raw = environ.get(name, "").strip()
    if not raw:
        return default
    if not raw.isdigit():
        raise SettingsError(f"{name} must be a whole number (0 or more), not {raw!r}")
    return int(raw)


@dataclass(frozen=True, slots=True)
class Settings:
    """What the bot needs to run.

    ``reminder_delay`` and ``turn_timeout`` are the defaults of a guild that has not set its
    own (see :class:`bot.service.models.GuildSettings`).
    """

    discord_token: str | None = None
    db_path: Path = Path(DEFAULT_DB)
    dev_guild: int | None = None
    reminder_delay: timedelta = timedelta(hours=DEFAULT_REMINDER_HOURS)
    turn_timeout: timedelta = timedelta(hours=DEFAULT_TIMEOUT_HOURS)
    #: How often the bot looks for reminders and time-outs that are due.
    poll_seconds: float = 60.0
    #: Worker processes that draw pictures (0: threads of the bot's own process).
    render_workers: int = 1
    log_level: str = "INFO"
    #: For tests only: a fake Discord's REST base and gateway URL (never set in production).
    discord_api: str | None = None
    discord_gateway: str | None = None

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> Settings:
        """Read ``DISCORD_TOKEN``, ``ARKBOT_DB``, ``ARKBOT_DEV_GUILD``,
        ``ARKBOT_REMINDER_HOURS``, ``ARKBOT_TIMEOUT_HOURS``, ``ARKBOT_POLL_SECONDS``,
        ``ARKBOT_RENDER_WORKERS`` and ``ARKBOT_LOG_LEVEL`` (all optional here; the Discord
        layer refuses to start without a token). ``ARKBOT_DISCORD_API`` and
        ``ARKBOT_DISCORD_GATEWAY`` point the bot at a fake Discord in end-to-end tests and
        are never set in production.
        """
        env = os.environ if environ is None else environ
        reminder = _hours(env, "ARKBOT_REMINDER_HOURS", DEFAULT_REMINDER_HOURS)
        timeout = _hours(env, "ARKBOT_TIMEOUT_HOURS", DEFAULT_TIMEOUT_HOURS)
        if timeout <= reminder:
            raise SettingsError("the turn time-out must be longer than the reminder delay")
        return cls(
            discord_token=env.get("DISCORD_TOKEN", "").strip() or None,
            db_path=Path(env.get("ARKBOT_DB", "").strip() or DEFAULT_DB),
            dev_guild=_optional_int(env, "ARKBOT_DEV_GUILD"),
            reminder_delay=reminder,
            turn_timeout=timeout,
            poll_seconds=_positive(env, "ARKBOT_POLL_SECONDS", 60.0, "seconds"),
            render_workers=_count(env, "ARKBOT_RENDER_WORKERS", 1),
            log_level=(env.get("ARKBOT_LOG_LEVEL", "").strip() or "INFO").upper(),
            discord_api=env.get("ARKBOT_DISCORD_API", "").strip() or None,
            discord_gateway=env.get("ARKBOT_DISCORD_GATEWAY", "").strip() or None,
        )
