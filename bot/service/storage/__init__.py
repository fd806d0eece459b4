"""Where the game service keeps games: an interface (:mod:`.base`, a transaction of four
parts: :mod:`.parts`) and its backends, each a package with a module per part.

``open_storage(target)`` picks the backend from the target (``ARKBOT_DB``): a
``postgresql://`` URL opens PostgreSQL (:mod:`.postgres`, through asyncpg, for several bot
processes on one database); anything else is a file path and opens SQLite, the embedded
default that needs no server.
"""

from __future__ import annotations

from pathlib import Path

from bot.service.storage.base import (
    GAME_FIELDS,
    Advance,
    ChannelBusy,
    DueGame,
    NewGame,
    Storage,
    StorageError,
    Transaction,
)
from bot.service.storage.parts import GameLog, GameRows, Notices, People
from bot.service.storage.sqlite import SqliteStorage
from bot.service.storage.sqlite_schema import SCHEMA_VERSION
from bot.service.storage.values import ConnectionLost
from bot.settings import POSTGRES_SCHEMES

__all__ = [
    "GAME_FIELDS",
    "SCHEMA_VERSION",
    "Advance",
    "ChannelBusy",
    "ConnectionLost",
    "DueGame",
    "GameLog",
    "GameRows",
    "NewGame",
    "Notices",
    "People",
    "SqliteStorage",
    "Storage",
    "StorageError",
    "Transaction",
    "is_postgres",
    "open_storage",
]


def is_postgres(target: str | Path) -> bool:
    """Whether ``target`` names a PostgreSQL database rather than a SQLite file."""
    return isinstance(target, str) and target.startswith(POSTGRES_SCHEMES)


async def open_storage(target: str | Path) -> Storage:
    """The database at ``target`` (a ``postgresql://`` URL, or a SQLite file's path), migrated
    to the current schema."""
    if is_postgres(target):
        # Imported here: a SQLite bot never loads the PostgreSQL driver.
        from bot.service.storage.postgres import PostgresStorage

        return await PostgresStorage.open(str(target))
    return await SqliteStorage.open(target)
