"""A process's place on a PostgreSQL database: a session advisory lock ``(space, number)``,
held on a connection of its own while the process claims work there.

``space`` is the schema's (tests give every case a schema of its own on one server). The
server ends the lock with its session: when the process ends (however: the socket closes
with it), and also when the session alone ends while the process lives (an administrator's
``pg_terminate_backend``, a server restart, a cut connection). So before each claim the
place is looked at (one round trip on its connection): lost, it is taken again, the same
number if still free. Should a process starting in that moment have taken it meanwhile, it
took the claims in it too (see :meth:`bot.service.core.Core.claimant`) while the first may
still be finishing the piece it had in hand: a board posted twice carries the same nonce,
which Discord answers with the first message, and a computer's move stored twice is refused
by the version check.
"""

from __future__ import annotations

import asyncio
from itertools import chain

import asyncpg

from bot.service.storage.postgres.lost import NO_CONNECTION, SESSION_ENDED, ConnectionLost
from bot.service.storage.values import StorageError

#: More places than processes ever share one database.
MAX_PLACES = 1000
#: How long the place's connection may take to answer (or to open) before it counts as lost.
ANSWER_SECONDS = 10.0


class SessionPlace:
    """The lowest free place on the database at ``url`` (``where``: the URL as logs show it),
    held until :meth:`close`."""

    def __init__(self, url: str, where: str) -> None:
        self._url = url
        self._where = where
        self._connection: asyncpg.Connection | None = None
        self._number: int | None = None
        self._closed = False
        #: One look at the place at a time: its connection runs one statement at a time.
        self._lock = asyncio.Lock()

    async def hold(self) -> tuple[int, bool]:
        """The place held: (its number, whether it was taken just now)."""
        async with self._lock:
            if self._closed:
                raise StorageError(f"{self._where} is closed")
            if self._connection is not None and self._number is not None:
                if await _answers(self._connection):
                    return self._number, False
                self._connection.terminate()
                self._connection = None
            try:
                connection = await asyncpg.connect(self._url, timeout=ANSWER_SECONDS)
            except NO_CONNECTION as exc:
                raise ConnectionLost(f"{self._where}: {exc}") from exc
            try:
                number = await self._take(connection)
            except BaseException as exc:
                connection.terminate()
                if isinstance(exc, SESSION_ENDED | OSError | TimeoutError):
                    raise ConnectionLost(f"{self._where}: {exc}") from exc
                raise
            self._connection, self._number = connection, number
            return number, True

    async def _take(self, connection: asyncpg.Connection) -> int:
        space = await connection.fetchval("SELECT hashtext('arkbot:place:' || current_schema())")
        # The place held before first: claims of this process in it stay its own.
        again = () if self._number is None else (self._number,)
        for number in chain(again, range(MAX_PLACES)):
            if await connection.fetchval("SELECT pg_try_advisory_lock($1, $2)", space, number):
                return number
        raise StorageError(f"{MAX_PLACES} processes already use {self._where}")

    async def close(self) -> None:
        """Give the place up (its session ends, and the lock with it), for good."""
        async with self._lock:
            self._closed = True
            connection, self._connection = self._connection, None
            if connection is None:
                return
            try:
                await asyncio.wait_for(connection.close(), ANSWER_SECONDS)
            except (asyncpg.PostgresError, asyncpg.InterfaceError, OSError, TimeoutError):
                connection.terminate()


async def _answers(connection: asyncpg.Connection) -> bool:
    """Whether the place's session is still there (and so its lock): a half-open connection
    (the server ended it, the network broke) fails or stays silent."""
    if connection.is_closed():
        return False
    try:
        await connection.fetchval("SELECT 1", timeout=ANSWER_SECONDS)
    except (asyncpg.PostgresError, asyncpg.InterfaceError, OSError, TimeoutError):
        return False
    return True
