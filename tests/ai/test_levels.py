"""Every level plays a legal move, never changes the game, and repeats with iterations."""

from __future__ import annotations

import pytest

from engine import ai
from engine.common import Rng
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


@pytest.mark.parametrize("index", [1, 3, 6, 8, 12])
def test_no_level_reads_what_the_mover_cannot_see(index: int) -> None:
    # Two games the mover sees alike (the hidden tiles or cards dealt otherwise) get the
    # same move from every level, strong included: it deals from what the mover knows.
    game = POSITIONS[index]
    seat = game.current_player
    other = game.determinise(seat, Rng(99))
    assert _seen(other, seat) == _seen(game, seat)
    assert other.to_json() != game.to_json()
    for level in ai.LEVELS:
        assert ai.choose(game, level, seed=2, iterations=8) == ai.choose(
            other, level, seed=2, iterations=8
        )


def _seen(game: object, seat: int) -> object:
    view = game.view(seat)  # type: ignore[attr-defined]
    return view if isinstance(view, dict) else view.to_json()
