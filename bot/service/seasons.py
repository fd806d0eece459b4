"""Seasons (issue 45): a channel's whole group signs up once, the bot deals a table for every
free member each round, and the standings come from the games' results.

A part of :class:`~bot.service.service.GameService` (``service.seasons``); the dealing and
the points are pure (:mod:`bot.service.season`), this part stores and times them.

- **Sign-up is consent.** Who joins is seated every round from then on, until they leave.
  Who joins after sign-up closed is dealt from the next round not yet worked out; who leaves
  has a computer take their seats in the season's games under way and is not dealt again.
- **A round is background work, claimed in the database** (the season's lease, see
  :meth:`~bot.service.storage.parts.Seasons.claim`): with several processes one works on a
  season at a time, and the process that takes a stopped one's place takes its lease at
  once. Its deal is worked out once, from the season's seed, and stored before any table
  is opened (``dealing``); each table is recorded with its game in one transaction, so a
  restart in the middle opens the rest of the same deal and none twice.
- **A round closes at its time**: its standings are told once (``closed``); a game still
  under way goes on, its members sit the next deal out, and it counts when it ends.
- **The season is over** when its last round has closed and every game of it ended, or
  when a moderator ends it.
"""

from __future__ import annotations

import dataclasses
import json
import secrets
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from bot.service.common import record_of
from bot.service.core import Core
from bot.service.gamelog import Loaded, fresh_turn
from bot.service.lobby import Lobby, clean_options, insert_game
from bot.service.models import GameRecord, Seat, ServiceError, TurnResult
from bot.service.moderation import Moderation
from bot.service.ratings import finishes
from bot.service.season.dealing import Deal, Problem, SeatRange, Table, deal
from bot.service.season.members import Member
from bot.service.season.records import NewSeason, SeasonRecord, SeasonTable, Untold
from bot.service.season.standings import GameResult, Standing, standings
from bot.service.storage import NewGame, Transaction
from bot.service.thinking import COMPUTER_NAMES
from engine import registry

DAY_MS = 86_400_000
#: What a moderator may choose, and what a youth group gets without choosing.
ROUNDS = range(1, 13)
DAYS = range(1, 29)
DEFAULT_GAME = "covenant"
DEFAULT_OPTIONS: Mapping[str, Mapping[str, Any]] = {"covenant": {"length": "short"}}
DEFAULT_ROUNDS = 3
DEFAULT_DAYS = 7
#: How long sign-up stays open when the moderator names no first day: a day, so the group
#: sees the message before round 1 is dealt (a moderator may close it sooner).
DEFAULT_SIGNUP_MS = DAY_MS
#: Salts of the round's deal and of each table's game, mixed with the season's seed.
_DEAL_SALT = 0x5EA5_0DEA_1
_TABLE_SALT = 0x5EA5_07AB_1E
_SEED_MASK = (1 << 62) - 1

#: Makes the place a dealt table is played in (its thread) and returns its channel id:
#: called with the season, the round, the table's number and its seats.
MakeHome = Callable[[SeasonRecord, int, int, Sequence[Seat]], Awaitable[int]]


def season_pace(days: int) -> str:
    """The clock of a season's games: a game in a week (which sleeps in the server's quiet
    hours) for rounds of a week or more, the fast pace for shorter ones."""
    return "week" if days >= 7 else "fast"


@dataclass(frozen=True, slots=True)
class SeasonNews:
    """What a step of a season's background work did, for the table to tell:

    - ``dealt``: round ``round_number``'s tables were opened (``games``, each started, its
      first board still to be posted), ``waiting`` sat it out (still playing), or nobody
      was dealt (``problem``, with the free members ``unseated``);
    - ``closed``: round ``round_number``'s time is up: its standings are to be posted;
    - ``over``: the season ended: the podium.

    What is to be posted of it (a table's hello, the standings, the podium) is also kept
    in the season's ``untold`` until the table says it was posted (:meth:`Seasons.told`)."""

    kind: Literal["dealt", "closed", "over"]
    season: SeasonRecord
    round_number: int = 0
    games: tuple[GameRecord, ...] = ()
    waiting: tuple[int, ...] = ()
    problem: Problem | None = None
    unseated: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class SeasonStandings:
    """A season's standings now: its lines, best first, and how many of its games are
    still being played (they count when they end)."""

    season: SeasonRecord
    lines: tuple[Standing, ...]
    playing: int
    rounds: int = field(default=0)


