"""The card game's strong level scores positions with its own weights: a card in hand counts
for less than with the normal level's, so strong plays cards where normal would take more."""

from __future__ import annotations

from engine import ai
from engine.ai.budget import Budget
from engine.ai.levels import ranked
from engine.ai.noah.evaluate import STRONG_WEIGHTS, WEIGHTS, Weights, values
from engine.ai.search import SearchSettings, search
from engine.common import Rng
from engine.noah import Game, PlayCards, TakeCards
from engine.noah.actions import Placement


def test_a_card_with_a_cabin_open_counts_for_less_with_the_strong_weights() -> None:
    game = Game.new(players=3, seed=0)
    assert game.hand(0) == (10, 44)
    assert game.cabin_options(0) == {10: 0, 44: 4}

    # Nobody has a figure yet: one more on a scoring card would be a first place, 10 points.
    def worth(card: int, weights: Weights) -> float:
        return values(game, 0, (card,), 0, weights)[0] - values(game, 0, (), 0, weights)[0]

    assert worth(44, WEIGHTS) == 7.5  # 0.75 of the 10 points: a cabin is open to it
    assert worth(44, STRONG_WEIGHTS) == 6.0  # 0.6 of them
    assert worth(10, WEIGHTS) == worth(10, STRONG_WEIGHTS) == 3.0  # no cabin: 0.3 for both


def test_strong_plays_two_cards_where_normal_takes() -> None:
    game = Game.new(players=3, seed=0)
    for _ in range(3):
        game.apply(ai.choose(game, "normal", seed=0))
    assert game.current_player == 0 and game.hand(0) == (10, 12)
    assert ai.choose(game, "normal", seed=0) == TakeCards(50)
    _model, _seat, candidates, _root = ranked(game, 0, "strong")
    # Two new cabins, each taking a face-up card: two figures, and the hand stays at two.
    assert candidates[0].actions == (
        PlayCards(
            (
                Placement(12, "starboard", 5, take=50),
                Placement(50, "port", 5, take=28),
            )
        ),
    )


def test_the_search_only_weighs_candidates_the_evaluation_cannot_tell_apart() -> None:
    game = Game.new(players=4, seed=3)
    model, seat, candidates, _root = ranked(game, 0, "strong")
    settings = SearchSettings(first_width=5, widen=0.5, horizon=2, close=1.0)
    # A best candidate two points ahead of the rest is played without a single playout.
    ahead = [candidates[0]._replace(value=candidates[1].value + 2.0), *candidates[1:]]
    budget = Budget(iterations=50)
    assert search(game, model, seat, ahead, budget, Rng(1), settings) == ahead[0]
    assert budget.done == 0
    # Within a point of each other, the first three are searched as if there were no others.
    near = [c._replace(value=1.0 - 0.25 * i) for i, c in enumerate(candidates[:3])]
    far = [c._replace(value=-5.0) for c in candidates[3:]]
    assert len(far) >= 3
    found = search(game, model, seat, near + far, Budget(iterations=50), Rng(1), settings)
    alone = search(game, model, seat, near, Budget(iterations=50), Rng(1), settings)
    assert found == alone and found in near
