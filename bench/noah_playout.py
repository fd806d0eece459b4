"""Random playouts of Ark, the card game: how fast the engine lists and applies actions.

Each game is played to its end by players who pick uniformly among ``legal_actions()``
(with their own seeded generator), so the figure covers set-up, listing every legal action
(the engine's heaviest work) and applying one. Figures are medians over repeated runs.

Run: ``python bench/noah_playout.py``. Prints the core count first, then ``name: value unit``
lines, ending with ``games_per_s_4p``.
"""

from __future__ import annotations

import statistics
import time

from _common import figure, header

from engine.common import Rng
from engine.noah import Game

GAMES_PER_RUN = 100
RUNS = 5


def play(players: int, seed: int) -> tuple[int, int]:
    """Play one random game; return (actions applied, legal actions listed)."""
    game = Game.new(players=players, seed=seed)
    chooser = Rng(seed * 7919 + 1)
    moves = listed = 0
    while game.phase != "over":
        actions = game.legal_actions()
        listed += len(actions)
        game.apply(actions[chooser.below(len(actions))])
        moves += 1
    return moves, listed


def run(players: int, first_seed: int) -> tuple[float, float, float]:
    """One run of GAMES_PER_RUN games: (games/s, actions/game, legal actions/listing)."""
    moves = listed = 0
    start = time.perf_counter()
    for seed in range(first_seed, first_seed + GAMES_PER_RUN):
        m, n = play(players, seed)
        moves += m
        listed += n
    elapsed = time.perf_counter() - start
    return GAMES_PER_RUN / elapsed, moves / GAMES_PER_RUN, listed / moves


def main() -> None:
    header("noah_playout")
    play(4, 0)  # warm up imports and memo
    figures: dict[int, list[tuple[float, float, float]]] = {}
    for players in (3, 5, 4):
        figures[players] = [run(players, 1000 * r) for r in range(RUNS if players == 4 else 2)]
    for players in (3, 5):
        rate = statistics.median(f[0] for f in figures[players])
        figure(f"games_per_s_{players}p", rate, "games/s")
    four = figures[4]
    figure("actions_per_game_4p", statistics.median(f[1] for f in four), "actions")
    figure("legal_actions_listed_4p", statistics.median(f[2] for f in four), "actions")
    rate = statistics.median(f[0] for f in four)
    figure("ms_per_game_4p", 1000 / rate, "ms")
    figure("games_per_s_4p", rate, "games/s")


if __name__ == "__main__":
    main()
