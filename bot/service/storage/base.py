"""The storage interface of the game service: every query it needs, and nothing of SQL.

The service opens a transaction (:meth:`Storage.read` or :meth:`Storage.write`) and calls
the :class:`Transaction`'s methods; a backend (:mod:`bot.service.storage.sqlite`, the
embedded default) implements them. A second backend is one new module implementing these
two classes, run against the same tests.

A write transaction is serialisable for the game rows it touches: the version read at its
start cannot change before its commit, in this process or any other (SQLite: ``BEGIN
IMMEDIATE``; a server database: a row lock). Everything returned is a plain value from
:mod:`bot.service.models`.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from typing import Any

from bot.service.models import (
    ActionRecord,
    GameRecord,
    GuildSettings,
    ModerationRecord,
    Rating,
    Seat,
    Shards,
)


class ChannelBusy(Exception):
    """A second open game in one channel was refused by the database itself."""


class StorageError(Exception):
    """The database cannot be used; the message says which and what to do."""


@dataclass(frozen=True, slots=True)
class NewGame:
    """The row of a new lobby."""

    guild_id: int
    channel_id: int
    game_name: str
    seed: int
    options: str
    shuffle_seats: bool
    creator_id: int
    now_ms: int


@dataclass(frozen=True, slots=True)
class Advance:
    """A game's row after a move: what :meth:`Transaction.advance` writes."""

    version: int
    current_seat: int | None
    waiting_since_ms: int | None
    status: str
    finished_at_ms: int | None
    result: str | None
    #: The version the channel has seen; a move that needs no public post (mid-turn) is
    #: announced by the same transaction that stores it.
    announced: int | None
    now_ms: int
    #: The newest board post, when one went out since the game's last write.
    board_message_id: int | None = None
    #: The lobby's message, when it was posted since the game's last write.
    lobby_message_id: int | None = None
    #: A post went out since the game's last write: forget any earlier refusal.
    posted: bool = False
    #: The game's clock after the move, and when the next notice of the turn falls due.
    clock: str | None = None
    next_due_ms: int | None = None


@dataclass(frozen=True, slots=True)
class DueGame:
    """An active game whose next notice fell due, and the notices of this turn already sent
    (or being sent)."""

    game: GameRecord
    sent: tuple[str, ...]


