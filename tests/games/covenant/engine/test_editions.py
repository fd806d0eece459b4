"""The editions as game options: each rule that differs, on a concrete board, in every edition.

The start tile T27 lies at (0, 0): a one-edge city north, a road east-west, fields.
"""

from __future__ import annotations

import json

import pytest

from engine.covenant import (
    ArkMoved,
    ArkPlaced,
    Deploy,
    FeatureScored,
    Game,
    IllegalAction,
    MoveArk,
    Pass,
    PieceDeployed,
    PieceRef,
    PlaceArk,
    PlaceTile,
)
from engine.covenant.editions import (
    DECISIONS,
    EDITIONS,
    SWITCHES,
    decisions,
    differences,
    edition,
    rules,
)
from tests.games.covenant.engine.helpers import play, scored, turn

ALL = ("en2", "en1", "de")


def refused(game: Game, action: object, code: str, **params: object) -> IllegalAction:
    before = game.to_json()
    with pytest.raises(IllegalAction) as error:
        game.apply(action)  # type: ignore[arg-type]
    assert (error.value.code, error.value.params) == (code, params)
    assert game.to_json() == before
    return error.value


# ---------------------------------------------------------------- the option itself


def test_the_edition_is_chosen_at_new_and_english_second_is_the_default() -> None:
    assert Game.new(players=2, seed=0).edition == "en2"
    for key in ALL:
        game = Game.new(players=2, seed=0, edition=key)
        assert game.edition == key
        assert game.rules is EDITIONS[key]
        assert json.loads(game.to_json())["edition"] == key
        assert Game.from_json(game.to_json()).edition == key
        assert game.copy().edition == key and game.view(None).edition == key


def test_an_unknown_edition_is_refused_with_a_code() -> None:
    with pytest.raises(ValueError) as error:
        Game.new(players=2, seed=0, edition="fr")
    assert isinstance(error.value, IllegalAction)
    assert error.value.code == "unknown_edition"
    assert error.value.params == {"edition": "fr", "known": ("en2", "en1", "de")}


def test_a_save_without_an_edition_loads_as_english_second_and_a_bad_one_is_refused() -> None:
    state = json.loads(Game.new(players=2, seed=3).to_json())
    del state["edition"]
    assert Game.from_json(json.dumps(state)).edition == "en2"
    state["edition"] = "xx"
    with pytest.raises(ValueError):
        Game.from_json(json.dumps(state))


def test_the_rules_help_lists_each_edition_as_data() -> None:
    assert differences("en2") == ()
    assert [r.key for r in differences("en1")] == [
        "ark_may_end_on_start",
        "scored_before_temples",
        "unfinished_counts",
    ]
    assert [(r.key, r.variant, dict(r.params)) for r in differences("de")] == [
        ("follower_on_temple", "allowed", {}),
        ("first_ark_points", "points", {"points": 2}),
        ("ark_towards_temples", "towards", {}),
        ("ark_temple_points", "points", {"points": 3}),
        ("temple_ark_factor", "multiplied", {"points": 14}),
    ]
    for key in ALL:
        described = rules(key)
        assert [r.key for r in described] == list(SWITCHES)
        assert all(r.text.endswith(".") and "{" not in r.text for r in described)
        assert all(r.source.startswith("covenant-en footnote") for r in described)
    assert (
        rules("de")[-1].text
        == "A temple completed while the Ark stands on its tile scores 14, not 7."
    )
    assert {d.key for d in decisions("de")} >= {
        "ark_towards_which_temple",
        "temple_follower_returns",
    }
    assert decisions("en2") == ()
    assert all(set(d.editions) <= set(EDITIONS) for d in DECISIONS)
    with pytest.raises(IllegalAction):
        edition("en3")


# ---------------------------------------------------------------- the Ark's way home (en1)


