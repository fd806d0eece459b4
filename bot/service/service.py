"""The game service: everything the table asks of games, without Discord, for every game.

Commands stay thin (parse, call one method here, format the reply); this class owns the
rules around the engines: lobbies, whose turn it is, the log, moderation, reminders and
time-outs, history and statistics. It knows no game: each game's
:class:`~bot.games.base.GameRules` runs its engine. Users are Discord user ids (ints) with
the display names the caller passes; whether a user is a moderator is decided by the caller
and passed in as ``moderator=True``.

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
  events of the turn in progress, keyed by version; :meth:`act` reads the game's row (one
  statement), applies the move to the cached game and writes the log and the row in one
  transaction, and returns the new state and the whole turn so far. The log is replayed only
  when the cache misses (a restart, another process's write, an evicted game), from the
  latest snapshot. A move that needs no public post (a step in the middle of a turn) is
  recorded as seen by the channel in that same transaction.
- **A damaged game stops alone.** If its row or log cannot be read or replayed, that game
  is put in status ``"error"`` with the reason (moderators see it in :meth:`damaged_games`
  and can end it); every other game keeps working.
- **Reminders are claimed, then marked sent.** :meth:`due` offers a turn until its notice
  is marked sent; a claim hides it from other callers for a lease, so a process that dies
  while sending has it sent again after the lease rather than never.
- **Background work is claimed in the database, and done for this process's shards.** With
  several bot processes over one database (``settings.shard_ids``), each looks only at the
  guilds on its own shards (their channels are in its cache, their interactions come to it),
  and still claims every piece, so two processes that serve the same shard for a moment (a
  rolling restart, a mistake in the settings) do it once: reminders and time-outs by their
  notice, a missed post by a lease on the game (:meth:`claim_missed`), an expired lobby by
  locking it while it is closed (:meth:`expire_lobbies`).
"""

from __future__ import annotations

import asyncio
import dataclasses
import hashlib
import json
import logging
import os
import secrets
import socket
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from bot.games import GameRules, TurnRecord, plugins
from bot.service.clock import Clock, SystemClock, from_ms, to_ms
from bot.service.models import (
    ActionRecord,
    ActionSource,
    DueTurn,
    GameRecord,
    GuildSettings,
    GuildStats,
    ModerationRecord,
    Rating,
    Seat,
    ServiceError,
    Shards,
    TurnResult,
)
from bot.service.pace import (
    PACES,
    STAGES,
    after_move,
    is_pace,
    last_stretch,
    next_due,
    pace_of,
    schedule,
    valid_zone,
)
from bot.service.ratings import Finish, places, rated
from bot.service.storage import (
    Advance,
    ChannelBusy,
    NewGame,
    Storage,
    Transaction,
    open_storage,
)
from bot.service.thinking import COMPUTER_NAMES, LEVELS, Budget, HintData, Thinker
from bot.settings import Settings
from engine.common.rng import Rng

log = logging.getLogger("arkbot.service")

#: Missed posts claimed at once by one process (the rest wait for its next round).
CLAIM_BATCH = 100
#: Snapshot a game at the first turn boundary at least this many actions after the last one
#: (``None``: never).
SNAPSHOT_EVERY = 64
#: How long a stored move may wait for its announcement before it counts as missed.
ANNOUNCE_GRACE = timedelta(minutes=2)
#: How long a process trusts the guild settings it read (see recent_guild_settings).
SETTINGS_TTL = timedelta(seconds=60)


@dataclass(frozen=True, slots=True)
class Limits:
    """How much one user may open: lobbies waiting for players (per user, per server), a
    cool-down between new tables, and games going beyond the number they have finished."""

    lobbies_per_user: int = 3
    lobbies_per_guild: int = 25
    cooldown: timedelta = timedelta(seconds=20)
    extra_open_games: int = 3


#: No limits to speak of (for tools and tests that set up many tables at once).
NO_LIMITS = Limits(10**6, 10**6, timedelta(0), 10**6)
#: The shortest time a server may let a game wait before it counts as stalled.
MIN_STALL = timedelta(days=1)
#: A post Discord refused is tried again after 1, 2, 4, ... minutes, at most this long.
MAX_POST_BACKOFF = timedelta(hours=6)
_SEAT_SHUFFLE_SALT = 0x5EA75EA75EA7
_MASK = (1 << 64) - 1


def move_rng(seed: int, version: int) -> Rng:
    """The generator for the computer's move at ``version`` of a game.

    Derived from the game's seed and position, so every process (and every retry) picks the
    same move; the move is stored anyway, so replays never depend on it.
    """
    return Rng((seed * 0x9E3779B97F4A7C15 + version * 0xBF58476D1CE4E5B9 + 1) & _MASK)


class _Damaged(Exception):
    """A game whose stored form cannot be turned back into a game."""

    def __init__(self, game_id: int, reason: str) -> None:
        super().__init__(reason)
        self.game_id = game_id
        self.reason = reason


def _stale() -> ServiceError:
    return ServiceError("stale", "That turn was already played.")


@dataclass
class _TurnSoFar:
    """The actions and events of the turn in progress, as they are stored."""

    seat: int
    number: int
    start_scores: tuple[int, ...]
    sources: list[str] = field(default_factory=list)
    events: list[Any] = field(default_factory=list)

    def add(self, source: str, events: Sequence[Any]) -> None:
        self.sources.append(source)
        self.events.extend(events)

    def record(self, complete: bool) -> TurnRecord:
        return TurnRecord(
            self.seat,
            self.number,
            tuple(self.sources),
            tuple(self.events),
            complete,
            self.start_scores,
        )

    def copy(self) -> _TurnSoFar:
        return _TurnSoFar(
            self.seat, self.number, self.start_scores, list(self.sources), list(self.events)
        )


@dataclass
class _Loaded:
    """A game in the cache: the engine state at ``version``, its turn in progress, and the
    version of its latest snapshot."""

    version: int
    game: Any
    turn: _TurnSoFar
    snapshot_version: int


def _fresh_turn(game: Any) -> _TurnSoFar:
    seat = game.current_player if game.current_player is not None else -1
    return _TurnSoFar(seat, game.turn, tuple(game.scores))