class Seasons:
    """Creating seasons, signing up and leaving, dealing rounds, standings
    (``service.seasons``)."""

    def __init__(self, core: Core, lobby: Lobby, moderation: Moderation) -> None:
        self._core = core
        self._lobby = lobby
        self._moderation = moderation
        #: Seasons this process is stepping now: its own coroutines share its lease.
        self._stepping: set[int] = set()

    # ================================================================ moderators

    async def create(
        self,
        guild_id: int,
        channel_id: int,
        moderator_id: int,
        *,
        moderator: bool,
        game_name: str = DEFAULT_GAME,
        options: Mapping[str, Any] | None = None,
        rounds: int = DEFAULT_ROUNDS,
        days: int = DEFAULT_DAYS,
        first_ms: int | None = None,
        seed: int | None = None,
    ) -> SeasonRecord:
        """A new season in ``channel_id``, open for sign-up until ``first_ms`` (by default
        :data:`DEFAULT_SIGNUP_MS` from now), when round 1 is dealt; each round lasts
        ``days``. Moderators only; one season at a time in a channel."""
        core = self._core
        if not moderator:
            raise ServiceError("not_allowed")
        if guild_id <= 0:
            raise ServiceError("guild_only")
        core.game_rules(game_name)
        if options is None:
            options = DEFAULT_OPTIONS.get(game_name, {})
        clean = clean_options(core, game_name, options)
        if rounds not in ROUNDS or days not in DAYS:
            raise ServiceError("season_bad_length", rounds=ROUNDS[-1], days=DAYS[-1])
        now = core.now_ms()
        first = now + DEFAULT_SIGNUP_MS if first_ms is None else max(now, first_ms)
        seed = secrets.randbits(62) if seed is None else seed
        async with core.storage.write() as tx:
            if await tx.seasons.current_in(channel_id) is not None:
                raise ServiceError("season_going")
            new = NewSeason(
                guild_id, channel_id, moderator_id, game_name, clean, season_pace(days),
                rounds, days, first, seed, now,
            )  # fmt: skip
            season_id = await tx.seasons.insert(new)
            await core.log_act(
                tx, guild_id, None, moderator_id, "season_new", None,
                {"season": season_id, "game": game_name, "rounds": rounds, "days": days},
            )  # fmt: skip
            return await _season(tx, season_id)

    async def close_signup(self, season_id: int, moderator_id: int, *, moderator: bool) -> None:
        """Close sign-up now (a moderator): round 1 is dealt at the next step, and every
        round's time moves with it."""
        if not moderator:
            raise ServiceError("not_allowed")
        async with self._core.storage.write() as tx:
            season = await _season(tx, season_id)
            if season.status != "signup":
                raise ServiceError("season_started")
            await tx.seasons.update(season_id, first_ms=self._core.now_ms())

    async def end(self, season_id: int, moderator_id: int, *, moderator: bool) -> SeasonNews:
        """End the season now (a moderator): nobody is dealt again; games under way go on
        as ordinary games. Returns the news of its end (the podium)."""
        core = self._core
        if not moderator:
            raise ServiceError("not_allowed")
        async with core.storage.write() as tx:
            season = await _season(tx, season_id)
            if season.status == "over":
                raise ServiceError("no_season")
            await tx.seasons.update(
                season_id, status="over", untold=_owing(season, f"over.{season.dealt}")
            )
            await core.log_act(
                tx, season.guild_id, None, moderator_id, "season_end", None,
                {"season": season_id, "dealt": season.dealt},
            )  # fmt: skip
            return SeasonNews("over", await _season(tx, season_id), season.dealt)

    async def told(self, season_id: int, post: Untold) -> None:
        """Discord took ``post`` (see :data:`~bot.service.season.records.Untold`): it is no
        longer owed."""
        async with self._core.storage.write() as tx:
            season = await _season(tx, season_id)
            if post in season.untold:
                left = [u for u in season.untold if u != post]
                await tx.seasons.update(season_id, untold=json.dumps(left) if left else None)

    async def set_message(self, season_id: int, message_id: int) -> None:
        """The sign-up message was posted as ``message_id``."""
        async with self._core.storage.write() as tx:
            await tx.seasons.update(season_id, message_id=message_id)

    # ================================================================ members

    async def current(self, channel_id: int) -> SeasonRecord | None:
        """The channel's season that is not over, if any."""
        async with self._core.storage.read() as tx:
            return await tx.seasons.current_in(channel_id)

    async def get(self, season_id: int) -> SeasonRecord:
        async with self._core.storage.read() as tx:
            return await _season(tx, season_id)

    async def members(self, season_id: int) -> list[Member]:
        """Everyone in the season now (who left before round 1 left out)."""
        async with self._core.storage.read() as tx:
            return [m for m in await tx.seasons.members(season_id) if m.left != 0]

    async def join(self, season_id: int, user_id: int, name: str) -> Member:
        """Sign up (again): seated every round from the next one not yet worked out (round
        1 while sign-up is open)."""
        async with self._core.storage.write() as tx:
            season = await _season(tx, season_id)
            if season.status == "over":
                raise ServiceError("no_season")
            mine = _member(await tx.seasons.members(season_id), user_id)
            if mine is not None and mine.left is None:
                raise ServiceError("season_joined")
            member = Member(user_id, name, joined=_next_round(season))
            await tx.seasons.put_member(season_id, member, self._core.now_ms())
            return member

    async def leave(self, season_id: int, user_id: int) -> list[TurnResult]:
        """Leave the season: not dealt again; a computer takes their seats in the season's
        games under way (as when a player leaves a game, and plays at once where it is its
        turn). Returns what each takeover did, for the tables to tell."""
        core = self._core
        async with core.storage.write() as tx:
            season = await _season(tx, season_id)
            mine = _member(await tx.seasons.members(season_id), user_id)
            if season.status == "over" or mine is None or mine.left is not None:
                raise ServiceError("season_not_member")
            # Before round 1, leaving is as if they never signed up (left in round 0).
            gone = Member(user_id, mine.name, joined=mine.joined, left=season.dealt)
            await tx.seasons.put_member(season_id, gone, core.now_ms())
            games = await _games(tx, season_id)
        taken = []
        for record in games.values():
            if record.status == "active" and record.seat_of(user_id) is not None:
                try:
                    taken.append(await self._moderation.leave_game(record.home, user_id))
                except ServiceError:
                    continue  # it ended (or was damaged) meanwhile: no seat to take over
        return taken

    # ================================================================ standings

    async def standings(self, season_id: int, through: int | None = None) -> SeasonStandings:
        """The season's standings now, from its finished games (a game a moderator ended
        counts for nobody, as it is not rated); ``through``: of rounds 1 to ``through``
        only (the standings told when that round closed, while the next is already dealt)."""
        async with self._core.storage.read() as tx:
            season = await _season(tx, season_id)
            members = [m for m in await tx.seasons.members(season_id) if m.left != 0]
            tables = await tx.seasons.tables(season_id)
            games = await _games(tx, season_id, tables)
        last = season.dealt if through is None else min(through, season.dealt)
        results = []
        playing = 0
        for table in tables:
            if table.round_number > last:
                continue
            record = games[table.game_id]
            if record.status in ("active", "error"):
                playing += 1
            elif record.status == "finished" and record.scores is not None:
                found = finishes(record.seats, record.scores, set(record.winners or ()))
                results.append(GameResult(table.round_number, tuple(found)))
        rounds = max(1, last)
        return SeasonStandings(season, tuple(standings(members, results, rounds)), playing, rounds)

    # ================================================================ background work

    async def due(self) -> list[SeasonRecord]:
        """The seasons (of this process's shards) not over whose lease is free."""
        async with self._core.storage.read() as tx:
            return await tx.seasons.due(self._core.now_ms(), self._core.shards)

    async def step(self, season_id: int, make_home: MakeHome) -> list[SeasonNews]:
        """Do what is due of the season now, under its lease: open the rest of a round
        being dealt, close a round whose time is up, deal the next round, end the season.
        Returns what happened, in order (nothing if another process holds the lease)."""
        core = self._core
        if season_id in self._stepping:
            return []
        self._stepping.add(season_id)
        try:
            holder = await core.claimant()
            now = core.now_ms()
            async with core.storage.write() as tx:
                if not await tx.seasons.claim(season_id, holder, now, now + core.lease_ms):
                    return []

            async def renewing(
                season: SeasonRecord, round_number: int, table: int, seats: Sequence[Seat]
            ) -> int:
                # Each table's thread may take a while on Discord: the lease is renewed
                # before each, so it never runs out in the middle of a round's dealing.
                now = core.now_ms()
                async with core.storage.write() as tx:
                    if not await tx.seasons.claim(season_id, holder, now, now + core.lease_ms):
                        raise ServiceError("stale")  # taken over: this step stops here
                return await make_home(season, round_number, table, seats)

            try:
                return await self._step(season_id, renewing)
            finally:
                async with core.storage.write() as tx:
                    await tx.seasons.release(season_id, holder)
        finally:
            self._stepping.discard(season_id)

    async def _step(self, season_id: int, make_home: MakeHome) -> list[SeasonNews]:
        news: list[SeasonNews] = []
        while True:
            async with self._core.storage.read() as tx:
                season = await _season(tx, season_id)
            done = await self._one_step(season, make_home)
            if done is None:
                return news
            news.append(done)

    async def _one_step(self, season: SeasonRecord, make_home: MakeHome) -> SeasonNews | None:
        """The next thing due of the season, done; None when nothing is."""
        now = self._core.now_ms()
        if season.status == "over":
            return None
        if season.dealing is not None:
            return await self._open_tables(season, make_home)
        # A round's time is up: its standings are told before the next one is dealt.
        if season.closed < season.dealt and now >= season.starts_ms(season.closed + 2):
            async with self._core.storage.write() as tx:
                season = await _season(tx, season.id)
                closing = season.closed + 1
                owed = _owing(season, f"closed.{closing}")
                await tx.seasons.update(season.id, closed=closing, untold=owed)
                return SeasonNews("closed", await _season(tx, season.id), closing)
        if season.dealt < season.rounds and now >= season.starts_ms(season.dealt + 1):
            return await self._deal(season, make_home)
        if season.closed == season.rounds:
            async with self._core.storage.write() as tx:
                # The season before its games: every write locks them in this order.
                season = await _season(tx, season.id)
                games = await _games(tx, season.id)
                if any(g.status in ("active", "error") for g in games.values()):
                    return None  # a late game of the last round: the season ends with it
                owed = _owing(season, f"over.{season.rounds}")
                await tx.seasons.update(season.id, status="over", untold=owed)
                return SeasonNews("over", await _season(tx, season.id), season.rounds)
        return None

    async def _deal(self, season: SeasonRecord, make_home: MakeHome) -> SeasonNews:
        """Work out the next round's deal and store it (then open its tables)."""
        core = self._core
        round_number = season.dealt + 1
        rules = core.game_rules(season.game_name)
        async with core.storage.write() as tx:
            season = await _season(tx, season.id)
            if season.dealing is not None or season.dealt + 1 != round_number:
                raise ServiceError("stale")  # changed under the lease: not expected
            members = await tx.seasons.members(season.id)
            rated = {
                r.user_id: r.rating
                for r in await tx.people.ratings(season.guild_id, season.game_name)
            }
            members = [
                Member(m.user_id, m.name, rated.get(m.user_id, m.rating), m.joined, m.left)
                for m in members
            ]
            tables = await tx.seasons.tables(season.id)
            games = await _games(tx, season.id, tables)
            busy = {
                s.user_id
                for g in games.values()
                if g.status in ("active", "error")
                for s in g.seats
                if s.user_id is not None and not s.is_bot
            }
            history = [
                [
                    uid
                    for s in games[t.game_id].seats
                    if (uid := s.user_id if not s.is_bot else s.left_user_id) is not None
                ]
                for t in tables
            ]
            dealt = deal(
                members,
                SeatRange(rules.min_players, rules.max_players),
                round_number=round_number,
                seed=(season.seed ^ (_DEAL_SALT * round_number)) & _SEED_MASK,
                history=history,
                busy=busy,
                computers=registry.game(season.game_name).has_computers,
            )
            if not dealt.tables:
                await tx.seasons.update(season.id, status="running", dealt=round_number)
                return SeasonNews(
                    "dealt",
                    await _season(tx, season.id),
                    round_number,
                    waiting=dealt.waiting,
                    problem=dealt.problem,
                    unseated=dealt.unseated,
                )
            await tx.seasons.update(
                season.id, status="running", dealing=json.dumps(_deal_json(dealt))
            )
            season = await _season(tx, season.id)
        return await self._open_tables(season, make_home)

    async def _open_tables(self, season: SeasonRecord, make_home: MakeHome) -> SeasonNews:
        """Open every table of the stored deal not opened yet, each with its game started
        and recorded in one transaction; then the round is dealt."""
        core = self._core
        assert season.dealing is not None
        round_number = season.dealt + 1
        dealt = _deal_of(season.dealing)
        async with core.storage.read() as tx:
            opened = {
                t.table
                for t in await tx.seasons.tables(season.id)
                if t.round_number == round_number
            }
            members = {m.user_id: m for m in await tx.seasons.members(season.id)}
            settings = await core.guild_settings_in(tx, season.guild_id)
        for number, table in enumerate(dealt.tables):
            if number in opened:
                continue
            seats = _seats(table, members, settings.computer_level)
            home = _home_of(season.dealing, number)
            if home is None:
                home = await make_home(season, round_number, number, seats)
                # Kept at once: a restart before the game is recorded opens it in this
                # thread rather than making another.
                stored = _with_home(season.dealing, number, home)
                async with core.storage.write() as tx:
                    await tx.seasons.update(season.id, dealing=json.dumps(stored))
                season = dataclasses.replace(season, dealing=stored)
            async with core.storage.write() as tx:
                game_id = await insert_game(
                    tx,
                    NewGame(
                        season.guild_id,
                        home,
                        season.game_name,
                        (season.seed ^ (_TABLE_SALT * (round_number * 64 + number + 1)))
                        & _SEED_MASK,
                        json.dumps(season.options),
                        False,  # the deal drew who plays first
                        season.creator_id,
                        core.now_ms(),
                    ),
                )
                await tx.games.set_seats(game_id, seats)
                if not await tx.seasons.add_table(
                    season.id, SeasonTable(round_number, number, game_id)
                ):
                    raise ServiceError("stale")  # opened meanwhile: this game is rolled back
                record, game = await self._lobby.start_in(
                    tx, await record_of(tx, game_id), pace_name=season.pace
                )
            core.cache.put(record.id, Loaded(0, game, fresh_turn(game), 0))
        async with core.storage.write() as tx:
            current = await _season(tx, season.id)  # locked before its games, as everywhere
            tables = await tx.seasons.tables(season.id)
            games = await _games(tx, season.id, tables)
            hellos = [
                f"hello.{round_number}.{t.game_id}"
                for t in tables
                if t.round_number == round_number
            ]
            owed = _owing(current, *hellos)
            await tx.seasons.update(season.id, dealt=round_number, dealing=None, untold=owed)
            season = await _season(tx, season.id)
        this_round = tuple(games[t.game_id] for t in tables if t.round_number == round_number)
        return SeasonNews("dealt", season, round_number, this_round, dealt.waiting)


