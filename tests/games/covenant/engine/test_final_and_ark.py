"""Final scoring (temples, unfinished roads and cities, fields) and the Ark."""

from __future__ import annotations

from engine.covenant import (
    ArkMoved,
    Deploy,
    FinalScoring,
    Game,
    GameOver,
    MoveArk,
    Pass,
    PlaceArk,
    PlaceTile,
)
from tests.games.covenant.engine.helpers import play, raises_refusal, scored, turn


def test_unfinished_temple_and_road_at_the_end() -> None:
    game = Game.new(players=2, seed=0, deck=["T48"])
    events = play(game, [turn(0, 1, 0, Deploy("E"))])
    assert isinstance(events[-1], GameOver)
    final = events[events.index(FinalScoring()) :]
    (temple,) = scored(final, "temple")
    assert (temple.complete, temple.tiles, temple.points) == (False, 2, (3, 0))
    (road,) = scored(final, "road")
    assert (road.complete, road.tiles, road.points) == (False, 1, (1, 0))
    assert game.scores == (4, 0)
    assert events[-1] == GameOver(scores=(4, 0), winners=(0,))


def test_unfinished_city_scores_1_a_tile_and_1_a_scroll_and_no_prophet_double() -> None:
    # T22 (1 scroll) turned 90 has its city east; at (-1, 0)... instead put it north of the
    # start tile's city as a city-to-the-north-and-south T18 (1 scroll): still open north.
    game = Game.new(players=2, seed=0, deck=["T18"])
    play(game, [turn(0, -1, 0, Deploy("N", prophet=True))])
    # 2 tiles + 1 scroll, not doubled at the end.
    assert game.scores == (3, 0)
    assert game.breakdown(0)["city"] == 3


def test_fields_joined_across_tiles_count_sheep_minus_wolves_twice() -> None:
    # T23 (2 sheep) and T24 (1 sheep, 1 wolf), turned 180, join the start's southern field.
    game = Game.new(players=2, seed=0, deck=["T23", "T24"])
    events = play(game, [turn(0, 1, 180, Deploy("NNW")), turn(1, 1, 180, Deploy("S"))])
    (field,) = scored(events, "field")
    assert field.squares == ((0, 0), (0, 1), (1, 1))
    assert (field.extras, field.wolves, field.points) == (3, 1, (4, 0))
    # Seat 1's one-tile city at (1, 1) is unfinished: 1 point.
    assert game.scores == (4, 1)
    assert game.breakdown(0)["field"] == 4


def test_more_wolves_than_sheep_give_nothing_not_less() -> None:
    # T42's big field has no sheep and a wolf; turned 90 its road runs west and north and
    # the big field joins the start tile's southern field (no sheep either).
    game = Game.new(players=2, seed=0, deck=["T42"])
    events = play(game, [turn(1, 0, 90, Deploy("S"))])
    (field,) = scored(events, "field")
    assert (field.extras, field.wolves, field.points) == (0, 1, (0, 0))
    assert game.scores == (0, 0)


def test_two_occupied_fields_joined_later_share_the_points() -> None:
    # East of a city running north, seat 0 and seat 1 each hold a field; two T21-like
    # tiles at (1, -1) and (1, -2) join them. Sheep: T18 1, T22 1, T23 2, T17 0.
    game = Game.new(players=2, seed=0, deck=["T18", "T17", "T22", "T23"])
    events = play(
        game,
        [
            turn(0, -1, 0, Deploy("ENE")),  # seat 0: field east of the city
            turn(0, -2, 0, Deploy("ENE")),  # seat 1: the next field east, not joined
            turn(1, -1, 90),  # fields west, south and north: joins seat 0's
            turn(1, -2, 0),  # fields west, south and east: joins both
        ],
    )
    (field,) = scored(events, "field")
    assert field.squares == ((0, -2), (1, -2), (0, -1), (1, -1))
    assert (field.extras, field.wolves, field.winners, field.points) == (4, 0, (0, 1), (8, 8))
    assert game.scores == (8, 8)


