"""Several bot processes on one PostgreSQL against the fake Discord (issue 16).

Three unmodified ``python -m bot`` processes, one shard each, share a few hundred games in a
dozen guilds. Mid-run one process is SIGKILLed and started again; its players find the bot
silent for a while and go on as people would. Afterwards every game's log replays in the
engine to the game the players played (nothing lost, nothing doubled), every turn was
told once, and every reminder once. Needs PostgreSQL (skipped without it, unless
``ARKBOT_REQUIRE_POSTGRES=1``). Short decks and short thinking keep it to a minute or two;
``bench/e2e_scale.py`` does the measuring.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections import Counter
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.games import plugins
from bot.service import GameService
from engine.covenant import Game, PlaceTile
from tests.e2e.test_bot_e2e import DECK
from tests.support.databases import fresh_schema
from tests.support.fake_discord import FakeDiscord
from tests.support.fleet import (
    PLAYERS,
    Fleet,
    Planned,
    board_of,
    plan_game,
    play_game,
    posts_of,
    unexpected_errors,
)
from tests.support.players import Table, open_lobby, told_turns

GAMES = 200
GUILDS = 12
PROCESSES = 3
TILES = 2
#: One game in this many has a slow player, who waits for the bot's reminder.
SLOW_EVERY = 8
#: 108 seconds a turn, filled up again after each move: reminded after 54 s. Longer than a
#: restart takes on a busy machine (30 s): a player whose turn was stored by the killed
#: process must still be in time once it is back.
PACE = "custom:0.03,0.03,0.03"
#: The share of all moves played when a process is killed.
KILL_AT = 0.4
#: A bound on the whole run (it takes one to three minutes, more on a loaded machine).
RUN_WITHIN = 900.0


@pytest.fixture
async def postgres_url() -> AsyncIterator[str]:
    async with fresh_schema("arkbot_e2e") as url:
        yield url


async def test_three_processes_share_the_games_and_survive_a_kill(
    tmp_path: Path, postgres_url: str
) -> None:
    channels = [f"game-{i}" for i in range(GAMES)]
    users = [f"p{i}-{s}" for i in range(GAMES) for s in range(PLAYERS)]
    fake = FakeDiscord(users=users, channels=channels, moderators=(), guilds=GUILDS)
    await fake.start()
    reader = await GameService.open(postgres_url)
    games: list[Planned] = []
    for i in range(GAMES):
        deck, turns = plan_game(1000 + i, TILES)
        channel = fake.channel(channels[i])
        seats = [fake.user(f"p{i}-{s}") for s in range(PLAYERS)]
        game_id = await open_lobby(postgres_url, fake, channel, seats, deck, service=reader)
        table = Table.scripted(fake, channel, game_id, seats, deck)
        slow = frozenset({1}) if i % SLOW_EVERY == 0 else frozenset()
        games.append(Planned(table, turns, deck, slow))
    moves = sum(len(p.actions) for p in games)
    # A player the busy machine keeps waiting past the bank is not played for: the
    # moderators are told instead, so every game's log is exactly what its players played.
    # No quiet hours (turned off on purpose): the slow player's reminder must not wait for
    # the morning when the test runs at night in the server's time zone.
    for guild_id in fake.guild_ids:
        await reader.set_guild_settings(
            guild_id, 0, moderator=True, timeout_action="notify", pace=PACE,
            quiet_start=0, quiet_end=0,
        )  # fmt: skip
    fleet = Fleet(
        fake,
        postgres_url,
        PROCESSES,
        tmp_path,
        ARKBOT_POLL_SECONDS="0.5",
        ARKBOT_PACE=PACE,
        ARKBOT_CLAIM_SECONDS="5",
        ARKBOT_LOG_LEVEL="WARNING",
    )
    killed_at: list[float] = []

    async def kill_one_midway() -> None:
        # Checked at each of the bot's posts (every move brings some): no polling clock.
        await fake.recorder.wait_until(
            lambda: sum(p.table.version for p in games) >= KILL_AT * moves,
            RUN_WITHIN,
            f"{KILL_AT:.0%} of the moves",
        )
        killed_at.append(sum(p.table.version for p in games) / moves)
        await fleet.kill_and_restart(1)

    try:
        began = time.monotonic()
        await fleet.start()
        killer = asyncio.create_task(kill_one_midway())
        rngs = [random.Random(i) for i in range(GAMES)]
        outcomes = await asyncio.gather(
            *(
                play_game(p, reader, think=0.4, ramp=6.0, rng=r)
                for p, r in zip(games, rngs, strict=True)
            ),
            return_exceptions=True,
        )
        await asyncio.wait_for(killer, 30)
        elapsed = time.monotonic() - began
        history = {p.table.game_id: await reader.history.actions(p.table.game_id) for p in games}
        records = {p.table.game_id: await reader.play.get_game(p.table.game_id) for p in games}
    finally:
        await fleet.stop()
        await fake.close()
        await reader.close()

    failed = [(p.table.channel.name, o) for p, o in zip(games, outcomes, strict=True) if o]
    assert not failed, (failed[:3], fleet.outputs())
    assert killed_at and killed_at[0] < 0.9, "the kill came too late to matter"
    # The guilds (and so the games) were spread over all three processes.
    shards = Counter(FakeDiscord.shard_of(p.table.channel.guild_id, PROCESSES) for p in games)
    assert set(shards) == {0, 1, 2}

    rules = plugins()["covenant"].rules
    reminders = Counter(
        str(m.payload["nonce"]) for p in games for m in posts_of(fake, p.table.channel.id, "r.")
    )
    for planned in games:
        table, record = planned.table, records[planned.table.game_id]
        log = history[table.game_id]
        # Nothing lost, nothing doubled: the log is the game the players played, and it
        # replays in the engine to the same end.
        assert record.status == "finished" and record.version == len(log) == table.version
        assert [a.action for a in log] == [rules.dump_action(a) for a in planned.actions]
        replay = Game.new(players=PLAYERS, seed=0, deck=list(planned.deck))
        for entry in log:
            replay.apply(rules.parse_action(entry.action), seat=entry.seat)
        assert replay.phase == "over" and replay.scores == table.game.scores
        # The first board once, and every turn told once, with a board.
        assert len(posts_of(fake, table.channel.id, f"{table.game_id}.v0.")) == 1
        told = told_turns(fake.recorder, table.game_id, [table.channel.id])
        assert told == Counter(range(1, len(planned.turns) + 1)), (table.game_id, told)
        assert all(board_of(fake, table, n) for n in told)
        version, ends = 0, [0]
        for turn in planned.turns:
            version += len(turn)
            ends.append(version)
        # A slow player was reminded, once.
        for turn in planned.slow:
            assert reminders[f"r.{table.game_id}.{ends[turn]}"] == 1
    assert all(count == 1 for count in reminders.values()), reminders.most_common(3)
    for proc in fleet.procs:  # the killed one's first run included
        assert unexpected_errors(proc.output(tail=None)) == []
    recovered = sum(p.recoveries > 0 for p in games)
    print(
        f"{GAMES} games ({moves} moves) on {PROCESSES} processes in {elapsed:.0f} s; "
        f"one killed at {killed_at[0]:.0%} of the moves; {recovered} games went on after "
        f"silence; {sum(reminders.values())} reminders, {fake.recorder.nonce_repeats} posts "
        "sent again and answered with the first message"
    )


async def test_two_processes_on_one_shard_land_one_of_two_presses(
    tmp_path: Path, postgres_url: str
) -> None:
    """During a rolling restart two processes serve one shard; the same button pressed
    through each of them lands once (the version check holds across processes)."""
    fake = FakeDiscord()
    await fake.start()
    fleet = Fleet(fake, postgres_url, 2, tmp_path, shards=[0, 0], ARKBOT_POLL_SECONDS="0.5")
    try:
        channel = fake.channel("games")
        seats = [fake.user(name) for name in ("alice", "bob", "carol")]
        game_id = await open_lobby(postgres_url, fake, channel, seats, DECK)
        await fleet.start()
        table = Table.scripted(fake, channel, game_id, seats, DECK)
        await table.start()
        _, panel = await table.open_panel()
        panel = await table.preview(panel, PlaceTile(1, 0, 180))
        first, second = fake.live_connections()
        press = f"tb:{game_id}:{table.version}:pass:1:0:180"  # the tile placed, and a pass
        iids = await asyncio.gather(
            *(fake.click("alice", channel, panel.id, press, to=conn) for conn in (first, second))
        )
        replies = [await fake.recorder.wait_for_reply(iid, timeout=10) for iid in iids]
        texts = sorted(r.content for r in replies)
        assert "Done!" in texts[0] and "already played" in texts[1], texts
        reader = await GameService.open(postgres_url)
        try:
            record = await reader.play.get_game(game_id)
            assert record.version == len(await reader.history.actions(game_id)) == 2
        finally:
            await reader.close()
        await fake.recorder.wait_until(lambda: board_of(fake, table, 1), 10, "the board")
        assert told_turns(fake.recorder, game_id, [channel.id]) == Counter([1])
    finally:
        await fleet.stop()
        await fake.close()
