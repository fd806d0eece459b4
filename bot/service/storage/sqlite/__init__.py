"""The embedded backend: one SQLite file through aiosqlite.

:mod:`.storage` opens the file, migrates it and runs its transactions; each part of a
transaction has a module of its own (:mod:`.games`, :mod:`.log`, :mod:`.people`,
:mod:`.notices`) over the statements they share (:mod:`.statements`). The numbered
migrations are :mod:`bot.service.storage.sqlite_schema`.
"""

from bot.service.storage.sqlite.storage import SqliteStorage, SqliteTransaction

__all__ = ["SqliteStorage", "SqliteTransaction"]
