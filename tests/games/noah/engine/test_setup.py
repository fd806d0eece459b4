"""Set-up: opening cards, tilt, discs, hands, face-up cards, where the rain cards lie."""

from __future__ import annotations

from collections import Counter

import pytest

from engine.noah import CARDS, Game, starting_discs
from engine.noah.ship import side_weights


@pytest.mark.parametrize("players", [3, 4, 5])
@pytest.mark.parametrize("seed", range(40))
def test_opening_layout(players: int, seed: int) -> None:
    game = Game.new(players=players, seed=seed)
    cabins = game.cabins
    assert [len(side) for side in cabins] == [2, 2]
    opening = [cabin[0] for side in cabins for cabin in side]
    assert all(len(cabin) == 1 for side in cabins for cabin in side)
    assert all(CARDS[c].weight in (1, 2) for c in opening)
    assert max(Counter(CARDS[c].kind for c in opening).values()) <= 2
    port, starboard = side_weights([[list(c) for c in side] for side in cabins])
    assert game.tilt == starboard - port
    assert -2 <= game.tilt <= 2


@pytest.mark.parametrize("players", [3, 4, 5])
def test_hands_face_up_discs_and_supply(players: int) -> None:
    game = Game.new(players=players, seed=11)
    assert all(len(game.hand(seat)) == 2 for seat in range(players))
    assert len(game.face_up) == 3
    assert game.supply_size == 55 - 4 - 2 * players - 3 + 5
    expected = {3: (4, 4, 4), 4: (3, 3, 3, 4), 5: (3, 3, 3, 4, 4)}[players]
    assert game.discs == expected
    assert tuple(starting_discs(players, s) for s in range(players)) == expected
    assert game.phase == "play" and game.current_player == 0
    assert game.rain_fallen == 0
    assert sorted(game.cards_everywhere()) == list(range(60))


@pytest.mark.parametrize("seed", range(30))
def test_first_rain_card_falls_halfway_and_the_rest_after(seed: int) -> None:
    game = Game.new(players=4, seed=seed)
    deck = game._state.deck  # top card last
    top_first = list(reversed(deck))
    rains = [i for i, c in enumerate(top_first) if CARDS[c].is_rain]
    playing = len(deck) - 5
    assert len(rains) == 5
    # The top half (the smaller one) holds no rain; the fifth card lies just under it.
    assert rains[0] == playing // 2
    assert all(r > rains[0] for r in rains[1:])


def test_same_seed_same_game_and_seeds_differ() -> None:
    assert Game.new(4, 3).to_json() == Game.new(4, 3).to_json()
    assert len({Game.new(4, s).to_json() for s in range(10)}) == 10


@pytest.mark.parametrize("players", [2, 6, "4"])
def test_wrong_player_counts_are_refused(players: object) -> None:
    with pytest.raises(ValueError, match="3 to 5"):
        Game.new(players=players, seed=0)  # type: ignore[arg-type]
