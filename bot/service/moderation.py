"""Moderation: ending a game, removing a player (a computer takes the seat over; the module
docstring of :mod:`bot.service.service` says why), handing a seat to someone else, a player
leaving a started game, the moderation log and the games a moderator looks after.

A part of :class:`~bot.service.service.GameService` (``service.moderation``); the guild's
settings are the core's (:mod:`bot.service.core`; ``service.set_guild_settings``)."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence

from bot.service.common import next_due_at, record_of
from bot.service.core import Core
from bot.service.models import GameRecord, ModerationRecord, Seat, ServiceError, TurnResult


class Moderation:
    """What moderators (and players leaving) do to games (``service.moderation``)."""

    def __init__(self, core: Core, wake: Callable[[GameRecord], None]) -> None:
        self._core = core
        #: Has a computer play if the game is now at its turn (``computers.wake``).
        self._wake = wake

    async def end_game(
        self, channel_id: int, moderator_id: int, *, moderator: bool, reason: str = ""
    ) -> GameRecord:
        """End the channel's open game without a result (a lobby's creator may cancel it, a
        learner stop their practice game)."""
        core = self._core
        async with core.storage.write() as tx:
            record = await tx.games.open_in(channel_id)
            if record is None:
                raise ServiceError("no_game")
            creator_cancels = record.status == "lobby" and record.creator_id == moderator_id
            learner_stops = record.practice is not None and record.creator_id == moderator_id
            if not (moderator or creator_cancels or learner_stops):
                raise ServiceError("not_allowed")
            core.ending.add(record.id)
            now = core.now_ms()
            await tx.games.update(
                record.id, status="ended", current_seat=None, finished_at=now, updated_at=now
            )
            await tx.log.forget_caches(record.id)
            await core.log_act(
                tx,
                record.guild_id,
                record.id,
                moderator_id,
                "end_game",
                None,
                {"reason": reason, "was": record.status, "version": record.version},
            )
            ended = await record_of(tx, record.id)
        core.forget(record.id)
        return ended

    async def leave_game(self, channel_id: int, user_id: int) -> TurnResult:
        """A player leaves a started game for good: a computer takes the seat over, as when
        a moderator removes them, and plays at once if it is its turn. Logged like a
        removal, with the player as the one who acted."""
        return await self._to_computer(channel_id, user_id, user_id, "leave_game")

    async def remove_player(
        self, channel_id: int, moderator_id: int, target_user_id: int, *, moderator: bool
    ) -> TurnResult:
        """Remove a player: from a lobby, their seat goes; in a game, a computer takes it
        over (and plays at once if it is its turn)."""
        if not moderator:
            raise ServiceError("not_allowed")
        return await self._to_computer(channel_id, moderator_id, target_user_id, "remove_player")

    async def _to_computer(
        self, channel_id: int, actor_id: int, target_user_id: int, act: str
    ) -> TurnResult:
        core = self._core
        async with core.guard(), core.storage.write() as tx:
            record = await tx.games.open_in(channel_id)
            if record is None or record.status == "error":
                raise ServiceError("no_game")
            target = record.seat_of(target_user_id)
            if target is None:
                raise ServiceError("target_not_a_player")
            if act == "leave_game" and record.status != "active":
                raise ServiceError("not_started")
            await core.log_act(
                tx,
                record.guild_id,
                record.id,
                actor_id,
                act,
                target_user_id,
                {"seat": target.index, "name": target.name, "status": record.status},
            )
            if record.status == "lobby":
                await tx.games.set_seats(record.id, [s for s in record.seats if s is not target])
                return _no_moves(await record_of(tx, record.id))
            settings = await core.guild_settings_in(tx, record.guild_id)
            computer = Seat(
                target.index, None, target.name, is_bot=True, left_user_id=target.user_id,
                level=settings.computer_level,
            )  # fmt: skip
            await tx.games.update_seat(record.id, computer)
            seats = tuple(computer if s.index == target.index else s for s in record.seats)
            record = dataclasses.replace(record, seats=seats)
            if all(s.is_bot for s in seats):
                now = core.now_ms()
                await tx.games.update(
                    record.id, status="ended", current_seat=None, finished_at=now, updated_at=now
                )
                core.forget(record.id)
                return _no_moves(await record_of(tx, record.id))
            result = _no_moves(await record_of(tx, record.id))
        # If it is the seat's turn, the computer thinks it over now, after the commit.
        self._wake(result.record)
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
            raise ServiceError("not_allowed")
        core = self._core
        async with core.storage.write() as tx:
            record = await tx.games.open_in(channel_id)
            if record is None or record.status != "active":
                raise ServiceError("not_started")
            if record.seat_of(to_user_id) is not None:
                raise ServiceError("target_already_joined")
            if seat_index is not None:
                seat = record.seats[seat_index] if 0 <= seat_index < len(record.seats) else None
            else:
                seat = record.seat_of(from_user_id) if from_user_id is not None else None
            if seat is None:
                raise ServiceError("no_such_seat")
            now = core.now_ms()
            newcomer = Seat(seat.index, to_user_id, to_name)
            await tx.games.update_seat(record.id, newcomer)
            if seat.index == record.current_seat:
                # The newcomer's turn starts now, with the seat's bank.
                due = next_due_at(record.clock, newcomer, seat.index, now, now, ())
                await tx.games.update(record.id, waiting_since=now, next_due_at=due, updated_at=now)
            await core.log_act(
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
            return await record_of(tx, record.id)

    async def log(self, guild_id: int, limit: int = 50) -> list[ModerationRecord]:
        """The guild's latest moderation acts, newest first."""
        async with self._core.storage.read() as tx:
            return await tx.people.moderation_log(guild_id, limit)

    async def damaged_games(self, guild_id: int) -> list[GameRecord]:
        """Games of the guild stopped because their stored form is damaged."""
        return await self.games(guild_id, ("error",))

    async def games(
        self, guild_id: int, statuses: Sequence[str] = ("lobby", "active", "error")
    ) -> list[GameRecord]:
        """The guild's games in the given statuses, oldest first."""
        async with self._core.storage.read() as tx:
            return await tx.games.of_guild(guild_id, statuses)


def _no_moves(record: GameRecord) -> TurnResult:
    return TurnResult(record, None, (), (), (), record.current, False, ())
