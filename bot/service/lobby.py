"""The lobby: a table opened in a channel, its seats (people and computer players), its
options, its start, a rematch, and lobbies nobody started closing by themselves.

A part of :class:`~bot.service.service.GameService` (``service.lobby``)."""

from __future__ import annotations

import dataclasses
import json
import secrets
from collections.abc import Mapping
from typing import Any

from bot.service.clock import to_ms
from bot.service.common import next_due_at, record_of, td_ms
from bot.service.core import Core
from bot.service.gamelog import Loaded, fresh_turn
from bot.service.models import Estimate, GameRecord, Seat, ServiceError
from bot.service.pace import new_clock, pace_of
from bot.service.storage import ChannelBusy, NewGame, Transaction
from bot.service.thinking import COMPUTER_NAMES, LEVELS
from bot.service.turn_times import turn_times
from engine import registry
from engine.common.rng import Rng

_SEAT_SHUFFLE_SALT = 0x5EA75EA75EA7


class Lobby:
    """Opening, seating and starting games (``service.lobby``)."""

    def __init__(self, core: Core) -> None:
        self._core = core

    async def create_game(
        self,
        guild_id: int,
        channel_id: int,
        user_id: int,
        name: str,
        game_name: str,
        options: Mapping[str, Any] | None = None,
        *,
        shuffle_seats: bool = True,
        seed: int | None = None,
        locale: tuple[str | None, str | None] = (None, None),
    ) -> GameRecord:
        """Open a lobby of the game called ``game_name`` in ``channel_id`` with its creator in
        the first seat; ``locale``: the server's and its creator's locales as Discord says them
        (kept in the same write, see :meth:`Core.note_locale
        <bot.service.core.Core.note_locale>`).

        Only in a server (``guild_id`` > 0); a user may have a few lobbies open at once, and
        opens a new one only a little while after the last."""
        if guild_id <= 0:
            raise ServiceError("guild_only")
        clean = clean_options(self._core, game_name, options or {})
        seed = secrets.randbits(62) if seed is None else seed
        async with self._core.storage.write() as tx:
            if await tx.games.open_in(channel_id) is not None:
                raise ServiceError("channel_busy")
            await self._check_lobby_limits(tx, guild_id, user_id)
            await self._check_open_games(tx, user_id)
            game_id = await insert_game(
                tx,
                NewGame(
                    guild_id,
                    channel_id,
                    game_name,
                    seed,
                    json.dumps(clean),
                    shuffle_seats,
                    user_id,
                    self._core.now_ms(),
                ),
            )
            await tx.games.set_seats(game_id, [Seat(0, user_id, name)])
            noted = await self._core.note_locale_in(tx, guild_id, *locale)
            record = await record_of(tx, game_id)
        self._core.settings_changed(noted)
        return record

    async def _check_open_games(self, tx: Transaction, user_id: int) -> None:
        """A player may have a few more games going than they have finished: no one can
        start tables faster than they play them."""
        # A practice game (one at a time) does not count: learning never keeps anyone out.
        games = await tx.games.of_user(user_id, ("lobby", "active"))
        going = sum(1 for g in games if g.practice is None)
        finished = len(await tx.games.of_user(user_id, ("finished",)))
        allowed = finished + self._core.limits.extra_open_games
        if going >= allowed:
            raise ServiceError(
                "too_many_games",
                count=going,
            )

    async def _check_lobby_limits(self, tx: Transaction, guild_id: int, user_id: int) -> None:
        limits = self._core.limits
        by_user, by_guild, last_ms = await tx.games.lobby_counts(guild_id, user_id)
        if by_user >= limits.lobbies_per_user:
            raise ServiceError(
                "too_many_lobbies",
                count=by_user,
            )
        if by_guild >= limits.lobbies_per_guild:
            raise ServiceError("server_lobbies_full")
        wait_ms = (last_ms or 0) + td_ms(limits.cooldown) - self._core.now_ms()
        if last_ms is not None and wait_ms > 0:
            raise ServiceError(
                "cooldown",
                seconds=max(1, -(-wait_ms // 1000)),
            )

    async def expire_lobbies(self) -> list[GameRecord]:
        """Close the lobbies nobody started within their server's lobby expiry; returns them
        (their messages are to be updated)."""
        now = self._core.now_ms()
        expired: list[GameRecord] = []
        async with self._core.storage.write() as tx:
            # Claimed: another process closing lobbies now skips these, and finds them
            # closed once this commits, so each lobby is closed (and told) once.
            for record in await tx.games.lobbies(self._core.shards, claim=True):
                settings = await self._core.guild_settings_in(tx, record.guild_id)
                if to_ms(record.updated_at) + td_ms(settings.lobby_expiry) > now:
                    continue
                await tx.games.update(record.id, status="ended", finished_at=now, updated_at=now)
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
        async with self._core.storage.write() as tx:
            record = await _lobby(tx, channel_id)
            if record.creator_id != user_id and not moderator:
                raise ServiceError("not_creator")
            try:
                rules = self._core.game_rules(record.game_name)
                clean = rules.check_options({**record.options, **changes})
            except ValueError:
                raise ServiceError("bad_options") from None
            await tx.games.update(
                record.id, options=json.dumps(clean), updated_at=self._core.now_ms()
            )
            return await record_of(tx, record.id)

    async def estimate(self, record: GameRecord) -> Estimate | None:
        """When the lobby's game should end if it started now, as a range: its turns (at
        the seats taken, with its options) at the time a turn takes in practice on this
        server (:func:`bot.service.turn_times.turn_times`); None without a clock, or for a
        game that cannot say how many turns it takes."""
        settings = await self._core.recent_guild_settings(record.guild_id)
        pace = pace_of(settings.pace)
        turns = self._core.game_rules(record.game_name).turns(len(record.seats), record.options)
        if pace is None or turns is None or not record.seats:
            return None
        async with self._core.storage.read() as tx:
            finished = await tx.games.finished(record.guild_id)
        times = turn_times(self._core.rules, finished, settings.pace)
        people = sum(1 for seat in record.seats if not seat.is_bot)
        theirs = -(-turns * people // len(record.seats))  # computers move at once
        now = self._core.now_ms()
        return Estimate(
            early_ms=now + theirs * times.fast_ms,
            finish_ms=now + theirs * times.slow_ms,
            timezone=settings.zone(),
            guessed_zone=settings.timezone is None,
            from_history=times.games,
        )

    async def join(self, channel_id: int, user_id: int, name: str) -> GameRecord:
        """Take the next free seat of the lobby in ``channel_id``."""
        async with self._core.storage.write() as tx:
            record = await _lobby(tx, channel_id)
            if record.seat_of(user_id) is not None:
                raise ServiceError("already_joined")
            rules = self._core.game_rules(record.game_name)
            await self._check_open_games(tx, user_id)
            if len(record.seats) >= rules.max_players:
                raise ServiceError(
                    "lobby_full",
                    max=rules.max_players,
                )
            seats = [*record.seats, Seat(len(record.seats), user_id, name)]
            await tx.games.set_seats(record.id, seats)
            await tx.games.update(record.id, updated_at=self._core.now_ms())
            return await record_of(tx, record.id)

    async def add_computer(
        self, channel_id: int, user_id: int, level: str, *, moderator: bool = False
    ) -> GameRecord:
        """The lobby's creator (or a moderator) adds a computer player of ``level``."""
        if level not in LEVELS:
            raise ServiceError("bad_level")
        async with self._core.storage.write() as tx:
            record = await _lobby(tx, channel_id)
            if record.creator_id != user_id and not moderator:
                raise ServiceError("not_creator")
            if not registry.game(record.game_name).has_computers:
                raise ServiceError("no_computers")
            rules = self._core.game_rules(record.game_name)
            if len(record.seats) >= rules.max_players:
                raise ServiceError(
                    "lobby_full",
                    max=rules.max_players,
                )
            taken = {s.name for s in record.seats}
            name = next(n for n in COMPUTER_NAMES if n not in taken)
            computer = Seat(len(record.seats), None, name, is_bot=True, level=level)
            await tx.games.set_seats(record.id, [*record.seats, computer])
            await tx.games.update(record.id, updated_at=self._core.now_ms())
            return await record_of(tx, record.id)

    async def remove_computer(
        self, channel_id: int, user_id: int, *, moderator: bool = False
    ) -> GameRecord:
        """The lobby's creator (or a moderator) takes the last computer player off again."""
        async with self._core.storage.write() as tx:
            record = await _lobby(tx, channel_id)
            if record.creator_id != user_id and not moderator:
                raise ServiceError("not_creator")
            computers = [s for s in record.seats if s.is_bot]
            if not computers:
                raise ServiceError("no_computer")
            rest = [s for s in record.seats if s is not computers[-1]]
            await tx.games.set_seats(record.id, rest)
            await tx.games.update(record.id, updated_at=self._core.now_ms())
            return await record_of(tx, record.id)

    async def leave(self, channel_id: int, user_id: int) -> GameRecord:
        """Leave the lobby; the last one out closes it, and a leaving creator hands over."""
        async with self._core.storage.write() as tx:
            record = await _lobby(tx, channel_id)
            rest = [s for s in record.seats if s.user_id != user_id]
            if len(rest) == len(record.seats):
                raise ServiceError("not_joined")
            await tx.games.set_seats(record.id, rest)
            now = self._core.now_ms()
            people = [s for s in rest if not s.is_bot]
            if not people:  # computers alone do not keep a table open
                await tx.games.update(record.id, status="ended", finished_at=now, updated_at=now)
            elif record.creator_id == user_id:
                await tx.games.update(record.id, creator_id=people[0].user_id, updated_at=now)
            else:
                await tx.games.update(record.id, updated_at=now)
            return await record_of(tx, record.id)

    async def start(self, channel_id: int, user_id: int, *, moderator: bool = False) -> GameRecord:
        """Start the lobby's game (its creator or a moderator): seats are fixed, seat 0 plays."""
        async with self._core.storage.write() as tx:
            record = await _lobby(tx, channel_id)
            if record.creator_id != user_id and not moderator:
                raise ServiceError("not_creator")
            record, game = await self.start_in(tx, record)
        self._core.cache.put(record.id, Loaded(0, game, fresh_turn(game), 0))
        # A computer in the first seat is woken by the caller once the first board is out.
        return record

    async def start_in(
        self, tx: Transaction, record: GameRecord, *, pace_name: str | None = None
    ) -> tuple[GameRecord, Any]:
        """Start a lobby's game within ``tx``, on the server's pace or ``pace_name`` (a
        season's); the caller puts the new game in the cache once ``tx`` has committed."""
        rules = self._core.game_rules(record.game_name)
        seats = list(record.seats)
        if len(seats) < rules.min_players:
            raise ServiceError(
                "too_few_players",
                min=rules.min_players,
            )
        if record.shuffle_seats:
            # From the seed, so the seating is part of what the seed reproduces.
            Rng(record.seed ^ _SEAT_SHUFFLE_SALT).shuffle(seats)
        try:
            game = rules.new(len(seats), record.seed, record.options)
        except ValueError:
            raise ServiceError("bad_options") from None
        now = self._core.now_ms()
        await tx.games.set_seats(record.id, seats)
        settings = await self._core.guild_settings_in(tx, record.guild_id)
        pace = pace_of(pace_name or settings.pace)
        # A practice game has no clock: a learner takes the time they need.
        timed = pace is not None and record.practice is None
        clock = new_clock(pace, len(seats), settings.quiet_hours()) if pace and timed else None
        first = seats[game.current_player]
        await tx.games.update(
            record.id,
            status="active",
            version=0,
            current_seat=game.current_player,
            started_at=now,
            waiting_since=now,
            last_move_at=now,
            updated_at=now,
            clock=json.dumps(clock) if clock else None,
            next_due_at=next_due_at(clock, first, game.current_player, now, now, ()),
            # Nothing shown yet: the first board is still to be posted.
            announced=-1,
        )
        return await record_of(tx, record.id), game

    async def rematch(self, game_id: int, user_id: int) -> GameRecord:
        """The same table again, in the same channel, with a new shuffle: a lobby with the
        one who asked seated (as its creator), the computers of the last game's lobby at
        their levels, and the other people of the last game invited: each is seated only
        when they join (see :meth:`invited`). It starts as any lobby does."""
        async with self._core.storage.read() as tx:
            old = await record_of(tx, game_id)
        if old.status not in ("finished", "ended"):
            raise ServiceError("not_over")
        people = {s.user_id: s.name for s in old.seats if s.user_id is not None and not s.is_bot}
        if user_id not in people:
            raise ServiceError("not_a_player")
        record = await self.create_game(
            old.guild_id, old.channel_id, user_id, people[user_id], old.game_name, old.options
        )
        # Not a computer that took over the seat of someone who left: they chose to go.
        computers = [s for s in old.seats if s.is_bot and s.left_user_id is None]
        async with self._core.storage.write() as tx:
            if computers:
                seated = [*record.seats]
                for computer in computers:
                    seated.append(dataclasses.replace(computer, index=len(seated)))
                await tx.games.set_seats(record.id, seated)
            await tx.games.update(record.id, rematch_of=old.id)
            return await record_of(tx, record.id)

    async def invited(self, record: GameRecord) -> list[Seat]:
        """The people of the game a rematch lobby replays who have not joined it (yet):
        the lobby invites them (their seats in the old game, by name)."""
        if record.rematch_of is None or record.status != "lobby":
            return []
        async with self._core.storage.read() as tx:
            old = await tx.games.get(record.rematch_of)
        if old is None:
            return []
        return [
            s
            for s in old.seats
            if s.user_id is not None and not s.is_bot and record.seat_of(s.user_id) is None
        ]


def clean_options(core: Core, game_name: str, options: Mapping[str, Any]) -> dict[str, Any]:
    """``options`` as the game's rules accept them, or the refusal ``bad_options``."""
    try:
        return core.game_rules(game_name).check_options(dict(options))
    except ValueError:
        raise ServiceError("bad_options") from None


async def insert_game(tx: Transaction, game: NewGame) -> int:
    """Store a new game's row. The caller checked that its channel has no open game; one
    that came in between (another process's, say) is the refusal ``channel_busy``."""
    try:
        return await tx.games.insert(game)
    except ChannelBusy:
        raise ServiceError("channel_busy") from None


async def _lobby(tx: Transaction, channel_id: int) -> GameRecord:
    """The channel's open game, which must still be a lobby."""
    record = await tx.games.open_in(channel_id)
    if record is None:
        raise ServiceError("no_game")
    if record.status != "lobby":
        raise ServiceError("already_started")
    return record
