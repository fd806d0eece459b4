"""Dealing a season's round for 100 members: time per round, rounds 1 to 3 of one season
(each round knowing the tables before it; a later round has more pairs not to repeat).

Run: ``python bench/season.py``. ``season_round_deal_ms`` is the median time on the clock
of a round's deal, ``season_round_deal_cpu_ms`` the process's CPU time (which a busy machine
disturbs less); both over the three rounds of three seasons. ``season_round_open_ms`` (and
its CPU time) is a whole round 1 through the game service on a SQLite file: the deal worked
out and stored, and each of its 25 tables' games opened, started and recorded (threads made
by a stand-in that only numbers them); the median of three seasons.
"""

from __future__ import annotations

import asyncio
import tempfile
import time
from collections.abc import Sequence
from datetime import timedelta
from pathlib import Path

from _common import figure, header, median

from bot.service import FakeClock, GameService
from bot.service.models import Seat
from bot.service.season.dealing import SeatRange, deal
from bot.service.season.members import Member
from bot.service.season.records import SeasonRecord
from bot.settings import Settings

MEMBERS = 100
ROUNDS = 3
SEASONS = 3


def main() -> None:
    header("season")
    members = [Member(i, f"m{i}", 700 + (i * 37) % 600) for i in range(1, MEMBERS + 1)]
    wall: list[float] = []
    cpu: list[float] = []
    repeats = 0
    for season in range(SEASONS):
        history: list[tuple[int, ...]] = []
        for number in range(1, ROUNDS + 1):
            started, started_cpu = time.perf_counter(), time.process_time()
            dealt = deal(
                members,
                SeatRange(2, 5),
                round_number=number,
                seed=season * 100 + number,
                history=history,
            )
            wall.append((time.perf_counter() - started) * 1000)
            cpu.append((time.process_time() - started_cpu) * 1000)
            history += [table.members for table in dealt.tables]
            repeats += dealt.repeats
    figure("season_round_deal_ms", median(wall), "ms")
    figure("season_round_deal_cpu_ms", median(cpu), "ms")
    figure("season_round_repeats", repeats, "pairs")
    wall, cpu = asyncio.run(_open_rounds())
    figure("season_round_open_ms", median(wall), "ms")
    figure("season_round_open_cpu_ms", median(cpu), "ms")


async def _open_rounds() -> tuple[list[float], list[float]]:
    """Round 1 of three seasons of 100 members through the service (see the module)."""
    wall: list[float] = []
    cpu: list[float] = []
    homes = iter(range(10**6, 2 * 10**6))

    async def make_home(
        season: SeasonRecord, round_number: int, table: int, seats: Sequence[Seat]
    ) -> int:
        return next(homes)

    clock = FakeClock()
    settings = Settings(think_workers=0)
    with tempfile.TemporaryDirectory() as folder:
        async with await GameService.open(
            Path(folder) / "bench.sqlite3", settings=settings, clock=clock
        ) as service:
            for channel in range(SEASONS):
                first = clock.now() + timedelta(hours=1)
                season = await service.seasons.create(
                    1, 100 + channel, 1, moderator=True, first_ms=int(first.timestamp() * 1000)
                )
                for member in range(1, MEMBERS + 1):
                    await service.seasons.join(season.id, channel * 1000 + member, f"m{member}")
                clock.advance(hours=1)
                started, started_cpu = time.perf_counter(), time.process_time()
                [news] = await service.seasons.step(season.id, make_home)
                wall.append((time.perf_counter() - started) * 1000)
                cpu.append((time.process_time() - started_cpu) * 1000)
                assert len(news.games) == MEMBERS // 4
    return wall, cpu


if __name__ == "__main__":
    main()
