"""A connection lost in the middle of a transaction, told apart from a statement that was
wrong.

The server ends a session when it restarts or an administrator terminates it
(``pg_terminate_backend``), and a network breaks; asyncpg then says so in several ways: an
error of class 08 (connection exception) or 57P (the server shut the session down), a broken
socket, or an :class:`asyncpg.InterfaceError` on a connection that is closed, or that the
pool took back because it closed. Each is raised again as :class:`ConnectionLost`, so that
the background rounds can treat it as the expected race it is and run again on a fresh
connection, while a real mistake (a statement refused, two coroutines on one connection)
stays the error it was.
"""

from __future__ import annotations

import asyncpg

from bot.service.storage.values import ConnectionLost

__all__ = [
    "BROKEN_AT_BEGIN",
    "NO_CONNECTION",
    "SESSION_ENDED",
    "ConnectionLost",
    "connection_gone",
]


#: Errors that mean the server ended the session, whatever the statement was.
SESSION_ENDED: tuple[type[BaseException], ...] = (
    asyncpg.PostgresConnectionError,  # class 08: the connection does not exist, failed...
    asyncpg.AdminShutdownError,  # 57P01: pg_terminate_backend, a fast shutdown
    asyncpg.CrashShutdownError,  # 57P02
    asyncpg.CannotConnectNowError,  # 57P03: the server is starting or stopping
)

#: Errors of a BEGIN on a connection just taken from the pool that say it is broken: nothing
#: else has used it, so these are not a misuse of ours.
BROKEN_AT_BEGIN: tuple[type[BaseException], ...] = (
    *SESSION_ENDED,
    asyncpg.InterfaceError,
    asyncpg.InternalClientError,
    OSError,
)

#: Errors of taking a connection from the pool that mean none is to be had just now.
NO_CONNECTION: tuple[type[BaseException], ...] = (
    *SESSION_ENDED,
    asyncpg.TooManyConnectionsError,  # 53300: the server's max_connections are all taken
    OSError,  # refused, unreachable
    TimeoutError,  # the pool's connect timeout
)


def connection_gone(connection: asyncpg.Connection, error: BaseException) -> bool:
    """Whether ``error``, raised in a transaction on ``connection`` (still acquired from the
    pool), says the connection is gone rather than that something was wrong with what was
    asked of it."""
    if isinstance(error, SESSION_ENDED):
        return True
    if isinstance(error, (asyncpg.InterfaceError, asyncpg.InternalClientError, OSError)):
        # asyncpg's words both for a closed connection and for a misuse of an open one
        # ("another operation is in progress", which is also what a statement meets when the
        # server's farewell came in just before it), and a broken socket might be another
        # one's: only when this connection is closed is it a lost connection.
        try:
            return bool(connection.is_closed())
        except asyncpg.InterfaceError:
            return True  # given back to the pool under us: the pool does so when it closed
    return False
