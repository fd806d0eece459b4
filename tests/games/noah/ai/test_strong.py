"""The card game's strong level scores positions with its own weights: a card played alone
(a slow animal or a provision) counts for less than with the normal level's, the less the
more rain has fallen."""

from __future__ import annotations

import pytest

from engine import ai
from engine.ai.budget import Budget
from engine.ai.levels import ranked
from engine.ai.search import SearchSettings, search
from engine.common import Rng
from engine.noah import Game, PlayCards, TakeCards
from engine.noah.actions import Placement
from engine.noah.ai.evaluate import STRONG_WEIGHTS, WEIGHTS, Weights, values
from engine.noah.cards import KIND_INDEX, PLAYS_ALONE


def test_a_card_played_alone_counts_for_less_with_the_strong_weights() -> None:
    game = Game.new(players=3, seed=5)
    assert game.hand(0) == (3, 50)  # grain (a provision: played alone), flamingo
    assert PLAYS_ALONE[3] and not PLAYS_ALONE[50]
    assert game.cabin_options(0) == {3: 7, 50: 4}

    # Nobody has a figure yet: one more on a scoring card would be a first place, 10 points.
    def worth(g: Game, card: int, weights: Weights) -> float:
        return values(g, 0, (card,), 0, weights)[0] - values(g, 0, (), 0, weights)[0]

    assert worth(game, 50, WEIGHTS) == worth(game, 50, STRONG_WEIGHTS) == 7.5  # 0.75 of 10
    assert worth(game, 3, WEIGHTS) == 7.5
    assert worth(game, 3, STRONG_WEIGHTS) == pytest.approx(5.25)  # 0.7 of that, no rain yet

    # Later the share follows the rain cards fallen: 0.37 of the normal one after three.
    while game.rain_fallen < 3:
        game.apply(ai.choose(game, "normal", seed=0))
    assert game.phase == "play" and game.current_player == 0
    turtle = 32  # a slow animal: played alone
    assert PLAYS_ALONE[turtle] and game.halves()[KIND_INDEX[turtle]] == [2, 0, 2]
    # One more turtle would break seat 0's tie for first place with seat 2: 10 points
    # instead of 8.
    assert worth(game, turtle, WEIGHTS) == 1.5  # 0.75 of the 2 points: a cabin is open to it
    assert worth(game, turtle, STRONG_WEIGHTS) == pytest.approx(0.37 * 1.5)


def test_strong_plays_a_card_that_plays_alone_where_normal_takes() -> None:
    game = Game.new(players=3, seed=1)
    for _ in range(6):
        game.apply(ai.choose(game, "normal", seed=0))
    assert game.current_player == 0 and game.rain_fallen == 0
    assert game.hand(0) == (0, 36)  # hay and a penguin: each takes a turn of its own
    assert all(PLAYS_ALONE[card] for card in game.hand(0))
    assert ai.choose(game, "normal", seed=0) == TakeCards(50)
    _model, _seat, candidates, _root = ranked(game, 0, "strong")
    # The hay in a new cabin, which takes the face-up card that normal would take: on the
    # port side, which evens the ark (the starboard side is the heavier by 1).
    assert game.tilt == 1
    assert candidates[0].actions == (PlayCards((Placement(0, "port", 6, take=50),)),)


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
