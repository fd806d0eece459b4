"""Moves (``service.play``): a game loaded (from the cache, or its snapshot and log), a move
checked against the engine and applied with the computer seats' replies, and all of it
stored in one write with the game's new version, clock and ratings. Also the game's state
for pictures and menus.

A part of :class:`~bot.service.service.GameService` (``service.play``); the module docstring
of :mod:`bot.service.service` says why the log is the truth and one click is one write."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable, Mapping, Sequence
from datetime import timedelta
from typing import Any

from bot.service.clock import from_ms, to_ms
from bot.service.common import (
    move_rng,
    next_due_at,
    once_more_if_lost,
    record_of,
    stale,
    td_ms,
    think_seed,
)
from bot.service.core import Core
from bot.service.gamelog import Loaded, TurnSoFar, digest, fresh_turn, load
from bot.service.may_act import may_act, not_in_play
from bot.service.models import (
    ActionRecord,
    ActionSource,
    DueTurn,
    GameRecord,
    Seat,
    ServiceError,
    TurnResult,
)
from bot.service.pace import after_move, is_pace, night_of, pace_of
from bot.service.posts import Posts
from bot.service.ratings import finishes, rated
from bot.service.storage import Advance, Transaction
from engine.errors import IllegalAction, Refusal
from engine.protocol import Game
from engine.rules import Rules
from engine.turns import TurnRecord


class Moves:
    """Moves played and stored, and the games they are played in (``service.play``)."""

    def __init__(self, core: Core, posts: Posts, wake: Callable[[GameRecord], None]) -> None:
        self._core = core
        #: Where what this process posted waits to be written with the game's next move.
        self._posts = posts
        #: Has a computer play if the game is now at its turn (``computers.wake``: given as a
        #: callback, since the computers in turn play through this part).
        self._wake = wake

    @once_more_if_lost
    async def act(
        self,
        game_id: int,
        user_id: int,
        action: Any,
        expected_version: int | None = None,
        then: Sequence[Any] = (),
        *,
        take_back: bool = False,
    ) -> TurnResult:
        """Play ``action`` (an engine action or its dict form) for ``user_id`` in the game,
        then the actions ``then`` of the same player, in the same write.

        ``expected_version`` is the game's version the user saw (on a button, say); if the
        game has moved on since, the action is refused as stale. Raises
        :class:`ServiceError` and changes nothing if an action cannot be played (nor any
        action of ``then``: all are kept, or none).

        ``take_back``: a turn these actions end may be taken back by its player for a while
        (``settings.take_back``; see :meth:`take_back`): it is posted, the next player
        told and a computer woken only when that time is over.
        """
        core = self._core
        async with core.guard(), core.storage.write() as tx:
            record = await _active(tx, game_id)
            refused = may_act(record, user_id, version=expected_version, now_ms=core.now_ms())
            if refused is not None:
                raise refused
            seat = record.seats[record.current_seat or 0]
            actions: list[tuple[Any, Seat, ActionSource]] = []
            for one in (action, *then):
                if isinstance(one, Mapping):
                    try:
                        one = core.game_rules(record.game_name).parse_action(dict(one))
                    except ValueError:
                        raise ServiceError("bad_action") from None
                actions.append((one, seat, "player"))
            loaded = await self._load(tx, record)
            grace = core.settings.take_back if take_back else None
            result = await self._play(tx, record, loaded, actions, grace)
        if result.record.take_back is None:
            # A turn that may be taken back wakes the computer when that time is over
            # (the rounds: ``computers.wake_computers``), not before.
            self._wake(result.record)
        return result

    async def take_back(self, game_id: int, user_id: int, version: int) -> GameRecord:
        """``user_id`` takes back the turn they just played, at ``version`` (the game's
        version their "Done!" message was made at): while its time lasts and before it
        was posted, the game goes back to where that turn began, their clock as it was.
        The actions stay on record, marked taken back (``tx.log.taken_back``). Refused
        (``take_back_over``) and nothing changed if the time is over, the turn was posted,
        the game moved on, or it was taken back already (a double tap)."""
        core = self._core
        async with core.guard(), core.storage.write() as tx:
            record = await _active(tx, game_id)
            now = core.now_ms()
            undo = record.take_back
            if (
                undo is None
                or record.version != version
                or record.take_back_by != user_id
                or not record.taking_back(now)
                or self._posts.shown(record).announced >= record.version
            ):
                raise ServiceError("take_back_over")
            back_to = int(undo["to"])
            await tx.log.take_back(game_id, back_to, now)
            mover = next(s for s in record.seats if s.user_id == user_id)
            clock = undo.get("clock")
            stored = await tx.games.advance(
                game_id,
                record.version,
                Advance(
                    version=back_to,
                    current_seat=mover.index,
                    waiting_since_ms=undo.get("waiting_since"),
                    status="active",
                    finished_at_ms=None,
                    result=None,
                    announced=None,
                    now_ms=now,
                    board_message_id=None,
                    lobby_message_id=None,
                    posted=False,
                    clock=json.dumps(clock) if clock is not None else None,
                    next_due_ms=undo.get("next_due"),
                ),
            )
            if not stored:
                raise stale()
            # A step within the turn counted as told at once: it is not any more.
            announced = min(record.announced, back_to)
            await tx.games.update(
                game_id, take_back_until=None, take_back=None, announced=announced
            )
            tx.on_commit(lambda: core.cache.drop(game_id))
            return dataclasses.replace(
                record,
                version=back_to,
                current_seat=mover.index,
                waiting_since=from_ms(undo.get("waiting_since")),
                clock=clock,
                next_due_ms=undo.get("next_due"),
                announced=announced,
                take_back_until_ms=None,
                take_back=None,
            )

    async def post_now(self, game_id: int, user_id: int, version: int) -> GameRecord:
        """``user_id`` will not take back the turn they just played, at ``version``: its time
        ends now, so it is posted (and the next player told) without waiting. The game as
        it is; nothing changes if that time was over already, or the turn is not theirs."""
        core = self._core
        async with core.guard(), core.storage.write() as tx:
            record = await _active(tx, game_id)
            now = core.now_ms()
            mine = record.version == version and record.take_back_by == user_id
            if not mine or not record.taking_back(now):
                return record
            await tx.games.update(game_id, take_back_until=now)
            return dataclasses.replace(record, take_back_until_ms=now)

    async def taken_back(self, game_id: int) -> list[tuple[int, ActionRecord]]:
        """The game's turns taken back: (when, each action as it was played), in order."""
        async with self._core.storage.read() as tx:
            return await tx.log.taken_back(game_id)

    async def time_out(self, due: DueTurn) -> TurnResult:
        """A player's time ran out: the guild's ``"computer"`` action has a computer play the
        turn for them, ``"skip"`` makes only the moves the game cannot go on without (for the
        Covenant: the tile goes where the computer would put it, no piece is deployed); the
        notice is marked sent. The computer thinks before the write, off the event loop."""
        core = self._core
        moves: list[Any] = [None]
        if due.timeout_action == "computer":
            record, game = await self.state(due.record.id)
            if record.version != due.version:
                raise stale()
            settings = await core.recent_guild_settings(record.guild_id)
            moves = await core.thinker.turn(
                record.game_name,
                game.to_json(),
                due.seat.index,
                settings.computer_level,
                think_seed(record),
            )
        async with core.guard(), core.storage.write() as tx:
            found = await tx.games.get(due.record.id)
            if found is None or found.status != "active" or found.version != due.version:
                raise stale()
            record = found
            seat = record.seats[record.current_seat or 0]
            user = seat.user_id
            if user is None or user != due.seat.user_id:
                raise stale()
            loaded = await self._load(tx, record)
            result = await self._play(tx, record, loaded, [(m, seat, "timeout") for m in moves])
            await tx.notices.mark_sent(record.id, due.version, user, "timeout", core.now_ms())
        self._wake(result.record)
        return result

    async def computer_turn(
        self, game_id: int, version: int, seat: Seat, actions: list[Any]
    ) -> TurnResult:
        """Store the turn a computer thought out for ``seat`` at ``version``; refused as stale
        if the game moved on or the seat was handed to a person meanwhile."""
        async with self._core.guard(), self._core.storage.write() as tx:
            record = await _active(tx, game_id)
            now_seat = record.current
            if record.version != version or now_seat is None or now_seat.index != seat.index:
                raise stale()
            if not now_seat.is_bot:
                raise stale()  # handed to a person meanwhile
            loaded = await self._load(tx, record)
            return await self._play(tx, record, loaded, [(a, now_seat, "bot") for a in actions])

    @once_more_if_lost
    async def game_in(self, channel_id: int) -> GameRecord | None:
        """The open (lobby, active or damaged) game of a channel, if any."""
        async with self._core.storage.read() as tx:
            return await tx.games.open_in(channel_id)

    async def last_game(self, channel_id: int) -> GameRecord | None:
        """The newest game of a channel, whatever became of it."""
        async with self._core.storage.read() as tx:
            return await tx.games.last_in(channel_id)

    @once_more_if_lost
    async def get_game(self, game_id: int) -> GameRecord:
        async with self._core.storage.read() as tx:
            return await record_of(tx, game_id)

    @once_more_if_lost
    async def state(self, game_id: int) -> tuple[GameRecord, Any]:
        """The record and a private copy of the engine state (for pictures and menus)."""
        async with self._core.guard(), self._core.storage.read() as tx:
            record = await tx.games.get(game_id)
            if record is None:
                raise ServiceError("no_game")
            if record.status == "error":
                raise ServiceError("game_damaged")
            if record.status == "lobby":
                raise ServiceError("not_started")
            loaded = await self._load(tx, record)
            return record, loaded.game.copy()

    # ================================================================ internals

    async def _load(self, tx: Transaction, record: GameRecord) -> Loaded:
        return await load(tx, record, self._core.rules.get(record.game_name), self._core.cache)

    def _copier(self, game_id: int, loaded: Loaded, version: int) -> Callable[[], Game]:
        """Copies the cached game as it is at ``version`` (a copy made later, after the game
        moved on, would not be the state of that result: refused rather than wrong)."""
        made: list[Game] = []
        cache = self._core.cache

        def copy() -> Game:
            if not made:
                if loaded.version != version or cache.get(game_id) is not loaded:
                    raise RuntimeError("the state of an older move was asked for too late")
                made.append(loaded.game.copy())
            return made[0]

        return copy

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
            night = night_of(clock)
            start = turn_start
            for turn in turns:
                seat = record.seats[turn.seat] if 0 <= turn.seat < len(record.seats) else None
                if turn.complete and seat is not None and seat.user_id is not None:
                    bank = banks[turn.seat]
                    banks[turn.seat] = after_move(pace, bank, start, now, seat.away, night)
                start = now
            clock = {**clock, "banks": banks}
        if over:
            return clock, now, None
        index = game.current_player
        return clock, now, next_due_at(clock, record.seats[index], index, now, now, ())

    async def _rate(self, tx: Transaction, record: GameRecord, game: Any) -> None:
        """A finished game moves the ratings of its people (see :mod:`bot.service.ratings`):
        computers do not count; who left counts as finishing last. A practice game is not
        rated."""
        if record.practice is not None:
            return
        found = finishes(record.seats, list(game.scores), set(game.winners))
        before = {r.user_id: r for r in await tx.people.ratings(record.guild_id, record.game_name)}
        after = rated(before, found)
        if after:
            await tx.people.save_ratings(record.guild_id, record.game_name, after)

    async def _play(
        self,
        tx: Transaction,
        record: GameRecord,
        loaded: Loaded,
        moves: list[tuple[Any, Seat, ActionSource]],
        take_back: timedelta | None = None,
    ) -> TurnResult:
        """Apply ``moves`` then the computer seats' replies, store them all, and say what
        happened. A ``None`` action in ``moves`` means "the time-out move for this seat
        until its turn ends". ``take_back``: how long a turn these moves end may be taken
        back. Runs inside the caller's write transaction."""
        cache = self._core.cache
        rules = self._core.game_rules(record.game_name)
        game = loaded.game
        version = record.version
        applied: list[tuple[int, int | None, ActionSource, Any]] = []
        events: list[Any] = []
        turns: list[TurnRecord] = []
        turn = loaded.turn.copy()
        # The version at which the turn in progress began: every turn before it ended there.
        began = version - len(turn.sources)

        def apply(action: Any, seat: int, user: int | None, source: ActionSource) -> None:
            nonlocal turn
            before = game.turn
            happened = game.apply(action, seat=seat)
            events.extend(happened)
            applied.append((seat, user, source, action))
            turn.add(source, happened)
            if game.turn != before or rules.is_over(game):
                turns.append(turn.record(complete=True))
                turn = fresh_turn(game)

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
                except IllegalAction as exc:  # the game is unchanged; the table says which
                    exc.game = record.game_name
                    raise
        except Refusal:
            if applied:  # an earlier move of this call changed the cached game
                cache.drop(record.id)
            raise
        except BaseException:
            cache.drop(record.id)
            raise
        if turn.events:
            turns.append(turn.record(complete=False))
        try:
            return await self._store(
                tx, record, loaded, rules, applied, events, turns, turn, began, take_back
            )
        except BaseException:
            # The engine state ran ahead of the database: never reuse it.
            cache.drop(record.id)
            raise

    async def _store(
        self,
        tx: Transaction,
        record: GameRecord,
        loaded: Loaded,
        rules: Rules[Any, Any],
        applied: list[tuple[int, int | None, ActionSource, Any]],
        events: list[Any],
        turns: list[TurnRecord],
        turn: TurnSoFar,
        began: int,
        take_back: timedelta | None,
    ) -> TurnResult:
        core = self._core
        game = loaded.game
        old_version = record.version
        now = core.now_ms()
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
            await tx.log.append(records)
        told = any(t.complete for t in turns)
        clock, turn_start, next_due = self._clock_after(record, game, turns, told, over, now)
        undo = _take_back(record, applied, turns, over, began) if take_back else None
        until = now + td_ms(take_back) if undo is not None and take_back else None
        if undo is not None:
            # Nobody is told of the next turn before the turn may no longer be taken back.
            undo["next_due"] = record.next_due_ms
            next_due = max(next_due, until or 0) if next_due is not None else None
        # What this process posted since the game's last write goes in this transaction.
        pending = self._posts.unwritten(record.id)
        posted = pending.get("announced", record.announced)
        # A step within a turn is no news for the channel: it counts as told at once, but
        # only while every turn before it has been told. Else an earlier turn whose post
        # failed or was cut off by a crash would pass for told, and nobody would see it.
        caught_up = not told and posted >= began
        winners = tuple(game.winners) if over else None
        result = (
            json.dumps({"scores": list(game.scores), "winners": list(winners or ())})
            if over
            else None
        )
        stored = await tx.games.advance(
            record.id,
            old_version,
            Advance(
                version=new_version,
                current_seat=None if over else game.current_player,
                waiting_since_ms=None if over else turn_start,
                status="finished" if over else "active",
                finished_at_ms=now if over else None,
                result=result,
                announced=new_version if caught_up else pending.get("announced"),
                now_ms=now,
                board_message_id=pending.get("board_message_id"),
                lobby_message_id=pending.get("lobby_message_id"),
                posted="announced" in pending,
                clock=json.dumps(clock) if clock is not None else None,
                next_due_ms=next_due,
            ),
        )
        if not stored:
            raise stale()
        if undo is not None or record.take_back is not None:
            await tx.games.update(
                record.id,
                take_back_until=until,
                take_back=json.dumps(undo) if undo is not None else None,
            )
        if over:
            await self._rate(tx, record, game)
        if pending:
            tx.on_commit(lambda: self._posts.written(record.id, pending))
        every = core.snapshot_every
        at_turn_start = not turn.events
        if (
            every
            and records
            and at_turn_start
            and not over
            and new_version - loaded.snapshot_version >= every
        ):
            state = game.to_json()
            await tx.log.save_snapshot(
                record.id, new_version, state, digest(record.id, new_version, state)
            )
            loaded.snapshot_version = new_version
        if over:
            await tx.log.forget_caches(record.id)
        loaded.version = new_version
        loaded.turn = turn
        core.cache.put(record.id, loaded)
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
            announced=new_version if caught_up else max(record.announced, posted),
            lobby_message_id=pending.get("lobby_message_id", record.lobby_message_id),
            board_message_id=pending.get("board_message_id", record.board_message_id),
            take_back_until_ms=until,
            take_back=undo,
        )
        return TurnResult(
            record=new_record,
            copy_state=self._copier(record.id, loaded, new_version),
            actions=records,
            events=tuple(events),
            turns=tuple(turns),
            next_seat=None if over else new_record.seats[game.current_player],
            game_over=over,
            scores=tuple(game.scores),
            turn_began=began,
        )


