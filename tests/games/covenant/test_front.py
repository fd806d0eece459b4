"""The Covenant's front as data: its panels, choices, typed commands and story, no Discord."""

from __future__ import annotations

import pytest

from bot.games import Seen, TurnRecord, plugin
from bot.games.covenant.choices import (
    ark_choices,
    ark_next_letters,
    deploy_choices,
    find_spot,
    parse_deploy,
    spot_choices,
)
from bot.games.covenant.spots import spot_name
from bot.games.covenant.story import story
from bot.panels import Button, Panel, Play, Refusal, Select
from engine.covenant import TILES, Deploy, Game, MoveArk, Pass, PlaceArk, PlaceTile
from render.i18n import say

FRONT = plugin("covenant").front
NAMES = ("Ruth", "Boaz")


def seen(game: Game, seat: int = 0) -> Seen:
    return Seen(game, seat, NAMES, 0, {})


@pytest.mark.parametrize(
    ("tile", "rotation", "expected"),
    [
        (
            "T27",
            0,
            ["city to the north", "road east–west", "field to the north", "field to the south"],
        ),
        (
            "T57",
            0,
            [
                "road to the north",
                "road to the east",
                "road to the south",
                "road to the west",
                "field to the north-east",
                "field to the south-east",
                "field to the south-west",
                "field to the north-west",
            ],
        ),
        ("T10", 180, ["city to the south", "city to the west", "field to the north-east"]),
        ("T01", 0, ["city in the middle"]),
    ],
)
def test_spots_are_named_in_words(tile: str, rotation: int, expected: list[str]) -> None:
    view = TILES[tile].rotated(rotation)
    assert [say(spot_name(s)) for s in view.segments] == expected


def test_turn_choices_follow_the_engine() -> None:
    game = Game.new(players=2, seed=0, deck=["T21", "T39", "T39"])
    spots = spot_choices(game)
    assert [(s.number, s.square, s.rotations) for s in spots] == [
        (1, "M12", (180,)),  # the city edge must face the start tile's city
        (2, "M14", (90, 180, 270)),  # any field edge against the start tile's field
    ]
    assert find_spot(game, "m14") == spots[1] and find_spot(game, "1") == spots[0]
    assert find_spot(game, "Z9") is None and find_spot(game, "x" * 500) is None
    game.apply(PlaceTile(0, -1, 180))
    choices = deploy_choices(game)
    assert [(say(c.label), c.value) for c in choices] == [
        ("A · field to the north", "NNW:0"),
        ("B · city to the south", "SSE:0"),
        ("B · Prophet: city to the south", "SSE:1"),
    ]
    assert parse_deploy("SSE:1") == Deploy("SSE", prophet=True)
    game.apply(Pass())
    game.apply(PlaceArk(0, 0))
    game.apply(PlaceTile(1, 0, 0))
    game.apply(Deploy("E"))
    game.apply(PlaceTile(-1, 0, 0))
    assert ark_next_letters(game, "") == {"N", "E", "W"}
    assert ark_next_letters(game, "E") == set()
    # Seat 1's follower stands on (1, 0): going east helps only seat 1, so for seat 0 the
    # paths that give nobody anything come first.
    choices = {c.path: c.points for c in ark_choices(game)}
    assert choices == {"N": (0, 0), "E": (0, 1), "W": (0, 0)}
    assert ark_choices(game)[0].path == "N"


def test_the_story_is_told_from_the_events_alone_with_names_that_never_change() -> None:
    game = Game.new(players=2, seed=0, deck=["T21", "T39"])
    events = game.apply(PlaceTile(0, -1, 180)) + game.apply(Deploy("S"))
    turn = TurnRecord(0, 1, ("player", "player"), events, False, (0, 0))
    assert [say(line) for line in story([turn], NAMES)] == [
        "Ruth placed a tile on M12.",
        "Ruth put a follower on the city at M12.",
        "A 2-tile city was completed: Ruth +4.",
    ]
    more = TurnRecord(0, 1, ("player",), game.apply(PlaceArk(0, -1)), True, (0, 0))
    assert [say(line) for line in story([more], NAMES)] == ["Ruth placed the Ark on M12."]
    assert MoveArk("N") not in game.legal_actions()


def test_the_place_tile_panel_offers_the_numbered_spots_and_the_four_rotations() -> None:
    game = Game.new(players=2, seed=0, deck=["T21", "T39"])
    panel = FRONT.panel(seen(game))
    (menu,) = panel.controls
    assert isinstance(menu, Select) and menu.control == "spot"
    assert [(say(o.label), o.value, say(o.description)) for o in menu.options] == [
        ("1 · M12", "0,-1", "fits 1 way"),
        ("2 · M14", "0,1", "fits 3 ways"),
    ]
    # The tile in hand turned four ways, and the board with the numbered spots (issue 11.15).
    assert [(p.function, p.args[1:]) for p in panel.pictures] == [
        ("render.covenant:rotations", ()),
        ("render.covenant:board", (True, list(NAMES))),
    ]
    assert "fits on 2 numbered spots" in say(panel.lines[0])
    preview = FRONT.on_control(seen(game), "spot", (), ("0,1",))
    assert isinstance(preview, Panel)
    buttons = {b.control: b for b in preview.controls if isinstance(b, Button)}
    assert buttons["rot"].args == ("0", "1", "180") and buttons["place"].args == ("0", "1", "90")
    assert "turned 90°" in say(preview.lines[0]) and "fits 3 ways" in say(preview.lines[0])
    # A close-up of the chosen square next to the whole board (issue 11.15).
    assert [p.function for p in preview.pictures] == [
        "render.covenant:preview_zoom",
        "render.covenant:preview",
    ]
    assert preview.pictures[0].args[1:] == (0, 1, 90)
    assert FRONT.on_control(seen(game), "place", ("0", "1", "90"), ()) == Play(PlaceTile(0, 1, 90))


def test_controls_that_are_not_ours_are_refused() -> None:
    game = Game.new(players=2, seed=0, deck=["T21", "T39"])
    for control, args, values in (
        ("fly", (), ()),
        ("place", ("x",), ()),
        ("spot", (), ("9,9",)),
        ("spot", (), ()),
        ("rot", ("0", "1", "45"), ()),
    ):
        with pytest.raises(Refusal):
            FRONT.on_control(seen(game), control, args, values)


def test_typed_commands_become_the_same_moves() -> None:
    game = Game.new(players=2, seed=0, deck=["T21", "T39"])
    assert FRONT.on_command(seen(game), "place", {"square": "m12", "rotation": 180}) == Play(
        PlaceTile(0, -1, 180)
    )
    # Without a rotation, the first one that fits.
    assert FRONT.on_command(seen(game), "place", {"square": "2"}) == Play(PlaceTile(0, 1, 90))
    with pytest.raises(Refusal) as wrong:
        FRONT.on_command(seen(game), "place", {"square": "M12", "rotation": 0})
    assert say(wrong.value.text) == "On M12 your tile fits turned 180°."
    with pytest.raises(Refusal) as nowhere:
        FRONT.on_command(seen(game), "place", {"square": "A" * 300})
    assert len(say(nowhere.value.text)) < 200  # a quoted input is bounded
    assert FRONT.on_command(seen(game), "pass", {}) == Play(Pass())
    with pytest.raises(Refusal):  # no follower before the tile is placed
        FRONT.on_command(seen(game), "follower", {"spot": "sse"})
    game.apply(PlaceTile(0, -1, 180))
    assert FRONT.on_command(seen(game), "follower", {"spot": "sse"}) == Play(Deploy("SSE"))
