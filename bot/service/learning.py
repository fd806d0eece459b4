"""Practice games (``/table learn``): one learner against computer players, in a thread of
its own, teaching the game as it is played. Never rated or counted; one at a time per
learner; no clock, so nobody is reminded or timed out while learning.

A part of :class:`~bot.service.service.GameService` (``service.learning``)."""

from __future__ import annotations

import json
import secrets
from collections.abc import Mapping, Sequence
from typing import Any

from bot.service.common import record_of, td_ms
from bot.service.core import Core
from bot.service.gamelog import replay_one, start_of
from bot.service.lobby import Lobby, clean_options, insert_game
from bot.service.models import GameRecord, Practice, Seat, ServiceError
from bot.service.storage import NewGame
from bot.service.thinking import COMPUTER_NAMES
from engine import registry
from engine.protocol import Game

#: The computer players a learner meets, and how well they play.
OPPONENTS = 2
LEVEL = "easy"


class Learning:
    """Opening practice games and keeping what they taught (``service.learning``)."""

    def __init__(self, core: Core, lobby: Lobby) -> None:
        self._core = core
        self._lobby = lobby

    async def begin(self, user_id: int) -> None:
        """Before a practice game's thread is made: refuse if the learner has one going or
        began one within the cool-down of opening a table, else stamp that they begin one
        now. Decided in one write, so of a learner's simultaneous ``/table learn`` one makes
        a thread and the others are refused before making any."""
        core = self._core
        now = core.now_ms()
        async with core.storage.write() as tx:
            if await self.going(user_id, tx=tx) is not None:
                raise ServiceError("practice_going")
            last = await tx.people.begin_practice(user_id, now, now - td_ms(core.limits.cooldown))
        if last is not None:
            wait_ms = last + td_ms(core.limits.cooldown) - now
            raise ServiceError("practice_cooldown", seconds=max(1, -(-wait_ms // 1000)))

    async def open(
        self,
        guild_id: int,
        channel_id: int,
        user_id: int,
        name: str,
        game_name: str,
        options: Mapping[str, Any],
        *,
        language: str,
        seed: int | None = None,
    ) -> GameRecord:
        """Start a practice game of ``game_name`` in ``channel_id`` (its own thread): the
        learner in the first seat, :data:`OPPONENTS` computers after them; everything about
        it said in ``language`` (the learner's)."""
        if guild_id <= 0:
            raise ServiceError("guild_only")
        if not registry.game(game_name).has_computers:
            raise ServiceError("no_computers")
        clean = clean_options(self._core, game_name, options)
        seed = secrets.randbits(62) if seed is None else seed
        seats = [Seat(0, user_id, name)] + [
            Seat(n, None, COMPUTER_NAMES[n - 1], is_bot=True, level=LEVEL)
            for n in range(1, 1 + min(OPPONENTS, self._core.game_rules(game_name).max_players - 1))
        ]
        async with self._core.storage.write() as tx:
            if await self.going(user_id, tx=tx) is not None:
                raise ServiceError("practice_going")
            if await tx.games.open_in(channel_id) is not None:
                raise ServiceError("channel_busy")
            game_id = await insert_game(
                tx,
                NewGame(
                    guild_id,
                    channel_id,
                    game_name,
                    seed,
                    json.dumps(clean),
                    False,  # the learner plays first: their first turn teaches
                    user_id,
                    self._core.now_ms(),
                ),
            )
            await tx.games.set_seats(game_id, seats)
            await tx.games.update(game_id, practice=Practice(language).to_json())
        return await self._lobby.start(channel_id, user_id)

    async def going(self, user_id: int, *, tx: Any = None) -> GameRecord | None:
        """The learner's practice game still going, if any."""
        if tx is None:
            async with self._core.storage.read() as tx:
                return await self.going(user_id, tx=tx)
        games = await tx.games.of_user(user_id, ("lobby", "active", "error"))
        return next((g for g in games if g.practice is not None), None)

    async def taught(self, game_id: int, turn: int, keys: Sequence[str]) -> GameRecord:
        """Lessons ``keys`` were shown to the learner of practice game ``game_id`` in its
        ``turn``: none is taught again in a later turn, and the panel opened again in this
        turn shows these (said once, also across a restart)."""
        async with self._core.storage.write() as tx:
            record = await record_of(tx, game_id)
            if record.practice is None:
                raise ServiceError("not_practice")
            practice = record.practice
            new = tuple(key for key in keys if key not in practice.taught)
            taught = Practice(practice.language, (*practice.taught, *new), turn, tuple(keys))
            await tx.games.update(game_id, practice=taught.to_json())
            return await record_of(tx, game_id)

    async def state_at(self, game_id: int, version: int) -> Game:
        """The whole game as it stood at ``version``, from its log (for telling the learner
        what their turn did when this process did not see the turn begin: it restarted)."""
        core = self._core
        async with core.guard(), core.storage.read() as tx:
            record = await record_of(tx, game_id)
            rules = core.game_rules(record.game_name)
            game, _, done = await start_of(tx, record, rules, version)
            for entry in await tx.log.actions(game_id, after=done):
                if entry.seq > version:
                    break
                replay_one(rules, game, entry)
        return game
