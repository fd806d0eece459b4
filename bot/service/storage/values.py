"""The plain values the storage interface takes and gives back, and its two errors.

They live apart from the interfaces (:mod:`.base`, :mod:`.parts`) so that both, and every
backend, can import them without importing each other.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.service.models import GameRecord


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
    """A game's row after a move: what :meth:`GameRows.advance` writes."""

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

    record: GameRecord
    sent: tuple[str, ...]


#: Columns of the games row that :meth:`GameRows.update` may set.
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
        "practice",
        "rematch_of",
        "last_move_at",
        "lease_until",
        "take_back_until",
        "take_back",
    }
)


class ConnectionLost(Exception):
    """A transaction's database connection was lost before it ended (a driver tells it
    apart from a statement that was wrong: see :mod:`bot.service.storage.postgres.lost`).
    Nothing was committed, unless it was lost during the COMMIT itself (``committing``: then
    the writes may be there): what is retried after it must be safe to do twice, as the
    claims of background work are, unless it was lost before the COMMIT."""

    def __init__(self, message: str, *, committing: bool = False) -> None:
        super().__init__(message)
        self.committing = committing