class Transaction(ABC):
    """The queries of one transaction."""

    @abstractmethod
    def on_commit(self, callback: Callable[[], None]) -> None:
        """Call ``callback`` once this (write) transaction has committed; never if not."""

    # ------------------------------------------------------------ games

    @abstractmethod
    async def game(self, game_id: int) -> GameRecord | None:
        """A game with its seats (one round trip)."""

    @abstractmethod
    async def open_game(self, channel_id: int) -> GameRecord | None:
        """The game in status lobby, active or error of a channel (or played in a thread
        ``channel_id``), if any."""

    @abstractmethod
    async def last_game(self, channel_id: int) -> GameRecord | None:
        """The channel's newest game, whatever its status."""

    @abstractmethod
    async def games(self, guild_id: int, statuses: Sequence[str]) -> list[GameRecord]:
        """The guild's games in ``statuses``, oldest first."""

    @abstractmethod
    async def lobbies(
        self, shards: Shards | None = None, *, claim: bool = False
    ) -> list[GameRecord]:
        """Every game in status lobby (of guilds on ``shards``, if given). ``claim`` (in a
        write transaction): each is this transaction's until it commits, and lobbies that
        another transaction holds are left out rather than waited for."""

    @abstractmethod
    async def lobby_counts(self, guild_id: int, user_id: int) -> tuple[int, int, int | None]:
        """(lobbies open by ``user_id`` anywhere, lobbies open in the guild, when the user
        opened the newest of their open lobbies, in ms)."""

    @abstractmethod
    async def insert_game(self, game: NewGame) -> int:
        """A new lobby row; raises :class:`ChannelBusy` if the channel has an open game."""

    @abstractmethod
    async def update_game(self, game_id: int, **fields: Any) -> None:
        """Set some columns of a game's row (names from :data:`GAME_FIELDS`)."""

    @abstractmethod
    async def advance(self, game_id: int, old_version: int, row: Advance) -> bool:
        """Write a game's new state if its version is still ``old_version`` (the optimistic
        check); False if it was not."""

    @abstractmethod
    async def set_seats(self, game_id: int, seats: Sequence[Seat]) -> None:
        """Write the seats anew (a lobby renumbers them, a start reorders them)."""

    @abstractmethod
    async def update_seat(self, game_id: int, seat: Seat) -> None:
        """Change who plays one seat."""

    # ------------------------------------------------------------ the log

    @abstractmethod
    async def append_actions(self, records: Sequence[ActionRecord]) -> None:
        """Add actions to their game's log."""

    @abstractmethod
    async def actions(self, game_id: int, after: int = 0) -> list[ActionRecord]:
        """The game's actions after ``after``, in order."""

    @abstractmethod
    async def save_snapshot(self, game_id: int, version: int, state: str, digest: str) -> None:
        """Keep the engine's JSON at ``version`` with a digest that checks it."""

    @abstractmethod
    async def latest_snapshot(self, game_id: int, version: int) -> tuple[int, str, str] | None:
        """The newest snapshot at or before ``version``: (its version, the JSON, the digest)."""

    @abstractmethod
    async def forget_caches(self, game_id: int) -> None:
        """Drop a finished game's snapshots and notices (its log stays)."""

    # ------------------------------------------------------------ moderation and settings

    @abstractmethod
    async def log_moderation(self, record: ModerationRecord) -> None: ...

    @abstractmethod
    async def moderation_log(self, guild_id: int, limit: int) -> list[ModerationRecord]:
        """The guild's latest moderation acts, newest first."""

    @abstractmethod
    async def guild_settings(self, guild_id: int) -> GuildSettings | None: ...

    @abstractmethod
    async def save_guild_settings(self, settings: GuildSettings) -> None: ...

    @abstractmethod
    async def ping(self, user_id: int) -> str:
        """How a user wants to hear it is their turn ("channel" unless they said)."""

    # ------------------------------------------------------------ reminders and time-outs

    @abstractmethod
    async def due_games(
        self, now_ms: int, lease_ms: int, shards: Shards | None = None
    ) -> list[DueGame]:
        """Active games (of guilds on ``shards``, if given) with a human current seat whose
        next notice is due at ``now_ms``, with the notices of the turn sent (or claimed
        after ``lease_ms``: being sent)."""

    @abstractmethod
    async def games_of_user(self, user_id: int, statuses: Sequence[str]) -> list[GameRecord]:
        """The games ``user_id`` has a seat in, in the given statuses."""

    @abstractmethod
    async def quiet_games(self, before_ms: int, shards: Shards | None = None) -> list[GameRecord]:
        """Active games (of guilds on ``shards``, if given) whose last move was made at or
        before ``before_ms``."""

    @abstractmethod
    async def set_away(self, user_id: int, start_ms: int | None, until_ms: int | None) -> None:
        """A user's time away (None, None: back)."""

    @abstractmethod
    async def set_ping(self, user_id: int, ping: str) -> None:
        """How a user wants to be told it is their turn: channel, dm or both."""

    @abstractmethod
    async def ratings(self, guild_id: int, game_name: str) -> list[Rating]:
        """A server's ratings in one game, best first."""

    @abstractmethod
    async def save_ratings(self, guild_id: int, game_name: str, ratings: Sequence[Rating]) -> None:
        """Write these players' ratings (others stay)."""

    @abstractmethod
    async def claim_notice(
        self, game_id: int, version: int, user_id: int, kind: str, now_ms: int, stale_ms: int
    ) -> bool:
        """Reserve a notice unless it was sent or is claimed since after ``stale_ms``."""

    @abstractmethod
    async def notice_sent(self, game_id: int, version: int, user_id: int, kind: str) -> bool:
        """Whether that notice went out."""

    @abstractmethod
    async def mark_notice_sent(
        self, game_id: int, version: int, user_id: int, kind: str, now_ms: int
    ) -> None: ...

    # ------------------------------------------------------------ announcements

    @abstractmethod
    async def mark_announced(self, game_id: int, version: int) -> None:
        """The channel has seen the game up to ``version`` (never lowers it); a claim on
        the game's post ends once that is its latest version (as with every new version)."""

    @abstractmethod
    async def unannounced(
        self, before_ms: int, now_ms: int, shards: Shards | None = None
    ) -> list[int]:
        """Active or finished games changed at or before ``before_ms`` whose latest
        version the channel has not seen (and whose failed post is due for another try at
        ``now_ms``), oldest change first; of guilds on ``shards``, if given."""

    @abstractmethod
    async def claim_unannounced(
        self,
        before_ms: int,
        now_ms: int,
        until_ms: int,
        holder: str,
        shards: Shards | None = None,
        limit: int = 100,
    ) -> list[int]:
        """Lease up to ``limit`` of the games :meth:`unannounced` lists whose lease has run
        out: they are ``holder``'s to post until ``until_ms``. Games that another
        transaction is claiming at this moment are skipped, not waited for."""

    @abstractmethod
    async def claim_computer_turns(
        self,
        before_ms: int,
        now_ms: int,
        until_ms: int,
        holder: str,
        shards: Shards | None = None,
        limit: int = 100,
    ) -> list[int]:
        """Lease up to ``limit`` active games whose turn is a computer's and that have not
        changed since ``before_ms`` (nobody is thinking for them: a process died while it
        did), as :meth:`claim_unannounced` leases its games."""

    # ------------------------------------------------------------ statistics

    @abstractmethod
    async def finished_games(self, guild_id: int) -> list[GameRecord]:
        """The guild's finished games with their results."""


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
    async def close(self) -> None:
        """Close it (a second call does nothing)."""

    @property
    @abstractmethod
    def closed(self) -> bool: ...


#: Columns of the games row that :meth:`Transaction.update_game` may set.
GAME_FIELDS = frozenset(
    {
        "status",
        "creator_id",
        "current_seat",
        "waiting_since",
        "version",
        "started_at",
        "finished_at",
        "updated_at",
        "error",
        "announced",
        "lobby_message_id",
        "board_message_id",
        "post_error",
        "post_failures",
        "post_retry_at",
        "options",
        "clock",
        "next_due_at",
        "thread_id",
        "rematch_of",
        "last_move_at",
        "lease_until",
    }
)

AsyncTransactions = AsyncIterator[Transaction]
