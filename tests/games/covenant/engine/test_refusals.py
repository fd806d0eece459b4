"""Every refusal of The Ark of the Covenant has a stable code, listed in one place, with the
params its sentence names."""

from __future__ import annotations

import pytest

from engine.common import Rng
from engine.covenant import Deploy, Game, IllegalAction, MoveArk, Pass, PlaceArk, PlaceTile
from engine.covenant.editions import EDITIONS
from engine.covenant.errors import CODES, REFUSALS
from engine.covenant.players import random_action
from tests.games.covenant.engine.helpers import play, refusals_in, turn


def test_every_code_the_engine_raises_is_listed_with_its_params() -> None:
    written = refusals_in("covenant")
    assert None not in written, "an IllegalAction without a constant code"
    assert set(written) == set(CODES)
    for code, uses in written.items():
        assert uses == {tuple(sorted(REFUSALS[code]))}, code
    assert all(code.isidentifier() and code.islower() for code in CODES)


def check(error: IllegalAction) -> None:
    assert error.code in REFUSALS
    assert set(error.params) == set(REFUSALS[error.code]), error.code
    # No sentence: the refusal carries its code alone, and names it (with its values) in logs.
    assert error.args == (error.code,) and str(error).startswith(error.code)


BAD = [
    PlaceTile(0, 0, 0),
    PlaceTile(9, 9, 0),
    PlaceTile(1, 0, 45),
    Deploy("N"),
    Deploy("temple"),
    Deploy("X"),
    Deploy("N", prophet=True),
    MoveArk("N"),
    MoveArk("NS"),
    MoveArk("NNNNNN"),
    Pass(),
    PlaceArk(0, 0),
    PlaceArk(99, 99),
]


@pytest.mark.parametrize("edition", EDITIONS)
def test_refusals_met_in_seeded_games_carry_a_listed_code_and_its_params(edition: str) -> None:
    seen: set[str] = set()
    for seed in range(4):
        game = Game.new(players=2 + seed, seed=seed, edition=edition)
        rng = Rng(seed)
        while game.phase != "over":
            for action in BAD:
                try:
                    game.copy().apply(action)
                except IllegalAction as error:
                    check(error)
                    seen.add(error.code)
            game.apply(random_action(game, rng))
    assert {"occupied", "not_adjacent", "bad_rotation", "wrong_phase", "bad_port"} <= seen


def test_concrete_refusals_name_what_their_sentence_says() -> None:
    game = Game.new(players=2, seed=0, deck=["T39", "T39"])
    play(game, [turn(1, 0, 0, Deploy("E"))])
    game.apply(PlaceTile(-1, 0, 0))
    with pytest.raises(IllegalAction) as error:
        game.apply(Deploy("W"))
    assert (error.value.code, error.value.params) == ("taken", {"feature": "road", "joined": True})
    with pytest.raises(IllegalAction) as error:
        game.apply(PlaceTile(2, 0, 0))
    assert (error.value.code, error.value.params) == (
        "wrong_phase",
        {"phase": "deploy", "attempted": "place_tile"},
    )