class GameService:
    """Lobby, play, moderation, time and history of every game, on one database."""

    def __init__(
        self,
        storage: Storage,
        settings: Settings | None = None,
        clock: Clock | None = None,
        rules: Mapping[str, GameRules] | None = None,
        cache_size: int = 256,
        snapshot_every: int | None = SNAPSHOT_EVERY,
        limits: Limits | None = None,
        thinker: Thinker | None = None,
    ) -> None:
        self.storage = storage
        self.settings = settings or Settings()
        self.clock: Clock = clock or SystemClock()
        self._rules = rules
        self.snapshot_every = snapshot_every
        self.limits = limits or Limits()
        self._cache_size = cache_size
        self._cache: OrderedDict[int, _Loaded] = OrderedDict()
        #: Guild settings read recently: guild id -> (read at, in ms; the settings).
        self._settings_cache: dict[int, tuple[int, GuildSettings]] = {}
        #: What went out to Discord but is not written yet: game id -> columns (see posted()).
        self._pending: dict[int, dict[str, int]] = {}
        #: The shards whose guilds' background work is this process's (None: every guild).
        self.shards = _shards_of(self.settings)
        #: Who holds this process's claims (shown in the lease columns, for whoever looks).
        self.holder = f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(3)}"
        #: Where computer players think (see :mod:`bot.service.thinking`).
        self.thinker = thinker or Thinker(
            self.settings.think_workers,
            Budget(self.settings.think_seconds, self.settings.think_iterations),
        )
        #: The games a computer is thinking for in this process: game id -> its task.
        self._thinking: dict[int, asyncio.Task[None]] = {}
        #: Called with each computer turn stored in the background (the table posts it).
        self.on_computer_turn: Callable[[TurnResult], Awaitable[None]] | None = None

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
        for task in list(self._thinking.values()):
            task.cancel()
        await asyncio.gather(*self._thinking.values(), return_exceptions=True)
        self.thinker.close()
        if not self.storage.closed:
            await self.flush_posted()
        await self.storage.close()

    async def __aenter__(self) -> GameService:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()

    @property
    def rules(self) -> Mapping[str, GameRules]:
        """Every game this service runs, by name (all registered games by default)."""
        if self._rules is not None:
            return self._rules
        return {name: p.rules for name, p in plugins().items()}

    # ================================================================ lobby

    async def create_game(
        self,
        guild_id: int,
        channel_id: int,
        user_id: int,
        name: str,
        kind: str = "covenant",
        options: Mapping[str, Any] | None = None,
        *,
        shuffle_seats: bool = True,
        seed: int | None = None,
    ) -> GameRecord:
        """Open a lobby in ``channel_id`` with its creator in the first seat.

        Only in a server (``guild_id`` > 0); a user may have a few lobbies open at once, and
        opens a new one only a little while after the last."""
        if guild_id <= 0:
            raise ServiceError("guild_only", "Games are played in a server's channels.")
        rules = self._game_rules(kind)
        try:
            clean = rules.check_options(dict(options or {}))
        except ValueError as exc:
            raise ServiceError("bad_options", str(exc)) from None
        seed = secrets.randbits(62) if seed is None else seed
        busy = ServiceError("channel_busy", "There is already a game in this channel.")
        try:
            async with self.storage.write() as tx:
                if await tx.open_game(channel_id) is not None:
                    raise busy
                await self._check_lobby_limits(tx, guild_id, user_id)
                await self._check_open_games(tx, user_id)
                game_id = await tx.insert_game(
                    NewGame(
                        guild_id,
                        channel_id,
                        kind,
                        seed,
                        json.dumps(clean),
                        shuffle_seats,
                        user_id,
                        self._now_ms(),
                    )
                )
                await tx.set_seats(game_id, [Seat(0, user_id, name)])
                return await self._record(tx, game_id)
        except ChannelBusy:
            raise busy from None

    async def _check_open_games(self, tx: Transaction, user_id: int) -> None:
        """A player may have a few more games going than they have finished: no one can
        start tables faster than they play them."""
        going = len(await tx.games_of_user(user_id, ("lobby", "active")))
        finished = len(await tx.games_of_user(user_id, ("finished",)))
        allowed = finished + self.limits.extra_open_games
        if going >= allowed:
            raise ServiceError(
                "too_many_games",
                f"You are in {going} games already: finish one first.",
                count=going,
            )

    async def _check_lobby_limits(self, tx: Transaction, guild_id: int, user_id: int) -> None:
        by_user, by_guild, last_ms = await tx.lobby_counts(guild_id, user_id)
        if by_user >= self.limits.lobbies_per_user:
            raise ServiceError(
                "too_many_lobbies",
                f"You already have {by_user} tables waiting for players.",
                count=by_user,
            )
        if by_guild >= self.limits.lobbies_per_guild:
            raise ServiceError(
                "server_lobbies_full", "This server has many tables waiting already."
            )
        wait_ms = (last_ms or 0) + _td_ms(self.limits.cooldown) - self._now_ms()
        if last_ms is not None and wait_ms > 0:
            raise ServiceError(
                "cooldown",
                "You opened a table a moment ago.",
                seconds=max(1, -(-wait_ms // 1000)),
            )

    async def expire_lobbies(self) -> list[GameRecord]:
        """Close the lobbies nobody started within their server's lobby expiry; returns them
        (their messages are to be updated)."""
        now = self._now_ms()
        expired: list[GameRecord] = []
        async with self.storage.write() as tx:
            # Claimed: another process closing lobbies now skips these, and finds them
            # closed once this commits, so each lobby is closed (and told) once.
            for record in await tx.lobbies(self.shards, claim=True):
                settings = await self._guild_settings(tx, record.guild_id)
                if to_ms(record.updated_at) + _td_ms(settings.lobby_expiry) > now:
                    continue
                await tx.update_game(record.id, status="ended", finished_at=now, updated_at=now)
                expired.append(dataclasses.replace(record, status="ended"))
        return expired

    async def set_options(
        self,
        channel_id: int,
        user_id: int,
        changes: Mapping[str, Any],
        *,
        moderator: bool = False,
    ) -> GameRecord:
        """Change options of the lobby in ``channel_id`` (its creator or a moderator), checked
        by the game's rules; the seats stay."""
        async with self.storage.write() as tx:
            record = await self._lobby(tx, channel_id)
            if record.creator_id != user_id and not moderator:
                raise ServiceError(
                    "not_allowed", "Only the game's creator or a moderator can change it."
                )
            try:
                clean = self._game_rules(record.kind).check_options({**record.options, **changes})
            except ValueError as exc:
                raise ServiceError("bad_options", str(exc)) from None
            await tx.update_game(record.id, options=json.dumps(clean), updated_at=self._now_ms())
            return await self._record(tx, record.id)

    async def join(self, channel_id: int, user_id: int, name: str) -> GameRecord:
        """Take the next free seat of the lobby in ``channel_id``."""
        async with self.storage.write() as tx:
            record = await self._lobby(tx, channel_id)
            if record.seat_of(user_id) is not None:
                raise ServiceError("already_joined", "You have already joined this game.")
            rules = self._game_rules(record.kind)
            await self._check_open_games(tx, user_id)
            if len(record.seats) >= rules.max_players:
                raise ServiceError(
                    "lobby_full",
                    f"This game is full ({rules.max_players} players).",
                    max=rules.max_players,
                )
            seats = [*record.seats, Seat(len(record.seats), user_id, name)]
            await tx.set_seats(record.id, seats)
            await tx.update_game(record.id, updated_at=self._now_ms())
            return await self._record(tx, record.id)

    async def add_computer(
        self, channel_id: int, user_id: int, level: str, *, moderator: bool = False
    ) -> GameRecord:
        """The lobby's creator (or a moderator) adds a computer player of ``level``."""
        if level not in LEVELS:
            raise ServiceError("bad_level", f"A computer plays at one of {', '.join(LEVELS)}.")
        async with self.storage.write() as tx:
            record = await self._lobby(tx, channel_id)
            if record.creator_id != user_id and not moderator:
                raise ServiceError(
                    "not_allowed", "Only the game's creator or a moderator can add computers."
                )
            rules = self._game_rules(record.kind)
            if len(record.seats) >= rules.max_players:
                raise ServiceError(
                    "lobby_full",
                    f"This game is full ({rules.max_players} players).",
                    max=rules.max_players,
                )
            taken = {s.name for s in record.seats}
            name = next(n for n in COMPUTER_NAMES if n not in taken)
            computer = Seat(len(record.seats), None, name, is_bot=True, level=level)
            await tx.set_seats(record.id, [*record.seats, computer])
            await tx.update_game(record.id, updated_at=self._now_ms())
            return await self._record(tx, record.id)

    async def remove_computer(
        self, channel_id: int, user_id: int, *, moderator: bool = False
    ) -> GameRecord:
        """The lobby's creator (or a moderator) takes the last computer player off again."""
        async with self.storage.write() as tx:
            record = await self._lobby(tx, channel_id)
            if record.creator_id != user_id and not moderator:
                raise ServiceError(
                    "not_allowed", "Only the game's creator or a moderator can remove computers."
                )
            computers = [s for s in record.seats if s.is_bot]
            if not computers:
                raise ServiceError("no_computer", "There is no computer player at this table.")
            rest = [s for s in record.seats if s is not computers[-1]]
            await tx.set_seats(record.id, rest)
            await tx.update_game(record.id, updated_at=self._now_ms())
            return await self._record(tx, record.id)

    async def leave(self, channel_id: int, user_id: int) -> GameRecord:
        """Leave the lobby; the last one out closes it, and a leaving creator hands over."""
        async with self.storage.write() as tx:
            record = await self._lobby(tx, channel_id)
            rest = [s for s in record.seats if s.user_id != user_id]
            if len(rest) == len(record.seats):
                raise ServiceError("not_joined", "You have not joined this game.")
            await tx.set_seats(record.id, rest)
            now = self._now_ms()
            people = [s for s in rest if not s.is_bot]
            if not people:  # computers alone do not keep a table open
                await tx.update_game(record.id, status="ended", finished_at=now, updated_at=now)
            elif record.creator_id == user_id:
                await tx.update_game(record.id, creator_id=people[0].user_id, updated_at=now)
            else:
                await tx.update_game(record.id, updated_at=now)
            return await self._record(tx, record.id)

    async def start(self, channel_id: int, user_id: int, *, moderator: bool = False) -> GameRecord:
        """Start the lobby's game (its creator or a moderator): seats are fixed, seat 0 plays."""
        async with self.storage.write() as tx:
            record = await self._lobby(tx, channel_id)
            if record.creator_id != user_id and not moderator:
                raise ServiceError(
                    "not_allowed", "Only the game's creator or a moderator can start it."
                )
            rules = self._game_rules(record.kind)
            seats = list(record.seats)
            if len(seats) < rules.min_players:
                raise ServiceError(
                    "too_few_players",
                    f"This game needs at least {rules.min_players} players.",
                    min=rules.min_players,
                )
            if record.shuffle_seats:
                # From the seed, so the seating is part of what the seed reproduces.
                Rng(record.seed ^ _SEAT_SHUFFLE_SALT).shuffle(seats)
            try:
                game = rules.new(len(seats), record.seed, record.options)
            except ValueError as exc:
                raise ServiceError("bad_options", str(exc)) from None
            now = self._now_ms()
            await tx.set_seats(record.id, seats)
            settings = await self._guild_settings(tx, record.guild_id)
            pace = pace_of(settings.pace)
            clock = {"pace": pace.name, "banks": [pace.start_ms] * len(seats)} if pace else None
            first = seats[game.current_player]
            await tx.update_game(
                record.id,
                status="active",
                version=0,
                current_seat=game.current_player,
                started_at=now,
                waiting_since=now,
                last_move_at=now,
                updated_at=now,
                clock=json.dumps(clock) if clock else None,
                next_due_at=_next_due(clock, first, game.current_player, now, now, ()),
                # Nothing shown yet: the first board is still to be posted.
                announced=-1,
            )
            record = await self._record(tx, record.id)
        self._remember(record.id, _Loaded(0, game, _fresh_turn(game), 0))
        # A computer in the first seat is woken by the caller once the first board is out.
        return record

    # ================================================================ play

    async def act(
        self,
        game_id: int,
        user_id: int,
        action: Any,
        expected_version: int | None = None,
    ) -> TurnResult:
        """Play ``action`` (an engine action or its dict form) for ``user_id`` in the game.

        ``expected_version`` is the game's version the user saw (on a button, say); if the
        game has moved on since, the action is refused as stale. Raises
        :class:`ServiceError` and changes nothing if the action cannot be played.
        """
        async with self._guard(), self.storage.write() as tx:
            record = await self._active(tx, game_id)
            seat = record.seat_of(user_id)
            if seat is None:
                raise ServiceError("not_a_player", "You are not playing in this game.")
            if expected_version is not None and expected_version != record.version:
                raise _stale()
            if seat.index != record.current_seat:
                current = record.seats[record.current_seat or 0]
                raise ServiceError(
                    "not_your_turn",
                    f"It is {current.name}'s turn, not yours.",
                    current=current.index,
                )
            if isinstance(action, Mapping):
                try:
                    action = self._game_rules(record.kind).parse_action(dict(action))
                except ValueError as exc:
                    raise ServiceError("bad_action", f"That is not a move: {exc}") from None
            loaded = await self._load(tx, record)
            result = await self._play(tx, record, loaded, [(action, seat, "player")])
        self.wake(result.game)
        return result

    async def time_out(self, due: DueTurn) -> TurnResult:
        """A player's time ran out: the guild's ``"computer"`` action has a computer play the
        turn for them, ``"skip"`` makes only the moves the game cannot go on without (for the
        Covenant: the tile goes where the computer would put it, no piece is deployed); the
        notice is marked sent. The computer thinks before the write, off the event loop."""
        moves: list[Any] = [None]
        if due.timeout_action == "computer":
            record, game = await self.state(due.game.id)
            if record.version != due.version:
                raise _stale()
            settings = await self.recent_guild_settings(record.guild_id)
            moves = await self.thinker.turn(
                record.kind,
                game.to_json(),
                due.seat.index,
                settings.computer_level,
                _think_seed(record),
            )
        async with self._guard(), self.storage.write() as tx:
            record = await tx.game(due.game.id)
            if record is None or record.status != "active" or record.version != due.version:
                raise _stale()
            seat = record.seats[record.current_seat or 0]
            if seat.user_id != due.seat.user_id:
                raise _stale()
            loaded = await self._load(tx, record)
            result = await self._play(tx, record, loaded, [(m, seat, "timeout") for m in moves])
            await tx.mark_notice_sent(
                record.id, due.version, seat.user_id, "timeout", self._now_ms()
            )
        self.wake(result.game)
        return result

    # ================================================================ computer players

    def wake(self, record: GameRecord) -> None:
        """If it is a computer's turn in ``record``'s game, have it play: it thinks in the
        background (off the event loop, one turn at a time per game), the turn is stored
        with the version check and handed to :attr:`on_computer_turn` to be told."""
        seat = record.current
        if record.status != "active" or seat is None or not seat.is_bot:
            return
        if record.id in self._thinking:
            return  # already thinking: that task looks again when its turn is stored
        task = asyncio.create_task(self._drive(record.id), name=f"arkbot-think-{record.id}")
        self._thinking[record.id] = task
        task.add_done_callback(lambda _task, game_id=record.id: self._thinking.pop(game_id, None))

    async def settle(self) -> None:
        """Wait until no computer of this process is thinking (tests, the demo)."""
        while self._thinking:
            await asyncio.gather(*list(self._thinking.values()), return_exceptions=True)

    async def wake_computers(self, grace: timedelta = ANNOUNCE_GRACE) -> int:
        """Claim the games waiting for a computer's turn for longer than ``grace`` (whoever
        was thinking for them stopped: a crash, a restart) and wake them here; the lease
        keeps other processes off them meanwhile. Returns how many were woken."""
        now = self._now_ms()
        async with self.storage.write() as tx:
            # A short lease: thinking takes seconds, and the game's other background work
            # (a missed post) waits for the same lease.
            until = now + _td_ms(ANNOUNCE_GRACE)
            ids = await tx.claim_computer_turns(
                now - _td_ms(grace), now, until, self.holder, self.shards, CLAIM_BATCH
            )
            records = [await self._record(tx, game_id) for game_id in ids]
        woken = 0
        for record in records:
            if record.id not in self._thinking:
                self.wake(record)
                woken += 1
        return woken

    async def _drive(self, game_id: int) -> None:
        try:
            while True:
                try:
                    record, game = await self.state(game_id)
                except ServiceError:
                    return  # ended, damaged or gone meanwhile
                seat = record.current
                if record.status != "active" or seat is None or not seat.is_bot:
                    return
                level = seat.level
                if level is None:  # a seat taken over before computers had levels
                    level = (await self.recent_guild_settings(record.guild_id)).computer_level
                actions = await self.thinker.turn(
                    record.kind, game.to_json(), seat.index, level, _think_seed(record)
                )
                try:
                    result = await self._computer_moves(game_id, record.version, seat, actions)
                except ServiceError as error:
                    if error.code == "stale":
                        continue  # someone else moved meanwhile: look again
                    raise
                if self.on_computer_turn is not None:
                    try:
                        await self.on_computer_turn(result)
                    except Exception:
                        # The turn is stored; the missed-post round tells it later.
                        log.exception("could not tell the computer's turn in game %s", game_id)
        except asyncio.CancelledError:
            raise
        except Exception:
            # The lease round wakes the game again later; other games are not concerned.
            log.exception("the computer player could not move in game %s", game_id)

    async def _computer_moves(
        self, game_id: int, version: int, seat: Seat, actions: list[Any]
    ) -> TurnResult:
        async with self._guard(), self.storage.write() as tx:
            record = await self._active(tx, game_id)
            now_seat = record.current
            if record.version != version or now_seat is None or now_seat.index != seat.index:
                raise _stale()
            if not now_seat.is_bot:
                raise _stale()  # handed to a person meanwhile
            loaded = await self._load(tx, record)
            return await self._play(tx, record, loaded, [(a, now_seat, "bot") for a in actions])

    async def hint(self, game_id: int, user_id: int) -> tuple[GameRecord, HintData]:
        """A suggested move for ``user_id``, whose turn it is, with its reason."""
        record, game = await self.state(game_id)
        seat = record.seat_of(user_id)
        if seat is None:
            raise ServiceError("not_a_player", "You are not playing in this game.")
        if record.status != "active" or seat.index != record.current_seat:
            current = record.seats[record.current_seat or 0]
            raise ServiceError(
                "not_your_turn", f"It is {current.name}'s turn, not yours.", current=current.index
            )
        found = await self.thinker.hint(
            record.kind, game.to_json(), seat.index, _think_seed(record)
        )
        return record, found

    async def game_in(self, channel_id: int) -> GameRecord | None:
        """The open (lobby, active or damaged) game of a channel, if any."""
        async with self.storage.read() as tx:
            return await tx.open_game(channel_id)

    async def set_thread(self, game_id: int, thread_id: int | None) -> GameRecord:
        """The game is played in ``thread_id`` from now on (``None``: in its channel again)."""
        async with self.storage.write() as tx:
            await tx.update_game(game_id, thread_id=thread_id)
            return await self._record(tx, game_id)

    async def last_game(self, channel_id: int) -> GameRecord | None:
        """The newest game of a channel, whatever became of it."""
        async with self.storage.read() as tx:
            return await tx.last_game(channel_id)

    async def get_game(self, game_id: int) -> GameRecord:
        async with self.storage.read() as tx:
            return await self._record(tx, game_id)

    async def state(self, game_id: int) -> tuple[GameRecord, Any]:
        """The record and a private copy of the engine state (for pictures and menus)."""
        async with self._guard(), self.storage.read() as tx:
            record = await tx.game(game_id)
            if record is None:
                raise ServiceError("no_game", "There is no such game.")
            if record.status == "error":
                raise ServiceError("game_damaged", "This game is damaged; a moderator can end it.")
            if record.status == "lobby":
                raise ServiceError("not_started", "The game has not started yet.")
            loaded = await self._load(tx, record)
            return record, loaded.game.copy()

    async def told_since(
        self, game_id: int, since: int
    ) -> tuple[GameRecord, Any, list[TurnRecord]]:
        """The record, the state now, and the turns stored after version ``since``, for
        telling what the channel has not seen (the bot stopped between a move and its post).
        The first turn may have begun before ``since``: it is told from its beginning."""
        async with self._guard(), self.storage.read() as tx:
            record = await self._record(tx, game_id)
            rules = self._game_rules(record.kind)
            game, turn, done = await self._start_of(tx, record, rules, since)
            turns: list[TurnRecord] = []
            for entry in await tx.actions(game_id, after=done):
                before = game.turn
                events = self._replay_one(record, rules, game, entry)
                turn.add(entry.source, events)
                if game.turn != before or rules.is_over(game):
                    if entry.seq > since:
                        turns.append(turn.record(complete=True))
                    turn = _fresh_turn(game)
            if turn.events:
                turns.append(turn.record(complete=False))
        return record, game, turns

    async def replay_turns(
        self, game_id: int
    ) -> tuple[GameRecord, list[tuple[Any, TurnRecord]], Any]:
        """The whole game turn by turn, from its log: (the record, [(the public view when the
        turn began, the turn)], the public view now). For history, catching up and replays."""
        async with self._guard(), self.storage.read() as tx:
            record = await self._record(tx, game_id)
            if record.status == "lobby":
                raise ServiceError("not_started", "The game has not started yet.")
            rules = self._game_rules(record.kind)
            try:
                options = rules.check_options(record.options)
                game = rules.new(len(record.seats), record.seed, options)
            except (ValueError, TypeError, KeyError) as exc:
                raise _Damaged(record.id, f"the game row: {exc}") from None
            entries = await tx.actions(game_id)
        turns: list[tuple[Any, TurnRecord]] = []
        view, turn = game.view(None), _fresh_turn(game)
        try:
            for entry in entries:
                before = game.turn
                turn.add(entry.source, self._replay_one(record, rules, game, entry))
                if game.turn != before or rules.is_over(game):
                    turns.append((view, turn.record(complete=True)))
                    view, turn = game.view(None), _fresh_turn(game)
        except (ValueError, TypeError, KeyError) as exc:
            raise ServiceError(
                "game_damaged", "This game's log is damaged.", reason=str(exc)
            ) from None
        if turn.events:
            turns.append((view, turn.record(complete=False)))
        return record, turns, game.view(None)

    # ================================================================ moderation

    async def end_game(
        self, channel_id: int, moderator_id: int, *, moderator: bool, reason: str = ""
    ) -> GameRecord:
        """End the channel's open game without a result (a lobby's creator may cancel it)."""
        async with self.storage.write() as tx:
            record = await tx.open_game(channel_id)
            if record is None:
                raise ServiceError("no_game", "There is no game in this channel.")
            creator_cancels = record.status == "lobby" and record.creator_id == moderator_id
            if not (moderator or creator_cancels):
                raise ServiceError("not_allowed", "Only a moderator can end a game.")
            now = self._now_ms()
            await tx.update_game(
                record.id, status="ended", current_seat=None, finished_at=now, updated_at=now
            )
            await tx.forget_caches(record.id)
            await self._log(
                tx,
                record.guild_id,
                record.id,
                moderator_id,
                "end_game",
                None,
                {"reason": reason, "was": record.status, "version": record.version},
            )
            ended = await self._record(tx, record.id)
        self._cache.pop(record.id, None)
        return ended

    async def leave_game(self, channel_id: int, user_id: int) -> TurnResult:
        """A player leaves a started game for good: a computer takes the seat over, as when
        a moderator removes them (see the module docstring), and plays at once if it is its
        turn. Logged like a removal, with the player as the one who acted."""
        return await self._to_computer(channel_id, user_id, user_id, "leave_game")

    async def remove_player(
        self, channel_id: int, moderator_id: int, target_user_id: int, *, moderator: bool
    ) -> TurnResult:
        """Remove a player: from a lobby, their seat goes; in a game, a computer takes it
        over (and plays at once if it is its turn). See the module docstring for why."""
        if not moderator:
            raise ServiceError("not_allowed", "Only a moderator can remove a player.")
        return await self._to_computer(channel_id, moderator_id, target_user_id, "remove_player")

    async def _to_computer(
        self, channel_id: int, actor_id: int, target_user_id: int, act: str
    ) -> TurnResult:
        async with self._guard(), self.storage.write() as tx:
            record = await tx.open_game(channel_id)
            if record is None or record.status == "error":
                raise ServiceError("no_game", "There is no game in this channel to change.")
            target = record.seat_of(target_user_id)
            if target is None:
                raise ServiceError("not_a_player", "That user is not playing in this game.")
            if act == "leave_game" and record.status != "active":
                raise ServiceError("not_started", "The game here has not started yet.")
            await self._log(
                tx,
                record.guild_id,
                record.id,
                actor_id,
                act,
                target_user_id,
                {"seat": target.index, "name": target.name, "status": record.status},
            )
            if record.status == "lobby":
                await tx.set_seats(record.id, [s for s in record.seats if s is not target])
                return self._no_moves(await self._record(tx, record.id))
            settings = await self._guild_settings(tx, record.guild_id)
            computer = Seat(
                target.index, None, target.name, is_bot=True, left_user_id=target.user_id,
                level=settings.computer_level,
            )  # fmt: skip
            await tx.update_seat(record.id, computer)
            seats = tuple(computer if s.index == target.index else s for s in record.seats)
            record = dataclasses.replace(record, seats=seats)
            if all(s.is_bot for s in seats):
                now = self._now_ms()
                await tx.update_game(
                    record.id, status="ended", current_seat=None, finished_at=now, updated_at=now
                )
                self._cache.pop(record.id, None)
                return self._no_moves(await self._record(tx, record.id))
            result = self._no_moves(await self._record(tx, record.id))
        # If it is the seat's turn, the computer thinks it over now, after the commit.
        self.wake(result.game)
        return result

    async def hand_seat(
        self,
        channel_id: int,
        moderator_id: int,
        to_user_id: int,
        to_name: str,
        *,
        moderator: bool,
        from_user_id: int | None = None,
        seat_index: int | None = None,
    ) -> GameRecord:
        """Give a seat (``from_user_id``'s, or seat ``seat_index``, also a computer's) to
        another user, who then plays it; their turn's clock restarts."""
        if not moderator:
            raise ServiceError("not_allowed", "Only a moderator can hand a seat over.")
        async with self.storage.write() as tx:
            record = await tx.open_game(channel_id)
            if record is None or record.status != "active":
                raise ServiceError("not_started", "There is no game being played in this channel.")
            if record.seat_of(to_user_id) is not None:
                raise ServiceError("already_joined", "That user already has a seat in this game.")
            if seat_index is not None:
                seat = record.seats[seat_index] if 0 <= seat_index < len(record.seats) else None
            else:
                seat = record.seat_of(from_user_id) if from_user_id is not None else None
            if seat is None:
                raise ServiceError("not_a_player", "There is no such seat in this game.")
            now = self._now_ms()
            newcomer = Seat(seat.index, to_user_id, to_name)
            await tx.update_seat(record.id, newcomer)
            if seat.index == record.current_seat:
                # The newcomer's turn starts now, with the seat's bank.
                due = _next_due(record.clock, newcomer, seat.index, now, now, ())
                await tx.update_game(record.id, waiting_since=now, next_due_at=due, updated_at=now)
            await self._log(
                tx,
                record.guild_id,
                record.id,
                moderator_id,
                "hand_seat",
                to_user_id,
                {
                    "seat": seat.index,
                    "from_user_id": seat.user_id,
                    "from_name": seat.name,
                    "to_name": to_name,
                },
            )
            return await self._record(tx, record.id)

    async def moderation_log(self, guild_id: int, limit: int = 50) -> list[ModerationRecord]:
        """The guild's latest moderation acts, newest first."""
        async with self.storage.read() as tx:
            return await tx.moderation_log(guild_id, limit)

    async def damaged_games(self, guild_id: int) -> list[GameRecord]:
        """Games of the guild stopped because their stored form is damaged."""
        return await self.games(guild_id, ("error",))

    async def games(
        self, guild_id: int, statuses: Sequence[str] = ("lobby", "active", "error")
    ) -> list[GameRecord]:
        """The guild's games in the given statuses, oldest first."""
        async with self.storage.read() as tx:
            return await tx.games(guild_id, statuses)

    # ================================================================ time

    async def guild_settings(self, guild_id: int) -> GuildSettings:
        """The guild's settings, or the defaults from :class:`Settings`."""
        async with self.storage.read() as tx:
            return await self._guild_settings(tx, guild_id)

    async def recent_guild_settings(self, guild_id: int) -> GuildSettings:
        """The guild's settings as read at most :data:`SETTINGS_TTL` ago (for what every post
        needs, such as its language, without a read per post; this process sees its own
        changes at once, other processes' within the TTL)."""
        now = self._now_ms()
        cached = self._settings_cache.get(guild_id)
        if cached is not None and now - cached[0] < _td_ms(SETTINGS_TTL):
            return cached[1]
        settings = await self.guild_settings(guild_id)
        self._settings_cache[guild_id] = (now, settings)
        return settings

    async def set_guild_settings(
        self, guild_id: int, moderator_id: int, *, moderator: bool, **changes: Any
    ) -> GuildSettings:
        """Change some of the guild's settings (moderators only; names as in
        :class:`GuildSettings`); logged when something changed. ``moderator_role_id`` and
        ``language`` may be set to None (no role; the server's own language)."""
        if not moderator:
            raise ServiceError("not_allowed", "Only a moderator can change the settings.")
        names = {f.name for f in dataclasses.fields(GuildSettings)} - {"guild_id"}
        unknown = set(changes) - names
        if unknown:
            raise ServiceError("bad_setting", f"Unknown settings: {sorted(unknown)}.")
        async with self.storage.write() as tx:
            old = await self._guild_settings(tx, guild_id)
            new = dataclasses.replace(old, **changes)
            _check_settings(new)
            if new == old:
                return new
            await tx.save_guild_settings(new)
            self._settings_cache.pop(guild_id, None)
            detail = {
                name: (value.total_seconds() if isinstance(value, timedelta) else value)
                for name, value in changes.items()
                if getattr(old, name) != value
            }
            await self._log(tx, guild_id, None, moderator_id, "settings", None, detail)
            return new

    async def ping(self, user_id: int) -> str:
        """How ``user_id`` hears it is their turn: "channel" (the default), "dm" or "both"."""
        async with self.storage.read() as tx:
            return await tx.ping(user_id)

    async def due(self, now: datetime | None = None) -> list[DueTurn]:
        """The notices due now: a reminder when half the player's time bank is used, the
        last one near its end, the time-out at zero (see :mod:`bot.service.pace`).

        Each is offered until :meth:`mark_sent` (or :meth:`time_out`) records it; of several
        that fell due while nobody looked (the bot was down), only the latest is offered.
        Reminders wait out the server's quiet hours, and so does telling the moderators.
        """
        now_ms = to_ms(now or self.clock.now())
        async with self.storage.read() as tx:
            rows = await tx.due_games(now_ms, now_ms - self._lease_ms, self.shards)
        found: list[DueTurn] = []
        for row in rows:
            record, seat = row.game, row.game.current
            if seat is None or record.clock is None or record.waiting_since is None:
                continue
            start = to_ms(record.waiting_since)
            times = schedule(record.clock["banks"][seat.index], start, now_ms, seat.away)
            ready = [st for st in STAGES if times[st] <= now_ms and st not in row.sent]
            if not ready:
                continue
            kind = ready[-1]
            deadline_ms = times["timeout"]
            # Nobody is timed out without a reminder: when the time ran out while no
            # reminder went (the bot was down), one goes now with a last stretch of time.
            late = kind == "timeout" and not {"reminder", "final"} & set(row.sent)
            if late:
                kind, deadline_ms = "reminder", now_ms + last_stretch(record.clock, seat.index)
            settings = await self.recent_guild_settings(record.guild_id)
            quiet = settings.quiet_hours().quiet(now_ms)
            pinging = kind != "timeout" or settings.timeout_action == "notify"
            away = seat.away is not None and seat.away.start_ms <= now_ms < seat.away.until_ms
            if (pinging and quiet) or (away and kind != "timeout"):
                continue
            found.append(
                DueTurn(
                    kind=kind,  # type: ignore[arg-type]
                    game=record,
                    seat=seat,
                    version=record.version,
                    waiting_since=record.waiting_since,
                    dm=seat.ping in ("dm", "both"),
                    timeout_action=settings.timeout_action,
                    moderator_role_id=settings.moderator_role_id,
                    deadline_ms=deadline_ms,
                    late=late,
                )
            )
        return found

    async def claim(self, due: DueTurn) -> bool:
        """Reserve a due notice for sending; ``False`` if another caller has it (or it
        was sent). Call :meth:`mark_sent` once it went out."""
        now = self._now_ms()
        async with self.storage.write() as tx:
            record = await tx.game(due.game.id)
            still_waiting = (
                record is not None
                and record.status == "active"
                and record.version == due.version
                and record.current is not None
                and record.current.user_id == due.seat.user_id
            )
            if not still_waiting or due.seat.user_id is None:
                return False
            return await tx.claim_notice(
                due.game.id,
                due.version,
                due.seat.user_id,
                due.kind,
                now,
                now - self._lease_ms,
            )

    async def mark_sent(self, due: DueTurn) -> None:
        """Record that the reminder (or the moderators' time-out notice) went out; the turn's
        next notice is the next stage after it (earlier ones it stood in for are done)."""
        if due.seat.user_id is None:
            return
        now = self._now_ms()
        async with self.storage.write() as tx:
            await tx.mark_notice_sent(due.game.id, due.version, due.seat.user_id, due.kind, now)
            record = await tx.game(due.game.id)
            if record is None or record.version != due.version or record.clock is None:
                return
            done = STAGES[: STAGES.index(due.kind) + 1] if due.kind in STAGES else STAGES
            start = to_ms(record.waiting_since) if record.waiting_since else now
            seat = record.seats[due.seat.index]
            clock = record.clock
            if due.late and due.deadline_ms is not None:
                # The late reminder stands for the last call too; the bank grows to the
                # deadline it told (how much longer than the time that had run out).
                done = ("reminder", "final")
                await tx.mark_notice_sent(due.game.id, due.version, due.seat.user_id, "final", now)
                ran_out = schedule(clock["banks"][seat.index], start, now, seat.away)["timeout"]
                banks = list(clock["banks"])
                banks[seat.index] += max(0, due.deadline_ms - ran_out)
                clock = {**clock, "banks": banks}
            changes: dict[str, Any] = {}
            if clock is not record.clock:
                changes["clock"] = json.dumps(clock)
            await tx.update_game(
                record.id,
                next_due_at=_next_due(clock, seat, seat.index, start, now, done),
                **changes,
            )

    # ================================================================ stalled games

    async def stalled(self) -> tuple[list[GameRecord], list[GameRecord]]:
        """Games nobody moved in for long: (those to warn now, those to end now). A game is
        warned once, when six sevenths of its server's stall time have passed without a
        move, and ended when all of it has (see :meth:`end_stalled`)."""
        now = self._now_ms()
        warn, end = [], []
        async with self.storage.read() as tx:
            candidates = await tx.quiet_games(now - _td_ms(MIN_STALL * 6 / 7), self.shards)
            for record in candidates:
                settings = await self._guild_settings(tx, record.guild_id)
                idle = now - (record.last_move_ms or now)
                limit = _td_ms(settings.stall_after)
                if idle >= limit:
                    end.append(record)
                elif idle >= limit * 6 // 7 and not await tx.notice_sent(
                    record.id, record.version, record.creator_id, "stall"
                ):
                    warn.append(record)
        return warn, end

    async def warned_stall(self, record: GameRecord) -> None:
        """The stall warning of ``record`` went out (it is not sent again for this version)."""
        async with self.storage.write() as tx:
            await tx.mark_notice_sent(
                record.id, record.version, record.creator_id, "stall", self._now_ms()
            )

    async def end_stalled(self, record: GameRecord) -> GameRecord:
        """End a stalled game, logged as the bot's own act; its standings stand."""
        async with self.storage.write() as tx:
            fresh = await tx.game(record.id)
            if fresh is None or fresh.status != "active" or fresh.version != record.version:
                raise _stale()
            now = self._now_ms()
            await tx.update_game(
                record.id, status="ended", current_seat=None, finished_at=now, updated_at=now
            )
            await tx.forget_caches(record.id)
            await self._log(tx, record.guild_id, record.id, 0, "stall_end", None, {})
            ended = await self._record(tx, record.id)
        self._cache.pop(record.id, None)
        return ended

    # ================================================================ rematch

    async def rematch(self, game_id: int, user_id: int) -> GameRecord:
        """The same people again, in the same channel, with a new shuffle: started at once
        when enough of them are still there, else a lobby the others can join."""
        async with self.storage.read() as tx:
            old = await self._record(tx, game_id)
        if old.status not in ("finished", "ended"):
            raise ServiceError("not_over", "This game is not over yet.")
        people = [s for s in old.seats if s.user_id is not None and not s.is_bot]
        me = next((s for s in people if s.user_id == user_id), None)
        if me is None:
            raise ServiceError("not_a_player", "Only its players can ask for a rematch.")
        record = await self.create_game(
            old.guild_id, old.channel_id, me.user_id, me.name, old.kind, old.options
        )
        for seat in people:
            if seat.user_id != me.user_id:
                record = await self.join(old.channel_id, seat.user_id, seat.name)
        async with self.storage.write() as tx:
            await tx.update_game(record.id, rematch_of=old.id)
        if len(record.seats) >= self._game_rules(record.kind).min_players:
            return await self.start(old.channel_id, me.user_id)
        return await self.get_game(record.id)

    # ================================================================ away, pings

    async def set_away(self, user_id: int, until: datetime | None) -> list[GameRecord]:
        """``user_id`` is away until ``until`` (None: back now): their clocks stand still
        meanwhile. Returns the active games they play in (to say so in each)."""
        now = self._now_ms()
        until_ms = to_ms(until) if until is not None else None
        if until_ms is not None and until_ms <= now:
            raise ServiceError("bad_setting", "Away until a moment that has passed?")
        async with self.storage.write() as tx:
            games = await tx.games_of_user(user_id, ("active",))
            old = next(
                (s.away for g in games for s in g.seats if s.user_id == user_id and s.away), None
            )
            if until_ms is None:
                # Back: the time away so far still does not count; the plan ends now.
                start, end = (old.start_ms, now) if old and old.start_ms < now else (None, None)
            else:
                keep = old is not None and old.start_ms <= now < old.until_ms
                start, end = (old.start_ms if keep and old else now), until_ms
            await tx.set_away(user_id, start, end)
            refreshed = []
            for record in games:
                fresh = await tx.game(record.id)
                if fresh is None:
                    continue
                seat = fresh.current
                if seat is not None and seat.user_id == user_id and fresh.waiting_since:
                    turn_start = to_ms(fresh.waiting_since)
                    due = _next_due(fresh.clock, seat, seat.index, turn_start, now, ())
                    await tx.update_game(fresh.id, next_due_at=due)
                refreshed.append(fresh)
        return refreshed

    async def set_ping(self, user_id: int, ping: str) -> None:
        """How ``user_id`` hears it is their turn: "channel", "dm" or "both"."""
        if ping not in ("channel", "dm", "both"):
            raise ServiceError("bad_setting", "Pings go to the channel, by DM, or both.")
        async with self.storage.write() as tx:
            await tx.set_ping(user_id, ping)

    # ================================================================ history

    async def history(self, game_id: int) -> list[ActionRecord]:
        """Every action of a game in order, with its time, seat and user."""
        async with self.storage.read() as tx:
            return await tx.actions(game_id)

    # ================================================================ announcements

    async def mark_announced(self, game_id: int, version: int) -> None:
        """Record now that the channel has seen the game up to ``version``."""
        async with self.storage.write() as tx:
            await tx.mark_announced(game_id, version)

    def posted(
        self,
        game_id: int,
        version: int | None = None,
        *,
        board_message_id: int | None = None,
        lobby_message_id: int | None = None,
    ) -> None:
        """The channel has been shown the game up to ``version`` (in the message
        ``board_message_id``), or its lobby is ``lobby_message_id``: recorded with the game's
        next write, or by :meth:`flush_posted`, whichever comes first, so that a click that
        ends a turn costs one write transaction. Until then this process knows it in memory;
        a crash before it is written has the post sent again at the restart, which the table
        makes idempotent with the post's nonce."""
        pending = self._pending.setdefault(game_id, {})
        if version is not None:
            pending["announced"] = max(version, pending.get("announced", -1))
        if board_message_id is not None:
            pending["board_message_id"] = board_message_id
        if lobby_message_id is not None:
            pending["lobby_message_id"] = lobby_message_id

    def message_ids(self, record: GameRecord) -> tuple[int | None, int | None]:
        """The game's (lobby, newest board) message ids, including posts not written yet."""
        pending = self._pending.get(record.id, {})
        return (
            pending.get("lobby_message_id", record.lobby_message_id),
            pending.get("board_message_id", record.board_message_id),
        )

    async def flush_posted(self) -> None:
        """Write everything :meth:`posted` still holds, in one transaction."""
        if not self._pending or self.storage.closed:
            return
        pending, self._pending = self._pending, {}
        try:
            async with self.storage.write() as tx:
                # In id order: two processes flushing the same games lock them in one order
                # (PostgreSQL would otherwise find a deadlock and refuse one of them).
                for game_id, columns in sorted(pending.items()):
                    await self._write_posted(tx, game_id, columns)
        except BaseException:
            for game_id, columns in pending.items():
                self._pending.setdefault(game_id, {}).update(columns)
            raise

    def _written(self, game_id: int, columns: dict[str, int]) -> None:
        """``columns`` of the pending posts are in the database now: forget them (unless a newer
        post changed them meanwhile)."""
        pending = self._pending.get(game_id)
        if pending is None:
            return
        for name, value in columns.items():
            if pending.get(name) == value:
                del pending[name]
        if not pending:
            del self._pending[game_id]

    async def _write_posted(self, tx: Transaction, game_id: int, columns: dict[str, int]) -> None:
        if "announced" in columns:
            await tx.mark_announced(game_id, columns["announced"])
            # A post went out: whatever kept the channel from us is fixed.
            await tx.update_game(game_id, post_error=None, post_failures=0, post_retry_at=None)
        messages = {k: v for k, v in columns.items() if k != "announced"}
        if messages:
            await tx.update_game(game_id, **messages)

    async def post_failed(self, game_id: int, error: str) -> int:
        """Discord refused the game's post (``error`` says why): it is tried again later, a
        little later each time. Returns how many posts in a row have failed."""
        async with self.storage.write() as tx:
            record = await self._record(tx, game_id)
            failures = record.post_failures + 1
            backoff = min(timedelta(minutes=2 ** (failures - 1)), MAX_POST_BACKOFF)
            await tx.update_game(
                game_id,
                post_error=error[:200],
                post_failures=failures,
                post_retry_at=self._now_ms() + _td_ms(backoff),
                # The claim on the post goes back: its retry time says when it is due again.
                lease_until=0,
            )
        return failures

    async def unannounced(self, grace: timedelta = ANNOUNCE_GRACE) -> list[GameRecord]:
        """Active or finished games changed more than ``grace`` ago that the channel has not
        seen in their latest version: the bot stopped between storing a move and posting it.
        (The grace leaves a move that is being announced right now alone.) Only games of
        this process's shards."""
        now = self._now_ms()
        async with self.storage.read() as tx:
            ids = await tx.unannounced(now - _td_ms(grace), now, self.shards)
            records = [await self._record(tx, game_id) for game_id in ids]
        return self._not_pending(records)

    async def claim_missed(self, grace: timedelta = ANNOUNCE_GRACE) -> list[GameRecord]:
        """What :meth:`unannounced` lists, claimed for this process: another process asking
        within the lease (``settings.claim_lease``) does not get these games, so a missed
        post goes out once however many processes look. A process that dies before posting
        leaves the lease to run out, and the post to whoever asks next."""
        now = self._now_ms()
        async with self.storage.write() as tx:
            ids = await tx.claim_unannounced(
                now - _td_ms(grace),
                now,
                now + self._lease_ms,
                self.holder,
                self.shards,
                CLAIM_BATCH,
            )
            records = [await self._record(tx, game_id) for game_id in ids]
        records.sort(key=lambda r: r.updated_at)
        return self._not_pending(records)

    def _not_pending(self, records: list[GameRecord]) -> list[GameRecord]:
        # Posted by this process, but not written yet: not missed.
        return [r for r in records if self._pending.get(r.id, {}).get("announced", -1) < r.version]

    async def ratings(self, guild_id: int, kind: str) -> list[Rating]:
        """A server's ratings in one game, best first."""
        async with self.storage.read() as tx:
            return await tx.ratings(guild_id, kind)

    async def stats(self, guild_id: int) -> GuildStats:
        """Finished games of a guild and wins per user (computer seats count for nobody)."""
        async with self.storage.read() as tx:
            finished = await tx.finished_games(guild_id)
        wins: dict[int, int] = {}
        names: dict[int, str] = {}
        for record in finished:
            for seat in record.seats:
                if seat.index in (record.winners or ()) and seat.user_id is not None:
                    wins[seat.user_id] = wins.get(seat.user_id, 0) + 1
                    names[seat.user_id] = seat.name
        return GuildStats(guild_id, len(finished), wins, names)

    # ================================================================ internals

    def _now_ms(self) -> int:
        return to_ms(self.clock.now())

    @property
    def _lease_ms(self) -> int:
        return _td_ms(self.settings.claim_lease)

    def _game_rules(self, name: str) -> GameRules:
        rules = self.rules.get(name)
        if rules is None:
            raise ServiceError("unknown_kind", f"There is no game called {name!r}.")
        return rules

    def _remember(self, game_id: int, loaded: _Loaded) -> None:
        self._cache[game_id] = loaded
        self._cache.move_to_end(game_id)
        while len(self._cache) > self._cache_size:
            self._cache.popitem(last=False)

    def forget(self, game_id: int | None = None) -> None:
        """Drop one game (or all) from the in-memory cache."""
        if game_id is None:
            self._cache.clear()
        else:
            self._cache.pop(game_id, None)

    def _copier(self, game_id: int, loaded: _Loaded, version: int) -> Callable[[], Any]:
        """Copies the cached game as it is at ``version`` (a copy made later, after the game
        moved on, would not be the state of that result: refused rather than wrong)."""
        made: list[Any] = []

        def copy() -> Any:
            if not made:
                if loaded.version != version or self._cache.get(game_id) is not loaded:
                    raise RuntimeError("the state of an older move was asked for too late")
                made.append(loaded.game.copy())
            return made[0]

        return copy

    def _no_moves(self, record: GameRecord) -> TurnResult:
        return TurnResult(record, None, (), (), (), record.current, False, ())

    async def _record(self, tx: Transaction, game_id: int) -> GameRecord:
        record = await tx.game(game_id)
        if record is None:
            raise ServiceError("no_game", "There is no such game.")
        return record

    async def _log(
        self,
        tx: Transaction,
        guild_id: int,
        game_id: int | None,
        moderator_id: int,
        act: str,
        target: int | None,
        detail: dict[str, Any],
    ) -> None:
        now = from_ms(self._now_ms())
        assert now is not None
        await tx.log_moderation(
            ModerationRecord(0, guild_id, game_id, moderator_id, act, target, detail, now)
        )

    async def _lobby(self, tx: Transaction, channel_id: int) -> GameRecord:
        record = await tx.open_game(channel_id)
        if record is None:
            raise ServiceError("no_game", "There is no game in this channel.")
        if record.status != "lobby":
            raise ServiceError("already_started", "This game has already started.")
        return record

    async def _active(self, tx: Transaction, game_id: int) -> GameRecord:
        record = await tx.game(game_id)
        if record is None:
            raise ServiceError("no_game", "There is no such game.")
        if record.status in ("finished", "ended"):
            raise ServiceError("game_over", "This game is over.")
        if record.status == "lobby":
            raise ServiceError("not_started", "The game has not started yet.")
        if record.status == "error":
            raise ServiceError(
                "game_damaged", "This game is damaged and stopped; a moderator can end it."
            )
        return record

    async def _guild_settings(self, tx: Transaction, guild_id: int) -> GuildSettings:
        found = await tx.guild_settings(guild_id)
        if found is None:
            return GuildSettings(guild_id, pace=self.settings.pace)
        return found

    def _guard(self) -> _DamageGuard:
        return _DamageGuard(self)

    async def _mark_damaged(self, game_id: int, reason: str) -> None:
        self._cache.pop(game_id, None)
        now = self._now_ms()
        async with self.storage.write() as tx:
            record = await tx.game(game_id)
            if record is not None and record.status in ("active", "lobby"):
                await tx.update_game(game_id, status="error", error=reason[:500], updated_at=now)

    def _replay_one(
        self, record: GameRecord, rules: GameRules, game: Any, entry: ActionRecord
    ) -> tuple[Any, ...]:
        action = rules.parse_action(entry.action)
        return game.apply(action, seat=entry.seat)

    async def _start_of(
        self, tx: Transaction, record: GameRecord, rules: GameRules, version: int
    ) -> tuple[Any, _TurnSoFar, int]:
        """The game at the latest snapshot at or before ``version`` (or new), the turn that
        begins there, and that snapshot's version."""
        if record.damage:
            raise _Damaged(record.id, f"the game row: {record.damage}")
        snapshot = await tx.latest_snapshot(record.id, version)
        # A snapshot is only a cache: one that fails its digest or does not parse is passed
        # over, and the log is replayed instead.
        if snapshot is not None and snapshot[2] == _digest(record.id, snapshot[0], snapshot[1]):
            try:
                game = rules.from_json(snapshot[1])
                return game, _fresh_turn(game), snapshot[0]
            except ValueError:
                pass
        try:
            game = rules.new(len(record.seats), record.seed, rules.check_options(record.options))
        except (ValueError, TypeError, KeyError) as exc:
            raise _Damaged(record.id, f"the game row: {exc}") from None
        return game, _fresh_turn(game), 0

    async def _load(self, tx: Transaction, record: GameRecord) -> _Loaded:
        """The game at the record's version: cached, or a snapshot plus the actions after
        it, or a replay of the whole log. Raises :class:`_Damaged` if it cannot."""
        game_id, version = record.id, record.version
        cached = self._cache.get(game_id)
        if cached is not None and cached.version == version:
            self._check_row(record, self.rules[record.kind], cached.game)
            self._cache.move_to_end(game_id)
            return cached
        self._cache.pop(game_id, None)
        rules = self.rules.get(record.kind)
        if rules is None:
            raise _Damaged(game_id, f"unknown game kind {record.kind!r}")
        game, turn, done = await self._start_of(tx, record, rules, version)
        snapshot_version = done
        seq = 0
        try:
            for entry in await tx.actions(game_id, after=done):
                seq = entry.seq
                if seq != done + 1:
                    raise ValueError(f"the log jumps from action {done} to {seq}")
                before = game.turn
                events = self._replay_one(record, rules, game, entry)
                turn.add(entry.source, events)
                if game.turn != before or rules.is_over(game):
                    turn = _fresh_turn(game)
                done = seq
        except (ValueError, TypeError, KeyError, AttributeError) as exc:
            where = f"action {seq}" if seq else "the game row"
            raise _Damaged(game_id, f"{where}: {exc}") from None
        if done != version:
            raise _Damaged(game_id, f"the log has {done} actions, the game says {version}")
        loaded = _Loaded(version, game, turn, snapshot_version)
        self._check_row(record, rules, game)
        self._remember(game_id, loaded)
        return loaded

    def _clock_after(
        self,
        record: GameRecord,
        game: Any,
        turns: Sequence[TurnRecord],
        told: bool,
        over: bool,
        now: int,
    ) -> tuple[dict[str, Any] | None, int, int | None]:
        """The clock after these turns, when the turn to play began, and when its next notice
        falls due. A turn that ended takes its time from its player's bank (and gives the
        increment back); a step within a turn changes nothing."""
        clock = record.clock
        turn_start = to_ms(record.waiting_since) if record.waiting_since else now
        if not told:
            return clock, turn_start, record.next_due_ms
        pace = pace_of(clock["pace"]) if clock and is_pace(clock["pace"]) else None
        if clock is not None and pace is not None:
            banks = list(clock["banks"])
            start = turn_start
            for turn in turns:
                seat = record.seats[turn.seat] if 0 <= turn.seat < len(record.seats) else None
                if turn.complete and seat is not None and seat.user_id is not None:
                    banks[turn.seat] = after_move(pace, banks[turn.seat], start, now, seat.away)
                start = now
            clock = {**clock, "banks": banks}
        if over:
            return clock, now, None
        index = game.current_player
        return clock, now, _next_due(clock, record.seats[index], index, now, now, ())

    async def _rate(self, tx: Transaction, record: GameRecord, game: Any) -> None:
        """A finished game moves the ratings of its people (see :mod:`bot.service.ratings`):
        computers do not count; who left counts as finishing last."""
        scores = list(game.scores)
        ranks = places(scores)
        winners = set(game.winners)
        last = len(scores) + 1
        finishes = [
            Finish(s.user_id, s.name, ranks[s.index], s.index in winners)
            for s in record.seats
            if s.user_id is not None and not s.is_bot
        ]
        finishes += [
            Finish(s.left_user_id, s.name, last, False)
            for s in record.seats
            if s.left_user_id is not None and s.user_id is None
        ]
        before = {r.user_id: r for r in await tx.ratings(record.guild_id, record.kind)}
        after = rated(before, finishes)
        if after:
            await tx.save_ratings(record.guild_id, record.kind, after)

    def _check_row(self, record: GameRecord, rules: GameRules, game: Any) -> None:
        """The row must agree with the game its log makes (whose turn it is, the seats)."""
        if len(record.seats) != game.players:
            raise _Damaged(record.id, f"{len(record.seats)} seats for {game.players} players")
        playing = record.status == "active" and not rules.is_over(game)
        if playing and record.current_seat != game.current_player:
            raise _Damaged(
                record.id,
                f"the row says seat {record.current_seat} plays, "
                f"the log says seat {game.current_player}",
            )

    async def _play(
        self,
        tx: Transaction,
        record: GameRecord,
        loaded: _Loaded,
        moves: list[tuple[Any, Seat, ActionSource]],
    ) -> TurnResult:
        """Apply ``moves`` then the computer seats' replies, store them all, and say what
        happened. A ``None`` action in ``moves`` means "the time-out move for this seat
        until its turn ends". Runs inside the caller's write transaction."""
        rules = self._game_rules(record.kind)
        game = loaded.game
        version = record.version
        applied: list[tuple[int, int | None, ActionSource, Any]] = []
        events: list[Any] = []
        turns: list[TurnRecord] = []
        turn = loaded.turn.copy()

        def apply(action: Any, seat: int, user: int | None, source: ActionSource) -> None:
            nonlocal turn
            before = game.turn
            happened = game.apply(action, seat=seat)
            events.extend(happened)
            applied.append((seat, user, source, action))
            turn.add(source, happened)
            if game.turn != before or rules.is_over(game):
                turns.append(turn.record(complete=True))
                turn = _fresh_turn(game)

        try:
            for action, seat, source in moves:
                if action is None:
                    # The moves of a turn nobody played: the rules' minimum ("skip").
                    while not rules.is_over(game) and game.current_player == seat.index:
                        rng = move_rng(record.seed, version + len(applied))
                        apply(rules.timeout_action(game, rng), seat.index, None, source)
                    continue
                if isinstance(action, Mapping):
                    action = rules.parse_action(dict(action))
                try:
                    # A computer's move (its own seat's, or a timed-out player's) is nobody's.
                    user = seat.user_id if source == "player" else None
                    apply(action, seat.index, user, source)
                except ValueError as exc:  # IllegalAction: the game is unchanged
                    raise ServiceError(
                        "illegal", str(exc), game=record.kind,
                        engine_code=getattr(exc, "code", "illegal"),
                        **getattr(exc, "params", {}),
                    ) from None  # fmt: skip
        except ServiceError:
            if applied:  # an earlier move of this call changed the cached game
                self._cache.pop(record.id, None)
            raise
        except BaseException:
            self._cache.pop(record.id, None)
            raise
        if turn.events:
            turns.append(turn.record(complete=False))
        try:
            return await self._store(tx, record, loaded, rules, applied, events, turns, turn)
        except BaseException:
            # The engine state ran ahead of the database: never reuse it.
            self._cache.pop(record.id, None)
            raise

    async def _store(
        self,
        tx: Transaction,
        record: GameRecord,
        loaded: _Loaded,
        rules: GameRules,
        applied: list[tuple[int, int | None, ActionSource, Any]],
        events: list[Any],
        turns: list[TurnRecord],
        turn: _TurnSoFar,
    ) -> TurnResult:
        game = loaded.game
        old_version = record.version
        now = self._now_ms()
        created = from_ms(now)
        assert created is not None
        records = tuple(
            ActionRecord(
                record.id, old_version + i + 1, seat, user, source, rules.dump_action(action),
                created,
            )
            for i, (seat, user, source, action) in enumerate(applied)
        )  # fmt: skip
        new_version = old_version + len(records)
        over = rules.is_over(game)
        if records:
            await tx.append_actions(records)
        told = any(t.complete for t in turns)
        clock, turn_start, next_due = self._clock_after(record, game, turns, told, over, now)
        # What this process posted since the game's last write goes in this transaction.
        pending = dict(self._pending.get(record.id, {}))
        posted = pending.get("announced", record.announced)
        winners = tuple(game.winners) if over else None
        result = (
            json.dumps({"scores": list(game.scores), "winners": list(winners or ())})
            if over
            else None
        )
        stored = await tx.advance(
            record.id,
            old_version,
            Advance(
                version=new_version,
                current_seat=None if over else game.current_player,
                waiting_since_ms=None if over else turn_start,
                status="finished" if over else "active",
                finished_at_ms=now if over else None,
                result=result,
                # Only a finished turn is news for the channel; a step within a turn is not.
                announced=pending.get("announced") if told else new_version,
                now_ms=now,
                board_message_id=pending.get("board_message_id"),
                lobby_message_id=pending.get("lobby_message_id"),
                posted="announced" in pending,
                clock=json.dumps(clock) if clock is not None else None,
                next_due_ms=next_due,
            ),
        )
        if not stored:
            raise _stale()
        if over:
            await self._rate(tx, record, game)
        if pending:
            tx.on_commit(lambda: self._written(record.id, pending))
        every = self.snapshot_every
        at_turn_start = not turn.events
        if (
            every
            and records
            and at_turn_start
            and not over
            and new_version - loaded.snapshot_version >= every
        ):
            state = game.to_json()
            await tx.save_snapshot(
                record.id, new_version, state, _digest(record.id, new_version, state)
            )
            loaded.snapshot_version = new_version
        if over:
            await tx.forget_caches(record.id)
        loaded.version = new_version
        loaded.turn = turn
        self._remember(record.id, loaded)
        # Built from what was just written, not read back: one round trip less per action.
        new_record = dataclasses.replace(
            record,
            status="finished" if over else "active",
            version=new_version,
            current_seat=None if over else game.current_player,
            waiting_since=None if over else from_ms(turn_start),
            updated_at=created,
            clock=clock,
            next_due_ms=next_due,
            last_move_ms=now,
            finished_at=created if over else None,
            scores=tuple(game.scores) if over else None,
            winners=winners,
            announced=max(record.announced, posted) if told else new_version,
            lobby_message_id=pending.get("lobby_message_id", record.lobby_message_id),
            board_message_id=pending.get("board_message_id", record.board_message_id),
        )
        return TurnResult(
            game=new_record,
            copy_state=self._copier(record.id, loaded, new_version),
            actions=records,
            events=tuple(events),
            turns=tuple(turns),
            next_seat=None if over else new_record.seats[game.current_player],
            game_over=over,
            scores=tuple(game.scores),
        )


def _next_due(
    clock: dict[str, Any] | None,
    seat: Seat,
    index: int,
    turn_start_ms: int,
    now_ms: int,
    sent: Sequence[str],
) -> int | None:
    """When the next notice of ``seat``'s turn falls due (None: no clock, or a computer's)."""
    if clock is None or seat.user_id is None or seat.is_bot:
        return None
    times = schedule(clock["banks"][index], turn_start_ms, now_ms, seat.away)
    return next_due(times, sent)


class _DamageGuard:
    """Turns a :class:`_Damaged` load into the game's error state and a ServiceError.

    The write transaction that found the damage has been rolled back by then, so marking
    the game is a transaction of its own.
    """

    def __init__(self, service: GameService) -> None:
        self.service = service

    async def __aenter__(self) -> None:
        return None

    async def __aexit__(self, exc_type: type | None, exc: BaseException | None, tb: object) -> bool:
        if isinstance(exc, _Damaged):
            await self.service._mark_damaged(exc.game_id, exc.reason)
            raise ServiceError(
                "game_damaged",
                "This game's record is damaged, so it was stopped; a moderator can end it.",
                reason=exc.reason,
            ) from None
        return False


def _check_settings(settings: GuildSettings) -> None:
    """Refuse settings no server can have (a clock that does not exist, 25 o'clock...)."""
    problem = None
    if not is_pace(settings.pace):
        problem = f"The pace is one of {', '.join(PACES)}."
    elif settings.timeout_action not in ("computer", "skip", "notify"):
        problem = "The time-out action is 'computer', 'skip' or 'notify'."
    elif settings.computer_level not in LEVELS:
        problem = f"A computer plays at one of the levels {', '.join(LEVELS)}."
    elif not valid_zone(settings.timezone):
        problem = f"{settings.timezone[:40]!r} is not a time zone (try Europe/Amsterdam)."
    elif not (0 <= settings.quiet_start < 24 and 0 <= settings.quiet_end < 24):
        problem = "Quiet hours run from one o'clock of the day (0 to 23) to another."
    elif settings.stall_after < timedelta(days=1):
        problem = "A game may wait a day at least before it counts as stalled."
    elif settings.lobby_expiry <= timedelta(0):
        problem = "Waiting tables must get some time."
    if problem is not None:
        raise ServiceError("bad_setting", problem)


def _digest(game_id: int, version: int, state: str) -> str:
    """What checks a snapshot: it belongs to this game and version and was not changed."""
    return hashlib.sha256(f"{game_id}:{version}:{state}".encode()).hexdigest()[:32]


def _shards_of(settings: Settings) -> Shards | None:
    count, ids = settings.shard_count, settings.shard_ids
    if count is None or ids is None or tuple(ids) == tuple(range(count)):
        return None  # every shard is this process's: no guild to leave out
    return Shards(count, tuple(ids))


def _think_seed(record: GameRecord) -> int:
    """The seed a computer thinks with at this point of the game: every process (and every
    retry) thinks the same, so a turn thought twice is the same turn."""
    return (record.seed * 0x9E3779B97F4A7C15 + record.version + 1) & 0x7FFFFFFF


def _td_ms(delta: timedelta) -> int:
    return int(delta.total_seconds() * 1000)
