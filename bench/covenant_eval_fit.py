"""What the pieces at hand and the Ark's reach are worth in The Ark of the Covenant, fitted.

Run: ``python bench/covenant_eval_fit.py [--games N]`` (300 games: a few minutes a core).
It plays two-player games of the normal level against itself (seeded) and, at the start
of every turn, splits the normal evaluation of each seat into its terms; then it fits by
least squares how much of the final margin between the seats each term foretells, with
the rest of the evaluation (score, unfinished features, fields, temples) counted once as it
is. A term the evaluation weighs right gets a fitted weight near its own. The terms:

- ``follower``: the followers at hand (the weight per first follower, early in the game);
- ``prophet``: the Prophet at hand;
- ``returned``: a follower on a feature that should be completed, which comes back (as a
  share of ``follower``);
- ``ark_reach``: per point the Ark could bring a seat in one move;
- ``ark_exact``: the next seat's best Ark move, path by path (the strong level's term).

The strong level's weights came from this (``engine/covenant/ai/evaluate.py``): a fit says
what foretells the margin in such games, not what a choice causes, so the weights were
then played, and kept where they won.
"""

from __future__ import annotations

import argparse
import dataclasses
from concurrent.futures import ProcessPoolExecutor

from _common import figure, header

from engine import ai
from engine.covenant import Game
from engine.covenant.ai.evaluate import WEIGHTS, Evaluator, Weights

#: The terms fitted: each as (weights that keep it, weights that drop it); the term is the
#: difference of the two values, since the evaluation is linear in these weights.
_NONE = dataclasses.replace(
    WEIGHTS, follower=0.0, prophet=0.0, returned=0.0, ark_reach=0.0, ark_next=0.0, ark_exact=0.0
)
TERMS: dict[str, tuple[Weights, Weights]] = {
    "follower": (dataclasses.replace(_NONE, follower=1.0), _NONE),
    "prophet": (dataclasses.replace(_NONE, prophet=1.0), _NONE),
    # A follower that comes back is worth ``returned * follower``: fitted as one product.
    "back": (
        dataclasses.replace(_NONE, follower=1.0, returned=1.0),
        dataclasses.replace(_NONE, follower=1.0),
    ),
    "ark_reach": (dataclasses.replace(_NONE, ark_reach=1.0), _NONE),
    "ark_exact": (dataclasses.replace(_NONE, ark_exact=1.0), _NONE),
}


def terms(game: Game) -> tuple[list[float], list[float]]:
    """Per seat: the evaluation without the fitted terms, and each fitted term."""

    def values(weights: Weights) -> list[float]:
        return Evaluator(game, weights, exact_ark=True).values(game)

    rest = values(_NONE)
    per_term = []
    for keep, drop in TERMS.values():
        kept = values(keep)
        dropped = rest if drop is _NONE else values(drop)  # the rest, valued once
        per_term.append([k - d for k, d in zip(kept, dropped, strict=True)])
    return rest, [list(seat) for seat in zip(*per_term, strict=True)]


def one_game(index: int) -> list[tuple[float, list[float]]]:
    """Rows of one game: (final margin of seat 0 less the rest's difference, the terms'
    differences), one per turn started."""
    game = Game.new(players=2, seed=50_000 + index)
    positions = []
    moves = 0
    while game.phase != "over":
        if game.phase == "place_tile":
            positions.append(terms(game))
        game.apply(ai.choose(game, "normal", seed=moves))
        moves += 1
    final = game.scores[0] - game.scores[1]
    rows = []
    for rest, fitted in positions:
        diff = [a - b for a, b in zip(fitted[0], fitted[1], strict=True)]
        rows.append((final - (rest[0] - rest[1]), diff))
    return rows


def least_squares(rows: list[tuple[float, list[float]]]) -> list[float]:
    """Weights minimising the squared error of ``target ~ sum(w * x)`` (normal equations,
    solved by Gaussian elimination with partial pivoting)."""
    n = len(rows[0][1])
    a = [[0.0] * (n + 1) for _ in range(n)]
    for target, x in rows:
        for i in range(n):
            for j in range(n):
                a[i][j] += x[i] * x[j]
            a[i][n] += x[i] * target
    for i in range(n):
        a[i][i] += 1e-9  # a term that never varies gets weight 0 instead of no answer
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(a[r][col]))
        a[col], a[pivot] = a[pivot], a[col]
        for r in range(n):
            if r != col:
                factor = a[r][col] / a[col][col]
                a[r] = [v - factor * p for v, p in zip(a[r], a[col], strict=True)]
    return [a[i][n] / a[i][i] for i in range(n)]


def mean_square(rows: list[tuple[float, list[float]]], weights: list[float]) -> float:
    errors = [(t - sum(w * v for w, v in zip(weights, x, strict=True))) ** 2 for t, x in rows]
    return sum(errors) / len(errors)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--jobs", type=int, help="worker processes (default: every core)")
    args = parser.parse_args()
    header("covenant_eval_fit")
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        rows = [row for game in pool.map(one_game, range(args.games)) for row in game]
    fitted = least_squares(rows)
    by_name = dict(zip(TERMS, fitted, strict=True))
    now = [
        WEIGHTS.follower,
        WEIGHTS.prophet,
        WEIGHTS.returned * WEIGHTS.follower,
        WEIGHTS.ark_reach,
        WEIGHTS.ark_exact,
    ]
    print(f"{args.games} games, {len(rows)} positions (normal against normal)")
    for name, value in by_name.items():
        if name == "back":
            continue
        figure(f"fit_{name}", value, f"points (now: {getattr(WEIGHTS, name)})")
    figure(
        "fit_returned",
        by_name["back"] / by_name["follower"],
        f"of a follower (now: {WEIGHTS.returned})",
    )
    figure("mean_square_error_now", mean_square(rows, now), "points^2")
    figure("mean_square_error_fit", mean_square(rows, fitted), "points^2")


if __name__ == "__main__":
    main()
