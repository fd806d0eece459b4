"""The Covenant's front as data: its panels, choices, typed commands and story, no Discord."""

from __future__ import annotations

import re

import pytest

from bot.games import Seen, TurnRecord, plugin
from bot.games.covenant.choices import (
    ark_choices,
    ark_destinations,
    deploy_choices,
    find_square,
    parse_deploy,
    square_choices,
    tile_words,
)
from bot.games.covenant.spots import spot_name, spot_names
from bot.games.covenant.story import story
from bot.panels import Button, Panel, Play, Refusal, Select, Text
from engine.covenant import TILES, Deploy, Game, MoveArk, Pass, PlaceArk, PlaceTile
from engine.covenant.events import TileDiscarded
from render.i18n import say

FRONT = plugin("covenant").front
NAMES = ("Ruth", "Boaz")


def said(refused: Refusal) -> str:
    """A refusal's sentence, in English."""
    return say(Text(refused.code, **refused.params))


def seen(game: Game, seat: int = 0) -> Seen:
    return Seen(game, seat, NAMES, 0, {})


@pytest.mark.parametrize(
    ("tile", "rotation", "expected"),
    [
        (
            "T27",
            0,
            [
                "city to the north",
                "road from east to west",
                "field to the north",
                "field to the south",
            ],
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
    squares = square_choices(game)
    assert [(s.number, s.square, s.rotations) for s in squares] == [
        (1, "M12", (180,)),  # the city edge must face the start tile's city
        (2, "M14", (90, 180, 270)),  # any field edge against the start tile's field
    ]
    assert find_square(game, "m14") == squares[1] and find_square(game, "1") == squares[0]
    assert find_square(game, "Z9") is None and find_square(game, "x" * 500) is None
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
    # Each square the Ark can end on once, by the route best for the player (seat 0); N13
    # only scores for seat 1, so it comes last.
    assert [(d.square, d.path, d.points) for d in ark_destinations(game)] == [
        ((-1, 0), "W", (0, 0)),
        ((0, -1), "N", (0, 0)),
        ((1, 0), "E", (0, 1)),
    ]
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


def controls(panel: Panel | Play) -> dict[tuple[str, tuple[str, ...]], Button | Select]:
    assert isinstance(panel, Panel)
    return {(c.control, c.args): c for c in panel.controls}


def labels(panel: Panel | Play, control: str) -> list[str]:
    assert isinstance(panel, Panel)
    return [say(c.label) for c in panel.controls if isinstance(c, Button) and c.control == control]


def test_a_tile_is_placed_and_the_turn_decided_in_two_taps_of_the_panel() -> None:
    """Issue 27.2: a square is one tap; the tile is shown there turned the first way it fits,
    the other ways one tap away; the same panel decides the rest of the turn, and the tap
    that decides places the tile too. One picture a panel (two would share a phone's width)."""
    game = Game.new(players=2, seed=0, deck=["T21", "T39"])
    panel = FRONT.panel(seen(game))
    assert [(c.control, c.args, say(c.label)) for c in panel.controls] == [
        ("sq", ("0", "-1"), "1"),
        ("sq", ("0", "1"), "2"),
    ]
    ((picture),) = panel.pictures
    assert picture.function == "render.covenant:squares" and picture.args[1:] == (0,)
    assert "It fits on 2 squares, numbered on the picture" in say(panel.lines[0])
    chosen = FRONT.on_control(seen(game), "sq", ("0", "1"), ())
    assert isinstance(chosen, Panel)
    assert say(chosen.lines[0]) == (
        "Your tile on **M14** (number 2), turned 90°. It fits 3 ways: turn it with the degree"
        " buttons."
    )
    found = controls(chosen)
    assert [(c.args[2], c.disabled) for c in found.values() if c.control == "rot"] == [
        ("90", True),
        ("180", False),
        ("270", False),
    ]
    assert ("page", ("0",)) in found  # back to the squares
    assert labels(chosen, "put") == ["A · field", "B · city", "B · Prophet"]
    ((picture),) = chosen.pictures
    placed = Game.from_json(picture.args[0])
    assert picture.function == "render.covenant:placed" and placed.last_placed == (0, 1)
    assert game.phase == "place_tile" and not game.last_placed  # nothing played yet
    assert FRONT.on_control(seen(game), "pass", ("0", "1", "90"), ()) == Play(
        PlaceTile(0, 1, 90), (Pass(),)
    )
    assert FRONT.on_control(seen(game), "put", ("0", "1", "90", "ENE", "1"), ()) == Play(
        PlaceTile(0, 1, 90), (Deploy("ENE", prophet=True),)
    )
    turned = FRONT.on_control(seen(game), "rot", ("0", "1", "270"), ())
    assert "turned 270°" in say(turned.lines[0])  # type: ignore[union-attr]
    # A tile that fits one way only has no buttons to turn it.
    only = FRONT.on_control(seen(game), "sq", ("0", "-1"), ())
    assert "It fits only this way." in say(only.lines[0])  # type: ignore[union-attr]
    assert not [c for c in controls(only) if c[0] == "rot"]


def test_controls_that_are_not_ours_are_refused() -> None:
    game = Game.new(players=2, seed=0, deck=["T21", "T39"])
    for control, args, values in (
        ("fly", (), ()),
        ("sq", ("x",), ()),
        ("sq", ("9", "9"), ()),
        ("rot", ("0", "1", "45"), ()),
        ("pass", ("0", "1"), ()),
        ("pass", ("0", "-1", "90"), ()),  # it does not fit that way there
        ("put", ("0", "1", "90", "ENE", "x"), ()),
        ("ark", ("0", "1", "90"), ("N",)),  # no Ark on the board
        ("page", ("x",), ()),
    ):
        with pytest.raises(Refusal):
            FRONT.on_control(seen(game), control, args, values)


def test_a_legal_control_with_junk_after_it_is_refused_not_played() -> None:
    """Issue 41: a control carries exactly the arguments it was made with; a legal move with
    more after it was never one of ours."""
    game = Game.new(players=2, seed=0, deck=["T21", "T39"])
    assert FRONT.on_control(seen(game), "pass", ("0", "1", "90"), ()) == Play(
        PlaceTile(0, 1, 90), (Pass(),)
    )
    for control, args, values in (
        ("pass", ("0", "1", "90", "x"), ()),
        ("pass", ("0", "1", "90", ""), ()),
        ("put", ("0", "1", "90", "ENE", "1", "ENE", "1"), ()),
        ("spot", ("0", "1", "90", "junk"), ("ENE:1",)),
        ("sq", ("0", "1", "2"), ()),
        ("rot", ("0", "1", "270", "0"), ()),
        ("page", ("0", "0"), ()),
        ("back", ("x",), ()),
        ("overview", ("x",), ()),
    ):
        with pytest.raises(Refusal) as refused:
            FRONT.on_control(seen(game), control, args, values)
        assert refused.value.code == "table.error.unknown_control", (control, args)
    game.apply(PlaceTile(0, 1, 90))
    assert FRONT.on_control(seen(game), "put", ("ENE", "1"), ()) == Play(Deploy("ENE", True))
    with pytest.raises(Refusal):
        FRONT.on_control(seen(game), "put", ("ENE", "1", "x"), ())


def test_typed_commands_become_the_same_moves() -> None:
    game = Game.new(players=2, seed=0, deck=["T21", "T39"])
    assert FRONT.on_command(seen(game), "place", {"square": "m12", "rotation": 180}) == Play(
        PlaceTile(0, -1, 180)
    )
    # Without a rotation, the first one that fits.
    assert FRONT.on_command(seen(game), "place", {"square": "2"}) == Play(PlaceTile(0, 1, 90))
    with pytest.raises(Refusal) as wrong:
        FRONT.on_command(seen(game), "place", {"square": "M12", "rotation": 0})
    assert said(wrong.value) == "On M12 your tile fits turned 180°."
    with pytest.raises(Refusal) as nowhere:
        FRONT.on_command(seen(game), "place", {"square": "A" * 300})
    assert len(said(nowhere.value)) < 200  # a quoted input is bounded
    assert FRONT.on_command(seen(game), "pass", {}) == Play(Pass())
    with pytest.raises(Refusal):  # no follower before the tile is placed
        FRONT.on_command(seen(game), "follower", {"spot": "sse"})
    game.apply(PlaceTile(0, -1, 180))
    assert FRONT.on_command(seen(game), "follower", {"spot": "sse"}) == Play(Deploy("SSE"))


def test_the_rotation_autocomplete_offers_the_rotations_that_fit_the_typed_square() -> None:
    """/covenant place: once a square is typed, only the rotations that fit there are offered
    (the square option's own text had replaced the typed options, so nothing was)."""
    game = Game.new(players=2, seed=0, deck=["T21", "T39"])

    def offered(option: str, current: str, square: str | None = None) -> list[object]:
        typed = {} if square is None else {"square": square}
        return [c.value for c in FRONT.autocomplete(seen(game), "place", option, current, typed)]

    assert offered("rotation", "", "m14") == [90, 180, 270]
    assert offered("rotation", "", "1") == [180]  # M12, typed by its number
    assert offered("rotation", "") == [0, 90, 180, 270]  # no square typed yet
    assert offered("square", "m1") == ["M12", "M14"]
    assert offered("square", " m14 ") == ["M14"]


# --------------------------------------------------------------------- issue 11


def placed_city() -> Game:
    """Ruth has just placed T21 north of the start tile: A field, B city (or the Prophet)."""
    game = Game.new(players=2, seed=0, deck=["T21", "T39"])
    game.apply(PlaceTile(0, -1, 180))
    return game


def test_once_the_tile_is_placed_the_same_choice_is_offered_without_it() -> None:
    """A tile placed by typing (or a panel opened again): the lettered spots, the Ark, or
    pass; a letter puts the piece."""
    game = placed_city()
    panel = FRONT.panel(seen(game))
    assert isinstance(panel, Panel)
    assert texts(panel)[:2] == [
        "Your tile is on **M12**.",
        "Tap a letter to put a piece on that spot, or pass.",
    ]
    assert labels(panel, "put") == ["A · field", "B · city", "B · Prophet"]
    assert labels(panel, "pass") == ["Pass"]
    assert [p.function for p in panel.pictures] == ["render.covenant:placed"]
    assert FRONT.on_control(seen(game), "put", ("SSE", "0"), ()) == Play(Deploy("SSE"))
    assert FRONT.on_control(seen(game), "pass", (), ()) == Play(Pass())
    with pytest.raises(Refusal):
        FRONT.on_control(seen(game), "put", ("SSE", "x"), ())


def test_every_spot_of_every_tile_has_its_own_name() -> None:
    """11.4: "field to the north-west" twice on one tile is gone; issue 28: in the eight
    directions a child knows, never "west-north-west"."""
    for design in TILES.values():
        for rotation in (0, 90, 180, 270):
            segments = design.rotated(rotation).segments
            names = [say(n) for n in spot_names(segments)]
            assert len(set(names)) == len(names), (design.id, rotation, names)
    assert [say(n) for n in spot_names(TILES["T04"].rotated(0).segments)][2:] == [
        "field to the north-west",
        "field to the south-west",
    ]
    sixteen = re.compile(r"(north|south|east|west)-(north|south|east|west)-")
    for language in ("en", "nl", "es"):
        for design in TILES.values():
            for rotation in (0, 90, 180, 270):
                for name in spot_names(design.rotated(rotation).segments):
                    said = say(name, language)
                    assert not sixteen.search(said), said
                    assert "covenant." not in said, said  # every direction has its words


def test_the_letter_on_the_picture_can_be_typed() -> None:
    """11.4: /covenant follower spot:A works; the menu's letters are the picture's."""
    game = placed_city()
    assert FRONT.on_command(seen(game), "follower", {"spot": "A"}) == Play(Deploy("NNW"))
    assert FRONT.on_command(seen(game), "follower", {"spot": " b "}) == Play(Deploy("SSE"))
    assert FRONT.on_command(seen(game), "follower", {"spot": "B:P"}) == Play(
        Deploy("SSE", prophet=True)
    )
    with pytest.raises(Refusal) as wrong:
        FRONT.on_command(seen(game), "follower", {"spot": "Z"})
    assert said(wrong.value) == ("Z is not a free spot of your new tile. Type one of A, B, B:P.")
    suggestions = FRONT.autocomplete(seen(game), "follower", "spot", "", {})
    assert [(say(c.label), c.value) for c in suggestions] == [
        ("A · field to the north", "A"),
        ("B · city to the south", "B"),
        ("B · Prophet: city to the south", "B:P"),
    ]
    assert [c.letter for c in deploy_choices(game)] == ["A", "B", "B"]


def texts(panel: Panel) -> list[str]:
    return [say(line) for line in panel.lines]


def test_the_follower_panel_says_what_is_possible_and_why_not() -> None:
    """11.5: a spot someone holds is named, and so are the pieces left."""
    game = Game.new(players=2, seed=0, deck=["T39", "T39", "T39"])
    game.apply(PlaceTile(1, 0, 0))
    game.apply(Deploy("E"))  # Ruth on the road
    game.apply(PlaceTile(2, 0, 0))  # Boaz extends it
    lines = texts(FRONT.panel(seen(game, 1)))
    assert "The road from east to west is not offered: Ruth already has a piece there." in lines
    assert "You have 7 followers left. Your Prophet is ready (it goes into a city)." in lines
    assert "Your Prophet only goes into a city, and this tile has no free one." in lines
    assert lines[:2] == [
        "Your tile is on **O13**.",
        "Tap a letter to put a piece on that spot, or pass.",
    ]


def test_a_spot_the_reader_holds_is_said_to_them_as_theirs() -> None:
    """Issue 28: "…because Ruth already has a piece there", said to Ruth, is "you"; the spot
    takes its own article in each language."""
    game = Game.new(players=2, seed=0, deck=["T39", "T39", "T39", "T39"])
    game.apply(PlaceTile(1, 0, 0))
    game.apply(Deploy("E"))  # Ruth on the road
    game.apply(PlaceTile(2, 0, 0))  # Boaz extends it
    game.apply(Deploy("S"))  # and stands in the field south of it
    game.apply(PlaceTile(3, 0, 0))  # Ruth extends both
    panel = FRONT.panel(seen(game, 0))
    said = {lang: [say(line, lang) for line in panel.lines] for lang in ("en", "nl", "es")}
    taken = "The road from east to west is not offered: you already have a piece there."
    assert taken in said["en"]
    assert "De weg van oost naar west kun je niet kiezen: je hebt er al een stuk." in said["nl"]
    assert "El camino de este a oeste no está disponible: ya tienes una pieza ahí." in said["es"]
    assert "The field to the south is not offered: Boaz already has a piece there." in said["en"]
    assert "Het veld in het zuiden kun je niet kiezen: Boaz heeft er al een stuk." in said["nl"]
    assert "El campo al sur no está disponible: Boaz ya tiene una pieza ahí." in said["es"]
    assert not any("Ruth" in line for lines in said.values() for line in lines)


def test_with_no_followers_left_the_panel_says_so() -> None:
    game = Game.new(players=2, seed=5)
    while not (game.phase == "deploy" and game.followers_left(game.current_player) == 0):
        fields = [a for a in game.legal_actions() if isinstance(a, Deploy) and not a.prophet]
        game.apply(fields[0] if fields else game.legal_actions()[0])
    panel = FRONT.panel(seen(game, game.current_player))
    lines = texts(panel)
    left = "You have no followers left: they come back when their road or city is scored."
    assert any(left in line for line in lines)
    puts = [c for c in panel.controls if c.control == "put"]
    assert all(c.args[-1] == "1" for c in puts)  # the Prophet at most
    if not puts:
        assert "No piece can go on this tile" in lines[1]


def ark_game_moves() -> list[PlaceTile | Deploy | PlaceArk]:
    return [
        PlaceTile(0, -1, 180),
        Deploy("SSE"),
        PlaceArk(0, -1),
        PlaceTile(1, 0, 0),
        Deploy("E"),
        PlaceTile(-1, 0, 0),
    ]


def ark_game() -> Game:
    """Ruth's turn: the Ark on M12, Boaz's follower on N13, her tile just placed on L13."""
    game = Game.new(players=2, seed=0, deck=["T21", "T39", "T39", "T39"])
    for action in ark_game_moves():
        game.apply(action)
    return game


def test_the_ark_is_moved_by_choosing_where_it_ends_and_seeing_its_route_first() -> None:
    """Issue 27.2: the squares the Ark can reach are a menu with the points each gives; the
    route is shown, then confirmed, or taken back."""
    game = ark_game()
    panel = FRONT.panel(seen(game))
    (menu,) = [c for c in panel.controls if isinstance(c, Select)]
    assert menu.control == "ark" and menu.args == ("0",)
    assert [(say(o.label), o.value, say(o.description)) for o in menu.options] == [
        ("L13 · nobody scores", "SW", "Route SW, 2 steps"),
        ("M13 · nobody scores", "S", "Route S, 1 step"),
        ("N13 · Boaz +1", "SE", "Route SE, 2 steps"),
    ]
    route = FRONT.on_control(seen(game, 0), "ark", ("0",), ("SE",))
    assert isinstance(route, Panel)
    assert [(p.function, p.args[1]) for p in route.pictures] == [("render.covenant:ark", "SE")]
    assert texts(route)[0].startswith("The Ark would go from M12 to **N13** by SE: Boaz +1.")
    assert FRONT.on_control(seen(game), "go", ("SE",), ()) == Play(MoveArk("SE"))
    back = FRONT.on_control(seen(game), "back", (), ())
    assert isinstance(back, Panel) and labels(back, "pass") == ["Pass"]
    # Before the tile is placed, the same with the tile: its square comes first.
    before = Game.new(players=2, seed=0, deck=["T21", "T39", "T39", "T39"])
    for action in ark_game_moves()[:-1]:
        before.apply(action)
    chosen = FRONT.on_control(seen(before), "sq", ("-1", "0"), ())
    (menu,) = [c for c in chosen.controls if isinstance(c, Select)]  # type: ignore[union-attr]
    assert menu.args == ("-1", "0", "0", "0")
    route = FRONT.on_control(seen(before), "ark", menu.args, ("SE",))
    assert "✅ places your tile and moves the Ark" in texts(route)[0]  # type: ignore[arg-type]
    assert FRONT.on_control(seen(before), "go", ("-1", "0", "0", "SE"), ()) == Play(
        PlaceTile(-1, 0, 0), (MoveArk("SE"),)
    )
    assert controls(route)[("rot", ("-1", "0", "0"))]  # back to the tile on its square


def test_the_ark_is_put_in_the_first_city_with_a_tap_on_its_number() -> None:
    game = placed_city()
    game.apply(Deploy("SSE"))
    assert game.phase == "place_ark"
    panel = FRONT.panel(seen(game))
    assert [(c.control, c.args, say(c.label)) for c in panel.controls] == [
        ("putark", ("0", "-1"), "1 · M12"),
        ("putark", ("0", "0"), "2 · M13"),
    ]
    assert [p.function for p in panel.pictures] == ["render.covenant:put_ark"]
    assert FRONT.on_control(seen(game), "putark", ("0", "0"), ()) == Play(PlaceArk(0, 0))


def test_the_board_post_shows_the_latest_moves_and_the_whole_board_is_a_tap_away() -> None:
    game = placed_city()
    post = FRONT.board_post(game.view(None), NAMES)
    assert [p.function for p in post.pictures] == ["render.covenant:latest"]
    (button,) = post.controls
    assert isinstance(button, Button) and button.who == "seat" and "overview" in FRONT.seat_controls
    whole = FRONT.on_control(seen(game, 1), "overview", (), ())
    assert isinstance(whole, Panel)
    assert [p.function for p in whole.pictures] == ["render.covenant:board"]


def test_players_never_read_a_tile_id() -> None:
    """11.13: what a tile shows, in words."""
    game = Game.new(players=2, seed=0, deck=["T21", "T39"])
    ids = re.compile(r"\bT\d\d\b")
    spots = FRONT.panel(seen(game))
    post = FRONT.board_post(game.view(None), NAMES)
    lines = [*texts(spots), *texts(post)]
    assert not [line for line in lines if ids.search(line)]
    assert "Your tile shows a city on 1 side." in lines[0]
    assert "The next tile (in the picture) shows a city on 1 side. 1 more is in the bag." in lines
    assert say(tile_words("T57")) == "4 roads that meet on it"
    assert say(tile_words("T01")) == "a city on 4 sides and a scroll"
    told = story([TurnRecord(0, 1, ("player",), (TileDiscarded(0, "T21"),), True, (0, 0))], NAMES)
    assert [say(line) for line in told] == [
        "A tile with a city on 1 side fits nowhere, so it goes back in the box."
    ]


def test_the_rules_have_a_key_and_say_how_squares_are_named() -> None:
    """11.14."""
    rules = FRONT.rules_help({})
    assert [p.function for p in rules.pictures] == [
        "render.covenant:rules_board",
        "render.covenant:rules_key",
    ]
    text = say(rules.lines[0])
    assert "the start tile is M13" in text and "sheep" in text and "Ark" in text


def test_in_the_german_edition_the_temple_is_a_spot_of_its_own() -> None:
    import render.covenant as pictures
    from engine.common import Rng
    from engine.covenant.players import sensible_action

    game, rng = Game.new(players=3, seed=1, edition="de"), Rng(1)
    while not (game.phase == "deploy" and Deploy("temple") in game.legal_actions()):
        game.apply(sensible_action(game, rng))
    choices = deploy_choices(game)
    temple = [c for c in choices if c.port == "temple"]
    assert [say(c.label) for c in temple] == ["H · temple in the middle"]
    assert FRONT.on_command(seen(game, game.current_player), "follower", {"spot": "H"}) == Play(
        Deploy("temple")
    )
    assert pictures.placed_png(game)[:4] == b"\x89PNG"
    game.apply(Deploy("temple"))
    assert pictures.board_png(game.view(None))[:4] == b"\x89PNG"  # the piece on the temple


def test_where_the_ark_can_go_takes_two_menus_with_ids_of_their_own() -> None:
    """More than 25 squares the Ark can reach: two menus, best first; Discord refuses two
    controls of a message with one id."""
    from engine.common import Rng
    from engine.covenant.players import sensible_action

    game, rng = Game.new(players=3, seed=1), Rng(1)
    while not (
        game.phase == "deploy" and game.ark is not None and len(ark_destinations(game)) > 25
    ):
        game.apply(sensible_action(game, rng))
    panel = FRONT.panel(Seen(game, game.current_player, (*NAMES, "Naomi"), 0, {}))
    menus = [c for c in panel.controls if isinstance(c, Select)]
    assert [m.args for m in menus] == [("0",), ("1",)]
    offered = [o.value for m in menus for o in m.options]
    best = [d.path for d in ark_destinations(game)]
    assert offered == best[:50]
    ids = [(type(c).__name__, c.control, c.args) for c in panel.controls]
    assert len(set(ids)) == len(ids)
    assert max(c.row or 0 for c in panel.controls) <= 4


def test_a_route_is_shown_in_the_readers_compass_letters_and_typed_in_theirs_or_english() -> None:
    """Issue 42.1: Dutch says N, O, Z, W and Spanish N, E, S, O; the engine keeps N, E, S, W.
    Ruth's Ark on M12 can go SW (to L13), S or SE (to N13)."""
    game = ark_game()
    route = FRONT.on_control(seen(game), "ark", ("0",), ("SW",))
    assert isinstance(route, Panel)
    said = {lang: say(route.lines[0], lang) for lang in ("en", "nl", "es", "es-419")}
    assert said["en"].startswith("The Ark would go from M12 to **L13** by SW: nobody scores.")
    assert said["nl"].startswith("De Ark zou van M12 naar **L13** gaan via ZW: niemand scoort.")
    assert said["es"].startswith("El Arca iría de M12 a **L13** por SO: nadie puntúa.")
    assert said["es-419"].startswith("El Arca iría de M12 a **L13** por SO")
    (menu,) = [c for c in FRONT.panel(seen(game)).controls if isinstance(c, Select)]
    assert [say(o.description, "nl") for o in menu.options] == [
        "Route ZW, 2 stappen",
        "Route Z, 1 stap",
        "Route ZO, 2 stappen",
    ]
    assert say(menu.options[0].description, "es") == "Ruta SO, 2 pasos"
    # Typed: the reader's letters first (a Spanish O is west, a Dutch O east), then English.
    typed = {
        ("nl", "zw"): "SW",
        ("nl", "ZO"): "SE",
        ("nl", "se"): "SE",
        ("es", "so"): "SW",
        ("es", "SW"): "SW",
        ("es-419", "so"): "SW",
        ("es", "se"): "SE",
        ("en", " sw "): "SW",
    }
    for (language, path), engine in typed.items():
        chosen = FRONT.on_command(seen_in(game, language), "ark", {"path": path})
        assert chosen == Play(MoveArk(engine)), (language, path)
    # Autocomplete names and fills in the reader's letters.
    offered = FRONT.autocomplete(seen_in(game, "nl"), "ark", "path", "", {})
    assert [(say(c.label, "nl"), c.value) for c in offered] == [
        ("Z: niemand scoort", "Z"),
        ("ZW: niemand scoort", "ZW"),
        ("ZO: Boaz +1", "ZO"),
    ]
    offered = FRONT.autocomplete(seen_in(game, "es"), "ark", "path", "", {})
    assert [c.value for c in offered] == ["S", "SO", "SE"]
    # The commands' own words and the refusal of a bad route say the reader's letters.
    assert say(Text("covenant.command.ark"), "nl").endswith("bijv. NNO")
    assert say(Text("covenant.illegal.bad_path"), "nl") == (
        "De Ark gaat 1 tot 5 stappen, elk N, O, Z of W."
    )
    assert say(Text("covenant.illegal.bad_path"), "es") == (
        "El Arca se mueve de 1 a 5 casillas, cada una N, E, S u O."
    )
    assert "N, O, Z, W" in say(Text("covenant.command.ark_path"), "nl")
    assert "N, E, S, O" in say(Text("covenant.command.ark_path"), "es")


def test_the_arks_picture_says_its_route_in_the_readers_letters() -> None:
    from render.covenant.closeups import _ark_caption

    game = ark_game()
    assert _ark_caption(game, "SW", ["Ruth", "Boaz"], "nl") == "ZW: niemand scoort"
    assert _ark_caption(game, "SW", ["Ruth", "Boaz"], "es") == "SO: nadie puntúa"
    assert _ark_caption(game, "SW", ["Ruth", "Boaz"], "en") == "SW: nobody scores"


def seen_in(game: Game, language: str, seat: int = 0) -> Seen:
    return Seen(game, seat, NAMES, 0, {}, language)
