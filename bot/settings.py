"""Settings of the bot, read once from the environment.

Only the Discord layer needs the token; the game service needs the database path and the
defaults a guild has until its moderators change them. Everything is read through
:meth:`Settings.from_env` so that tests pass a plain dict instead of patching ``os.environ``.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

DEFAULT_DB = "./arkbot.sqlite3"


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

    ``pace`` is the clock of a guild that has not chosen its own (see
    :mod:`bot.service.pace` and :class:`bot.service.models.GuildSettings`).
    """

    discord_token: str | None = None
    db_path: Path = Path(DEFAULT_DB)
    dev_guild: int | None = None
    pace: str = "normal"
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
        ``ARKBOT_PACE``, ``ARKBOT_POLL_SECONDS``,
        ``ARKBOT_RENDER_WORKERS`` and ``ARKBOT_LOG_LEVEL`` (all optional here; the Discord
        layer refuses to start without a token). ``ARKBOT_DISCORD_API`` and
        ``ARKBOT_DISCORD_GATEWAY`` point the bot at a fake Discord in end-to-end tests and
        are never set in production.
        """
        env = os.environ if environ is None else environ
        from bot.service.pace import DEFAULT_PACE, PACES  # the service imports this module

        pace = env.get("ARKBOT_PACE", "").strip().lower() or DEFAULT_PACE
        if pace not in PACES:
            raise SettingsError(f"ARKBOT_PACE must be one of {', '.join(PACES)}, not {pace!r}")
        return cls(
            discord_token=env.get("DISCORD_TOKEN", "").strip() or None,
            db_path=Path(env.get("ARKBOT_DB", "").strip() or DEFAULT_DB),
            dev_guild=_optional_int(env, "ARKBOT_DEV_GUILD"),
            pace=pace,
            poll_seconds=_positive(env, "ARKBOT_POLL_SECONDS", 60.0, "seconds"),
            render_workers=_count(env, "ARKBOT_RENDER_WORKERS", 1),
            log_level=(env.get("ARKBOT_LOG_LEVEL", "").strip() or "INFO").upper(),
            discord_api=env.get("ARKBOT_DISCORD_API", "").strip() or None,
            discord_gateway=env.get("ARKBOT_DISCORD_GATEWAY", "").strip() or None,
        )
