"""Several arkbot processes on one database against one fake Discord, and players who play
on through a process's death (test code, shared with ``bench/e2e_scale.py``).

A :class:`Fleet` runs ``python -m bot`` (unmodified) ``count`` times, process ``i`` with
``ARKBOT_SHARD_COUNT=count`` and ``ARKBOT_SHARD_IDS=i``; the fake deals its guilds out over
the shards by Discord's formula, so each process gets the interactions of its guilds.

:func:`play_game` plays one planned game as :class:`~tests.support.players.Table` does (typed
and clicked turns alternately) and, when an answer does not come (the process serving the
game was killed: the interaction failed, as Discord would show it), does what a person
would: looks at where the game stands (here: the database) and goes on with typed
commands. Boards are then found by their nonce (``<game>.t<first>-<last>.<part>``, the
turns they tell), whichever process posted them.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from bot.service import GameService
from engine.common import Rng
from engine.covenant import TILES, Action, Game
from engine.covenant.players import sensible_action
from tests.support.fake_discord import BotProcess, FakeDiscord, FakeMessage, python_argv
from tests.support.players import (
    REPO,
    TURNS_NONCE,
    WAIT,
    BotSaidNo,
    Table,
    arkbot_env,
    split_turns,
)

PLAYERS = 3
DECK_TILES = [t for t, tile in TILES.items() if not tile.start]


def plan_game(seed: int, tiles: int) -> tuple[list[str], list[list[Action]]]:
    """A scripted deck of ``tiles`` tiles and the turns the players will play on it (chosen
    by the engine's sensible computer player)."""
    deck = random.Random(seed).choices(DECK_TILES, k=tiles)
    game = Game.new(players=PLAYERS, seed=0, deck=deck)
    start, rng, actions = game.copy(), Rng(seed), []
    while game.phase != "over":
        action = sensible_action(game, rng)
        game.apply(action)
        actions.append(action)
    return deck, split_turns(start, actions)


class Fleet:
    """``count`` bot processes, one shard each, on the database ``target``; or process ``i``
    on shard ``shards[i]`` (two on one shard: a rolling restart's overlap)."""

    def __init__(
        self,
        fake: FakeDiscord,
        target: str | Path,
        count: int,
        workdir: Path,
        shards: Sequence[int] | None = None,
        **env: str,
    ) -> None:
        self.fake = fake
        self.count = count
        self.shards = list(shards) if shards is not None else list(range(count))
        base = arkbot_env(
            fake,
            target,
            # Global commands: the guilds are many, and each process syncs the same set.
            ARKBOT_DEV_GUILD="",
            ARKBOT_SHARD_COUNT=str(max(self.shards) + 1),
            **env,
        )
        self.procs = [
            BotProcess(
                python_argv("-m", "bot"),
                {**base, "ARKBOT_SHARD_IDS": str(shard)},
                workdir / f"bot{i}.log",
                cwd=REPO,
            )
            for i, shard in enumerate(self.shards)
        ]

    async def start(self, timeout: float = 90.0) -> Fleet:
        for proc in self.procs:
            await proc.start()
        await self.wait_up(timeout)
        return self

    async def wait_up(self, timeout: float = 90.0) -> None:
        """Every process runs, has synced its commands and has its session."""
        starts = sum(p.starts for p in self.procs)
        rec = self.fake.recorder

        def up() -> bool:
            if not all(p.running for p in self.procs):
                return True  # fail below, with the output
            synced = len(rec.commands_synced) >= starts
            sessions = len(self.fake.live_connections()) == self.count
            return synced and sessions and self.fake.live_shards() == set(self.shards)

        try:
            await rec.wait_until(up, timeout, f"{self.count} bot processes to log in")
        except TimeoutError as err:
            raise AssertionError(f"the fleet did not come up:\n{self.outputs()}") from err
        dead = [p for p in self.procs if not p.running]
        if dead:
            raise AssertionError(f"a bot process exited:\n{dead[0].output()}")

    async def kill_and_restart(self, index: int, down: float = 0.5) -> None:
        """SIGKILL process ``index`` (its shard goes dark), then start it again."""
        proc = self.procs[index]
        await proc.kill()
        await asyncio.sleep(down)
        await proc.start()
        await self.wait_up()

    async def stop(self) -> None:
        for proc in self.procs:
            await proc.stop()

    def outputs(self, tail: int | None = 3000) -> str:
        return "\n".join(f"---- bot {i}:\n{p.output(tail)}" for i, p in enumerate(self.procs))


def unexpected_errors(output: str) -> list[str]:
    """The logged errors with a traceback, but for interactions answered too late (Discord's
    404 "Unknown interaction", 10062): on two busy cores a bot process sometimes is, and the
    player then goes on as after any failed interaction."""
    records = re.split(r"\n(?=\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d+ )", output)
    return [r[:2000] for r in records if "Traceback" in r and "(error code: 10062)" not in r]


# ----------------------------------------------------------------------------- players


def posts_of(fake: FakeDiscord, channel_id: int, prefix: str) -> list[FakeMessage]:
    """The channel's live messages whose nonce starts with ``prefix``."""
    return [
        m
        for m in fake.recorder.messages_in(channel_id)
        if str(m.payload.get("nonce") or "").startswith(prefix)
    ]


def board_of(fake: FakeDiscord, table: Table, turn: int) -> FakeMessage | None:
    """The board that told turn ``turn`` of the table's game (the part with the pictures;
    turn 0: the first board, which tells none)."""
    if turn == 0:
        found = posts_of(fake, table.channel.id, f"{table.game_id}.v0.")
    else:
        found = []
        for message in posts_of(fake, table.channel.id, f"{table.game_id}.t"):
            told = TURNS_NONCE.fullmatch(str(message.payload["nonce"]))
            if told and int(told["first"]) <= turn <= int(told["last"]):
                found.append(message)
    found = [m for m in found if m.files]
    return found[-1] if found else None


@dataclass
class Planned:
    """One game of a fleet run: its table, its turns, and what happened on the way."""

    table: Table
    turns: list[list[Action]]
    deck: list[str]
    #: Turns (by index) whose player waits for the reminder before playing.
    slow: frozenset[int] = frozenset()
    #: Times the player found the bot silent and went on from the stored game.
    recoveries: int = 0
    done: bool = False
    log: list[str] = field(default_factory=list)

    @property
    def actions(self) -> list[Action]:
        return [a for turn in self.turns for a in turn]


async def _resync(planned: Planned, reader: GameService) -> None:
    """Set the table's mirror to the stored game (the log is a prefix of the plan)."""
    table = planned.table
    version = (await reader.play.get_game(table.game_id)).version
    game = Game.new(players=PLAYERS, seed=0, deck=list(planned.deck))
    for action in planned.actions[:version]:
        game.apply(action)
    table.game, table.version = game, version
    planned.log.append(f"resynced at version {version}")


async def _wait_board(
    fake: FakeDiscord, table: Table, turn: int, *, within: float = 3 * WAIT
) -> FakeMessage:
    return await fake.recorder.wait_until(
        lambda: board_of(fake, table, turn), within, f"board of turn {turn} of {table.game_id}"
    )


async def _typed(planned: Planned, rest: Sequence[Action]) -> None:
    """Type ``rest`` (the end of a turn) as ``/covenant`` commands; the closing one's board
    is found by its version, whichever process posts it."""
    table, fake = planned.table, planned.table.fake
    for action in rest:
        user = table.current
        sub, options = table.typed_command(action)
        iid = await fake.slash(user, table.channel, "covenant", options, subcommand=sub)
        table.interactions.append(iid)
        reply = await fake.recorder.wait_for_reply(iid, timeout=WAIT)
        if not reply.ephemeral:
            raise BotSaidNo(f"/covenant {sub} answered in public: {reply.text()!r}")
        closed = table.record_played(action)
        table._expect_next_step(reply, closed)
        if closed:
            await _wait_board(fake, table, table.closed_turn)


#: How long a player goes on trying after the bot fell silent: a killed process restarting
#: on a busy machine takes 30 s and more. What they wait for meanwhile is a condition (the
#: bot serving their server again, an answer, a board), each wait bounded; never a count of
#: tries of a second each, which a slow restart outlasts.
BACK_WITHIN = 180.0


async def _served(planned: Planned, deadline: float) -> None:
    """Wait until a bot process serves the table's server (its session is live), at the
    latest until ``deadline`` (the event loop's time)."""
    fake, guild = planned.table.fake, planned.table.channel.guild_id
    left = max(0.0, deadline - asyncio.get_running_loop().time())
    await fake.recorder.wait_until(
        lambda: fake.connections_for(guild), left, f"a bot process for guild {guild}"
    )


def _give_up_after(planned: Planned, deadline: float, what: str) -> None:
    if asyncio.get_running_loop().time() > deadline:
        raise AssertionError(
            f"game {planned.table.game_id}: {what} after {BACK_WITHIN:.0f} s: {planned.log[-3:]}"
        )


async def _robust_start(planned: Planned, reader: GameService) -> None:
    """``/table start`` again until the game is stored as started (the first one may have
    gone to a process that was killed), then its first board."""
    table, fake = planned.table, planned.table.fake
    deadline = asyncio.get_running_loop().time() + BACK_WITHIN
    while (await reader.play.get_game(table.game_id)).status != "active":
        _give_up_after(planned, deadline, "not started")
        await _served(planned, deadline)
        iid = await fake.slash(table.seats[0], table.channel, "table", {}, subcommand="start")
        planned.log.append(f"start again: {iid}")
        with contextlib.suppress(TimeoutError):  # the answer may be lost: the game tells
            await fake.recorder.wait_for_reply(iid, timeout=WAIT)
    # A game started by a process that was killed before it posted is shown by the restarted
    # process's catch-up round: wait for the restart first, then give the round as long as
    # the player would wait (on a busy machine it can outlast 3 * WAIT).
    await _served(planned, deadline)
    left = deadline - asyncio.get_running_loop().time()
    await _wait_board(fake, table, 0, within=max(3 * WAIT, left))


async def _robust_turn(planned: Planned, plan: Sequence[Action], reader: GameService) -> None:
    """The rest of a turn by typed commands, going on from the stored game after silence."""
    table = planned.table
    deadline = asyncio.get_running_loop().time() + BACK_WITHIN
    while True:
        await _served(planned, deadline)
        await _resync(planned, reader)
        rest = list(plan[table.version - _turn_start(planned, plan) :])
        try:
            if rest:
                await _typed(planned, rest)
            else:  # the turn was stored: its board comes (from a restarted process, maybe)
                await _wait_board(table.fake, table, planned.turns.index(plan) + 1)
            return
        except (TimeoutError, BotSaidNo, AssertionError) as exc:
            planned.recoveries += 1
            planned.log.append(f"typed turn: {type(exc).__name__}: {exc}"[:200])
        _give_up_after(planned, deadline, "no way on")
        await asyncio.sleep(0.5)  # a pause between tries (a refusal comes at once)


def _turn_start(planned: Planned, plan: Sequence[Action]) -> int:
    """The version at which the turn ``plan`` (one of ``planned.turns``) begins."""
    start = 0
    for turn in planned.turns:
        if turn is plan:
            return start
        start += len(turn)
    raise ValueError("not a turn of this game")


async def play_game(
    planned: Planned,
    reader: GameService,
    *,
    think: float,
    ramp: float,
    rng: random.Random,
) -> None:
    """One game from ``/table start`` to the final scoring."""
    table, fake = planned.table, planned.table.fake
    robust = False
    await asyncio.sleep(rng.uniform(0, ramp))
    try:
        await table.start()
    except (TimeoutError, BotSaidNo, AssertionError) as exc:
        planned.recoveries += 1
        planned.log.append(f"start: {type(exc).__name__}: {exc}"[:200])
        robust = True
        await _robust_start(planned, reader)
    for n, plan in enumerate(planned.turns):
        if n in planned.slow:
            # This player is slow: the bot reminds them, then they play. Half the bank is
            # 18 s, counted from when the turn was shown; a turn stored by the process that
            # is killed is shown only after its restart (20-30 s on a busy machine), so
            # the reminder may come a minute and more after the move before it.
            prefix = f"r.{table.game_id}.{table.version}"
            await fake.recorder.wait_until(
                lambda p=prefix: posts_of(fake, table.channel.id, p), 150, f"reminder {prefix}"
            )
        else:
            await asyncio.sleep(rng.uniform(0.5, 1.5) * think)
        if not robust:
            try:
                await table.play_turn(plan, typed=n % 2 == 0)
                continue
            except (TimeoutError, BotSaidNo, AssertionError) as exc:
                planned.recoveries += 1
                planned.log.append(f"turn {n}: {type(exc).__name__}: {exc}"[:200])
                robust = True
        await _robust_turn(planned, plan, reader)
    planned.done = True
