"""Computer players: win rates between levels, move times, and the engines' search speed.

Run: ``python bench/ai.py`` (under a minute: a few games at a small budget, which shows the
figures and their direction), ``python bench/ai.py --long`` (at least 100 games per pairing
at 0.1 s a move, on every core: the win-rate targets hold there), or choose ``--games`` and
``--budget``. Games are seeded; in each pair of games the seats are swapped on the same
deck (covenant), and in the card game strong takes every seat in turn. Win rates count a
shared win as half (covenant) or a share (card game) and are printed with their 95%
interval (normal approximation) and game count.
"""

from __future__ import annotations

import argparse
import math
import time
from concurrent.futures import ProcessPoolExecutor

from _common import figure, header, median
from playout_baseline import HERE, measure

from engine import ai
from engine.common import Rng
from engine.covenant import Game as Covenant
from engine.noah import Game as Noah


def covenant_game(task: tuple[int, str, str, float, int | None]) -> tuple[float, list[float]]:
    """One two-player game, ``first`` in seat ``index % 2``; returns (first's share, move
    times of a strong first in ms)."""
    index, first, second, budget, iterations = task
    seat_of_first = index % 2
    levels = [second, second]
    levels[seat_of_first] = first
    game = Covenant.new(players=2, seed=10_000 + index // 2)
    times: list[float] = []
    moves = 0
    while game.phase != "over":
        seat = game.current_player
        start = time.perf_counter()
        action = ai.choose(game, levels[seat], seed=moves, budget_s=budget, iterations=iterations)
        if seat == seat_of_first and first == "strong":
            times.append(1000 * (time.perf_counter() - start))
        game.apply(action)
        moves += 1
    winners = game.winners
    share = 1.0 / len(winners) if seat_of_first in winners else 0.0
    return share, times


def noah_game(task: tuple[int, str, str, float, int | None]) -> tuple[float, list[float]]:
    """One four-player game: ``first`` in seat ``index % 4`` against three ``second``."""
    index, first, second, budget, iterations = task
    seat_of_first = index % 4
    game = Noah.new(players=4, seed=20_000 + index // 4)
    times: list[float] = []
    moves = 0
    while game.phase != "over":
        seat = game.current_player
        level = first if seat == seat_of_first else second
        start = time.perf_counter()
        action = ai.choose(game, level, seed=moves, budget_s=budget, iterations=iterations)
        if seat == seat_of_first and first == "strong":
            times.append(1000 * (time.perf_counter() - start))
        game.apply(action)
        moves += 1
    winners = game.winners
    return (1.0 / len(winners) if seat_of_first in winners else 0.0), times


def win_rate(results: list[tuple[float, list[float]]]) -> tuple[float, float, int, list[float]]:
    shares = [r[0] for r in results]
    n = len(shares)
    mean = sum(shares) / n
    spread = math.sqrt(max(mean * (1 - mean), 1e-9) / n) * 1.96
    times = [t for r in results for t in r[1]]
    return mean, spread, n, times


def run(pool: ProcessPoolExecutor, fn, games: int, first: str, second: str, budget: float):  # type: ignore[no-untyped-def]
    tasks = [(i, first, second, budget, None) for i in range(games)]
    return win_rate(list(pool.map(fn, tasks)))


def show_rate(name: str, rate: tuple[float, float, int, list[float]]) -> None:
    mean, spread, n, _ = rate
    figure(name, mean, f"win rate (95% +-{spread:.2f}, {n} games)")


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))] if ordered else 0.0


def mid_covenant(seed: int) -> Covenant:
    game = Covenant.new(players=2, seed=seed)
    rng = Rng(seed)
    while game.tiles_left > 35 or game.phase != "place_tile":
        game.apply(game.sample_action(rng))
    return game


def mid_noah(seed: int) -> Noah:
    game = Noah.new(players=4, seed=seed)
    rng = Rng(seed)
    for _ in range(20):
        game.apply(game.sample_action(rng))
    return game


def copy_us(repeats: int = 5, copies: int = 2000) -> tuple[float, float]:
    """Median microseconds of copy() and of the JSON round trip, mid-game, covenant."""
    game = mid_covenant(1)
    fast, slow = [], []
    for _ in range(repeats):
        start = time.perf_counter()
        for _ in range(copies):
            game.copy()
        fast.append((time.perf_counter() - start) / copies * 1e6)
        start = time.perf_counter()
        for _ in range(copies // 20):
            Covenant.from_json(game.to_json())
        slow.append((time.perf_counter() - start) / (copies // 20) * 1e6)
    return median(fast), median(slow)


def move_times(budget: float, moves: int) -> list[float]:
    """Milliseconds per strong move at ``budget`` seconds, over positions of both games."""
    times = []
    for i in range(moves):
        game = mid_covenant(100 + i) if i % 2 == 0 else mid_noah(100 + i)
        start = time.perf_counter()
        ai.choose(game, "strong", seed=i, budget_s=budget)
        times.append(1000 * (time.perf_counter() - start))
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--long", action="store_true", help="100+ games a pairing at 0.1 s")
    parser.add_argument("--games", type=int, help="games per pairing")
    parser.add_argument("--budget", type=float, help="seconds a move in the games")
    parser.add_argument("--jobs", type=int, help="worker processes (default: every core)")
    parser.add_argument("--only", choices=("covenant", "noah", "speed"), help="one part only")
    args = parser.parse_args()
    header("ai")
    games = args.games or (100 if args.long else 4)
    budget = args.budget or (0.1 if args.long else 0.02)
    jobs = args.jobs or (None if args.long or args.games else 2)
    duels = games if args.long or args.games else 2  # two-player covenant games are slow
    print(f"games per pairing: {games} (covenant: {duels}), budget: {budget} s a move")
    rates = {}
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        if args.only in (None, "covenant"):
            rates["covenant_strong_vs_normal_2p"] = run(
                pool, covenant_game, duels, "strong", "normal", budget
            )
            rates["covenant_normal_vs_easy_2p"] = run(
                pool, covenant_game, duels, "normal", "easy", budget
            )
        if args.only in (None, "noah"):
            noah_games = 4 * math.ceil(games / 4)
            rates["noah_strong_vs_normal_4p"] = run(
                pool, noah_game, noah_games, "strong", "normal", budget
            )
    for name, rate in rates.items():
        show_rate(name, rate)
    game_times = [t for rate in rates.values() for t in rate[3]]
    if game_times:
        figure(f"move_ms_p95_at_{budget}s", p95(game_times), "ms")
    if args.only in (None, "speed"):
        times = move_times(1.0, 6 if not args.long else 20)
        figure("move_ms_p95", p95(times), "ms (strong, default 1 s budget)")
        fast, slow = copy_us()
        figure("copy_us", fast, "us (covenant, mid-game)")
        figure("copy_json_us", slow, "us (the JSON round trip copy() used before)")
        # Random playouts to the end from mid-game positions, as the search plays them
        # (sample_action, apply_trusted), and as before (legal_actions, apply); the same
        # measurement as bench/playout_baseline.py, which holds them against the engines
        # before the search work, on the same machine.
        for name in ("covenant", "noah"):
            figure(f"playouts_per_s_{name}", measure(HERE, name, True, 1.0, 3), "playouts/s")
            figure(
                f"playouts_per_s_{name}_listing",
                measure(HERE, name, False, 1.0, 3),
                "playouts/s (legal_actions, as before)",
            )


if __name__ == "__main__":
    main()
