"""The game service: everything the table asks of games, without Discord, for every game.

Commands stay thin (parse, call one method here, format the reply); the service owns the
rules around the engines: lobbies, whose turn it is, the log, moderation, reminders and
time-outs, history and statistics. It knows no game: each game's
:class:`~engine.rules.Rules` runs its engine. Users are Discord user ids (ints) with
the display names the caller passes; whether a user is a moderator is decided by the caller
and passed in as ``moderator=True``.

:class:`GameService` makes the shared core (:class:`~bot.service.core.Core`: the storage,
the settings, the clock, the limits, the caches, the thinker) and composes the parts, each a
small class of its own module given the core and the parts it calls: ``service.lobby``
(:mod:`bot.service.lobby`), ``service.play`` (:mod:`bot.service.play`),
``service.computers``, ``service.moderation``, ``service.notices`` (reminders, time-outs,
stalled games, away), ``service.posts`` (what the channel has seen, message ids) and
``service.history``. The parts import the core, never this module, so the imports run one
way: core <- posts <- play <- computers, lobby; core <- moderation, notices, history; all of
them <- service. Moves has a computer move by a callback given here, as the computers play
through play.

Decisions worth knowing:

- **A removed player's seat is taken over by a computer player**, not frozen. Frozen pieces
  would leave the seat's turn with nobody to play it: every other player would wait for a
  time-out at each round, and the scores of a seat that never moves again would still
  decide majorities. A computer keeps the game moving at the table's pace, its moves are
  plausible, and they are stored like any other action (``source = "bot"``), so replays and
  history show exactly what happened. If no human is left, the game is ended instead.
- **The log is the truth.** An action is checked against the engine before it is written,
  then written in the same write transaction as the game's version bump (with the computer
  players' replies that follow it). A stale ``expected_version`` is refused with "That
  turn was already played." Snapshots are a cache, always taken where a turn begins (so the
  turn in progress can be told from the actions after it); a damaged one is ignored.
- **One click, one write.** The engine game of each busy game is cached in memory with the
  events of the turn in progress, keyed by version; ``play.act`` reads the game's row (one
  statement), applies the move to the cached game and writes the log and the row in one
  transaction, and returns the new state and the whole turn so far. The log is replayed only
  when the cache misses (a restart, another process's write, an evicted game), from the
  latest snapshot. A move that needs no public post (a step in the middle of a turn) is
  recorded as seen by the channel in that same transaction.
- **A turn may be taken back while nobody else has seen it** (issue 40.5). A person's turn
  played through the table (``act(..., take_back=True)``) can be taken back by its player
  for ``settings.take_back`` (30 s): until then it is not posted, the next player is not
  told (no ping, no reminder, no turn, no status, history or suggestions: ``just_moved``)
  and a computer does not move. Taking it back (``play.take_back``) moves its actions out
  of the log into ``taken_back`` (kept, with when), and the game's version, whose turn it
  is and the clock back to where the turn began; the log stays the truth, without gaps.
  When the time is over a round posts the turn (``take_back_until`` in the database: a
  restart loses nothing, and the claim posts it once).
- **A damaged game stops alone.** If its row or log cannot be read or replayed, that game
  is put in status ``"error"`` with the reason (moderators see it in
  ``moderation.damaged_games`` and can end it); every other game keeps working.
- **Reminders are claimed, then marked sent.** ``notices.due`` offers a turn until its
  notice is marked sent; a claim hides it from other callers for a lease, so a process that
  dies while sending has it sent again rather than never: at once by the process that takes
  its place on the database (its restart; see ``Core.claimant``), else after the lease.
- **Background work is claimed in the database, and done for this process's shards.** With
  several bot processes over one database (``settings.shard_ids``), each looks only at the
  guilds on its own shards (their channels are in its cache, their interactions come to it),
  and still claims every piece, so two processes that serve the same shard for a moment (a
  rolling restart, a mistake in the settings) do it once: reminders and time-outs by their
  notice, a missed post by a lease on the game (``posts.claim_missed``), a computer's turn by
  a lease of its own (taken by whichever process thinks for it, so two never both do), an
  expired lobby by locking it while it is closed (``lobby.expire_lobbies``).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from pathlib import Path
from typing import Any

from bot.service.clock import Clock
from bot.service.common import ANNOUNCE_GRACE, NO_LIMITS, SNAPSHOT_EVERY, Limits, move_rng
from bot.service.computers import Computers
from bot.service.core import Core
from bot.service.history import History
from bot.service.learning import Learning
from bot.service.lobby import Lobby
from bot.service.models import GameRecord, GuildSettings, TurnResult
from bot.service.moderation import Moderation
from bot.service.notices import Notices
from bot.service.play import Moves
from bot.service.posts import Posts
from bot.service.seasons import Seasons
from bot.service.storage import Storage, open_storage
from bot.service.thinking import Thinker
from bot.settings import Settings
from engine.rules import Rules

# Kept importable from here, where they were defined before the service was split.
__all__ = ["ANNOUNCE_GRACE", "NO_LIMITS", "GameService", "Limits", "move_rng"]


class GameService:
    """Lobby, play, moderation, time and history of every game, on one database: the
    shared core (``service.core``), with each concern a part (``service.lobby``,
    ``service.play``, ...)."""

    def __init__(
        self,
        storage: Storage,
        settings: Settings | None = None,
        clock: Clock | None = None,
        rules: Mapping[str, Rules[Any, Any]] | None = None,
        cache_size: int = 256,
        snapshot_every: int | None = SNAPSHOT_EVERY,
        limits: Limits | None = None,
        thinker: Thinker | None = None,
    ) -> None:
        self.core = Core(
            storage, settings, clock, rules, cache_size, snapshot_every, limits, thinker
        )
        #: Called with each computer turn stored in the background (the table posts it).
        self.on_computer_turn: Callable[[TurnResult], Awaitable[None]] | None = None
        self.posts = Posts(self.core)
        self.play = Moves(self.core, self.posts, wake=self._wake)
        self.computers = Computers(self.core, self.play, told=self._computer_played)
        self.lobby = Lobby(self.core)
        self.moderation = Moderation(self.core, wake=self.computers.wake)
        self.notices = Notices(self.core)
        self.history = History(self.core)
        self.learning = Learning(self.core, self.lobby)
        self.seasons = Seasons(self.core, self.lobby, self.moderation)

    @classmethod
    async def open(
        cls,
        path: str | Path | None = None,
        *,
        settings: Settings | None = None,
        clock: Clock | None = None,
        **kwargs: Any,
    ) -> GameService:
        """Open the database (``settings.db_path`` unless ``path`` is given), migrating it."""
        settings = settings or Settings()
        storage = await open_storage(path if path is not None else settings.db_path)
        return cls(storage, settings, clock, **kwargs)

    async def close(self) -> None:
        await self.computers.stop()
        self.thinker.close()
        if not self.storage.closed:
            await self.posts.flush_posted()
        await self.storage.close()

    async def __aenter__(self) -> GameService:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()

    # ================================================================ the core, for callers

    @property
    def storage(self) -> Storage:
        return self.core.storage

    @property
    def settings(self) -> Settings:
        return self.core.settings

    @property
    def clock(self) -> Clock:
        return self.core.clock

    @property
    def thinker(self) -> Thinker:
        return self.core.thinker

    @property
    def rules(self) -> Mapping[str, Rules[Any, Any]]:
        """Every game this service runs, by name (all registered games by default)."""
        return self.core.rules

    def forget(self, game_id: int | None = None) -> None:
        """Drop one game (or all) from the in-memory cache."""
        self.core.forget(game_id)

    async def guild_settings(self, guild_id: int) -> GuildSettings:
        """The guild's settings, or the defaults from :class:`Settings`."""
        return await self.core.guild_settings(guild_id)

    async def any_game_open(self) -> bool:
        """Whether a game of this process's shards waits in its lobby or is under way (so a
        picture may be wanted any moment)."""
        async with self.storage.read() as tx:
            return await tx.games.any_open(self.core.shards)

    async def recent_guild_settings(self, guild_id: int) -> GuildSettings:
        """The guild's settings as read a little while ago at most (see
        :meth:`Core.recent_guild_settings <bot.service.core.Core.recent_guild_settings>`)."""
        return await self.core.recent_guild_settings(guild_id)

    async def note_locale(
        self, guild_id: int, guild_locale: str | None, user_locale: str | None = None
    ) -> None:
        """Keep the server's Discord locale, which its time zone is guessed from (see
        :meth:`Core.note_locale <bot.service.core.Core.note_locale>`)."""
        await self.core.note_locale(guild_id, guild_locale, user_locale)

    async def set_guild_settings(
        self, guild_id: int, moderator_id: int, *, moderator: bool, **changes: Any
    ) -> GuildSettings:
        """Change some of the guild's settings (moderators only; see
        :meth:`Core.set_guild_settings <bot.service.core.Core.set_guild_settings>`)."""
        return await self.core.set_guild_settings(
            guild_id, moderator_id, moderator=moderator, **changes
        )

    # ================================================================ between the parts

    def _wake(self, record: GameRecord) -> None:
        # Play's callback: the computers are made after play, which they play through.
        self.computers.wake(record)

    async def _computer_played(self, result: TurnResult) -> None:
        # Read when called: the caller sets on_computer_turn after the service is open.
        if self.on_computer_turn is not None:
            await self.on_computer_turn(result)
