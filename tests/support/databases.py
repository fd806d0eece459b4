"""Test databases of both backends: a SQLite file, or a fresh PostgreSQL schema.

PostgreSQL is found at ``ARKBOT_TEST_POSTGRES`` (default ``postgresql://127.0.0.1:5432/test``,
the local server of the development machines and CI). Each test gets a schema of its own,
named on the URL's ``search_path`` and dropped afterwards, so tests (and engineers) running
at the same time never meet. Without a server the PostgreSQL cases are skipped with the
reason, unless ``ARKBOT_REQUIRE_POSTGRES=1`` (set by ``.ci/run``) makes that a failure.

:class:`RawDb` runs SQL on a test database behind the service's back (to damage a row, or
to look at one), with ``?`` placeholders on both backends.
"""

from __future__ import annotations

import os
import re
import secrets
import sqlite3
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import aiosqlite
import pytest

DEFAULT_SERVER = "postgresql://127.0.0.1:5432/test"
#: The schema version table of each backend, as a raw statement sets it.
_SET_VERSION = {
    "sqlite": "PRAGMA user_version = {n}",
    "postgres": "UPDATE arkbot_schema SET version = {n}",
}


def server_url() -> str:
    return os.environ.get("ARKBOT_TEST_POSTGRES", "").strip() or DEFAULT_SERVER


def required() -> bool:
    """Whether a missing PostgreSQL fails the run (CI) rather than skipping its cases."""
    return os.environ.get("ARKBOT_REQUIRE_POSTGRES", "").strip() not in ("", "0")


_unreachable: list[str] = []  # the reason, once the server was found missing


def unavailable(reason: str) -> None:
    """Skip this PostgreSQL case, or fail it where PostgreSQL is required."""
    if required():
        pytest.fail(f"PostgreSQL is required (ARKBOT_REQUIRE_POSTGRES=1): {reason}")
    pytest.skip(f"no PostgreSQL server: {reason}")


async def _connect(url: str) -> Any:
    import asyncpg

    return await asyncpg.connect(url, timeout=5)


@asynccontextmanager
async def fresh_schema(prefix: str = "arkbot_test") -> AsyncIterator[str]:
    """A new empty schema on the test server: yields the ``ARKBOT_DB`` URL that uses it,
    and drops it (with everything in it) afterwards. Skips (or fails) without a server."""
    if _unreachable:
        unavailable(_unreachable[0])
    base = server_url()
    try:
        admin = await _connect(base)
    except Exception as exc:  # refused, unknown host, no such database, no login: all "no"
        _unreachable.append(f"{base}: {exc}")
        unavailable(_unreachable[0])
    schema = f"{prefix}_{secrets.token_hex(6)}"
    try:
        await admin.execute(f"CREATE SCHEMA {schema}")
        glue = "&" if "?" in base else "?"
        yield f"{base}{glue}search_path={schema}"
    finally:
        await admin.execute(f"DROP SCHEMA IF EXISTS {schema} CASCADE")
        await admin.close()


@asynccontextmanager
async def database(backend: str, folder: Path) -> AsyncIterator[str | Path]:
    """A database target for ``GameService.open``: a file in ``folder``, or a fresh schema."""
    if backend == "sqlite":
        yield folder / "arkbot.sqlite3"
        return
    async with fresh_schema() as url:
        yield url


def backend_of(target: str | Path) -> str:
    return "postgres" if str(target).startswith(("postgresql://", "postgres://")) else "sqlite"


class RawDb:
    """SQL on a test database, on a connection of its own (autocommit)."""

    #: What a broken constraint raises, on either backend.
    integrity_errors: tuple[type[Exception], ...] = (sqlite3.IntegrityError,)

    def __init__(self, target: str | Path) -> None:
        self.target = target
        self.backend = backend_of(target)
        if self.backend == "postgres":
            import asyncpg

            self.integrity_errors = (asyncpg.IntegrityConstraintViolationError,)

    @asynccontextmanager
    async def _connection(self) -> AsyncIterator[Any]:
        if self.backend == "sqlite":
            async with aiosqlite.connect(self.target, isolation_level=None) as connection:
                # As the bot's own connection has it (test_sqlite_pragmas checks that one).
                await connection.execute("PRAGMA foreign_keys = ON")
                yield connection
        else:
            connection = await _connect(str(self.target))
            try:
                yield connection
            finally:
                await connection.close()

    def _sql(self, sql: str) -> str:
        if self.backend == "sqlite":
            return sql
        numbers = iter(range(1, 100))
        return re.sub(r"\?", lambda _: f"${next(numbers)}", sql)

    async def rows(self, sql: str, *params: Any) -> list[Sequence[Any]]:
        async with self._connection() as connection:
            if self.backend == "sqlite":
                return list(await connection.execute_fetchall(sql, params))
            return list(await connection.fetch(self._sql(sql), *params))

    async def scalar(self, sql: str, *params: Any) -> Any:
        rows = await self.rows(sql, *params)
        return rows[0][0] if rows else None

    async def execute(self, sql: str, *params: Any) -> None:
        async with self._connection() as connection:
            if self.backend == "sqlite":
                await connection.execute(sql, params)
            else:
                await connection.execute(self._sql(sql), *params)

    async def schema_version(self) -> int:
        if self.backend == "sqlite":
            return int(await self.scalar("PRAGMA user_version"))
        return int(await self.scalar("SELECT version FROM arkbot_schema"))

    async def set_schema_version(self, number: int) -> None:
        await self.execute(_SET_VERSION[self.backend].format(n=int(number)))
