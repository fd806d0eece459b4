"""Completing and scoring roads, cities and temples during play, with exact points."""

from __future__ import annotations

from engine.covenant import (
    ArkPlaced,
    Deploy,
    FeatureScored,
    Game,
    Pass,
    PieceRef,
    PlaceArk,
    PlaceTile,
)
from tests.games.covenant.engine.helpers import play, scored, turn

# The start tile T27 lies at (0, 0): a one-edge city to the north, a road running east-west,
# a field strip between city and road, and a field to the south.


def test_a_small_city_completed_with_a_follower_placed_on_the_closing_tile() -> None:
    # T21 turned 180 has its city to the south: it closes the start tile's city.
    game = Game.new(players=2, seed=0, deck=["T21", "T39"])
    events = play(game, [[PlaceTile(0, -1, 180), Deploy("S")]])
    (city,) = scored(events, "city")
    assert city == FeatureScored(
        feature="city",
        complete=True,
        squares=((0, -1), (0, 0)),
        tiles=2,
        extras=0,
        wolves=0,
        points=(4, 0),
        winners=(0,),
        returned=(PieceRef(0, 0, -1, "SSE"),),
    )
    # The follower came back at once; the first completed city brings the Ark in.
    assert game.board[(0, -1)].pieces == ()
    assert game.followers_left(0) == 7
    assert game.phase == "place_ark"
    assert game.current_player == 0
    assert set(game.legal_actions()) == {PlaceArk(0, -1), PlaceArk(0, 0)}


def test_a_city_scores_2_a_tile_and_2_a_scroll() -> None:
    # T22 (city north, 1 scroll) turned 180 closes the start city: 2 tiles, 1 scroll = 6.
    game = Game.new(players=2, seed=0, deck=["T22"])
    events = play(game, [[PlaceTile(0, -1, 180), Deploy("S"), PlaceArk(0, 0)]])
    (city,) = scored(events, "city")
    assert (city.tiles, city.extras, city.points) == (2, 1, (6, 0))


def test_road_between_two_crossings_with_an_oasis() -> None:
    # T50 is a crossing (roads E, S, W end on it); T56 is a crossing with an oasis on its E road.
    game = Game.new(players=2, seed=0, deck=["T50", "T56"])
    events = play(game, [turn(1, 0, 0, Deploy("W")), turn(-1, 0, 0)])
    (road,) = scored(events, "road")
    assert road.squares == ((-1, 0), (0, 0), (1, 0))
    assert (road.tiles, road.extras, road.points, road.complete) == (3, 1, (4, 0), True)
    assert game.scores == (4, 0)
    assert game.breakdown(0)["road"] == 4
    assert game.followers_left(0) == 7


def test_a_road_loop_is_complete_and_each_tile_counts_once() -> None:
    # Four bends (T37) south of the start tile close a ring of road.
    game = Game.new(players=2, seed=0, deck=["T37"] * 4)
    events = play(
        game,
        [
            turn(0, 1, 270, Deploy("E")),  # road east and south; seat 0 stands on it
            turn(1, 1, 0),  # road west and south
            turn(0, 2, 180),  # road north and east
            turn(1, 2, 90),  # road north and west: the loop closes
        ],
    )
    (road,) = scored(events, "road")
    assert (road.tiles, road.extras, road.points) == (4, 0, (4, 0))
    assert road.squares == ((0, 1), (1, 1), (0, 2), (1, 2))
    # The game ended with that tile: the follower had already come home.
    assert game.scores == (4, 0)


def test_a_city_that_wraps_around_a_tile_counts_that_tile_once() -> None:
    # T10 has two separate one-edge cities; turned 180 they face south and west.
    # Three T12 corners (city on two sides) lead one round to the other.
    game = Game.new(players=2, seed=0, deck=["T10", "T12", "T12", "T12"])
    events = play(
        game,
        [
            turn(0, 1, 180, Deploy("SSE")),  # seat 0 on the southern city of T10
            turn(-1, 1, 90),  # city east and south: joins T10's western city
            turn(0, 2, 270),  # city north and west: joins T10's southern city
            turn(-1, 2, 0),  # city north and east: both halves become one closed city
        ],
    )
    (city,) = scored(events, "city")
    assert city.squares == ((-1, 1), (0, 1), (-1, 2), (0, 2))
    assert (city.tiles, city.points) == (4, (8, 0))


