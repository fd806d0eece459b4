"""The storage interface by concern: what a transaction offers, in five small parts.

A :class:`~bot.service.storage.base.Transaction` exposes one of each as an attribute
(``tx.games``, ``tx.log``, ``tx.people``, ``tx.notices``, ``tx.seasons``); a backend
implements each part as a small class over the same connection and transaction, so a part
reads alone and the five still run in one transaction. The parts follow what the
service's parts use together:

- :class:`GameRows`: a game's row and seats (lobby, play, moderation);
- :class:`GameLog`: its actions and the caches beside them (play, history);
- :class:`People`: players and guilds (pings, time away, ratings, settings, moderation log);
- :class:`Notices`: background work (turn notices, announcements, computer turns);
- :class:`Seasons`: seasons, their members and the games they dealt.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
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
from bot.service.season.members import Member
from bot.service.season.records import NewSeason, SeasonRecord, SeasonTable
from bot.service.storage.values import Advance, DueGame, NewGame


class GameRows(ABC):
    """Games' rows with their seats: finding, creating and changing them."""

    @abstractmethod
    async def get(self, game_id: int) -> GameRecord | None:
        """A game with its seats (one round trip)."""

    @abstractmethod
    async def open_in(self, channel_id: int) -> GameRecord | None:
        """The game in status lobby, active or error of a channel (or played in a thread
        ``channel_id``), if any."""

    @abstractmethod
    async def last_in(self, channel_id: int) -> GameRecord | None:
        """The channel's newest game, whatever its status."""

    @abstractmethod
    async def of_guild(self, guild_id: int, statuses: Sequence[str]) -> list[GameRecord]:
        """The guild's games in ``statuses``, oldest first."""

    @abstractmethod
    async def of_user(self, user_id: int, statuses: Sequence[str]) -> list[GameRecord]:
        """The games ``user_id`` has a seat in, in the given statuses."""

    @abstractmethod
    async def finished(self, guild_id: int) -> list[GameRecord]:
        """The guild's finished games with their results."""

    @abstractmethod
    async def lobbies(
        self, shards: Shards | None = None, *, claim: bool = False
    ) -> list[GameRecord]:
        """Every game in status lobby (of guilds on ``shards``, if given). ``claim`` (in a
        write transaction): each is this transaction's until it commits, and lobbies that
        another transaction holds are left out rather than waited for."""

    @abstractmethod
    async def any_open(self, shards: Shards | None = None) -> bool:
        """Whether any game (of guilds on ``shards``, if given) waits in its lobby or is
        under way."""

    @abstractmethod
    async def lobby_counts(self, guild_id: int, user_id: int) -> tuple[int, int, int | None]:
        """(lobbies open by ``user_id`` anywhere, lobbies open in the guild, when the user
        opened their newest table that never started, in ms, open or closed: one its creator
        left at once still counts for the cool-down; started games are held back by the
        open-games limit instead)."""

    @abstractmethod
    async def insert(self, game: NewGame) -> int:
        """A new lobby row; raises :class:`ChannelBusy` if the channel has an open game."""

    @abstractmethod
    async def update(self, game_id: int, **fields: Any) -> None:
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


class GameLog(ABC):
    """A game's log of actions, and the snapshots and notices kept beside it."""

    @abstractmethod
    async def append(self, records: Sequence[ActionRecord]) -> None:
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

    @abstractmethod
    async def take_back(self, game_id: int, after: int, now_ms: int) -> int:
        """Take the game's actions after ``after`` out of its log, into the moves taken back
        (marked with ``now_ms``), with the snapshots and notices of their versions; how many
        were taken back."""

    @abstractmethod
    async def taken_back(self, game_id: int) -> list[tuple[int, ActionRecord]]:
        """The game's moves taken back, in order: (when taken back, the action as it was)."""


class People(ABC):
    """What is kept of players and guilds, apart from their games."""

    @abstractmethod
    async def ping(self, user_id: int) -> str:
        """How a user wants to hear it is their turn ("channel" unless they said)."""

    @abstractmethod
    async def set_ping(self, user_id: int, ping: str) -> None:
        """How a user wants to be told it is their turn: channel, dm or both."""

    @abstractmethod
    async def set_away(self, user_id: int, start_ms: int | None, until_ms: int | None) -> None:
        """A user's time away (None, None: back)."""

    @abstractmethod
    async def begin_practice(self, user_id: int, now_ms: int, since_ms: int) -> int | None:
        """Stamp the user as beginning a practice game at ``now_ms`` unless they began one
        after ``since_ms``: None if stamped, else when they began the last one. Atomic: of
        two transactions stamping at once, one stamps and the other is told."""

    @abstractmethod
    async def ratings(self, guild_id: int, game_name: str) -> list[Rating]:
        """A server's ratings in one game, best first."""

    @abstractmethod
    async def save_ratings(self, guild_id: int, game_name: str, ratings: Sequence[Rating]) -> None:
        """Write these players' ratings (others stay)."""

    @abstractmethod
    async def guild_settings(self, guild_id: int) -> GuildSettings | None: ...

    @abstractmethod
    async def save_guild_settings(self, settings: GuildSettings) -> None: ...

    @abstractmethod
    async def log_moderation(self, record: ModerationRecord) -> None: ...

    @abstractmethod
    async def moderation_log(self, guild_id: int, limit: int) -> list[ModerationRecord]:
        """The guild's latest moderation acts, newest first."""


