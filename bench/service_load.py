"""The game service under load: many games on one SQLite file.

Run: ``python bench/service_load.py``. A temporary database holds 1,000 stored games (their
whole logs, as finished games) and 100 games in play; 100 asyncio tasks play those at once,
one task per game, each choosing its moves on its own copy of the engine (outside the timed
call) and timing only ``service.play.act``.

- ``actions_per_s``: actions stored per second, all 100 tasks acting as fast as they can.
- ``action_p50_ms`` / ``action_p99_ms``: latency of one ``act`` while the 100 games are
  played at a steady offered load (each task waits a random pause between its actions,
  about half the measured capacity in all): a burst test would only measure the queue.
- ``load_finished_game_ms``: ``service.play.state`` of a finished 72-tile game with an empty
  cache and no snapshot, i.e. a replay of its whole log (median of several games).
"""

from __future__ import annotations

import asyncio
import json
import random
import statistics
import tempfile
import time
from pathlib import Path

from _common import figure, header, median

from bot.service import FakeClock, GameService
from bot.service.clock import to_ms
from engine.common import Rng
from engine.covenant import Game
from engine.covenant.players import sensible_action

STORED, PLAYING, PLAYERS = 1_000, 100, 3
GUILD = 1


def finished_log(seed: int) -> tuple[list[tuple[int, str]], Game]:
    """A whole game between computer players: (seat, action JSON) per action."""
    game = Game.new(players=PLAYERS, seed=seed)
    rng = Rng(seed)
    log = []
    while game.phase != "over":
        action = sensible_action(game, rng)
        log.append((game.current_player, json.dumps(action.to_dict())))
        game.apply(action)
    return log, game


async def store_finished_games(service: GameService, clock: FakeClock) -> list[int]:
    """1,000 finished games with full logs, written in bulk (10 distinct logs reused)."""
    logs = [(seed, *finished_log(seed)) for seed in range(10)]
    now = to_ms(clock.now())
    ids = []
    db = service.storage.statements  # the file's raw statements, run inside the write below
    async with service.storage.write():
        for n in range(STORED):
            seed, log, game = logs[n % len(logs)]
            result = json.dumps({"scores": list(game.scores), "winners": list(game.winners)})
            game_id = await db.execute(
                "INSERT INTO games (guild_id, channel_id, kind, seed, options, shuffle_seats, "
                "creator_id, status, version, created_at, updated_at, started_at, finished_at, "
                "result) VALUES (?, ?, 'covenant', ?, '{}', 0, 1, 'finished', ?, ?, ?, ?, ?, ?)",
                (GUILD, 10_000 + n, seed, len(log), now, now, now, now, result),
            )
            await db.executemany(
                "INSERT INTO seats (game_id, seat, user_id, name) VALUES (?, ?, ?, ?)",
                [(game_id, s, 100 + s, f"P{s}") for s in range(PLAYERS)],
            )
            await db.executemany(
                "INSERT INTO actions (game_id, seq, seat, user_id, source, action, created_at) "
                "VALUES (?, ?, ?, NULL, 'player', ?, ?)",
                [(game_id, i + 1, seat, text, now) for i, (seat, text) in enumerate(log)],
            )
            ids.append(game_id)
    return ids


async def start_games(service: GameService, first_channel: int, seed0: int) -> list[int]:
    ids = []
    for n in range(PLAYING):
        channel = first_channel + n
        users = [channel * 10 + s for s in range(PLAYERS)]
        await service.lobby.create_game(GUILD, channel, users[0], "A", "covenant", seed=seed0 + n)
        for user in users[1:]:
            await service.lobby.join(channel, user, "B")
        ids.append((await service.lobby.start(channel, users[0])).id)
    return ids


async def play(
    service: GameService, game_id: int, actions: int, pause_ms: float, latencies: list[float]
) -> int:
    record, mirror = await service.play.state(game_id)
    rng = Rng(game_id)
    jitter = random.Random(game_id)
    done = 0
    while done < actions and mirror.phase != "over":
        seat = record.seats[mirror.current_player]
        action = sensible_action(mirror, rng)  # type: ignore[arg-type]
        if pause_ms:
            await asyncio.sleep(jitter.expovariate(1 / pause_ms) / 1000)
        start = time.perf_counter()
        result = await service.play.act(record.id, seat.user_id, action, record.version)  # type: ignore[arg-type]
        latencies.append(time.perf_counter() - start)
        mirror.apply(action)
        record = result.record
        done += 1
    return done


async def run_phase(
    service: GameService, ids: list[int], actions: int, pause_ms: float
) -> tuple[float, list[float]]:
    latencies: list[float] = []
    start = time.perf_counter()
    counts = await asyncio.gather(*(play(service, i, actions, pause_ms, latencies) for i in ids))
    return sum(counts) / (time.perf_counter() - start), latencies


async def main_async() -> None:
    header("service_load")
    with tempfile.TemporaryDirectory() as folder:
        clock = FakeClock()
        service = await GameService.open(Path(folder) / "load.sqlite3", clock=clock)
        finished = await store_finished_games(service, clock)
        # Saturation: every task acts as fast as it can.
        playing = await start_games(service, 1, 500)
        rates, burst = [], []
        for _ in range(3):
            rate, latencies = await run_phase(service, playing, 15, 0)
            rates.append(rate)
            burst.extend(latencies)
        # Steady load at about half of capacity: 100 games, random pauses between actions.
        capacity = median(rates)
        pause_ms = 1000 * PLAYING / (capacity / 2)
        latency_games = await start_games(service, 1_000, 900)
        _, latencies = await run_phase(service, latency_games, 25, pause_ms)
        latencies.sort()
        p50 = statistics.median(latencies) * 1000
        p99 = latencies[int(0.99 * (len(latencies) - 1))] * 1000
        # Loading a finished game from its log alone.
        loads = []
        await service.storage.statements.execute("DELETE FROM snapshots")
        for game_id in finished[:15]:
            service.forget()
            start = time.perf_counter()
            record, game = await service.play.state(game_id)
            loads.append(time.perf_counter() - start)
            assert game.phase == "over" and record.version > 72  # type: ignore[attr-defined]
        stored = await service.storage.statements.scalar("SELECT count(*) FROM games")
        await service.close()
    burst.sort()
    burst_p99 = burst[int(0.99 * (len(burst) - 1))] * 1000
    print(
        f"games in the file: {stored}; {len(latencies)} timed actions, mean pause "
        f"{pause_ms:.0f} ms; at saturation (queueing included) p99 {burst_p99:.1f} ms"
    )
    figure("actions_per_s", capacity, "actions/s")
    figure("action_p50_ms", p50, "ms")
    figure("action_p99_ms", p99, "ms")
    figure("load_finished_game_ms", median(loads) * 1000, "ms")


if __name__ == "__main__":
    asyncio.run(main_async())
