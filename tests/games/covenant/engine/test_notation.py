"""Square names (M13) and the seeded RNG, checked over many generated values."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.common import Rng
from engine.covenant.notation import (
    Grid,
    column_name,
    column_x,
    parse_square,
    row_name,
    square_name,
)

squares = st.tuples(st.integers(-40, 40), st.integers(-40, 40))


@given(st.integers(-80, 80))
def test_column_names_and_positions_are_inverse(x: int) -> None:
    name = column_name(x)
    assert name.isalpha() and name.isupper()
    assert column_x(name) == x
    assert column_x(name.lower()) == x


@given(squares)
def test_every_square_name_round_trips(pos: tuple[int, int]) -> None:
    assert parse_square(square_name(pos)) == pos
    assert parse_square(f"  {square_name(pos).lower()} ") == pos


def test_names_are_anchored_to_the_start_tile_and_never_change() -> None:
    assert square_name((0, 0)) == "M13"
    assert [column_name(x) for x in (-14, -13, -12, -1, 0, 1, 13, 14, 15)] == [
        "AY", "AZ", "A", "L", "M", "N", "Z", "ZA", "ZB",
    ]  # fmt: skip
    assert [row_name(y) for y in (-14, -13, -12, 0, 1, 40)] == ["-1", "0", "1", "13", "14", "53"]
    # The window a picture shows moves as the board grows; the names do not.
    small, grown = Grid.around([(0, 0)]), Grid.around([(0, 0), (-5, -3), (2, 4)])
    assert small.name((1, 1)) == grown.name((1, 1)) == "N14"
    assert (small.left, small.top, small.columns, small.rows) == (-1, -1, 3, 3)
    assert grown.contains((-6, -4)) and not small.contains((-6, -4))


def test_names_of_no_square_are_refused() -> None:
    for text in ("", "4", "M", "13M", "BA3", "ZAZ?1", "M1.5", "M" + "9" * 5):
        with pytest.raises(ValueError):
            parse_square(text)


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
