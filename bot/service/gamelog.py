"""A stored game turned back into the engine's game: from its latest good snapshot (or from
the start) and the actions of its log after it, with the turn in progress; and the cache of
games loaded so. Used by play (which moves games on) and history (which tells them)."""

from __future__ import annotations

import hashlib
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.service.models import ActionRecord, GameRecord
from bot.service.storage import Transaction
from engine.protocol import Game
from engine.rules import Rules
from engine.turns import TurnRecord


class Damaged(Exception):
    """A game whose stored form cannot be turned back into a game."""

    def __init__(self, game_id: int, reason: str) -> None:
        super().__init__(reason)
        self.game_id = game_id
        self.reason = reason


@dataclass
class TurnSoFar:
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

    def copy(self) -> TurnSoFar:
        return TurnSoFar(
            self.seat, self.number, self.start_scores, list(self.sources), list(self.events)
        )


@dataclass
class Loaded:
    """A game in the cache: the engine state at ``version``, its turn in progress, and the
    version of its latest snapshot."""

    version: int
    game: Any
    turn: TurnSoFar
    snapshot_version: int


def fresh_turn(game: Any) -> TurnSoFar:
    seat = game.current_player if game.current_player is not None else -1
    return TurnSoFar(seat, game.turn, tuple(game.scores))


class GameCache:
    """The engine games of the busiest games, newest use last, at most ``size`` of them."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._games: OrderedDict[int, Loaded] = OrderedDict()

    def get(self, game_id: int) -> Loaded | None:
        return self._games.get(game_id)

    def put(self, game_id: int, loaded: Loaded) -> None:
        self._games[game_id] = loaded
        self._games.move_to_end(game_id)
        while len(self._games) > self.size:
            self._games.popitem(last=False)

    def touch(self, game_id: int) -> None:
        """``game_id`` was used now: it is the last to be evicted."""
        self._games.move_to_end(game_id)

    def drop(self, game_id: int | None = None) -> None:
        """Forget one game (or all)."""
        if game_id is None:
            self._games.clear()
        else:
            self._games.pop(game_id, None)


def digest(game_id: int, version: int, state: str) -> str:
    """What checks a snapshot: it belongs to this game and version and was not changed."""
    return hashlib.sha256(f"{game_id}:{version}:{state}".encode()).hexdigest()[:32]


def replay_one(rules: Rules[Any, Any], game: Any, entry: ActionRecord) -> tuple[Any, ...]:
    """Apply one stored action to ``game``; its events."""
    action = rules.parse_action(entry.action)
    events: tuple[Any, ...] = game.apply(action, seat=entry.seat)
    return events


async def start_of(
    tx: Transaction, record: GameRecord, rules: Rules[Any, Any], version: int
) -> tuple[Game, TurnSoFar, int]:
    """The game at the latest snapshot at or before ``version`` (or new), the turn that
    begins there, and that snapshot's version."""
    if record.damage:
        raise Damaged(record.id, f"the game row: {record.damage}")
    snapshot = await tx.log.latest_snapshot(record.id, version)
    # A snapshot is only a cache: one that fails its digest or does not parse is passed
    # over, and the log is replayed instead.
    if snapshot is not None and snapshot[2] == digest(record.id, snapshot[0], snapshot[1]):
        try:
            game = rules.from_json(snapshot[1])
            return game, fresh_turn(game), snapshot[0]
        except ValueError:
            pass
    try:
        game = rules.new(len(record.seats), record.seed, rules.check_options(record.options))
    except (ValueError, TypeError, KeyError) as exc:
        raise Damaged(record.id, f"the game row: {exc}") from None
    return game, fresh_turn(game), 0


def check_row(record: GameRecord, rules: Rules[Any, Any], game: Any) -> None:
    """The row must agree with the game its log makes (whose turn it is, the seats)."""
    if len(record.seats) != game.players:
        raise Damaged(record.id, f"{len(record.seats)} seats for {game.players} players")
    playing = record.status == "active" and not rules.is_over(game)
    if playing and record.current_seat != game.current_player:
        raise Damaged(
            record.id,
            f"the row says seat {record.current_seat} plays, "
            f"the log says seat {game.current_player}",
        )


async def load(
    tx: Transaction, record: GameRecord, rules: Rules[Any, Any] | None, cache: GameCache
) -> Loaded:
    """The game at the record's version: cached, or a snapshot plus the actions after
    it, or a replay of the whole log (then cached). Raises :class:`Damaged` if it cannot
    (``rules`` None: the record's game is not one this service runs)."""
    game_id, version = record.id, record.version
    cached = cache.get(game_id)
    if cached is not None and cached.version == version and rules is not None:
        check_row(record, rules, cached.game)
        cache.touch(game_id)
        return cached
    cache.drop(game_id)
    if rules is None:
        raise Damaged(game_id, f"unknown game {record.game_name!r}")
    game, turn, done = await start_of(tx, record, rules, version)
    snapshot_version = done
    seq = 0
    try:
        for entry in await tx.log.actions(game_id, after=done):
            seq = entry.seq
            if seq != done + 1:
                raise ValueError(f"the log jumps from action {done} to {seq}")
            before = game.turn
            events = replay_one(rules, game, entry)
            turn.add(entry.source, events)
            if game.turn != before or rules.is_over(game):
                turn = fresh_turn(game)
            done = seq
    except (ValueError, TypeError, KeyError, AttributeError) as exc:
        where = f"action {seq}" if seq else "the game row"
        raise Damaged(game_id, f"{where}: {exc}") from None
    if done != version:
        raise Damaged(game_id, f"the log has {done} actions, the game says {version}")
    loaded = Loaded(version, game, turn, snapshot_version)
    check_row(record, rules, game)
    cache.put(game_id, loaded)
    return loaded