def _take_back(
    record: GameRecord,
    applied: Sequence[tuple[int, int | None, ActionSource, Any]],
    turns: Sequence[TurnRecord],
    over: bool,
    began: int,
) -> dict[str, Any] | None:
    """What taking back the turn these actions ended would restore, or None if it may not be
    taken back: only a person's whole turn, played by them alone (no time-out or computer
    step in it), ended by this write, with the game going on (an end is rated and posted
    at once); never in a practice game, whose learner plays computers alone (nobody to hide
    the next tile from, and its computers reply at once)."""
    if record.practice is not None:
        return None
    if over or len(turns) != 1 or not turns[0].complete:
        return None
    if any(t != "player" for t in turns[0].sources):
        return None
    users = {user for _, user, _, _ in applied}
    if len(users) != 1 or None in users:
        return None
    return {
        "to": began,
        "by": users.pop(),
        "clock": record.clock,
        "waiting_since": to_ms(record.waiting_since) if record.waiting_since else None,
    }


async def _active(tx: Transaction, game_id: int) -> GameRecord:
    """The game, which must be being played (not a lobby, over, or damaged)."""
    record = await tx.games.get(game_id)
    if record is None:
        raise ServiceError("no_game")
    refused = not_in_play(record)
    if refused is not None:
        raise refused
    return record
