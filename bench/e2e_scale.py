"""Interactions per second and first-response times for 1, 2 and 3 bot processes on
PostgreSQL, and 1 process on SQLite, in one run, against the loopback fake Discord.

Run: ``python bench/e2e_scale.py [--games 60] [--tiles 2] [--think 0.2] [--ramp 2]``
(``--long``: 300 games of 4 tiles). Needs the PostgreSQL server of ``ARKBOT_TEST_POSTGRES``
(default ``postgresql://127.0.0.1:5432/test``; each run uses a fresh schema, dropped after).

Each configuration plays the same games afresh: ``--games`` games in their own channels,
spread over 12 guilds, three players each, on short scripted decks, all at once (started
over ``--ramp`` seconds), each player thinking about ``--think`` seconds before a turn, so
the bot processes are kept busy: interactions per second is what they get through. The
processes are unmodified ``python -m bot``, process ``i`` serving shard ``i``
(``tests/support/fleet.py``); this process runs the fake Discord and the players.

Figures per configuration (``pg1``, ``pg2``, ``pg3``, ``sqlite1``):
``interactions_per_s_<c>``, ``first_response_p50_ms_<c>``, ``first_response_p99_ms_<c>``
(from INTERACTION_CREATE on the gateway to the bot's first answer) and
``unanswered_<c>`` (interactions the bot never acknowledged). A game whose log does not
match its plan fails the run. The machine has 2 cores: beyond two processes, processes
share cores with each other, with their picture workers and with the players.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import math
import random
import shutil
import sys
import tempfile
import time
from contextlib import AsyncExitStack
from pathlib import Path

from _common import figure, header, median

from bot.service import GameService
from tests.support.databases import fresh_schema
from tests.support.fake_discord import FakeDiscord
from tests.support.fleet import PLAYERS, Fleet, Planned, plan_game, play_game
from tests.support.players import Table, open_lobby

GUILDS = 12
CONFIGS = (("pg1", "postgres", 1), ("pg2", "postgres", 2), ("pg3", "postgres", 3))
CONFIGS += (("sqlite1", "sqlite", 1),)


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(q / 100 * len(ordered)) - 1))]


async def run_one(
    args: argparse.Namespace, backend: str, processes: int, workdir: Path
) -> dict[str, float]:
    channels = [f"game-{i}" for i in range(args.games)]
    users = [f"p{i}-{s}" for i in range(args.games) for s in range(PLAYERS)]
    fake = FakeDiscord(users=users, channels=channels, moderators=(), guilds=GUILDS)
    async with AsyncExitStack() as stack:
        await fake.start()
        stack.push_async_callback(fake.close)
        if backend == "postgres":
            target: str | Path = await stack.enter_async_context(fresh_schema("arkbot_bench"))
        else:
            target = workdir / f"scale-{processes}.sqlite3"
        reader = await GameService.open(target)
        stack.push_async_callback(reader.close)
        games = []
        for i in range(args.games):
            deck, turns = plan_game(args.seed + i, args.tiles)
            channel = fake.channel(channels[i])
            seats = [fake.user(f"p{i}-{s}") for s in range(PLAYERS)]
            game_id = await open_lobby(target, fake, channel, seats, deck, service=reader)
            games.append(Planned(Table.scripted(fake, channel, game_id, seats, deck), turns, deck))
        fleet = Fleet(
            fake, target, processes, workdir, ARKBOT_POLL_SECONDS="60", ARKBOT_LOG_LEVEL="WARNING"
        )
        stack.push_async_callback(fleet.stop)
        await fleet.start()
        rec = fake.recorder
        before = set(rec.interactions)
        gc.collect()
        gc.freeze()
        gc.disable()  # this process measures: its pauses are not the bot's
        started = time.monotonic()
        rngs = [random.Random(args.seed * 7919 + i) for i in range(args.games)]
        outcomes = await asyncio.gather(
            *(
                play_game(p, reader, think=args.think, ramp=args.ramp, rng=r)
                for p, r in zip(games, rngs, strict=True)
            ),
            return_exceptions=True,
        )
        elapsed = time.monotonic() - started
        gc.enable()
        await asyncio.sleep(0.5)  # late answers still count as answered
        problems = [
            f"{p.table.channel.name}: {o!r}" for p, o in zip(games, outcomes, strict=True) if o
        ]
        for planned in games:
            logged = await reader.history.actions(planned.table.game_id)
            if len(logged) != len(planned.actions):
                problems.append(f"game {planned.table.game_id}: {len(logged)} actions stored")
        played = [rec.interactions[i] for i in rec.interactions if i not in before]
        first = [ix.first_response_s * 1000 for ix in played if ix.first_response_s is not None]
        for line in problems[:5]:
            print("  problem:", line)
        print(
            f"{backend}, {processes} process(es): {len(played)} interactions in {elapsed:.1f} s"
            f", {sum(p.recoveries > 0 for p in games)} games retried, {len(problems)} problems"
        )
        return {
            "interactions_per_s": len(first) / elapsed,
            "first_response_p50_ms": median(first) if first else float("nan"),
            "first_response_p99_ms": percentile(first, 99),
            "unanswered": float(len(played) - len(first)),
            "problems": float(len(problems)),
        }
    raise AssertionError("unreachable")


async def run(args: argparse.Namespace) -> int:
    header("e2e_scale")
    print(
        f"{args.games} games at once ({PLAYERS} players, {args.tiles}-tile decks) in "
        f"{GUILDS} guilds, think {args.think} s, started over {args.ramp} s"
    )
    sys.stdout.flush()
    workdir = Path(tempfile.mkdtemp(prefix="arkbot-e2e-scale-"))
    results = {}
    try:
        for name, backend, processes in CONFIGS:
            results[name] = await run_one(args, backend, processes, workdir)
            sys.stdout.flush()
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    for name, values in results.items():
        print(f"interactions_per_s_{name}: {values['interactions_per_s']:.1f} interactions/s")
        figure(f"first_response_p50_ms_{name}", values["first_response_p50_ms"], "ms")
        print(f"first_response_p99_ms_{name}: {values['first_response_p99_ms']:.1f} ms")
        print(f"unanswered_{name}: {values['unanswered']:.0f} interactions")
    return 1 if any(v["problems"] for v in results.values()) else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=60, help="games played at once")
    parser.add_argument("--tiles", type=int, default=2, help="tiles in each game's deck")
    parser.add_argument("--think", type=float, default=0.2, help="mean seconds before a turn")
    parser.add_argument("--ramp", type=float, default=2.0, help="seconds over which games start")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--long", action="store_true", help="300 games of 4 tiles")
    args = parser.parse_args()
    if args.long:
        args.games, args.tiles = 300, 4
    return asyncio.run(run(args))


if __name__ == "__main__":
    sys.exit(main())
