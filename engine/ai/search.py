"""The strong level: information-set Monte Carlo search over the mover's turns.

First the model may look again at its best candidates with a deeper, searched evaluation
(``Model.refine``, e.g. the next player's best reply found move by move, which the normal
evaluation only estimates). Then each sample deals the hidden information anew
(``game.determinise(seat, rng)``: a tile order, other players' hands...), so the search
never reads what the mover cannot see and averages over what it might be. The root's
children are the candidate turns in that order; progressive widening opens them best first
as the samples grow, so that a large branching (every square and rotation of a tile, every
pair of cards) costs only what the good options need.
Below a child the game is played on for a few turns by the model's cheap policy guided by
its evaluation (``Model.playout``) and the position is scored by the evaluation, a sigmoid
of the margin, or by the result if the game ended.

A game's settings may hand the search only the candidates its evaluation cannot tell
apart (``close``): where a search over every candidate lost to the strong evaluation's own
choice (a game's ``ai/NOTES.md`` says where), the search only breaks the
evaluation's ties and a clear best is played at once.

The open children are compared on common random numbers: each round deals one world and
plays every open child in it with the same playout seed, so the luck of the deal cancels
out of their differences. A child is kept while an upper confidence bound (UCB1, tuned
constant) of its mean reaches the best mean; the evaluation is a prior of a few virtual
samples. The best shrunk mean is played; the search stops early once one child is left.
"""

from __future__ import annotations

import math
from typing import Any

from engine.ai.budget import Budget
from engine.ai.model import Candidate, Model
from engine.common import Rng


class SearchSettings:
    """The search's tuned constants (see ``bench/ai.py`` for how they were measured)."""

    __slots__ = (
        "close",
        "exploration",
        "first_width",
        "horizon",
        "max_width",
        "prior_weight",
        "widen",
    )

    def __init__(
        self,
        exploration: float = 0.3,
        first_width: int = 4,
        widen: float = 0.5,
        max_width: int = 12,
        horizon: int = 1,
        prior_weight: float = 3.0,
        close: float | None = None,
    ) -> None:
        self.exploration = exploration  # UCB1 constant, rewards in [0, 1]
        self.first_width = first_width  # children open from the start
        self.widen = widen  # one more child per 1/widen rounds
        self.max_width = max_width
        self.horizon = horizon  # turns played on after the mover's
        self.prior_weight = prior_weight  # virtual samples at the evaluation's value
        # Only the candidates within this much of the best by the evaluation (its units)
        # are searched, and a clear best is played at once; None: no such limit.
        self.close = close


def _sigmoid(x: float) -> float:
    if x < -30:
        return 0.0
    return 1.0 / (1.0 + math.exp(-x))


def reward(model: Model, game: Any, seat: int) -> float:
    """The outcome for ``seat`` in [0, 1]: a share of the win at the end (the margin breaks
    ties between wins), else a sigmoid of the evaluation's margin."""
    margin = _sigmoid(model.margin(game, seat) / model.scale)
    if game.phase == "over":
        winners = game.winners
        won = 1.0 / len(winners) if seat in winners else 0.0
        return 0.7 * won + 0.3 * margin
    return margin


def search(
    game: Any,
    model: Model,
    seat: int,
    candidates: list[Candidate],
    budget: Budget,
    rng: Rng,
    settings: SearchSettings | None = None,
) -> Candidate:
    """The candidate the search prefers."""
    s = settings or SearchSettings()
    if s.close is not None:
        best_value = candidates[0].value
        candidates = [c for c in candidates if c.value >= best_value - s.close]
    count = min(len(candidates), s.max_width)
    if count == 1:
        return candidates[0]
    priors = [_sigmoid(c.value / model.scale) for c in candidates[:count]]
    totals = [0.0] * count
    visits = [0] * count
    width = min(count, s.first_width)
    pruned = [False] * count
    rounds = 0
    while True:
        world_seed = rng.next_u64()
        played = False
        for i in range(width):
            if pruned[i]:
                continue
            if not budget.more():
                break
            played = True
            world = game.determinise(seat, Rng(world_seed))
            for action in candidates[i].actions:
                world.apply(action)
            if world.phase != "over" and s.horizon:
                model.playout(world, seat, Rng(world_seed ^ 0x9E37), s.horizon)
            totals[i] += reward(model, world, seat)
            visits[i] += 1
        else:
            rounds += 1
            width = min(count, s.first_width + int(s.widen * rounds))
            _prune(totals, visits, priors, pruned, width, rounds, s)
            if width == count and pruned.count(False) == 1:
                break  # every child but one is out: more samples cannot change the move
            continue
        break
    if not played and not any(visits):
        return candidates[0]
    best = max(range(count), key=lambda i: _shrunk(i, totals, visits, priors, s))
    return candidates[best]


def _shrunk(
    i: int, totals: list[float], visits: list[int], priors: list[float], s: SearchSettings
) -> float:
    return (totals[i] + s.prior_weight * priors[i]) / (visits[i] + s.prior_weight)


def _prune(
    totals: list[float],
    visits: list[int],
    priors: list[float],
    pruned: list[bool],
    width: int,
    rounds: int,
    s: SearchSettings,
) -> None:
    """Close the children whose upper bound falls below the best shrunk mean."""
    open_ = [i for i in range(width) if not pruned[i] and visits[i]]
    if len(open_) < 2:
        return
    best = max(_shrunk(i, totals, visits, priors, s) for i in open_)
    log_n = math.log(rounds + 1)
    for i in open_:
        bound = _shrunk(i, totals, visits, priors, s) + s.exploration * math.sqrt(log_n / visits[i])
        if bound < best:
            pruned[i] = True


def lookahead_search(
    game: Any,
    model: Any,
    seat: int,
    candidates: list[Candidate],
    budget: Budget,
    rng: Rng,
    width: int,
    prior_weight: float,
    rounds: int | None = None,
) -> Candidate:
    """The best of the first ``width`` candidates by ``model.lookahead``: each round deals
    one world and scores every candidate in it (common random numbers), the candidate's
    value counting as ``prior_weight`` samples; rounds go on within the budget, up to
    ``rounds`` of them (None: as many as it allows). A round the budget cuts short is
    dropped: it would compare some candidates on one more world than others, and a lucky or
    unlucky deal would then decide between them."""
    count = min(len(candidates), width)
    if count == 1:
        return candidates[0]
    totals = [prior_weight * c.value for c in candidates[:count]]
    visits = prior_weight
    done = 0
    while rounds is None or done < rounds:
        done += 1
        world_seed = rng.next_u64()
        scores = []
        for i in range(count):
            if not budget.more():
                break
            world = game.determinise(seat, Rng(world_seed))
            scores.append(model.lookahead(world, seat, candidates[i], Rng(world_seed ^ 0x9E37)))
        if len(scores) < count:
            break
        for i, score in enumerate(scores):
            totals[i] += score
        visits += 1
    if not visits:
        return candidates[0]
    best = max(range(count), key=lambda i: totals[i])  # every candidate has as many samples
    return candidates[best]
