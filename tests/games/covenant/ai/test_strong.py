"""The strong level's own evaluation in The Ark of the Covenant: pieces at hand count more."""

from __future__ import annotations

from engine import ai
from engine.covenant import Deploy, Game, Pass, PlaceArk, PlaceTile
from engine.covenant.ai.evaluate import STRONG_WEIGHTS, WEIGHTS, Evaluator

# Two normal players' first twelve turns (seed 2): each has put out its Prophet and five of
# its seven followers, a piece on every tile it laid.
OPENING = [
    PlaceTile(0, -1, 0),
    Deploy("NNW", prophet=True),
    PlaceTile(-1, 0, 180),
    Deploy("NNW", prophet=False),
    PlaceTile(0, -2, 90),
    Deploy("N", prophet=False),
    PlaceTile(-1, -1, 0),
    Deploy("NNW", prophet=False),
    PlaceTile(-2, 0, 90),
    Deploy("ENE", prophet=False),
    PlaceTile(1, 0, 180),
    Deploy("W", prophet=False),
    PlaceTile(1, -2, 90),
    Deploy("NNW", prophet=False),
    PlaceTile(1, 1, 90),
    Deploy("ENE", prophet=True),
    PlaceTile(1, -3, 0),
    Deploy("NNW", prophet=False),
    PlaceTile(2, 1, 90),
    Deploy("SSE", prophet=False),
    PlaceTile(2, -2, 180),
    Deploy("N", prophet=False),
    PlaceTile(0, 1, 270),
    Deploy("E", prophet=False),
]


def after_opening() -> Game:
    game = Game.new(players=2, seed=2)
    for action in OPENING:
        game.apply(action)
    return game


def test_pieces_at_hand_are_worth_more_to_the_strong_level() -> None:
    game = Game.new(players=2, seed=2)
    normal = Evaluator(game, WEIGHTS).values(game)
    strong = Evaluator(game, STRONG_WEIGHTS).values(game)
    # Nothing on the board yet: a seat's value is its pieces at hand, seven followers
    # (1 + 0.8 + ... + 0.8**6 = 3.951424 first followers' worth) and the Prophet.
    assert round(normal[0], 9) == round(2.6 * 3.951424 + 3.0, 9) == 13.2737024
    assert round(strong[0], 9) == round(5.0 * 3.951424 + 8.0, 9) == 27.75712
    assert normal[1] == normal[0] and strong[1] == strong[0]


def test_with_two_followers_left_strong_keeps_one_that_normal_puts_on_a_small_field() -> None:
    game = after_opening()
    assert (game.current_player, game.tile, game.tiles_left) == (0, "T22", 58)
    assert [game.followers_left(seat) for seat in (0, 1)] == [2, 2]
    placed = game.copy()
    placed.apply(PlaceTile(2, -1, 0))
    field = placed.feature_at(2, -1, "ENE")
    assert (field.kind, field.tiles, field.extras, field.pieces) == ("field", 1, 1, ())

    turn = []
    for level in ("normal", "strong"):
        trial = game.copy()
        actions = []
        while trial.current_player == 0 and trial.phase != "over":
            action = ai.choose(trial, level, seed=0, iterations=0)
            actions.append(action)
            trial.apply(action)
        turn.append(actions)
    assert turn[0] == [PlaceTile(2, -1, 0), Deploy("ENE", prophet=False), PlaceArk(2, -1)]
    assert turn[1] == [PlaceTile(2, -1, 0), Pass(), PlaceArk(2, -1)]