class Notices(ABC):
    """The background work on games: turn notices (reminders, time-outs, stall warnings),
    announcements the channel has not seen, and computer turns nobody is thinking for."""

    @abstractmethod
    async def due_games(
        self, now_ms: int, lease_ms: int, shards: Shards | None = None
    ) -> list[DueGame]:
        """Active games (of guilds on ``shards``, if given) with a human current seat whose
        next notice is due at ``now_ms``, with the notices of the turn sent (or claimed
        after ``lease_ms``: being sent)."""

    @abstractmethod
    async def quiet_games(self, before_ms: int, shards: Shards | None = None) -> list[GameRecord]:
        """Active games (of guilds on ``shards``, if given) whose last move was made at or
        before ``before_ms``."""

    @abstractmethod
    async def claim(
        self,
        game_id: int,
        version: int,
        user_id: int,
        kind: str,
        now_ms: int,
        stale_ms: int,
        holder: str,
    ) -> bool:
        """Reserve a notice for ``holder`` unless it was sent or is claimed since after
        ``stale_ms``."""

    @abstractmethod
    async def sent(self, game_id: int, version: int, user_id: int, kind: str) -> bool:
        """Whether that notice went out."""

    @abstractmethod
    async def mark_sent(
        self, game_id: int, version: int, user_id: int, kind: str, now_ms: int
    ) -> None: ...

    @abstractmethod
    async def reminded_since(self, game_id: int, user_id: int, since_ms: int) -> int:
        """How many reminders (a first or a last call) went to ``user_id`` in the game at
        or after ``since_ms``; one sent as both (a late reminder) counts once."""

    @abstractmethod
    async def mark_announced(self, game_id: int, version: int) -> None:
        """The channel has seen the game up to ``version`` (never lowers it); a claim on
        the game's post ends once that is its latest version (as with every new version)."""

    @abstractmethod
    async def unannounced(
        self, before_ms: int, now_ms: int, shards: Shards | None = None
    ) -> list[int]:
        """Active or finished games changed at or before ``before_ms`` whose latest
        version the channel has not seen, and lobbies whose message was never posted (and
        whose failed post is due for another try at ``now_ms``), oldest change first; of
        guilds on ``shards``, if given."""

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
        did), as :meth:`claim_unannounced` leases its games, but with the lease of the
        computer's turn (see :meth:`lease_computer_turn`)."""

    @abstractmethod
    async def lease_computer_turn(
        self, game_id: int, now_ms: int, until_ms: int, holder: str
    ) -> bool:
        """Take (or renew) the lease of the game's computer's turn for ``holder`` until
        ``until_ms``, unless another holder's runs past ``now_ms``. It is a lease of its
        own, apart from the missed post's: showing the board does not end the thinking. A
        new version of the game ends it, as it ends the post's."""

    @abstractmethod
    async def release(self, prefix: str, holder: str) -> int:
        """Give back every claim (a notice, a missed post, a computer's turn) whose holder
        begins with ``prefix`` but is not ``holder``: they are anyone's again at once.
        Returns how many were given back."""


class Seasons(ABC):
    """Seasons (:mod:`bot.service.season`): their rows, members and dealt tables."""

    @abstractmethod
    async def insert(self, season: NewSeason) -> int:
        """Store a new season in status ``signup``; returns its id."""

    @abstractmethod
    async def get(self, season_id: int) -> SeasonRecord | None:
        """A season's row."""

    @abstractmethod
    async def current_in(self, channel_id: int) -> SeasonRecord | None:
        """The channel's season that is not over, if any (the newest)."""

    @abstractmethod
    async def of_game(self, game_id: int) -> tuple[int, int] | None:
        """(season id, round) of a game a season dealt, else None."""

    @abstractmethod
    async def due(self, now_ms: int, shards: Shards | None = None) -> list[SeasonRecord]:
        """Seasons not over, or owing a post (see ``untold``), of guilds on ``shards``, whose
        lease is free at ``now_ms``."""

    @abstractmethod
    async def claim(self, season_id: int, holder: str, now_ms: int, until_ms: int) -> bool:
        """Take the season's lease for background work until ``until_ms`` if it is free at
        ``now_ms``, ``holder``'s already, or held in ``holder``'s place on the database (by
        a process that stopped: see :meth:`bot.service.core.Core.claimant`); whether it was
        taken."""

    @abstractmethod
    async def release(self, season_id: int, holder: str) -> None:
        """Give the lease back, if ``holder`` holds it."""

    @abstractmethod
    async def update(self, season_id: int, **fields: Any) -> None:
        """Set some of: status, dealt, closed, first_ms, dealing and untold (JSON text or
        None), message_id."""

    @abstractmethod
    async def members(self, season_id: int) -> list[Member]:
        """Everyone who ever signed up, in sign-up order (ratings at START)."""

    @abstractmethod
    async def put_member(self, season_id: int, member: Member, now_ms: int) -> None:
        """Add the member, or change their name, ``joined`` and ``left``."""

    @abstractmethod
    async def add_table(self, season_id: int, table: SeasonTable) -> bool:
        """Record a dealt table; False if that round's table was recorded already."""

    @abstractmethod
    async def tables(self, season_id: int) -> list[SeasonTable]:
        """Every table the season dealt, by round and number."""