# ==================================================================== helpers


async def _season(tx: Transaction, season_id: int) -> SeasonRecord:
    season = await tx.seasons.get(season_id)
    if season is None:
        raise ServiceError("no_season")
    return season


async def _games(
    tx: Transaction, season_id: int, tables: Sequence[SeasonTable] | None = None
) -> dict[int, GameRecord]:
    """The season's games by id (every table it dealt)."""
    if tables is None:
        tables = await tx.seasons.tables(season_id)
    found = {}
    for table in tables:
        record = await tx.games.get(table.game_id)
        if record is not None:
            found[record.id] = record
    return found


def _owing(season: SeasonRecord, *posts: Untold) -> str | None:
    """The season's ``untold`` column with ``posts`` added (each once)."""
    owed = list(season.untold) + [p for p in posts if p not in season.untold]
    return json.dumps(owed) if owed else None


def _member(members: Sequence[Member], user_id: int) -> Member | None:
    return next((m for m in members if m.user_id == user_id), None)


def _next_round(season: SeasonRecord) -> int:
    """The first round a member joining now is dealt in: the next one not worked out."""
    return season.dealt + (2 if season.dealing is not None else 1)


def _deal_json(dealt: Deal) -> list[Any]:
    return [{"members": list(t.members), "computers": t.computers} for t in dealt.tables] + [
        {"waiting": list(dealt.waiting)}
    ]


