"""Deploying followers and the Prophet: where a piece may and may not go."""

from __future__ import annotations

from dataclasses import fields

from engine.covenant import Deploy, Game, MoveArk, Pass, PieceDeployed, PlaceTile
from tests.games.covenant.engine.helpers import play, raises_refusal, scored, turn


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
    with raises_refusal("prophet_not_city"):
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
    with raises_refusal("prophet_used"):
        game.apply(Deploy("ENE", prophet=True))


def test_no_piece_on_a_feature_joined_to_an_occupied_one() -> None:
    game = Game.new(players=2, seed=0, deck=["T39", "T39"])
    play(game, [turn(1, 0, 0, Deploy("E"))])  # seat 0 on the road through the start tile
    game.apply(PlaceTile(-1, 0, 0))
    before = game.to_json()
    with raises_refusal("taken", feature="road", joined=True) as error:
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
    with raises_refusal("no_followers") as error:
        game.apply(Deploy("E"))
    assert error.value.code == "no_followers"
    # The Prophet is still at hand.
    assert Deploy("ENE", prophet=True) in game.legal_actions()


def test_one_piece_a_turn_and_only_on_the_tile_just_placed() -> None:
    game = Game.new(players=2, seed=0, deck=["T39", "T39"])
    game.apply(PlaceTile(1, 0, 0))
    game.apply(Deploy("ESE"))
    # The turn is over: a second deployment is out of phase.
    with raises_refusal("wrong_phase", phase="place_tile", attempted="deploy"):
        game.apply(Deploy("NNW"))
    with raises_refusal("wrong_phase", phase="place_tile", attempted="move_ark"):
        game.apply(MoveArk("E"))
    with raises_refusal("wrong_phase", phase="place_tile", attempted="pass"):
        game.apply(Pass())
    # Ports always refer to the tile just placed; there is no way to name another tile.
    assert [f.name for f in fields(Deploy)] == ["port", "prophet"]


def _deploys(game: Game) -> list[Deploy]:
    return [a for a in game.legal_actions() if isinstance(a, Deploy)]


def test_a_road_loop_closed_on_the_new_tile_is_offered_once() -> None:
    # Three bends (T37) east and south of a crossing's square; the crossing (T50) comes last
    # at (0, 1): its east and south roads are the two ends of one road, closed in a loop.
    game = Game.new(players=2, seed=0, deck=["T39", "T37", "T37", "T37", "T50"])
    play(game, [turn(1, 0, 0), turn(1, 1, 0), turn(1, 2, 90), turn(0, 2, 180)])
    game.apply(PlaceTile(0, 1, 0))
    assert game.feature(0, 1, "E").squares == game.feature(0, 1, "S").squares
    # The loop's road by E only; the field inside the loop (ESE); the field outside it,
    # which reaches this tile north (NNW) and south-west (SSW), by NNW only; the west road.
    assert game.feature(0, 1, "NNW").squares == game.feature(0, 1, "SSW").squares
    assert _deploys(game) == [Deploy("NNW"), Deploy("E"), Deploy("ESE"), Deploy("W")]
    events = game.apply(Deploy("S"))  # any port of the road names it
    assert events[0] == PieceDeployed(0, 0, 1, "E", "road", False)
    road = scored(events, "road")[0]
    assert (road.tiles, road.points) == (4, (4, 0))


def test_a_city_wrapping_round_onto_the_new_tile_is_offered_once() -> None:
    # T10 turned 180 has two one-edge cities, south and west; three T12 corners already lead
    # one round to the other, so both are one city, completed by this tile.
    game = Game.new(players=2, seed=0, deck=["T50", "T12", "T12", "T12", "T10"])
    play(game, [turn(-1, 0, 0), turn(-1, 1, 90), turn(-1, 2, 0), turn(0, 2, 270)])
    game.apply(PlaceTile(0, 1, 180))
    assert _deploys(game) == [
        Deploy("NNW"),
        Deploy("SSE"),
        Deploy("SSE", prophet=True),
    ]
    events = game.apply(Deploy("WSW", prophet=True))
    city = scored(events, "city")[0]
    assert city.squares == ((-1, 1), (0, 1), (-1, 2), (0, 2))
    assert (city.tiles, city.points, city.doubled) == (4, (16, 0), (0,))


def test_fields_joined_round_a_city_on_the_new_tile_are_offered_once() -> None:
    # T17 north of the start: its eastern and western fields meet round the start tile's
    # city through T21 and T39 tiles on both sides.
    game = Game.new(players=2, seed=0, deck=["T39", "T21", "T39", "T21", "T17"])
    play(game, [turn(1, 0, 0), turn(1, -1, 0), turn(-1, 0, 0), turn(-1, -1, 0)])
    game.apply(PlaceTile(0, -1, 0))
    assert game.feature(0, -1, "ENE").squares == game.feature(0, -1, "WSW").squares
    assert _deploys(game) == [Deploy("NNW"), Deploy("ENE"), Deploy("NNW", prophet=True)]