def test_first_ark_placement_when_two_cities_complete_at_once() -> None:
    # T19 has two separate cities (north and south): it closes the start tile's city and a
    # one-tile city above it in the same move.
    game = Game.new(players=2, seed=0, deck=["T39", "T21", "T21", "T21", "T19"])
    events = play(
        game,
        [
            turn(1, 0, 0),
            turn(1, -1, 90),  # city east, fields elsewhere
            turn(1, -2, 90),
            turn(0, -2, 180, Deploy("S")),  # seat 1 on a city open to the south
            [PlaceTile(0, -1, 0), Deploy("S")],  # seat 0 closes both cities
        ],
    )
    cities = scored(events, "city")
    assert [(c.squares, c.points) for c in cities] == [
        (((0, -2), (0, -1)), (0, 4)),
        (((0, -1), (0, 0)), (4, 0)),
    ]
    assert game.phase == "place_ark"
    assert game.ark_choices == ((0, -2), (0, -1), (0, 0))
    assert game.legal_actions() == [PlaceArk(0, -2), PlaceArk(0, -1), PlaceArk(0, 0)]
    assert play(game, [[PlaceArk(0, -2)]])[0] == ArkPlaced(0, 0, -2)
    assert game.ark == (0, -2)
    assert game.phase == "over"


#: Seats alternate: 0 north, 1 corner, 0 filler, 1 east, 0 corner, 1 filler, 0 south, 1 closes.
PROPHET_DECK = ["T21", "T21", "T39", "T21", "T21", "T39", "T21", "T02"]
PROPHET_ORDER = ("north", "corner_ne", "filler1", "east", "corner_se", "filler2", "south", "close")


def _three_city_stubs(deploys: dict[str, Deploy | None]) -> dict[str, list]:
    """Turns that build three one-edge cities around (0, 2), then close them with T02.

    Squares: north stub (0, 1), east stub (1, 2), south stub (0, 3); corners (1, 1) and
    (1, 3) and road fillers at (-1, 0), (-2, 0) give the players something else to do.
    """

    def then(name: str) -> tuple:
        action = deploys.get(name)
        return (action,) if action else ()

    return {
        "north": turn(0, 1, 180, *then("north")),
        "corner_ne": turn(1, 1, 0),
        "east": turn(1, 2, 270, *then("east")),
        "corner_se": turn(1, 3, 90),
        "south": turn(0, 3, 0, *then("south")),
        "filler1": turn(-1, 0, 0),
        "filler2": turn(-2, 0, 0),
        "close": turn(0, 2, 0),
    }


def test_three_way_tie_each_scores_in_full() -> None:
    stubs = _three_city_stubs({"north": Deploy("S"), "east": Deploy("W"), "south": Deploy("N")})
    game = Game.new(players=3, seed=0, deck=["T21", "T21", "T21", "T21", "T21", "T02"])
    # Seats in turn: 0 north, 1 corner, 2 east, 0 corner, 1 south, 2 closes.
    events = play(
        game,
        [stubs[k] for k in ("north", "corner_ne", "east", "corner_se", "south")]
        + [[PlaceTile(0, 2, 0), Pass()]],
    )
    (city,) = scored(events, "city")
    assert (city.tiles, city.winners, city.points) == (4, (0, 1, 2), (8, 8, 8))
    assert game.scores == (8, 8, 8)
    assert all(game.followers_left(seat) == 7 for seat in range(3))