def _home_of(stored: list[Any], number: int) -> int | None:
    """Where table ``number`` of a stored deal is played, once its thread was made."""
    home = stored[number].get("home")
    return int(home) if home is not None else None


def _with_home(stored: list[Any], number: int, home: int) -> list[Any]:
    return [dict(entry, home=home) if i == number else entry for i, entry in enumerate(stored)]


def _deal_of(stored: list[Any]) -> Deal:
    tables = tuple(
        Table(tuple(int(u) for u in t["members"]), int(t["computers"]))
        for t in stored
        if "members" in t
    )
    waiting = next((tuple(int(u) for u in t["waiting"]) for t in stored if "waiting" in t), ())
    return Deal(tables, waiting)


def _seats(table: Table, members: Mapping[int, Member], level: str) -> list[Seat]:
    """A dealt table's seats in play order: its members, then its computers. A member who
    left after the deal was worked out has a computer in their seat instead."""
    seats: list[Seat] = []
    names = iter(COMPUTER_NAMES)
    for user_id in table.members:
        member = members.get(user_id)
        if member is not None and member.left is None:
            seats.append(Seat(len(seats), user_id, member.name))
        else:
            seats.append(Seat(len(seats), None, next(names), is_bot=True, level=level))
    for _ in range(table.computers):
        seats.append(Seat(len(seats), None, next(names), is_bot=True, level=level))
    return seats
