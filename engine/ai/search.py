"""The strong level: information-set Monte Carlo tree search over the mover's turns.

Each iteration deals the hidden information anew (``game.determinise(seat, rng)``: the tile
order, or the other hands, pets and the supply), so the search never reads what the mover
cannot see, and averages over what it might be. The tree's root holds the mover's candidate
turns, ranked by the normal evaluation; progressive widening opens them best first, as the
visits grow, so that a large branching (every square and rotation of a tile, every pair of
cards) costs only what the good options need. A child is chosen by UCB1 with the evaluation
as a prior; below it the turn is played out by a cheap policy guided by the evaluation for a
few turns, and the position is scored by the evaluation (a sigmoid of the margin), or by
the result when the game ends first.
"""

from __future__ import annotations

import math
from typing import Any

from engine.ai.budget import Budget
from engine.ai.model import Candidate, Model
from engine.common import Rng


class SearchSettings:
    """The search's tuned constants (see ``bench/ai.py`` for how they were measured)."""

    __slots__ = ("exploration", "first_width", "horizon", "prior_weight", "widen")

    def __init__(
        self,
        exploration: float = 0.35,
        first_width: int = 3,
        widen: float = 1.5,
        horizon: int = 2,
        prior_weight: float = 2.0,
    ) -> None:
        self.exploration = exploration
        self.first_width = first_width
        self.widen = widen
        self.horizon = horizon
        self.prior_weight = prior_weight


def reward(model: Model, game: Any, seat: int) -> float:
    """The outcome for ``seat`` in [0, 1]: a share of the win at the end, else a sigmoid of
    the evaluation's margin."""
    if game.phase == "over":
        winners = game.winners
        won = 1.0 / len(winners) if seat in winners else 0.0
        # The margin breaks ties between wins (a bigger lead is safer in other samples).
        return 0.8 * won + 0.2 * _sigmoid(model.margin(game, seat) / model.scale)
    return _sigmoid(model.margin(game, seat) / model.scale)


def _sigmoid(x: float) -> float:
    if x < -30:
        return 0.0
    return 1.0 / (1.0 + math.exp(-x))


def search(
    game: Any,
    model: Model,
    seat: int,
    candidates: list[Candidate],
    budget: Budget,
    rng: Rng,
    settings: SearchSettings | None = None,
) -> Candidate:
    """The candidate the search prefers (the most visited one)."""
    settings = settings or SearchSettings()
    if len(candidates) == 1:
        return candidates[0]
    count = len(candidates)
    visits = [0] * count
    totals = [0.0] * count
    # The normal evaluation as a prior: a few virtual visits at the reward it predicts.
    priors = [_sigmoid(c.value / model.scale) for c in candidates]
    width = min(count, settings.first_width)
    done = 0
    while budget.more():
        done += 1
        width = min(count, max(width, settings.first_width + int(settings.widen * math.sqrt(done))))
        index = _select(visits, totals, priors, width, done, settings)
        world = game.determinise(seat, rng)
        for action in candidates[index].actions:
            world.apply(action)
        if world.phase != "over":
            model.playout(world, seat, rng, settings.horizon)
        visits[index] += 1
        totals[index] += reward(model, world, seat)
    if done == 0:
        return candidates[0]
    best = max(range(count), key=lambda i: (visits[i], _mean(i, visits, totals, priors, settings)))
    return candidates[best]


def _mean(
    i: int, visits: list[int], totals: list[float], priors: list[float], s: SearchSettings
) -> float:
    return (totals[i] + s.prior_weight * priors[i]) / (visits[i] + s.prior_weight)


def _select(
    visits: list[int],
    totals: list[float],
    priors: list[float],
    width: int,
    done: int,
    settings: SearchSettings,
) -> int:
    log_n = math.log(done + 1)
    best, best_score = 0, -1.0
    for i in range(width):
        if visits[i] == 0:
            return i  # every opened child is tried once, best prior first
        score = _mean(i, visits, totals, priors, settings) + settings.exploration * math.sqrt(
            log_n / visits[i]
        )
        if score > best_score:
            best, best_score = i, score
    return best
