"""Every kind of wrong action raises IllegalAction and leaves the game exactly as it was."""

from __future__ import annotations

import pytest

from engine.covenant import (
    Deploy,
    Game,
    IllegalAction,
    MoveArk,
    Pass,
    PlaceArk,
    PlaceTile,
    action_from_dict,
)
from tests.games.covenant.engine.helpers import play, turn


def _refused(
    game: Game, action: object, code: str | None = None, by: int | None = None, **params: object
) -> IllegalAction:
    """The refusal of ``action`` (played by seat ``by``), which changes nothing; when ``code``
    is given, the refusal has exactly that code and ``params``."""
    before = game.to_json()
    with pytest.raises(IllegalAction) as error:
        game.apply(action, seat=by)  # type: ignore[arg-type]
    assert game.to_json() == before
    if code is not None:
        assert (error.value.code, error.value.params) == (code, params)
    return error.value


#: The name a wrong_phase refusal gives each kind of action it refuses.
ATTEMPTED = {
    PlaceTile: "place_tile",
    Deploy: "deploy",
    MoveArk: "move_ark",
    Pass: "pass",
    PlaceArk: "place_ark",
}


@pytest.fixture
def placing() -> Game:
    return Game.new(players=3, seed=0, deck=["T39", "T21", "T39"])


@pytest.fixture
def deploying(placing: Game) -> Game:
    placing.apply(PlaceTile(1, 0, 0))
    return placing


@pytest.fixture
def placing_ark() -> Game:
    game = Game.new(players=2, seed=0, deck=["T21", "T39"])
    game.apply(PlaceTile(0, -1, 180))
    game.apply(Pass())
    assert game.phase == "place_ark"
    return game


@pytest.mark.parametrize(
    "action", [Deploy("N"), Deploy("N", prophet=True), MoveArk("N"), Pass(), PlaceArk(0, 0)]
)
def test_out_of_phase_while_placing(placing: Game, action: object) -> None:
    _refused(placing, action, "wrong_phase", phase="place_tile", attempted=ATTEMPTED[type(action)])


@pytest.mark.parametrize("action", [PlaceTile(-1, 0, 0), PlaceArk(0, 0)])
def test_out_of_phase_while_deploying(deploying: Game, action: object) -> None:
    _refused(deploying, action, "wrong_phase", phase="deploy", attempted=ATTEMPTED[type(action)])


@pytest.mark.parametrize("action", [PlaceTile(-1, 0, 0), Deploy("N"), MoveArk("S"), Pass()])
def test_out_of_phase_while_placing_the_ark(placing_ark: Game, action: object) -> None:
    attempted = ATTEMPTED[type(action)]
    _refused(placing_ark, action, "wrong_phase", phase="place_ark", attempted=attempted)


def test_out_of_turn(placing: Game, deploying: Game) -> None:
    _refused(placing, PlaceTile(1, 0, 0), "not_your_turn", by=1, seat=1, current=0)
    _refused(deploying, Pass(), "not_your_turn", by=2, seat=2, current=0)
    deploying.apply(Pass(), seat=0)
    assert deploying.current_player == 1


@pytest.mark.parametrize(
    ("action", "code"),
    [
        (PlaceTile(5, 5, 0), "not_adjacent"),
        (PlaceTile(1, 1, 0), "not_adjacent"),
        (PlaceTile(0, 0, 0), "occupied"),
        (PlaceTile(1, 0, 30), "bad_rotation"),
        (PlaceTile(1, 0, -90), "bad_rotation"),
        (PlaceTile("1", 0, 0), "malformed"),  # type: ignore[arg-type]
        (PlaceTile(1.0, 0, 0), "malformed"),  # type: ignore[arg-type]
        (PlaceTile(True, 0, 0), "malformed"),
        (None, "malformed"),
        ("place", "malformed"),
    ],
)
def test_malformed_or_off_board_placements(placing: Game, action: object, code: str) -> None:
    assert _refused(placing, action).code == code


@pytest.mark.parametrize(
    "action",
    [Deploy("XYZ"), Deploy(""), Deploy(3), Deploy("N", prophet="yes"), MoveArk(5)],  # type: ignore[arg-type]
)
def test_malformed_deployments_and_paths(deploying: Game, action: object) -> None:
    _refused(deploying, action)


def test_every_action_refused_after_the_game_is_over() -> None:
    game = Game.new(players=2, seed=0, deck=["T39"])
    play(game, [turn(1, 0, 0)])
    assert game.phase == "over"
    for action in (PlaceTile(2, 0, 0), Deploy("N"), MoveArk("E"), Pass(), PlaceArk(0, 0)):
        _refused(game, action, "game_over")


def test_lowercase_names_are_accepted() -> None:
    game = Game.new(players=2, seed=0, deck=["T39"])
    game.apply(PlaceTile(1, 0, 0))
    events = game.apply(Deploy("ese"))
    assert events[0].port == "ESE"


@pytest.mark.parametrize(
    "data",
    [
        {"type": "place_tile", "x": 1, "y": 0, "rotation": 0},
        {"type": "deploy", "port": "N", "prophet": True},
        {"type": "move_ark", "path": "NE"},
        {"type": "place_ark", "x": 0, "y": -1},
        {"type": "pass"},
    ],
)
def test_actions_round_trip_through_dicts(data: dict) -> None:
    assert action_from_dict(data).to_dict() == data


@pytest.mark.parametrize(
    "data",
    [None, {}, {"type": "fly"}, {"type": "pass", "x": 1}, {"type": "place_tile", "x": 1}],
)
def test_malformed_action_dicts_are_refused(data: object) -> None:
    with pytest.raises(ValueError):
        action_from_dict(data)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "text",
    [
        "",
        "[]",
        '{"game": "noah", "format": 1}',
        '{"game": "covenant", "format": 1}',
    ],
)
def test_damaged_saves_raise_value_error(text: str) -> None:
    with pytest.raises(ValueError):
        Game.from_json(text)


def test_a_save_with_an_impossible_board_is_refused() -> None:
    game = Game.new(players=2, seed=0, deck=["T39", "T39"])
    game.apply(PlaceTile(1, 0, 0))
    text = game.to_json().replace('["T39",1,0,0]', '["T39",1,0,90]')
    with pytest.raises(ValueError, match="does not fit"):
        Game.from_json(text)
