"""Deploying followers and the Prophet: where a piece may and may not go."""

from __future__ import annotations

from dataclasses import fields

import pytest

from engine.covenant import Deploy, Game, IllegalAction, MoveArk, Pass, PieceDeployed, PlaceTile
from tests.covenant.helpers import play, turn


def test_legal_deployments_name_each_free_feature_once_by_its_first_port() -> None:
    # T48 (temple; roads east and west ending at it; fields north and south) south of the
    # start: the temple itself is never offered.
    game = Game.new(players=2, seed=0, deck=["T48"])
    game.apply(PlaceTile(0, 1, 0))
    ports = [a.port for a in game.legal_actions() if isinstance(a, Deploy)]
    # Fields: north (WNW NNW N NNE ENE) named NNW; south (ESE SSE S SSW WSW) named ESE.
    # Roads: E and W. The northern field joins the start tile's southern field.
    assert ports == ["NNW", "E", "ESE", "W"]  # clockwise from NNW
    assert game.legal_actions()[-1] == Pass()


def test_prophet_only_in_a_city_and_listed_per_free_city() -> None:
    game = Game.new(players=2, seed=0, deck=["T18", "T48"])
    game.apply(PlaceTile(0, -1, 0))  # city north-south, fields east and west
    actions = game.legal_actions()
    assert Deploy("NNW", prophet=True) in actions
    assert [a for a in actions if isinstance(a, Deploy) and a.prophet] == [
        Deploy("NNW", prophet=True)
    ]
    with pytest.raises(IllegalAction, match="only go into a city"):
        game.apply(Deploy("E", prophet=True))
    events = game.apply(Deploy("S", prophet=True))
    assert events[0] == PieceDeployed(0, 0, -1, "NNW", "city", True)
    assert game.prophet_state(0) == "board"
    assert game.followers_left(0) == 7


def test_the_prophet_is_used_once() -> None:
    game = Game.new(players=3, seed=0, deck=["T18", "T39", "T39", "T17"])
    play(game, [turn(0, -1, 0, Deploy("N", prophet=True)), turn(1, 0), turn(-1, 0)])
    game.apply(PlaceTile(0, -2, 0))
    assert not any(isinstance(a, Deploy) and a.prophet for a in game.legal_actions())
    with pytest.raises(IllegalAction, match="already been used"):
        game.apply(Deploy("ENE", prophet=True))


def test_no_piece_on_a_feature_joined_to_an_occupied_one() -> None:
    game = Game.new(players=2, seed=0, deck=["T39", "T39"])
    play(game, [turn(1, 0, 0, Deploy("E"))])  # seat 0 on the road through the start tile
    game.apply(PlaceTile(-1, 0, 0))
    before = game.to_json()
    with pytest.raises(IllegalAction, match="road is joined to one that already has") as error:
        game.apply(Deploy("W"))
    assert error.value.code == "taken"
    assert game.to_json() == before
    assert Deploy("W") not in game.legal_actions()
    # Its fields are free.
    assert {a.port for a in game.legal_actions() if isinstance(a, Deploy)} == {"NNW", "ESE"}


def test_only_seven_followers() -> None:
    # One-tile cities (T21 turned 90: city east) stacked south of the start tile, each a
    # separate city: seat 0 puts a follower on each until none is left.
    game = Game.new(players=2, seed=0, deck=["T21"] * 20)
    for i in range(7):
        play(game, [turn(0, 1 + i, 90, Deploy("E")), turn(-1, 1 + i, 270)])
    assert game.followers_left(0) == 0
    game.apply(PlaceTile(0, 8, 90))
    assert [a for a in game.legal_actions() if isinstance(a, Deploy) and not a.prophet] == []
    with pytest.raises(IllegalAction, match="no followers left") as error:
        game.apply(Deploy("E"))
    assert error.value.code == "no_followers"
    # The Prophet is still at hand.
    assert Deploy("ENE", prophet=True) in game.legal_actions()


def test_one_piece_a_turn_and_only_on_the_tile_just_placed() -> None:
    game = Game.new(players=2, seed=0, deck=["T39", "T39"])
    game.apply(PlaceTile(1, 0, 0))
    game.apply(Deploy("ESE"))
    # The turn is over: a second deployment is out of phase.
    with pytest.raises(IllegalAction, match="Place your tile first"):
        game.apply(Deploy("NNW"))
    with pytest.raises(IllegalAction, match="Place your tile first"):
        game.apply(MoveArk("E"))
    with pytest.raises(IllegalAction, match="Place your tile first"):
        game.apply(Pass())
    # Ports always refer to the tile just placed; there is no way to name another tile.
    assert [f.name for f in fields(Deploy)] == ["port", "prophet"]
