"""Positions with one obvious best move: normal takes it and the hint says why, exactly."""

from __future__ import annotations

import pytest

from engine import ai, registry
from engine.ai import Hint
from engine.covenant import Deploy, Game, Pass, PlaceTile
from engine.noah import Game as Noah
from engine.noah import Placement, PlayCards, card_id


def city_to_close() -> Game:
    """Seat 0 holds a two-tile city open to the north and draws T21, a city cap."""
    game = Game.new(players=2, seed=0, deck=["T17", "T39", "T21", "T39", "T37", "T39"])
    game.apply(PlaceTile(0, -1, 0))  # T17: city north and south, joins the start tile's
    game.apply(Deploy("NNW"))
    game.apply(PlaceTile(1, 0, 0))  # seat 1: a road
    game.apply(Pass())
    return game


def test_normal_completes_its_own_city_and_the_hint_says_for_how_much() -> None:
    game = city_to_close()
    assert game.tile == "T21" and game.current_player == 0
    closing = PlaceTile(0, -2, 180)
    assert ai.choose(game, "normal") == closing
    suggestion = ai.hint(game, 0, iterations=0)
    # Three tiles, no scroll: 2 points a tile.
    assert suggestion.action == closing
    assert suggestion.reason == ("hint.completes_city", {"points": 6})
    assert ai.choose(game, "strong", iterations=30) == closing


def test_the_rest_of_the_turn_is_played_as_planned() -> None:
    game = city_to_close()
    game.apply(PlaceTile(0, -2, 180))
    action = ai.choose(game, "normal")
    events = game.copy().apply(action)
    assert any(getattr(e, "feature", None) == "city" and e.points[0] == 6 for e in events)


def majority_to_take() -> Noah:
    """Endgame: seat 0 and seat 1 tie on heavy animals; seat 0 holds a giraffe that fits."""
    return Noah.arranged(
        4,
        port=[["Sheep"]],
        starboard=[["Chicken"]],
        hands=[["Giraffe", "Snail"], ["Cow"], ["Dog"], ["Cat"]],
        face_up=["Hay", "Fish", "Berries"],
        figures={0: {"heavy": 1}, 1: {"heavy": 1}},
        rain=5,
        phase="endgame",
    )


def test_normal_plays_the_card_that_takes_the_majority() -> None:
    game = majority_to_take()
    giraffe = card_id("Giraffe")
    # Into the open cabin: a new one would cost a second disc.
    best = PlayCards((Placement(giraffe, "starboard", 0),))
    assert ai.choose(game, "normal") == best
    suggestion = ai.hint(game, iterations=0)
    assert suggestion.action == best
    assert suggestion.reason == ("hint.takes_lead", {"kind": "heavy", "card": giraffe})
    assert ai.choose(game, "strong", iterations=30) == best


def test_reasons_are_keys_and_plain_params_only() -> None:
    for game in (city_to_close(), majority_to_take()):
        reasons = ai.reasons(registry.name_of(game))
        key, params = ai.hint(game, iterations=0).reason
        assert key in reasons and set(params) == set(reasons[key])
        assert all(isinstance(v, int | str | bool | list) for v in params.values())
        assert all(key.startswith("hint.") for key in reasons)


def test_a_hint_checks_its_reason_and_its_seat() -> None:
    reasons = ai.reasons("covenant")
    with pytest.raises(ValueError):
        Hint(Pass(), ("hint.unknown", {})).check(reasons)
    with pytest.raises(ValueError):
        Hint(Pass(), ("hint.completes_city", {"score": 3})).check(reasons)
    assert Hint(Pass(), ("hint.completes_city", {"points": 3})).check(reasons).value == 0.0
    with pytest.raises(ValueError):
        ai.hint(city_to_close(), 1)  # not seat 1's turn
