"""Dealing a season's round for 100 members: time per round, rounds 1 to 3 of one season
(each round knowing the tables before it; a later round has more pairs not to repeat).

Run: ``python bench/season.py``. ``season_round_deal_ms`` is the median time on the clock
of a round's deal, ``season_round_deal_cpu_ms`` the process's CPU time (which a busy machine
disturbs less); both over the three rounds of three seasons.
"""

from __future__ import annotations

import time

from _common import figure, header, median

from bot.service.season.dealing import SeatRange, deal
from bot.service.season.members import Member

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


if __name__ == "__main__":
    main()
