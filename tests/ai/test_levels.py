"""Every level plays a legal move, never changes the game, and repeats with iterations."""

from __future__ import annotations

import pytest

from engine import ai
from tests.ai.positions import covenant_positions, noah_in_phase, noah_positions

POSITIONS = [
    *covenant_positions(),
    *noah_positions(),
    noah_in_phase("pet", 1),
    noah_in_phase("endgame", 2),
]


@pytest.mark.parametrize("level", ai.LEVELS)
@pytest.mark.parametrize("index", range(len(POSITIONS)))
def test_each_level_returns_a_legal_action_and_leaves_the_game_alone(
    level: str, index: int
) -> None:
    game = POSITIONS[index]
    before = game.to_json()
    action = ai.choose(game, level, seed=index, iterations=6)
    assert game.to_json() == before
    assert action in game.legal_actions()


@pytest.mark.parametrize("index", [1, 3, 7, 9])
def test_iterations_make_the_strong_move_repeatable(index: int) -> None:
    game = POSITIONS[index]
    first = ai.choose(game, "strong", seed=3, iterations=12)
    assert ai.choose(game, "strong", seed=3, iterations=12) == first


def test_a_time_budget_also_gives_a_legal_move() -> None:
    game = POSITIONS[2]
    assert ai.choose(game, "strong", budget_s=0.05) in game.legal_actions()


def test_bad_levels_and_finished_games_are_refused() -> None:
    game = POSITIONS[0]
    with pytest.raises(ValueError):
        ai.choose(game, "expert")
    finished = noah_in_phase("over", 4)
    for level in ai.LEVELS:
        with pytest.raises(ValueError):
            ai.choose(finished, level, iterations=2)
