"""Square names (C4) and the seeded RNG, checked over many generated values."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.common import Rng
from engine.covenant.notation import Grid, column_index, column_name

squares = st.tuples(st.integers(-40, 40), st.integers(-40, 40))


@given(st.integers(0, 700))
def test_column_names_and_indices_are_inverse(index: int) -> None:
    name = column_name(index)
    assert name.isalpha() and name.isupper()
    assert column_index(name) == index


@given(st.lists(squares, min_size=1, max_size=30), squares)
def test_every_square_of_the_grid_round_trips(board: list, probe: tuple[int, int]) -> None:
    grid = Grid.around(board)
    for pos in board:
        assert grid.parse(grid.name(pos)) == pos
        assert grid.parse(grid.name(pos).lower()) == pos
    x, y = probe
    inside = grid.left <= x < grid.left + grid.columns and grid.top <= y < grid.top + grid.rows
    if inside:
        assert grid.parse(grid.name(probe)) == probe
    # The free ring around the tiles is named too: spots for the next tile have names.
    xs = [p[0] for p in board]
    assert grid.name((min(xs) - 1, board[0][1])).startswith("A")


def test_names_off_the_grid_are_refused() -> None:
    grid = Grid.around([(0, 0)])
    assert grid.name((0, 0)) == "B2"
    for text in ("D1", "A4", "A0", "4", "", "C3x"):
        with pytest.raises(ValueError):
            grid.parse(text)


@given(st.integers(0, 2**64 - 1), st.integers(1, 10_000))
def test_rng_below_stays_in_range_and_replays(seed: int, n: int) -> None:
    first, second = Rng(seed), Rng(seed)
    values = [first.below(n) for _ in range(20)]
    assert all(0 <= v < n for v in values)
    assert values == [second.below(n) for _ in range(20)]
    assert Rng.from_state(first.state).below(n) == first.below(n)


@given(st.integers(0, 2**32), st.lists(st.integers(), max_size=50))
def test_shuffle_is_a_permutation(seed: int, items: list[int]) -> None:
    shuffled = list(items)
    Rng(seed).shuffle(shuffled)
    assert sorted(shuffled) == sorted(items)
