"""Immutable records the service hands to its callers.

They are plain values (frozen dataclasses) so the Discord layer can keep them, format them
and pass them back without being able to change the service's state by accident.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass, field, fields
from datetime import datetime, timedelta
from typing import Any, ClassVar, Literal

from bot.games.base import TurnRecord

GameStatus = Literal["lobby", "active", "finished", "ended", "error"]
#: Statuses that hold a channel: at most one game per channel may be in one of them.
OPEN_STATUSES: tuple[GameStatus, ...] = ("lobby", "active", "error")
ActionSource = Literal["player", "bot", "timeout"]
TimeoutAction = Literal["skip", "notify"]
DueKind = Literal["reminder", "timeout"]


class ServiceError(Exception):
    """Something a user asked for that cannot be done; nothing was changed.

    ``code`` names the reason for callers that translate it (for an illegal move it is
    ``"illegal"`` and ``engine_code`` holds the engine's own code); ``str(error)`` is a
    sentence a player can read.
    """

    def __init__(self, code: str, message: str, **params: Any) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.params = params

    def __repr__(self) -> str:
        return f"ServiceError({self.code!r}, {self.message!r})"


@dataclass(frozen=True, slots=True)
class Seat:
    """A place at the table. ``user_id`` is ``None`` once a computer plays the seat."""

    index: int
    user_id: int | None
    name: str
    is_bot: bool = False


@dataclass(frozen=True, slots=True)
class GameRecord:
    """One game as stored: who sits where, how far it is, and what became of it.

    ``version`` counts the actions applied; ``current_seat`` is whose turn it is while the
    game is active; ``waiting_since`` is when that seat was last asked to move (the clock
    for reminders and time-outs). ``scores`` and ``winners`` (seat indices) are filled in
    when the game finishes; ``error`` says why a damaged game was stopped.
    """

    id: int
    guild_id: int
    channel_id: int
    kind: str
    seed: int
    options: dict[str, Any]
    shuffle_seats: bool
    creator_id: int
    status: GameStatus
    version: int
    seats: tuple[Seat, ...]
    created_at: datetime
    updated_at: datetime
    started_at: datetime | None = None
    finished_at: datetime | None = None
    current_seat: int | None = None
    waiting_since: datetime | None = None
    scores: tuple[int, ...] | None = None
    winners: tuple[int, ...] | None = None
    error: str | None = None
    #: The version the game's channel has seen (the rest still has to be posted).
    announced: int = 0
    #: Set by the storage when a column could not be read (the game cannot be played).
    damage: str | None = None
    #: The lobby message and the newest board post in the channel (to update them).
    lobby_message_id: int | None = None
    board_message_id: int | None = None
    #: Why Discord refused the game's last post (e.g. a missing permission), and how often.
    post_error: str | None = None
    post_failures: int = 0

    def seat_of(self, user_id: int) -> Seat | None:
        """The seat ``user_id`` holds, if any."""
        return next((s for s in self.seats if s.user_id == user_id), None)

    @property
    def current(self) -> Seat | None:
        """The seat whose turn it is (``None`` unless the game is active)."""
        if self.current_seat is None or self.status != "active":
            return None
        return self.seats[self.current_seat]


@dataclass(frozen=True, slots=True)
class ActionRecord:
    """One applied action from the log: for history, replays and summaries."""

    game_id: int
    seq: int
    seat: int
    user_id: int | None
    source: ActionSource
    action: dict[str, Any]
    created_at: datetime


@dataclass(frozen=True, slots=True)
class TurnResult:
    """What an action (or a time-out, or a removal) did: everything a click needs.

    ``game`` is the new record and :attr:`state` a private copy of the engine game after it
    (made when first asked for, so a caller that needs no state pays nothing for it).
    ``actions`` lists every action stored by this call in order, the computer players'
    replies included; ``events`` are the engine's events of all of them, in order.
    ``turns`` are the whole turns these actions belong to, the first from its beginning
    (which may have been stored by earlier calls): the story to tell. ``next_seat`` is whose
    turn it is now (``None`` when the game is over).
    """

    game: GameRecord
    copy_state: Callable[[], Any] | None
    actions: tuple[ActionRecord, ...]
    events: tuple[Any, ...]
    turns: tuple[TurnRecord, ...]
    next_seat: Seat | None
    game_over: bool
    scores: tuple[int, ...]

    @property
    def state(self) -> Any:
        """A private copy of the engine game after this call (``None`` if none was played)."""
        return None if self.copy_state is None else self.copy_state()

    @property
    def turn_over(self) -> bool:
        """Whether a turn ended (so there is something to tell everyone)."""
        return any(turn.complete for turn in self.turns)


@dataclass(frozen=True, slots=True)
class ModerationRecord:
    """One moderation act, and who did it."""

    id: int
    guild_id: int
    game_id: int | None
    moderator_id: int
    act: str
    target_user_id: int | None
    detail: dict[str, Any]
    created_at: datetime


@dataclass(frozen=True, slots=True)
class GuildSettings:
    """A guild's settings: its rules for slow players and for tables.

    The fields after ``moderator_role_id`` are kept together in one JSON object by the
    storage (:meth:`extra` / :meth:`with_extra`), so adding a setting needs no migration.
    """

    guild_id: int
    reminder_delay: timedelta
    turn_timeout: timedelta
    timeout_action: TimeoutAction = "skip"
    moderator_role_id: int | None = None
    #: A lobby nobody started is closed after this long.
    lobby_expiry: timedelta = timedelta(hours=24)
    #: The language of public posts (``None``: the server's preferred locale).
    language: str | None = None

    #: The settings stored in the JSON object, and the base columns.
    COLUMNS: ClassVar[tuple[str, ...]] = (
        "reminder_delay",
        "turn_timeout",
        "timeout_action",
        "moderator_role_id",
    )

    def extra(self) -> dict[str, Any]:
        """The settings beyond the base columns, JSON-ready (durations in seconds)."""
        found: dict[str, Any] = {}
        for f in fields(self):
            if f.name in ("guild_id", *self.COLUMNS):
                continue
            value = getattr(self, f.name)
            found[f.name] = value.total_seconds() if isinstance(value, timedelta) else value
        return found

    def with_extra(self, data: Any) -> GuildSettings:
        """These settings with the stored JSON object's values (unknown or bad ones ignored)."""
        if not isinstance(data, dict):
            return self
        changes: dict[str, Any] = {}
        for f in fields(self):
            if f.name in ("guild_id", *self.COLUMNS) or f.name not in data:
                continue
            value, current = data[f.name], getattr(self, f.name)
            if isinstance(current, timedelta) and isinstance(value, int | float):
                changes[f.name] = timedelta(seconds=value)
            elif not isinstance(current, timedelta):
                changes[f.name] = value
        return dataclasses.replace(self, **changes)


@dataclass(frozen=True, slots=True)
class DueTurn:
    """A turn that needs a reminder or a time-out now.

    ``version`` pins the turn: acting on a :class:`DueTurn` after the player has moved is
    refused as stale. ``dm`` says the player asked for reminders by direct message;
    ``timeout_action`` and ``moderator_role_id`` come from the guild's settings.
    """

    kind: DueKind
    game: GameRecord
    seat: Seat
    version: int
    waiting_since: datetime
    dm: bool
    timeout_action: TimeoutAction
    moderator_role_id: int | None


@dataclass(frozen=True, slots=True)
class GuildStats:
    """Games finished in a guild and wins per user (shared wins count for each winner)."""

    guild_id: int
    games_played: int
    wins: dict[int, int] = field(default_factory=dict)
    names: dict[int, str] = field(default_factory=dict)
