"""Settings of the bot, read once from the environment.

Only the Discord layer needs the token; the game service needs the database (a SQLite file, or
a PostgreSQL URL), the defaults a guild has until its moderators change them, and which
Discord shards this process serves. Everything is read through
:meth:`Settings.from_env` so that tests pass a plain dict instead of patching ``os.environ``.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path

from bot.paces import DEFAULT_PACE, pace_of

DEFAULT_DB = "./arkbot.sqlite3"
#: How long a process's claim on background work (a reminder, a missed post) keeps other
#: processes off it: a process that dies holding one has it done by another after this.
DEFAULT_CLAIM_SECONDS = 600.0
#: How long a player may take back the turn they just played (issue 40.5), in seconds.
DEFAULT_TAKE_BACK_SECONDS = 30
#: What Discord allows for one bot (shard ids are 0 to count - 1).
MAX_SHARDS = 10_000
#: ``ARKBOT_DB`` values that name a PostgreSQL server instead of a file.
POSTGRES_SCHEMES = ("postgresql://", "postgres://")


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


def _database(environ: Mapping[str, str]) -> str | Path:
    raw = environ.get("ARKBOT_DB", "").strip() or DEFAULT_DB
    # A URL stays a string: a Path would fold its "//".
    return raw if raw.startswith(POSTGRES_SCHEMES) else Path(raw)


def _shard_ids(raw: str, count: int) -> tuple[int, ...]:
    """``"0,2"`` or ``"0-3"`` (or both, ``"0-1,4"``) into sorted shard ids below ``count``."""
    ids: list[int] = []
    for part in raw.replace(" ", "").split(","):
        low, dash, high = part.partition("-")
        if not (low.isdigit() and (not dash or high.isdigit())):
            raise SettingsError(
                f"ARKBOT_SHARD_IDS must list shard numbers like 0,1 or 0-3, not {raw!r}"
            )
        first, last = int(low), int(high) if dash else int(low)
        if last < first:
            raise SettingsError(f"ARKBOT_SHARD_IDS: the range {part!r} runs backwards")
        ids.extend(range(first, last + 1))
    if len(set(ids)) != len(ids):
        raise SettingsError(f"ARKBOT_SHARD_IDS names a shard twice: {raw!r}")
    outside = [i for i in ids if i >= count]
    if outside:
        raise SettingsError(
            f"ARKBOT_SHARD_IDS: shard {outside[0]} does not exist with ARKBOT_SHARD_COUNT="
            f"{count} (shards are numbered 0 to {count - 1})"
        )
    return tuple(sorted(ids))


def _shards(environ: Mapping[str, str]) -> tuple[int | None, tuple[int, ...] | None]:
    """(shard count, this process's shard ids); (None, None): Discord's recommended count,
    all of them in this process."""
    raw_count = environ.get("ARKBOT_SHARD_COUNT", "").strip()
    raw_ids = environ.get("ARKBOT_SHARD_IDS", "").strip()
    if not raw_count:
        if raw_ids:
            raise SettingsError(
                "ARKBOT_SHARD_IDS needs ARKBOT_SHARD_COUNT too: the number of shards of all "
                "processes together, the same in each"
            )
        return None, None
    if not raw_count.isdigit() or not 1 <= int(raw_count) <= MAX_SHARDS:
        raise SettingsError(
            f"ARKBOT_SHARD_COUNT must be a whole number from 1 to {MAX_SHARDS}, not {raw_count!r}"
        )
    count = int(raw_count)
    if not raw_ids:
        return count, tuple(range(count))
    return count, _shard_ids(raw_ids, count)


@dataclass(frozen=True, slots=True)
class Settings:
    """What the bot needs to run.

    ``pace`` is the clock of a guild that has not chosen its own (see
    :mod:`bot.service.pace` and :class:`bot.service.models.GuildSettings`). ``db_path`` is
    a SQLite file, or a ``postgresql://`` URL (a string).
    """

    discord_token: str | None = None
    db_path: Path | str = Path(DEFAULT_DB)
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
    #: The shards of all processes together, and this process's; ``None``: Discord's
    #: recommended count, every shard in this one process.
    shard_count: int | None = None
    shard_ids: tuple[int, ...] | None = None
    #: See :data:`DEFAULT_CLAIM_SECONDS`.
    claim_lease: timedelta = timedelta(seconds=DEFAULT_CLAIM_SECONDS)
    #: Worker processes where computer players think (0: a thread of the bot's process),
    #: how long they think per move, or exactly how many search iterations (then a move
    #: is the same on every run: for tests and the demo; ``None``: by the clock).
    think_workers: int = 1
    think_seconds: float = 1.0
    think_iterations: int | None = None
    #: How long a player may take back the turn they just played from their "Done!"
    #: message (issue 40.5): the turn is posted, and the next player told, when it is over.
    #: Zero: no take-back, every turn is posted at once.
    take_back: timedelta = timedelta(seconds=DEFAULT_TAKE_BACK_SECONDS)

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> Settings:
        """Read ``DISCORD_TOKEN``, ``ARKBOT_DB``, ``ARKBOT_DEV_GUILD``,
        ``ARKBOT_PACE``, ``ARKBOT_POLL_SECONDS``, ``ARKBOT_RENDER_WORKERS``,
        ``ARKBOT_LOG_LEVEL``, ``ARKBOT_SHARD_COUNT``, ``ARKBOT_SHARD_IDS`` and
        ``ARKBOT_CLAIM_SECONDS``, ``ARKBOT_AI_WORKERS``, ``ARKBOT_AI_SECONDS`` and
        ``ARKBOT_AI_ITERATIONS``, ``ARKBOT_TAKE_BACK_SECONDS`` (all optional here; the Discord
        layer refuses to start without a token). ``ARKBOT_DISCORD_API`` and
        ``ARKBOT_DISCORD_GATEWAY`` point the bot at a fake Discord in end-to-end tests and
        are never set in production.
        """
        env = os.environ if environ is None else environ
        pace = env.get("ARKBOT_PACE", "").strip().lower() or DEFAULT_PACE
        try:
            pace_of(pace)
        except ValueError as exc:
            raise SettingsError(f"ARKBOT_PACE={pace!r}: {exc}") from None
        shard_count, shard_ids = _shards(env)
        claim = _positive(env, "ARKBOT_CLAIM_SECONDS", DEFAULT_CLAIM_SECONDS, "seconds")
        return cls(
            discord_token=env.get("DISCORD_TOKEN", "").strip() or None,
            db_path=_database(env),
            dev_guild=_optional_int(env, "ARKBOT_DEV_GUILD"),
            pace=pace,
            poll_seconds=_positive(env, "ARKBOT_POLL_SECONDS", 60.0, "seconds"),
            render_workers=_count(env, "ARKBOT_RENDER_WORKERS", 1),
            log_level=(env.get("ARKBOT_LOG_LEVEL", "").strip() or "INFO").upper(),
            discord_api=env.get("ARKBOT_DISCORD_API", "").strip() or None,
            discord_gateway=env.get("ARKBOT_DISCORD_GATEWAY", "").strip() or None,
            shard_count=shard_count,
            shard_ids=shard_ids,
            claim_lease=timedelta(seconds=claim),
            think_workers=_count(env, "ARKBOT_AI_WORKERS", 1),
            think_seconds=_positive(env, "ARKBOT_AI_SECONDS", 1.0, "seconds"),
            think_iterations=_count(env, "ARKBOT_AI_ITERATIONS", 0) or None,
            take_back=timedelta(
                seconds=_count(env, "ARKBOT_TAKE_BACK_SECONDS", DEFAULT_TAKE_BACK_SECONDS)
            ),
        )
