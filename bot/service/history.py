"""History: a game's log, told again turn by turn (for replays, and for catching a channel up
on what it missed), and the results of a server's games (statistics, ratings).

A part of :class:`~bot.service.service.GameService` (``service.history``)."""

from __future__ import annotations

from typing import Any

from bot.service.common import record_of
from bot.service.core import Core
from bot.service.gamelog import Damaged, fresh_turn, replay_one, start_of
from bot.service.models import ActionRecord, GameRecord, GuildStats, Rating, ServiceError
from engine.turns import TurnRecord


class History:
    """What happened in games (``service.history``)."""

    def __init__(self, core: Core) -> None:
        self._core = core

    async def actions(self, game_id: int, after: int = 0) -> list[ActionRecord]:
        """Every action of a game in order (those after version ``after``), with its time,
        seat and user."""
        async with self._core.storage.read() as tx:
            return await tx.log.actions(game_id, after)

    async def told_since(
        self, game_id: int, since: int
    ) -> tuple[GameRecord, Any, list[TurnRecord], list[int]]:
        """The record, the state now, the turns stored after version ``since`` (or after what
        the record says the channel has seen, if that is later), and the version at which
        each complete one of them ended: for telling what the channel has not seen (a post
        failed, or the bot stopped between a move and its post). The first turn may have
        begun before ``since``: it is told from its beginning. The last may be the turn in
        progress (not complete)."""
        core = self._core
        async with core.guard(), core.storage.read() as tx:
            record = await record_of(tx, game_id)
            since = max(since, record.announced)
            rules = core.game_rules(record.game_name)
            game, turn, done = await start_of(tx, record, rules, since)
            turns: list[TurnRecord] = []
            ends: list[int] = []
            for entry in await tx.log.actions(game_id, after=done):
                before = game.turn
                try:
                    events = replay_one(rules, game, entry)
                except (ValueError, TypeError, KeyError, AttributeError) as exc:
                    # A log that does not replay: the game is damaged (the guard says so).
                    raise Damaged(record.id, f"action {entry.seq}: {exc}") from None
                turn.add(entry.source, events)
                if game.turn != before or rules.is_over(game):
                    if entry.seq > since:
                        turns.append(turn.record(complete=True))
                        ends.append(entry.seq)
                    turn = fresh_turn(game)
            if turn.events:
                turns.append(turn.record(complete=False))
        return record, game, turns, ends

    async def replay_turns(
        self, game_id: int
    ) -> tuple[GameRecord, list[tuple[Any, TurnRecord]], Any]:
        """The whole game turn by turn, from its log: (the record, [(the public view when the
        turn began, the turn)], the public view now). For history, catching up and replays."""
        core = self._core
        async with core.guard(), core.storage.read() as tx:
            record = await record_of(tx, game_id)
            if record.status == "lobby":
                raise ServiceError("not_started")
            rules = core.game_rules(record.game_name)
            try:
                options = rules.check_options(record.options)
                game = rules.new(len(record.seats), record.seed, options)
            except (ValueError, TypeError, KeyError) as exc:
                raise Damaged(record.id, f"the game row: {exc}") from None
            entries = await tx.log.actions(game_id)
        turns: list[tuple[Any, TurnRecord]] = []
        view, turn = game.view(None), fresh_turn(game)
        try:
            for entry in entries:
                before = game.turn
                turn.add(entry.source, replay_one(rules, game, entry))
                if game.turn != before or rules.is_over(game):
                    turns.append((view, turn.record(complete=True)))
                    view, turn = game.view(None), fresh_turn(game)
        except (ValueError, TypeError, KeyError) as exc:
            raise ServiceError("game_damaged", reason=str(exc)) from None
        if turn.events:
            turns.append((view, turn.record(complete=False)))
        return record, turns, game.view(None)

    async def ratings(self, guild_id: int, kind: str) -> list[Rating]:
        """A server's ratings in one game, best first."""
        async with self._core.storage.read() as tx:
            return await tx.people.ratings(guild_id, kind)

    async def stats(self, guild_id: int) -> GuildStats:
        """Finished games of a guild and wins per user (computer seats count for nobody;
        practice games for nothing)."""
        async with self._core.storage.read() as tx:
            finished = [g for g in await tx.games.finished(guild_id) if g.practice is None]
        wins: dict[int, int] = {}
        names: dict[int, str] = {}
        for record in finished:
            for seat in record.seats:
                if seat.index in (record.winners or ()) and seat.user_id is not None:
                    wins[seat.user_id] = wins.get(seat.user_id, 0) + 1
                    names[seat.user_id] = seat.name
        return GuildStats(guild_id, len(finished), wins, names)
