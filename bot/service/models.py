"""Immutable records the service hands to its callers.

They are plain values (frozen dataclasses) so the Discord layer can keep them, format them
and pass them back without being able to change the service's state by accident.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable
from dataclasses import dataclass, field, fields
from datetime import datetime, timedelta
from typing import Any, ClassVar, Literal

from bot.service.pace import Away, QuietHours
from bot.service.refusals import ServiceError as ServiceError  # where callers found it
from bot.service.zones import likely_zone_of
from engine.protocol import Game
from engine.turns import TurnRecord

GameStatus = Literal["lobby", "active", "finished", "ended", "error"]
#: Statuses that hold a channel: at most one game per channel may be in one of them.
OPEN_STATUSES: tuple[GameStatus, ...] = ("lobby", "active", "error")
ActionSource = Literal["player", "bot", "timeout"]
TimeoutAction = Literal["computer", "skip", "notify"]
DueKind = Literal["reminder", "final", "timeout", "stall"]


@dataclass(frozen=True, slots=True)
class Seat:
    """A place at the table. ``user_id`` is ``None`` once a computer plays the seat."""

    index: int
    user_id: int | None
    name: str
    is_bot: bool = False
    #: Who played the seat before a computer took it over (they left, or were removed).
    left_user_id: int | None = None
    #: The player's time away, if any (their clocks stand still then).
    away: Away | None = None
    #: How the player wants to hear it is their turn: "channel", "dm" or "both".
    ping: str = "channel"
    #: How well a computer plays the seat ("easy", "normal", "strong"); None for a person.
    level: str | None = None


@dataclass(frozen=True, slots=True)
class Practice:
    """What a practice game keeps of its teaching: the language it is played in (the
    learner's, for its public posts too), the lessons taught so far, in order, and the turn
    whose panel showed lessons last with the ones it showed (a panel opened again in that
    turn shows them again, and spends no more: also after a restart)."""

    language: str
    taught: tuple[str, ...] = ()
    turn: int | None = None
    shown: tuple[str, ...] = ()

    def to_json(self) -> str:
        return json.dumps(
            {
                "language": self.language,
                "taught": list(self.taught),
                "turn": self.turn,
                "shown": list(self.shown),
            }
        )


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
    #: The game's name (its folder's: ``"covenant"``); stored in the column ``kind``.
    game_name: str
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
    #: The game's clock: ``{"pace": name, "banks": [ms per seat]}`` (None: no clock).
    clock: dict[str, Any] | None = None
    #: When the next notice of the current turn falls due, in ms (None: none).
    next_due_ms: int | None = None
    #: The thread the game is played in (None: in the channel itself).
    thread_id: int | None = None
    #: The game this one is a rematch of.
    rematch_of: int | None = None
    #: When the last move was made (or the game started), in ms.
    last_move_ms: int | None = None
    #: A practice game (``/table learn``): its learner's language and the lessons taught so
    #: far. None for every other game. A practice game is never rated or counted.
    practice: Practice | None = None
    #: Until when (ms) the player of the last turn may take it back (issue 40.5): the turn
    #: is not posted, nor the next player told, before then. None: no turn may be.
    take_back_until_ms: int | None = None
    #: What taking it back restores: ``{"to": the version that turn began at, "by": the
    #: user who played it, "clock", "waiting_since", "next_due": the row's clock before}``.
    take_back: dict[str, Any] | None = None

    @property
    def take_back_by(self) -> int | None:
        """The user who may take the last turn back (while :meth:`taking_back`)."""
        return self.take_back.get("by") if self.take_back else None

    def taking_back(self, now_ms: int) -> bool:
        """Whether the last turn may still be taken back at ``now_ms`` (nobody but its
        player has seen it: it is posted only when this time is over)."""
        return (
            self.status == "active"
            and self.take_back_until_ms is not None
            and self.take_back is not None
            and now_ms < self.take_back_until_ms
            and self.announced < self.version
        )

    @property
    def home(self) -> int:
        """Where the game is played: its thread, or else its channel."""
        return self.thread_id or self.channel_id

    def deadline_ms(self) -> int | None:
        """When the current player's time bank runs out (None without a clock)."""
        from bot.service.pace import deadline, night_of

        if self.clock is None or self.current is None or self.waiting_since is None:
            return None
        bank = self.clock["banks"][self.current.index]
        start = int(self.waiting_since.timestamp() * 1000)
        return deadline(bank, start, start, self.current.away, night_of(self.clock))

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

    ``record`` is the new record and :attr:`state` a private copy of the engine game after it
    (made when first asked for, so a caller that needs no state pays nothing for it).
    ``actions`` lists every action stored by this call in order, the computer players'
    replies included; ``events`` are the engine's events of all of them, in order.
    ``turns`` are the whole turns these actions belong to, the first from its beginning
    (which may have been stored by earlier calls): the story to tell. ``next_seat`` is whose
    turn it is now (``None`` when the game is over). ``turn_began`` is the version at which
    the first of ``turns`` began (every turn before it had ended there).
    """

    record: GameRecord
    copy_state: Callable[[], Game] | None
    actions: tuple[ActionRecord, ...]
    events: tuple[Any, ...]
    turns: tuple[TurnRecord, ...]
    next_seat: Seat | None
    game_over: bool
    scores: tuple[int, ...]
    turn_began: int = 0

    @property
    def state(self) -> Game | None:
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
    #: What happens when a player's time runs out.
    timeout_action: TimeoutAction = "computer"
    moderator_role_id: int | None = None
    #: A lobby nobody started is closed after this long.
    lobby_expiry: timedelta = timedelta(hours=24)
    #: The language of public posts (``None``: the server's preferred locale).
    language: str | None = None
    #: The clock of new games: a key of :data:`bot.service.pace.PACES`.
    pace: str = "normal"
    #: The server's time zone (None until a moderator sets one: then the most likely one
    #: for the server's language, see :meth:`zone`) and its quiet hours, its night: no
    #: pings from ``quiet_start`` o'clock to ``quiet_end`` (equal: none, which only a
    #: moderator chooses).
    timezone: str | None = None
    quiet_start: int = 22
    quiet_end: int = 8
    #: Busy hours on weekdays (school): like the night, no pings and, for a clock that
    #: sleeps, no time counted. None: the pace's own (:data:`SCHOOL` for ``week``, none for
    #: the others); equal hours: none.
    busy_start: int | None = None
    busy_end: int | None = None
    #: The server's Discord locale as the bot last saw it (the time zone's guess).
    locale: str | None = None
    #: Play each game in a thread of its channel (when the bot may make threads).
    threads: bool = True
    #: A game with no move for this long is ended, after a warning.
    stall_after: timedelta = timedelta(days=14)
    #: How well the computer plays that takes over a seat (a player left, was removed, or
    #: timed out with the "computer" action): "easy", "normal" or "strong".
    computer_level: str = "normal"

    def zone(self) -> str:
        """The time zone: the moderators' choice, or the most likely one for the public
        language (theirs, or the server's locale)."""
        return self.timezone or likely_zone_of(self.language, self.locale)

    def busy_hours(self) -> tuple[int, int]:
        """The weekdays' busy hours, from and until: the moderators' or the pace's own."""
        if self.busy_start is not None and self.busy_end is not None:
            return self.busy_start, self.busy_end
        return SCHOOL if self.pace == "week" else (0, 0)

    def quiet_hours(self) -> QuietHours:
        return QuietHours(self.zone(), self.quiet_start, self.quiet_end, *self.busy_hours())

    #: The settings stored in the JSON object, and the base columns.
    COLUMNS: ClassVar[tuple[str, ...]] = ("moderator_role_id",)

    #: The stored object's version: an object without it was stored by a bot whose
    #: defaults were UTC and no quiet hours, values nobody chose.
    VERSION: ClassVar[int] = 2

    def extra(self) -> dict[str, Any]:
        """The settings beyond the base columns, JSON-ready (durations in seconds)."""
        found: dict[str, Any] = {"version": self.VERSION}
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
        if "version" not in data:
            data = _chosen(data)
        changes: dict[str, Any] = {}
        for f in fields(self):
            if f.name in ("guild_id", *self.COLUMNS) or f.name not in data:
                continue
            value, current = data[f.name], getattr(self, f.name)
            if isinstance(current, timedelta):
                if isinstance(value, int | float) and not isinstance(value, bool):
                    changes[f.name] = timedelta(seconds=value)
            elif current is None or value is None or type(value) is type(current):
                # A value of another type (a damaged row, an older bot) keeps the default.
                changes[f.name] = value
        return dataclasses.replace(self, **changes)


#: The ``week`` pace's busy hours on weekdays unless a moderator sets others: a school day.
SCHOOL = (8, 15)


def _chosen(data: dict[str, Any]) -> dict[str, Any]:
    """Settings stored by an older bot without the values it stored only as its defaults:
    the time zone UTC and no quiet hours (0 to 0), which nobody chose."""
    kept = dict(data)
    if kept.get("timezone") == "UTC":
        del kept["timezone"]
    if kept.get("quiet_start") == kept.get("quiet_end") == 0:
        kept.pop("quiet_start")
        kept.pop("quiet_end")
    return kept


@dataclass(frozen=True, slots=True)
class DueTurn:
    """A turn that needs a reminder or a time-out now.

    ``version`` pins the turn: acting on a :class:`DueTurn` after the player has moved is
    refused as stale. ``dm`` says the player asked to be told by direct message;
    ``timeout_action`` and ``moderator_role_id`` come from the guild's settings.
    """

    kind: DueKind
    record: GameRecord
    seat: Seat
    version: int
    waiting_since: datetime
    dm: bool
    timeout_action: TimeoutAction
    moderator_role_id: int | None
    #: When the player's bank runs out (for a reminder to say), in ms.
    deadline_ms: int | None = None
    #: A reminder that stands for both, sent when the time was already up (the bot was
    #: down): sending it gives the player a last stretch, so nobody times out unwarned.
    late: bool = False


@dataclass(frozen=True, slots=True)
class Estimate:
    """When a lobby's game should end if it started now: between ``early_ms`` and
    ``finish_ms``, at the time a turn takes in practice (``from_history``: the number of
    this server's finished games it is reckoned from; 0: the simulation's figures, see
    :mod:`bot.service.turn_times`). ``timezone`` is the server's, to say the days in;
    ``guessed_zone``: no moderator chose it (it is the likeliest for the language)."""

    early_ms: int
    finish_ms: int
    timezone: str
    guessed_zone: bool = False
    from_history: int = 0


@dataclass(frozen=True, slots=True)
class Rating:
    """A player's rating in one game on one server."""

    user_id: int
    name: str
    rating: float
    games: int
    wins: int


@dataclass(frozen=True, slots=True)
class Shards:
    """The Discord shards one bot process serves, out of ``count``.

    Discord puts a guild on shard ``(guild_id >> 22) % count``; a process answers the
    interactions of its own shards only, and does the background work (reminders,
    time-outs, missed posts, lobby expiry) of the same guilds, so that a guild's posts all
    come from the process that has it in its cache.
    """

    count: int
    ids: tuple[int, ...]

    def owns(self, guild_id: int) -> bool:
        return (guild_id >> 22) % self.count in self.ids


@dataclass(frozen=True, slots=True)
class GuildStats:
    """Games finished in a guild and wins per user (shared wins count for each winner)."""

    guild_id: int
    games_played: int
    wins: dict[int, int] = field(default_factory=dict)
    names: dict[int, str] = field(default_factory=dict)
