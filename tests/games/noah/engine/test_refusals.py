"""Every refusal of the card game has a stable code, listed in one place, and the card ids
its sentence names; concrete refusals with their exact code and params."""

from __future__ import annotations

import pytest

from engine.common import Rng
from engine.noah import Game, IllegalAction, Placement, PlayCards, TakeCards
from engine.noah.errors import CODES, REFUSALS
from tests.games.covenant.engine.helpers import refusals_in
from tests.games.noah.engine.helpers import C, one
from tests.games.noah.engine.test_random import candidate_placements


def test_every_code_the_engine_raises_is_listed_with_its_params() -> None:
    written = refusals_in("noah")
    assert None not in written, "an IllegalAction without a constant code"
    assert set(written) == set(CODES)
    for code, uses in written.items():
        assert uses == {tuple(sorted(REFUSALS[code]))}, code
    assert len(CODES) == len(set(CODES))
    assert all(code.isidentifier() and code.islower() for code in CODES)


def check(error: IllegalAction) -> None:
    assert error.code in REFUSALS
    assert set(error.params) == set(REFUSALS[error.code]), error.code
    # No sentence: the refusal carries its code alone, and names it (with its values) in logs.
    assert error.args == (error.code,) and str(error).startswith(error.code)


def test_refusals_met_in_seeded_games_carry_a_listed_code_and_its_params() -> None:
    seen: set[str] = set()
    for seed in range(6):
        game = Game.new(players=3 + seed % 3, seed=seed)
        chooser = Rng(seed)
        while game.phase != "over":
            for placement in candidate_placements(game)[:: 7 + seed]:
                try:
                    game.copy().apply(PlayCards((placement,)))
                except IllegalAction as error:
                    check(error)
                    seen.add(error.code)
            legal = game.legal_actions()
            game.apply(legal[chooser.below(len(legal))])
    assert {"cabin_full", "would_tip", "eaten", "climate", "not_in_hand"} <= seen


def ark(hand: list[str], **kw) -> Game:  # type: ignore[no-untyped-def]
    return Game.arranged(
        4,
        port=kw.pop("port", [["Sheep"], ["Goat"]]),
        starboard=kw.pop("starboard", [["Donkey"], ["Llama"]]),
        hands=[hand],
        face_up=kw.pop("face_up", ["Grain", "Dates", "Berries"]),
        **kw,
    )


def refusal(game: Game, action: object) -> tuple[str, dict]:
    before = game.to_json()
    with pytest.raises(IllegalAction) as info:
        game.apply(action)  # type: ignore[arg-type]
    assert game.to_json() == before
    check(info.value)
    return info.value.code, info.value.params


def test_concrete_refusals_name_their_cards_by_id() -> None:
    game = ark(["Lion", "Elephant", "Hay", "Snail", "Rabbit"], port=[["Sheep"], ["Cat"]])
    assert refusal(game, one("Lion", "port", 0)) == (
        "eaten",
        {"predator": C("Lion"), "prey": C("Sheep")},
    )
    # Starboard 4 (donkey, llama) against port 3 (sheep, cat), then the elephant's 3.
    assert refusal(game, one("Elephant", "starboard", 0)) == (
        "would_tip",
        {"card": C("Elephant"), "lean": 4, "towards": "starboard", "most": 2},
    )
    assert refusal(game, one("Hay", "port", 0)) == (
        "eats_provision",
        {"eater": C("Sheep"), "provision": C("Hay")},
    )
    assert refusal(game, one("Rabbit", "port", 0)) == (
        "shy_next_to",
        {"card": C("Rabbit"), "carnivore": C("Cat")},
    )
    assert refusal(game, one("Tiger", "port", 0)) == ("not_in_hand", {"card": C("Tiger")})
    assert refusal(game, one("Lion", "port", 5)) == (
        "no_such_cabin",
        {"side": "port", "row": 5, "last": 1, "new": 2},
    )
    assert refusal(game, one("Lion", "port", 2)) == (
        "take_needed",
        {"take": None, "face_up": (C("Grain"), C("Dates"), C("Berries"))},
    )
    two = PlayCards((Placement(C("Snail"), "port", 0), Placement(C("Lion"), "port", 1)))
    assert refusal(game, two) == ("played_alone", {"card": C("Snail")})
    assert refusal(game, TakeCards(C("Tiger"))) == ("not_face_up", {"card": C("Tiger")})
    full = ark(["Goat"], port=[["Sheep", "Cow", "Horse"], ["Camel"]])
    assert refusal(full, one("Goat", "port", 0)) == ("cabin_full", {"side": "port", "row": 0})
    broke = ark(["Cow"], discs=[0, 3, 3, 4])
    assert refusal(broke, one("Cow", "port", 2, take=C("Grain"))) == (
        "no_disc_for_cabin",
        {"card": C("Cow")},
    )