def ark_on_the_start_tile(key: str) -> Game:
    """Seat 0 on the road at (1, 0), seat 1 in the field at (1, -1), the Ark on (0, 0),
    placed by seat 0 when a tile closed two empty cities. Seat 1 to place a straight road."""
    game = Game.new(
        players=2,
        seed=0,
        deck=["T39", "T21", "T21", "T21", "T19", "T39", "T39", "T39"],
        edition=key,
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
    game.apply(PlaceTile(-1, 0, 0))
    return game


@pytest.mark.parametrize(
    ("key", "code"), [("en2", "ark_revisit"), ("en1", None), ("de", "ark_no_temple")]
)
def test_the_ark_ends_on_its_start_tile_only_in_the_first_edition(
    key: str, code: str | None
) -> None:
    game = ark_on_the_start_tile(key)
    paths = {a.path for a in game.legal_actions() if isinstance(a, MoveArk)}
    # East onto seat 0's follower and back; round the block (1,0) (1,-1) (0,-1) and home.
    assert ("EW" in paths, "ENWS" in paths) == (code is None, code is None)
    assert "EWN" not in paths  # home again ends the move: it is never crossed
    step = {} if code == "ark_no_temple" else {"step": 2}
    refused(game, MoveArk("EWN"), code or "ark_revisit", **step)
    if code is not None:
        # German: no temple on this board, so the Ark cannot move at all.
        assert bool(paths) == (key != "de")
        refused(game, MoveArk("ENWS"), code, **({"step": 4} if step else {}))
        return
    events = game.apply(MoveArk("ENWS"))
    assert events[0] == ArkMoved(
        seat=1,
        path="ENWS",
        start=(0, 0),
        squares=((1, 0), (1, -1), (0, -1), (0, 0)),
        points=(1, 1),
    )
    assert game.ark == (0, 0)
    assert game.scores == (1, 1)


# ---------------------------------------------------------------- the first Ark placement (de)


@pytest.mark.parametrize(("key", "points"), [("en2", 0), ("en1", 0), ("de", 2)])
def test_placing_the_ark_in_the_first_city_scores_2_in_german(key: str, points: int) -> None:
    game = Game.new(players=2, seed=0, deck=["T21", "T39"], edition=key)
    game.apply(PlaceTile(0, -1, 180))  # closes the start tile's city: 2 tiles, nobody in it
    game.apply(Pass())
    events = game.apply(PlaceArk(0, -1))
    assert events[0] == ArkPlaced(0, 0, -1, points)
    assert game.scores == (points, 0)
    assert game.breakdown(0)["ark"] == points


# ---------------------------------------------------------------- temple and city at once (en1)


@pytest.mark.parametrize(
    ("key", "order", "temple", "scores"),
    [
        ("en2", ["city", "temple"], (7, 7), (11, 7)),
        ("en1", ["temple", "city"], (7, 0), (11, 0)),
        ("de", ["city", "temple"], (7, 7), (11, 7)),
    ],
)
def test_a_city_completed_with_a_temple_is_scored_after_it_only_in_the_first_edition(
    key: str, order: list[str], temple: tuple[int, int], scores: tuple[int, int]
) -> None:
    # Temple T48 at (0, 1): seat 0 on its east road, seat 1 in the field at (1, 1). Seat 0's
    # last cross tile (0, 2) closes a two-tile city with (1, 2) and a follower goes into it.
    game = Game.new(players=2, seed=0, deck=["T48", "T39", "T39", "T21", "T21", "T39"], edition=key)
    play(
        game,
        [
            turn(0, 1, 0, Deploy("E")),
            turn(1, 1, 0, Deploy("NNW")),
            turn(-1, 1, 0),
            turn(1, 2, 270),
        ],
    )
    game.apply(PlaceTile(0, 2, 90))
    events = game.apply(Deploy("ENE"))
    assert [e.feature for e in scored(events)] == order
    (city,) = scored(events, "city")
    assert (city.squares, city.points) == (((0, 2), (1, 2)), (4, 0))
    (done,) = scored(events, "temple")
    assert (done.complete, done.points) == (True, temple)
    game.apply(PlaceArk(0, 2))
    assert game.scores == (scores[0] + (2 if key == "de" else 0), scores[1])
    assert game.followers_left(0) == 6  # the city follower is home, the road one is not


# ---------------------------------------------------------------- unfinished: per segment (en1)


@pytest.mark.parametrize(
    ("key", "points", "segments"), [("en2", 4, None), ("en1", 5, 5), ("de", 4, None)]
)
def test_an_unfinished_city_counts_segments_in_the_first_edition(
    key: str, points: int, segments: int | None
) -> None:
    # T10 (two one-edge cities, south and west) at (0, 1) closes a ring with T12 corners at
    # (-1, 1) and (-1, 2) and T02 at (0, 2), whose city stays open to the east: one city of
    # 4 tiles and 5 segments (two on T10), no scroll, seat 0 in it.
    game = Game.new(players=2, seed=0, deck=["T50", "T12", "T12", "T02", "T10"], edition=key)
    events = play(
        game,
        [
            turn(-1, 0, 0),
            turn(-1, 1, 90),
            turn(-1, 2, 0, Deploy("NNW")),
            turn(0, 2, 270),
            turn(0, 1, 180),
        ],
    )
    (city,) = scored(events, "city")
    assert city.squares == ((-1, 1), (0, 1), (-1, 2), (0, 2))
    assert (city.complete, city.tiles, city.segments, city.points) == (
        False,
        4,
        segments,
        (points, 0),
    )
    assert game.scores == (points, 0)


# ---------------------------------------------------------------- a follower on the temple (de)


def test_a_follower_may_stand_on_a_temple_only_in_german() -> None:
    for key in ("en2", "en1"):
        game = Game.new(players=2, seed=0, deck=["T48"], edition=key)
        game.apply(PlaceTile(0, 1, 0))
        assert Deploy("temple") not in game.legal_actions()
        refused(game, Deploy("temple"), "temple_forbidden", edition=key)
    game = Game.new(players=2, seed=0, deck=["T48", "T39"], edition="de")
    game.apply(PlaceTile(0, 1, 0))
    deploys = [a for a in game.legal_actions() if isinstance(a, Deploy)]
    assert deploys == [Deploy("NNW"), Deploy("E"), Deploy("ESE"), Deploy("W"), Deploy("temple")]
    refused(game, Deploy("temple", prophet=True), "prophet_not_city")
    events = game.apply(Deploy("Temple"))
    assert events[0] == PieceDeployed(0, 0, 1, "temple", "temple", False)
    assert game.board[(0, 1)].pieces == (PieceRef(0, 0, 1, "temple"),)
    assert game.followers_left(0) == 6
    assert Game.from_json(game.to_json()).to_json() == game.to_json()
    game.apply(PlaceTile(1, 0, 0))  # seat 1: a tile without a temple
    refused(game, Deploy("temple"), "no_temple")


def test_a_follower_on_a_temple_counts_for_it_and_goes_home_when_it_is_scored() -> None:
    game = Game.new(players=2, seed=0, deck=["T48", "T39", "T39", "T21", "T39"], edition="de")
    play(
        game,
        [
            turn(0, 1, 0, Deploy("temple")),
            turn(1, 1, 0),
            turn(-1, 1, 0),
        ],
    )
    game.apply(PlaceTile(0, 2, 180))
    events = game.apply(Pass())  # seat 1 completes the temple
    (temple,) = scored(events, "temple")
    assert temple == FeatureScored(
        feature="temple",
        complete=True,
        squares=((0, 1), (0, 0), (-1, 1), (1, 1), (0, 2)),
        tiles=5,
        extras=0,
        wolves=0,
        points=(7, 0),
        winners=(0,),
        returned=(PieceRef(0, 0, 1, "temple"),),
    )
    assert game.followers_left(0) == 7 and game.board[(0, 1)].pieces == ()


def test_a_follower_on_an_unfinished_temple_counts_for_the_3_points() -> None:
    game = Game.new(players=2, seed=0, deck=["T48"], edition="de")
    events = play(game, [turn(0, 1, 0, Deploy("temple"))])
    (temple,) = scored(events, "temple")
    assert (temple.complete, temple.points, temple.returned) == (False, (3, 0), ())
    assert game.scores == (3, 0)


# ---------------------------------------------------------------- the Ark heads for a temple (de)

# Two temples, T48 at (0, 1) and T58 at (1, 0), around the start tile; a bend T37 at (1, 1)
# joins them. The first city (start + T21 at (0, -1)) brought the Ark in.
TWO_TEMPLES = ["T21", "T48", "T58", "T37", "T39", "T21", "T39"]


def two_temples(key: str, ark: tuple[int, int]) -> Game:
    """Seat 1 in the south field of the temple at (0, 1); seat 1 to play, with T39 in hand
    for (-1, 1). The Ark on ``ark`` ((0, 0) or (0, -1))."""
    game = Game.new(players=2, seed=0, deck=TWO_TEMPLES, edition=key)
    play(
        game,
        [
            [PlaceTile(0, -1, 180), Pass(), PlaceArk(*ark)],
            turn(0, 1, 0, Deploy("ESE")),
            turn(1, 0, 0),
        ],
    )
    return game


def test_in_german_the_ark_only_moves_towards_one_same_temple() -> None:
    game = two_temples("de", (0, -1))
    game.apply(PlaceTile(1, 1, 90))
    paths = [a.path for a in game.legal_actions() if isinstance(a, MoveArk)]
    # S approaches both temples; SS ends on (0, 1), SE on (1, 0). SES and SSE turn away.
    assert paths == ["S", "SE", "SS"]
    assert refused(game, MoveArk("SSE"), "ark_not_towards_temple", step=3).params == {"step": 3}
    refused(game, MoveArk("N"), "ark_off_board", step=1)
    assert game.ark_gain("SS") == (0, 1 + 3)  # seat 1's field follower, and 3 for the mover
    events = game.apply(MoveArk("SS"))
    assert events[0] == ArkMoved(1, "SS", (0, -1), ((0, 0), (0, 1)), (0, 4), bonus=3)
    assert game.scores == (2, 4)
    assert game.breakdown(1)["ark"] == 4


def test_in_german_each_step_heads_for_the_same_temple_not_for_any() -> None:
    game = two_temples("de", (0, 0))
    game.apply(PlaceTile(1, 1, 90))
    paths = [a.path for a in game.legal_actions() if isinstance(a, MoveArk)]
    # SE would come closer to (0, 1), then to (1, 0): two temples, so it is refused.
    assert paths == ["E", "S"]
    refused(game, MoveArk("SE"), "ark_not_towards_temple", step=2)
    for key in ("en2", "en1"):
        english = two_temples(key, (0, 0))
        english.apply(PlaceTile(1, 1, 90))
        assert {"N", "SE", "ES", "ESW"} <= {
            a.path for a in english.legal_actions() if isinstance(a, MoveArk)
        }
        english.apply(MoveArk("S"))
        assert english.scores == (0, 1)  # no bonus for the temple in English


def test_in_german_the_ark_waits_for_a_temple() -> None:
    game = Game.new(players=2, seed=0, deck=["T21", "T39", "T48", "T39"], edition="de")
    play(game, [[PlaceTile(0, -1, 180), Pass(), PlaceArk(0, 0)]])
    game.apply(PlaceTile(1, 0, 0))
    assert not any(isinstance(a, MoveArk) for a in game.legal_actions())
    refused(game, MoveArk("E"), "ark_no_temple")
    game.apply(Pass())
    game.apply(PlaceTile(0, 1, 0))  # the temple
    assert [a.path for a in game.legal_actions() if isinstance(a, MoveArk)] == ["S"]
    game.apply(MoveArk("S"))  # seat 0 brings the Ark onto the temple: 3
    assert game.scores == (2 + 3, 0)
    game.apply(PlaceTile(2, 0, 0))
    # On the only temple: no temple left to head for.
    refused(game, MoveArk("N"), "ark_on_only_temple")


# ---------------------------------------------------------------- 14 for a temple with the Ark (de)


@pytest.mark.parametrize(
    ("key", "temple", "scores"),
    [("en2", 7, (0, 1 + 7)), ("en1", 7, (0, 1 + 7)), ("de", 14, (2, 1 + 3 + 14))],
)
def test_a_temple_completed_with_the_ark_on_it_scores_14_in_german(
    key: str, temple: int, scores: tuple[int, int]
) -> None:
    game = two_temples(key, (0, 0))
    play(game, [turn(1, 1, 90), turn(-1, 1, 0)])
    # Seat 1 closes the cross round (0, 1) and moves the Ark onto it in the same turn.
    game.apply(PlaceTile(0, 2, 180))
    events = game.apply(MoveArk("S"))
    (done,) = scored(events, "temple")
    assert (done.complete, done.points, done.ark_doubled) == (True, (0, temple), key == "de")
    assert game.scores == scores


def test_in_german_an_unfinished_temple_with_the_ark_still_scores_3() -> None:
    game = Game.new(players=2, seed=0, deck=["T21", "T48", "T39"], edition="de")
    play(
        game,
        [[PlaceTile(0, -1, 180), Pass(), PlaceArk(0, 0)], turn(0, 1, 0, Deploy("temple"))],
    )
    game.apply(PlaceTile(1, 1, 0))
    events = game.apply(MoveArk("S"))  # seat 0, on the last tile: the game ends
    (temple,) = scored(events, "temple")
    assert (temple.complete, temple.points, temple.ark_doubled) == (False, (0, 3), False)
    # Seat 0: 2 for the first Ark, 3 for the temple tile; seat 1: 1 from the Ark, 3.
    assert game.scores == (2 + 3, 1 + 3)


@pytest.mark.parametrize(("then", "points"), [(Pass(), 14), (MoveArk("E"), 7)])
def test_in_german_the_ark_counts_where_it_stands_when_the_temple_is_scored(
    then: object, points: int
) -> None:
    # The Ark reached the temple at (0, 1) a turn before; the turn that completes the temple
    # may leave it there (14) or move it off first (7).
    game = two_temples("de", (0, 0))
    play(game, [turn(1, 1, 90, MoveArk("S")), turn(-1, 1, 0)])
    assert game.ark == (0, 1)
    game.apply(PlaceTile(0, 2, 180))
    events = game.apply(then)  # type: ignore[arg-type]
    (done,) = scored(events, "temple")
    assert (done.points, done.ark_doubled) == ((0, points), points == 14)


def test_in_german_the_bonus_is_for_ending_on_a_temple_not_passing_one() -> None:
    # Temples at (0, 1) and (0, 3) south of the Ark, a crossing between them at (0, 2).
    game = Game.new(players=2, seed=0, deck=["T21", "T48", "T50", "T58", "T39"], edition="de")
    play(
        game,
        [
            [PlaceTile(0, -1, 180), Pass(), PlaceArk(0, 0)],
            turn(0, 1, 0),
            turn(0, 2, 0),
        ],
    )
    game.apply(PlaceTile(0, 3, 0))
    assert [a.path for a in game.legal_actions() if isinstance(a, MoveArk)] == ["S", "SS", "SSS"]
    # Seat 1 moves: onto the first temple, past it, or past it onto the second.
    assert [game.ark_gain(p) for p in ("S", "SS", "SSS")] == [(0, 3), (0, 0), (0, 3)]
