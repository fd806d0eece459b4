"""What the parts of the game service share: limits, timings, and small helpers over a
transaction. Nothing here holds state; :class:`~bot.service.core.Core` does."""

from __future__ import annotations

import functools
import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from datetime import timedelta
from typing import Any, ParamSpec, TypeVar

from bot.service.models import GameRecord, Seat, ServiceError, Shards
from bot.service.pace import next_due, night_of, schedule
from bot.service.storage import ConnectionLost, Transaction
from bot.settings import Settings
from engine.common.rng import Rng

#: Missed posts claimed at once by one process (the rest wait for its next round).
CLAIM_BATCH = 100
#: Snapshot a game at the first turn boundary at least this many actions after the last one
#: (``None``: never).
SNAPSHOT_EVERY = 64
#: How long a stored move may wait for its announcement before it counts as missed.
ANNOUNCE_GRACE = timedelta(minutes=2)
#: How long a process trusts the guild settings it read (see recent_guild_settings).
SETTINGS_TTL = timedelta(seconds=60)
#: The shortest time a server may let a game wait before it counts as stalled.
MIN_STALL = timedelta(days=1)
#: A post Discord refused is tried again after 1, 2, 4, ... minutes, at most this long.
MAX_POST_BACKOFF = timedelta(hours=6)
#: A post that failed on Discord's side (a 5xx: it may well work a moment later, and
#: Discord's guidance allows a retry) is tried again after 2, 4, 8, ... seconds instead.
FIRST_SERVER_RETRY = timedelta(seconds=2)
_MASK = (1 << 64) - 1


@dataclass(frozen=True, slots=True)
class Limits:
    """How much one user may open: lobbies waiting for players (per user, per server), a
    cool-down between new tables, and games going beyond the number they have finished."""

    lobbies_per_user: int = 3
    lobbies_per_guild: int = 25
    cooldown: timedelta = timedelta(seconds=20)
    extra_open_games: int = 3


#: No limits to speak of (for tools and tests that set up many tables at once).
NO_LIMITS = Limits(10**6, 10**6, timedelta(0), 10**6)


def move_rng(seed: int, version: int) -> Rng:
    """The generator for the computer's move at ``version`` of a game.

    Derived from the game's seed and position, so every process (and every retry) picks the
    same move; the move is stored anyway, so replays never depend on it.
    """
    return Rng((seed * 0x9E3779B97F4A7C15 + version * 0xBF58476D1CE4E5B9 + 1) & _MASK)


def think_seed(record: GameRecord) -> int:
    """The seed a computer thinks with at this point of the game: every process (and every
    retry) thinks the same, so a turn thought twice is the same turn."""
    return (record.seed * 0x9E3779B97F4A7C15 + record.version + 1) & 0x7FFFFFFF


def stale() -> ServiceError:
    return ServiceError("stale")


def td_ms(delta: timedelta) -> int:
    return int(delta.total_seconds() * 1000)


def next_due_at(
    clock: dict[str, Any] | None,
    seat: Seat,
    index: int,
    turn_start_ms: int,
    now_ms: int,
    sent: Sequence[str],
) -> int | None:
    """When the next notice of ``seat``'s turn falls due (None: no clock, or a computer's)."""
    if clock is None or seat.user_id is None or seat.is_bot:
        return None
    times = schedule(clock["banks"][index], turn_start_ms, now_ms, seat.away, night_of(clock))
    return next_due(times, sent)


def shards_of(settings: Settings) -> Shards | None:
    count, ids = settings.shard_count, settings.shard_ids
    if count is None or ids is None or tuple(ids) == tuple(range(count)):
        return None  # every shard is this process's: no guild to leave out
    return Shards(count, tuple(ids))


async def record_of(tx: Transaction, game_id: int) -> GameRecord:
    """The game's row, or the refusal that there is no such game."""
    record = await tx.games.get(game_id)
    if record is None:
        raise ServiceError("no_game")
    return record


_P = ParamSpec("_P")
_T = TypeVar("_T")
log = logging.getLogger("arkbot.service")


def once_more_if_lost(
    work: Callable[_P, Awaitable[_T]],
) -> Callable[_P, Awaitable[_T]]:
    """``work`` (one transaction, or reads and then one write) run once more, on a fresh
    connection, when its database connection was lost before its COMMIT: nothing of it was
    kept, so a player's tap meets a cut connection (a database restart, a network cut) as a
    short wait, not as an error. Lost during the COMMIT, the writes may be there: that is
    raised, not done twice."""

    @functools.wraps(work)
    async def once_more(*args: _P.args, **kwargs: _P.kwargs) -> _T:
        try:
            return await work(*args, **kwargs)
        except ConnectionLost as lost:
            if lost.committing:
                raise
            log.warning("%s lost its database connection; once more: %s", work.__name__, lost)
        return await work(*args, **kwargs)

    return once_more
