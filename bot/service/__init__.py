"""The game service: games in a database, played through the engines, with no Discord in it.

>>> from bot.service import GameService   # await GameService.open(path) in a coroutine
"""

from bot.service.clock import Clock, FakeClock, SystemClock
from bot.service.common import NO_LIMITS, Limits, move_rng
from bot.service.may_act import may_act
from bot.service.models import (
    ActionRecord,
    DueTurn,
    Estimate,
    GameRecord,
    GuildSettings,
    GuildStats,
    ModerationRecord,
    Seat,
    TurnResult,
)
from bot.service.refusals import ServiceError
from bot.service.service import GameService
from bot.service.storage import SCHEMA_VERSION, Storage

__all__ = [
    "NO_LIMITS",
    "SCHEMA_VERSION",
    "ActionRecord",
    "Clock",
    "DueTurn",
    "Estimate",
    "FakeClock",
    "GameRecord",
    "GameService",
    "GuildSettings",
    "GuildStats",
    "Limits",
    "ModerationRecord",
    "Seat",
    "ServiceError",
    "Storage",
    "SystemClock",
    "TurnResult",
    "may_act",
    "move_rng",
]
