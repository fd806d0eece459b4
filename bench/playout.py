"""Random games of every registered game: how fast each engine lists and applies actions.

Each game is played to its end by players who pick uniformly among ``legal_actions()`` (a
generator seeded per game), so the figures cover setting up, listing every legal action
(an engine's heaviest work) and applying one. No game is named here: the games come from
the registry, and the numbers of players from what each engine accepts.

Run: ``python bench/playout.py [GAME ...]`` (every game by default). Single-threaded. For
each game a header line ``<game>_playout on N cores, Python X``, then ``name: value unit``
lines:

- ``games_per_s_<n>p`` for every number of players the engine accepts (median of runs);
- at the reference table (4 players, or the nearest number the game allows):
  ``actions_per_game_<n>p``, ``legal_actions_listed_<n>p`` (actions in one listing),
  ``legal_actions_median_ms``, ``apply_median_ms``, ``final_json_kb`` (the saved game),
  ``ms_per_game_<n>p``, and ``games_per_s_<n>p`` last.
"""

from __future__ import annotations

import argparse
import statistics
import time
from typing import Any

from _common import figure, header, median

from engine import registry
from engine.common import Rng

#: Seconds of one run of games; a rate is the median of RUNS runs.
RUN_SECONDS = 1.0
RUNS = 5
#: Games at the reference table whose every call is timed.
TIMED_GAMES = 30
#: The table the per-call figures are taken at, or the nearest one the game allows.
REFERENCE_PLAYERS = 4
#: Numbers of players tried when asking an engine which it accepts.
MOST_PLAYERS = 8


def engines() -> dict[str, type[Any]]:
    """Every registered game's ``Game`` class, by name: the one place this bench asks the
    registry."""
    return {name: descriptor.game_class() for name, descriptor in registry.games().items()}


def seat_counts(game_class: type[Any]) -> list[int]:
    """The numbers of players the engine accepts (``new`` refuses the others with a
    ``ValueError``)."""
    counts = []
    for players in range(1, MOST_PLAYERS + 1):
        try:
            game_class.new(players=players, seed=0)
        except ValueError:
            continue
        counts.append(players)
    return counts


def play(game_class: type[Any], players: int, seed: int) -> Any:
    """One random game to its end."""
    game = game_class.new(players=players, seed=seed)
    rng = Rng(seed)
    while game.phase != "over":
        game.apply(rng.choice(game.legal_actions()))
    return game


def games_per_second(game_class: type[Any], players: int) -> float:
    """Median over RUNS runs of games played for RUN_SECONDS each."""
    rates = []
    for run in range(RUNS):
        games = 0
        start = time.perf_counter()
        while (elapsed := time.perf_counter() - start) < RUN_SECONDS:
            play(game_class, players, 1000 * run + games)
            games += 1
        rates.append(games / elapsed)
    return median(rates)


def timed_games(game_class: type[Any], players: int) -> dict[str, float]:
    """Every call of TIMED_GAMES games timed: medians of the calls, means of the games."""
    legal, applied, sizes = [], [], []
    actions = listed = 0
    clock = time.perf_counter
    for seed in range(TIMED_GAMES):
        game = game_class.new(players=players, seed=seed)
        rng = Rng(seed)
        while game.phase != "over":
            t0 = clock()
            choices = game.legal_actions()
            t1 = clock()
            game.apply(rng.choice(choices))
            t2 = clock()
            legal.append(t1 - t0)
            applied.append(t2 - t1)
            actions += 1
            listed += len(choices)
        sizes.append(len(game.to_json().encode()))
    return {
        "actions_per_game": actions / TIMED_GAMES,
        "listed": listed / actions,
        "legal_ms": median(legal) * 1000,
        "apply_ms": median(applied) * 1000,
        "json_kb": statistics.median(sizes) / 1024,
    }


def measure(name: str, game_class: type[Any]) -> None:
    """Print one game's figures under its own header."""
    header(f"{name}_playout")
    counts = seat_counts(game_class)
    reference = min(counts, key=lambda n: (abs(n - REFERENCE_PLAYERS), n))
    play(game_class, reference, 0)  # warm up imports and caches
    rates = {players: games_per_second(game_class, players) for players in counts}
    timed = timed_games(game_class, reference)
    for players in counts:
        if players != reference:
            figure(f"games_per_s_{players}p", rates[players], "games/s")
    figure(f"actions_per_game_{reference}p", timed["actions_per_game"], "actions")
    figure(f"legal_actions_listed_{reference}p", timed["listed"], "actions")
    figure("legal_actions_median_ms", timed["legal_ms"], "ms")
    figure("apply_median_ms", timed["apply_ms"], "ms")
    figure("final_json_kb", timed["json_kb"], "KB")
    figure(f"ms_per_game_{reference}p", 1000 / rates[reference], "ms")
    figure(f"games_per_s_{reference}p", rates[reference], "games/s")


def main() -> None:
    found = engines()
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("games", nargs="*", help=f"of {', '.join(found)} (default: all)")
    names = parser.parse_args().games or list(found)
    unknown = [name for name in names if name not in found]
    if unknown:
        parser.error(f"no such game: {', '.join(unknown)}")
    for name in names:
        measure(name, found[name])


if __name__ == "__main__":
    main()
