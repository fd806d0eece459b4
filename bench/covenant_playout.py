"""Seeded random games of The Ark of the Covenant: games per second and per-call times.

Run: ``python bench/covenant_playout.py``. Single-threaded; medians of repeated runs.
"""

from __future__ import annotations

import time

from _common import figure, header, median

from engine.common import Rng
from engine.covenant import Game


def play(players: int, seed: int) -> Game:
    game = Game.new(players=players, seed=seed)
    rng = Rng(seed)
    while game.phase != "over":
        game.apply(rng.choice(game.legal_actions()))
    return game


def games_per_second(players: int, games: int = 40, repeats: int = 5) -> float:
    rates = []
    for repeat in range(repeats):
        start = time.perf_counter()
        for seed in range(games):
            play(players, 1000 * repeat + seed)
        rates.append(games / (time.perf_counter() - start))
    return median(rates)


def call_times(games: int = 30) -> tuple[float, float, float]:
    """Median ms of legal_actions() and apply(), and the median final JSON size in KB."""
    legal, applied, sizes = [], [], []
    clock = time.perf_counter
    for seed in range(games):
        game = Game.new(players=4, seed=seed)
        rng = Rng(seed)
        while game.phase != "over":
            t0 = clock()
            actions = game.legal_actions()
            t1 = clock()
            game.apply(rng.choice(actions))
            t2 = clock()
            legal.append(t1 - t0)
            applied.append(t2 - t1)
        sizes.append(len(game.to_json().encode()))
    return median(legal) * 1000, median(applied) * 1000, median(sizes) / 1024


def main() -> None:
    header("covenant_playout")
    rates = {players: games_per_second(players) for players in (2, 4, 5)}
    legal_ms, apply_ms, json_kb = call_times()
    for players, rate in rates.items():
        figure(f"games_per_s_{players}p", rate, "games/s")
    figure("legal_actions_median_ms", legal_ms, "ms")
    figure("apply_median_ms", apply_ms, "ms")
    figure("final_json_kb", json_kb, "KB")


if __name__ == "__main__":
    main()
