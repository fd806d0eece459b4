"""Where the game service keeps games: an interface (:mod:`.base`) and its backends.

``open_storage(target)`` picks the backend from the target: a file path opens SQLite, the
embedded default that needs nothing installed.
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
from bot.service.storage.sqlite import SqliteStorage
from bot.service.storage.sqlite_schema import SCHEMA_VERSION

__all__ = [
    "GAME_FIELDS",
    "SCHEMA_VERSION",
    "Advance",
    "ChannelBusy",
    "DueGame",
    "NewGame",
    "SqliteStorage",
    "Storage",
    "StorageError",
    "Transaction",
    "open_storage",
]


async def open_storage(target: str | Path) -> Storage:
    """The database at ``target`` (a file path: SQLite), migrated to the current schema."""
    return await SqliteStorage.open(target)