def test_a_prophet_against_two_followers_scores_nothing() -> None:
    stubs = _three_city_stubs(
        {"north": Deploy("S"), "east": Deploy("W", prophet=True), "south": Deploy("N")}
    )
    game = Game.new(players=2, seed=0, deck=PROPHET_DECK)
    # Seats alternate: 0 north, 1 corner, 0 filler, 1 east (Prophet), 0 corner,
    # 1 filler, 0 south, 1 closes.
    events = play(
        game,
        [stubs[name] for name in PROPHET_ORDER],
    )
    (city,) = scored(events, "city")
    assert (city.winners, city.points, city.doubled) == ((0,), (8, 0), ())
    # The Prophet went to the box, never to come back.
    assert game.prophet_state(1) == "box"
    assert not game.prophet_available(1)


def test_a_prophet_in_a_tie_doubles_its_owners_points() -> None:
    stubs = _three_city_stubs({"north": Deploy("S"), "east": Deploy("W", prophet=True)})
    game = Game.new(players=2, seed=0, deck=PROPHET_DECK)
    events = play(
        game,
        [stubs[name] for name in PROPHET_ORDER],
    )
    (city,) = scored(events, "city")
    assert (city.winners, city.points, city.doubled) == ((0, 1), (8, 16), (1,))
    assert game.breakdown(1)["city"] == 16
    assert game.prophet_state(1) == "box"


def test_a_completed_temple_gives_7_to_the_majority_and_pieces_stay() -> None:
    # T48: temple in the middle, roads east and west end at it. Three straight roads
    # (T39) surround it on the east, west and south; the start tile is to its north.
    game = Game.new(players=2, seed=0, deck=["T48", "T39", "T39", "T39"])
    events = play(
        game,
        [
            turn(0, 1, 0, Deploy("E")),  # seat 0 on the temple tile's east road
            turn(1, 1, 0, Deploy("NNW")),  # seat 1 in the field north of that road
            turn(-1, 1, 0, Deploy("ESE")),  # seat 0 in the southern field
            turn(0, 2, 0),  # seat 1 completes the temple
        ],
    )
    (temple,) = scored(events, "temple")
    assert temple.squares == ((0, 1), (0, 0), (-1, 1), (1, 1), (0, 2))
    assert (temple.complete, temple.winners, temple.points) == (True, (0,), (7, 0))
    assert game.board[(0, 1)].pieces == (PieceRef(0, 0, 1, "E"),)
    assert game.board[(1, 1)].pieces == (PieceRef(1, 1, 1, "NNW"),)


def test_roads_are_scored_before_the_temple_and_their_pieces_no_longer_count() -> None:
    # The crossing T50 at (1, 1) completes the temple and, in the same move, the short
    # road from the temple to the crossing: seat 0's follower there goes home first.
    game = Game.new(players=2, seed=0, deck=["T48", "T39", "T39", "T50"])
    events = play(
        game,
        [
            turn(0, 1, 0, Deploy("E")),  # seat 0: road from the temple going east
            turn(-1, 1, 0, Deploy("W")),  # seat 1: road from the temple going west
            turn(0, 2, 0, Deploy("E")),  # seat 0: a road south of the temple
            turn(1, 1, 0),  # seat 1: the crossing
        ],
    )
    road = next(e for e in scored(events, "road") if e.complete)
    temple = next(e for e in scored(events, "temple") if e.complete)
    assert events.index(road) < events.index(temple)
    assert (road.tiles, road.points) == (2, (2, 0))
    # Seat 0 keeps one piece near the temple, seat 1 one: a tie, 7 each.
    assert (temple.winners, temple.points) == ((0, 1), (7, 7))
    # Final scoring: seat 0's road at (0, 2) is 1 tile; seat 1's road west of the temple
    # is 2 tiles (it ends at the temple, open at the far end).
    assert game.scores == (2 + 7 + 1, 7 + 2)


def test_a_temple_is_scored_once() -> None:
    game = Game.new(players=2, seed=0, deck=["T48", "T39", "T39", "T39", "T39"])
    events = play(
        game,
        [turn(0, 1, 0, Deploy("E")), turn(1, 1, 0), turn(-1, 1, 0), turn(0, 2, 0), turn(1, 2, 0)],
    )
    assert len([e for e in scored(events, "temple") if e.complete]) == 1
