"""A season as stored: its row (:class:`SeasonRecord`) and a table it dealt
(:class:`SeasonTable`). Its members are :class:`~bot.service.season.members.Member` rows,
their ratings filled in by the service."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

#: ``signup``: members sign up until the first round is dealt; ``running``: rounds are
#: dealt and played; ``over``: the last round closed and every game of it ended, or a
#: moderator ended the season.
SeasonStatus = Literal["signup", "running", "over"]


#: A post a season still owes, as stored in ``untold``: ``hello.<round>.<game id>`` (a dealt
#: table's first message in its thread, mentioning its players), ``closed.<round>`` (a
#: round's standings) or ``over.<round>`` (the podium, after ``<round>`` rounds).
Untold = str


@dataclass(frozen=True, slots=True)
class NewSeason:
    """What a moderator chose for a new season (times in ms)."""

    guild_id: int
    channel_id: int
    creator_id: int
    game_name: str
    options: dict[str, Any]
    pace: str
    rounds: int
    days: int
    first_ms: int
    seed: int
    created_ms: int


@dataclass(frozen=True, slots=True)
class SeasonRecord:
    """One season: what it plays, its rounds' times, how far it is.

    ``first_ms``: when sign-up closes and round 1 is dealt (a moderator may close it early,
    which moves every round's time). ``dealt``: the rounds dealt so far (all of their
    tables opened); ``closed``: the rounds whose time is up and whose standings were told;
    ``dealing``: the round being dealt, as its tables' members and computers (JSON-ready),
    kept from the moment it is worked out until every table of it is opened, so a restart in
    between opens the rest of the same deal. ``message_id``: the sign-up message.
    ``untold``: what the season has still to say in the channel (see :data:`Untold`), kept
    from the step that made it due until Discord took it, so a restart says it then."""

    id: int
    guild_id: int
    channel_id: int
    creator_id: int
    game_name: str
    options: dict[str, Any]
    pace: str
    rounds: int
    days: int
    first_ms: int
    seed: int
    status: SeasonStatus
    dealt: int = 0
    closed: int = 0
    dealing: list[Any] | None = None
    message_id: int | None = None
    untold: tuple[str, ...] = ()

    @property
    def round_ms(self) -> int:
        return self.days * 86_400_000

    def starts_ms(self, round_number: int) -> int:
        """When round ``round_number`` (1-based) is dealt; one past the last: the end."""
        return self.first_ms + (round_number - 1) * self.round_ms

    def round_at(self, now_ms: int) -> int:
        """The round under way at ``now_ms`` by the calendar (0 before the first, at most
        the last)."""
        if now_ms < self.first_ms:
            return 0
        return min(self.rounds, 1 + (now_ms - self.first_ms) // self.round_ms)


@dataclass(frozen=True, slots=True)
class SeasonTable:
    """A game the season dealt: its round and number in the round."""

    round_number: int
    table: int
    game_id: int