def _ark_on_the_start_tile() -> Game:
    """Seat 0 stands on the road at (1, 0), seat 1 in the field at (1, -1); the Ark at (0, 0).

    Then it is seat 1's turn with a straight road (T39) in hand.
    """
    game = Game.new(
        players=2, seed=0, deck=["T39", "T21", "T21", "T21", "T19", "T39", "T39", "T39"]
    )
    play(
        game,
        [
            turn(1, 0, 0, Deploy("E")),
            turn(1, -1, 90, Deploy("NNW")),
            turn(1, -2, 90),
            turn(0, -2, 180),
            [PlaceTile(0, -1, 0), Pass(), PlaceArk(0, 0)],
        ],
    )
    return game


def test_moving_the_ark_scores_each_piece_on_each_tile_entered() -> None:
    game = _ark_on_the_start_tile()
    assert game.ark == (0, 0)
    assert game.current_player == 1
    game.apply(PlaceTile(-1, 0, 0))
    # East onto seat 0's road follower, then north onto seat 1's field follower.
    (moved,) = game.apply(MoveArk("EN"))[:1]
    assert moved == ArkMoved(
        seat=1, path="EN", start=(0, 0), squares=((1, 0), (1, -1)), points=(1, 1)
    )
    assert game.ark == (1, -1)
    assert game.scores == (1, 1)
    assert game.breakdown(0)["ark"] == 1


def test_the_ark_scores_nothing_for_the_tile_it_leaves() -> None:
    game = _ark_on_the_start_tile()
    game.apply(PlaceTile(-1, 0, 0))
    game.apply(MoveArk("E"))  # onto seat 0's follower
    game.apply(PlaceTile(2, 0, 0))
    events = game.apply(MoveArk("W"))  # leaves (1, 0), ends on the empty start tile
    assert events[0].points == (0, 0)
    assert game.scores == (1, 0)


def test_ark_paths_are_one_to_five_steps_over_tiles_never_entering_twice() -> None:
    game = _ark_on_the_start_tile()
    game.apply(PlaceTile(-1, 0, 0))
    before = game.to_json()
    with raises_refusal("ark_revisit", step=2):
        game.apply(MoveArk("EW"))  # back onto the start tile
    with raises_refusal("ark_off_board", step=1):
        game.apply(MoveArk("S"))
    with raises_refusal("bad_path", path="WENNNE"):
        game.apply(MoveArk("WENNNE"))
    with raises_refusal("bad_path", path="X"):
        game.apply(MoveArk("X"))
    with raises_refusal("bad_path", path=""):
        game.apply(MoveArk(""))
    assert game.to_json() == before
    paths = {a.path for a in game.legal_actions() if isinstance(a, MoveArk)}
    # Tiles: (-1,0) (0,0) (1,0) (0,-1) (0,-2) (1,-1) (1,-2), the Ark on (0, 0).
    assert {"W", "E", "N", "NN", "EN", "ENN", "ENNW", "NNE", "NNES", "NNESS"} <= paths
    assert "EW" not in paths and "S" not in paths
    assert all(1 <= len(p) <= 5 for p in paths)


def test_the_ark_cannot_move_before_it_is_placed() -> None:
    game = Game.new(players=2, seed=0, deck=["T39"])
    game.apply(PlaceTile(1, 0, 0))
    with raises_refusal("no_ark") as error:
        game.apply(MoveArk("E"))
    assert error.value.code == "no_ark"
    assert not any(isinstance(a, MoveArk) for a in game.legal_actions())


def test_place_ark_must_use_a_tile_of_the_completed_city() -> None:
    game = Game.new(players=2, seed=0, deck=["T21", "T39"])
    play(game, [[PlaceTile(0, -1, 180), Pass()]])
    before = game.to_json()
    with raises_refusal("ark_not_in_city", x=1, y=0):
        game.apply(PlaceArk(1, 0))
    with raises_refusal("wrong_phase", phase="place_ark", attempted="pass"):
        game.apply(Pass())
    assert game.to_json() == before
    events = game.apply(PlaceArk(0, -1))
    assert game.ark == (0, -1)
    assert game.current_player == 1
    assert events[-1].type == "turn_started"
