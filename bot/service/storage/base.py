"""The storage interface of the game service: every query it needs, and nothing of SQL.

The service opens a transaction (:meth:`Storage.read` or :meth:`Storage.write`) and calls
the queries of its parts (:mod:`.parts`): ``tx.games``, ``tx.log``, ``tx.people`` and
``tx.notices``. A backend (:mod:`bot.service.storage.sqlite`, the embedded default, or
:mod:`bot.service.storage.postgres`) implements the two classes here and each part, run
against the same tests.

A write transaction is serialisable for the game rows it touches: the version read at its
start cannot change before its commit, in this process or any other (SQLite: ``BEGIN
IMMEDIATE``; a server database: a row lock). Everything returned is a plain value from
:mod:`bot.service.models`.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager

from bot.service.storage.parts import GameLog, GameRows, Notices, People, Seasons
from bot.service.storage.values import (
    GAME_FIELDS,
    Advance,
    ChannelBusy,
    DueGame,
    NewGame,
    StorageError,
)

__all__ = [
    "GAME_FIELDS",
    "Advance",
    "AsyncTransactions",
    "ChannelBusy",
    "DueGame",
    "NewGame",
    "Storage",
    "StorageError",
    "Transaction",
]


class Transaction(ABC):
    """One transaction: its queries in five parts over the same connection."""

    #: A game's row and seats.
    games: GameRows
    #: A game's actions, snapshots and caches.
    log: GameLog
    #: Pings, time away, ratings, guild settings and the moderation log.
    people: People
    #: Turn notices, announcements and computer turns.
    notices: Notices
    #: Seasons, their members and the games they dealt.
    seasons: Seasons

    @abstractmethod
    def on_commit(self, callback: Callable[[], None]) -> None:
        """Call ``callback`` once this (write) transaction has committed; never if not."""


class Storage(ABC):
    """One database, with its schema brought up to date."""

    #: Test hook: called inside a write transaction right before it commits. A test makes
    #: it raise (or kill the process) to simulate a crash between write and commit.
    before_commit: Callable[[], None] | None = None

    @abstractmethod
    def read(self) -> AbstractAsyncContextManager[Transaction]:
        """A few reads, each of committed data."""

    @abstractmethod
    def write(self) -> AbstractAsyncContextManager[Transaction]:
        """One write transaction: committed if the block ends normally, else rolled back."""

    @abstractmethod
    async def hold_place(self) -> tuple[int, bool]:
        """This process's place on the database: a number no other open storage (of this
        process or another) holds while this one does, the lowest free one when taken; and
        whether it was taken just now. Taken at the first call and held until
        :meth:`close`; a place lost meanwhile (PostgreSQL: the session that held it ended)
        is taken again, or another one if that is gone. Whoever held a place before its
        holder now has stopped (see :meth:`bot.service.core.Core.claimant`)."""

    @abstractmethod
    async def close(self) -> None:
        """Close it, giving up its place (a second call does nothing)."""

    @property
    @abstractmethod
    def closed(self) -> bool: ...


AsyncTransactions = AsyncIterator[Transaction]
