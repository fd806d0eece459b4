"""The server backend: PostgreSQL through asyncpg, for several bot processes on one database.

:mod:`.storage` holds the pool, migrates and runs the transactions; each part of a
transaction has a module of its own (:mod:`.games`, :mod:`.log`, :mod:`.people`,
:mod:`.notices`) over the :class:`~.session.Session` they share. The numbered migrations are
:mod:`bot.service.storage.postgres_schema`.

A :class:`PostgresStorage` holds a small pool of connections; each transaction takes one, so
the coroutines of a process run their transactions side by side (SQLite's one connection
runs them one after another). What the service relies on (see
:mod:`bot.service.storage.base`) is kept so:

- **Writes** run in READ COMMITTED and lock every game they read (``SELECT ... FOR UPDATE``)
  *before* reading it, in a statement of its own: a statement that waited for the lock then
  reads the game (seats included) as committed by the transaction it waited for. So the
  version that ``advance`` checks cannot change before commit, and two joins cannot both
  rewrite the seats from the same old list.
- **Reads** are one REPEATABLE READ, READ ONLY transaction: a game's row and its log come
  from one snapshot, even while another process appends to that log.
- **Notices** (reminders, time-outs, stall warnings) are written with their game's row
  locked first, in the same order as every other write of the game (the game, then the
  rest): a claim of a notice in one process and its marking as sent in another, each
  holding one of the two rows and waiting for the other, deadlocked.
- **Claims** of background work take rows with ``FOR UPDATE SKIP LOCKED``: a process
  claiming never waits for another's claim, and never gets the same rows.
- The partial unique index on open games per channel raises :class:`ChannelBusy`.
- A transaction whose **connection is lost** (the server restarted or ended the session)
  raises :class:`ConnectionLost` (:mod:`.lost`), never asyncpg's complaint about a
  transaction it can no longer end; the background rounds run again on it.
"""

from bot.service.storage.postgres.lost import ConnectionLost
from bot.service.storage.postgres.storage import (
    PostgresStorage,
    PostgresTransaction,
    redacted,
)

__all__ = ["ConnectionLost", "PostgresStorage", "PostgresTransaction", "redacted"]
