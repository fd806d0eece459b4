"""Learn by playing The Ark of the Covenant: each lesson on a concrete board where it is due
and one where it is not, what a turn scored in words, the lessons' texts and pictures."""

from __future__ import annotations

import importlib
import io
from collections.abc import Sequence
from typing import Any

import pytest
from PIL import Image

from bot.games import Seen, plugin
from bot.games.covenant.lessons import LESSONS, situation
from engine.covenant import RULES, Deploy, Game, MoveArk, Pass, PlaceArk, PlaceTile
from render.i18n import catalogue, say

TEACHER = plugin("covenant").teacher
NAMES = ("Ruth", "Boaz")
#: Road tiles enough that the end of the deck is far (the "end" lesson is not due).
ROADS = ["T39"] * 11


def seen(game: Game, seat: int = 0) -> Seen:
    return Seen(game, seat, NAMES, 0, {})


def new(*tiles: str, rest: Sequence[str] = ROADS) -> Game:
    """A two-player game whose deck is ``tiles`` and then ``rest``; Ruth (seat 0) learns."""
    return Game.new(players=2, seed=0, deck=[*tiles, *rest])


def play(game: Game, *actions: Any) -> Game:
    for action in actions:
        game.apply(action)
    return game


def due(game: Game, taught: frozenset[str] = frozenset(), seat: int = 0) -> list[str]:
    assert TEACHER is not None
    return TEACHER.due(seen(game, seat), taught)


def at_work(game: Game, seat: int = 0) -> list[str]:
    """The lessons whose rule is at work for ``seat``'s tile this turn (rings to show)."""
    return [key for key in LESSONS if situation(game, seat).squares(key)]


def said(lines: Sequence[Any], language: str = "en") -> list[str]:
    return [say(line, language) for line in lines]


# ------------------------------------------------------------------ the plugin and options


def test_the_plugin_teaches_the_rule_book_in_order() -> None:
    assert TEACHER is not None
    assert (
        TEACHER.lessons
        == LESSONS
        == (
            "placing",
            "followers",
            "prophet",
            "ark",
            "ark_moves",
            "roads",
            "cities",
            "majority",
            "temples",
            "ark_temple",
            "fields",
            "end",
        )
    )


def test_a_practice_game_is_short_arranged_and_its_options_are_valid() -> None:
    assert TEACHER is not None
    options = TEACHER.practice_options(7)
    assert options["length"] == "short" and len(options["deck"]) == 35
    assert RULES.check_options(options) == options


# ------------------------------------------------------------------ when each lesson is due


def test_one_lesson_a_turn_the_next_in_the_rule_books_order() -> None:
    game = new("T39")
    assert due(game) == ["placing"]
    assert due(game, frozenset({"placing"})) == ["followers"]
    # The next rule whatever the tile can do: the deal brings its situation about.
    assert due(game, frozenset({"placing", "followers"})) == ["prophet"]


def test_the_ark_doubling_a_temple_is_taught_only_in_an_edition_that_plays_it() -> None:
    upto = frozenset(LESSONS[: LESSONS.index("temples") + 1])
    assert due(new("T39"), upto) == ["fields"]
    german = Game.new(players=2, seed=0, deck=["T39"] * 11, edition="de")
    assert due(german, upto) == ["ark_temple"]


def test_nothing_is_due_for_a_player_whose_turn_it_is_not() -> None:
    game = new("T21")
    assert due(game, seat=1) == []
    assert TEACHER is not None
    assert TEACHER.due(Seen(game, None, NAMES, 0, {}), frozenset()) == []


def test_the_end_waits_until_few_tiles_are_left() -> None:
    before_end = frozenset(LESSONS[:-1])
    assert due(new("T39", rest=["T39"] * 6), before_end) == []
    # 3 tiles in all: after Ruth's, 2 are left, fewer than three rounds of two players.
    game = new("T39", rest=["T39", "T39"])
    assert game.tiles_left == 2
    assert due(game, before_end) == ["end"]
    assert due(game, frozenset(LESSONS)) == []


def test_placing_is_at_work_until_the_tile_lies() -> None:
    game = new("T39")
    assert at_work(game)[0] == "placing"
    play(game, PlaceTile(1, 0, 0))
    assert "placing" not in at_work(game)


def test_followers_are_at_work_when_the_tile_can_take_one() -> None:
    # A road tile east of the start: its road and both fields are free.
    assert at_work(new("T39")) == ["placing", "followers"]


def test_followers_are_not_at_work_on_a_tile_whose_features_are_all_held() -> None:
    # Ruth holds the road and the southern field, Boaz the northern field; Ruth's fifth
    # tile lies on the same road between the same fields: nothing of it is free.
    game = play(
        new(),
        PlaceTile(1, 0, 0),
        Deploy("E"),
        PlaceTile(-1, 0, 0),
        Deploy("NNW"),
        PlaceTile(2, 0, 0),
        Deploy("SSE"),
        PlaceTile(-2, 0, 0),
        Pass(),
        PlaceTile(3, 0, 0),
    )
    assert not any(isinstance(a, Deploy) for a in game.legal_actions())
    assert at_work(game) == []


def test_a_tile_that_can_finish_the_first_city_rings_cities_the_ark_and_the_most() -> None:
    # A city cap fits north of the start tile and closes its city (2 tiles).
    assert at_work(new("T21")) == [
        "placing",
        "followers",
        "prophet",
        "ark",
        "cities",
        "majority",
    ]


def test_a_straight_road_can_finish_nothing() -> None:
    assert not {"roads", "cities", "majority"} & set(at_work(new("T39")))


def test_fields_are_at_work_for_a_tile_with_sheep() -> None:
    # T23: a city on one side and a field with 2 sheep.
    assert "fields" in at_work(new("T23"))


def test_fields_are_at_work_for_a_tile_joining_a_field_with_sheep_on_the_board() -> None:
    # Boaz's tile puts 2 sheep south of the road (T45); Ruth's plain road tile joins
    # that field wherever it extends the road.
    game = play(new("T39", "T45"), PlaceTile(1, 0, 0), Pass(), PlaceTile(-1, 0, 0), Pass())
    assert "fields" in at_work(game)


def test_fields_are_not_at_work_without_sheep_or_wolves_near() -> None:
    assert "fields" not in at_work(new("T39"))


def test_temples_are_at_work_for_a_temple_tile_in_hand() -> None:
    assert at_work(new("T48")) == ["placing", "followers", "temples", "ark_temple"]


def test_temples_are_at_work_when_the_tile_can_go_next_to_a_temple() -> None:
    # Ruth put a temple east of the start; her next road tile can lie beside it.
    game = play(new("T48", "T39", "T39"), PlaceTile(1, 0, 0), Pass(), PlaceTile(-1, 0, 0), Pass())
    assert "temples" in at_work(game)


def test_the_prophet_is_not_at_work_on_a_tile_without_a_city_or_once_used() -> None:
    assert "prophet" not in at_work(new("T39"))
    # Ruth sends the Prophet into a city south of the start; her next city tile finds
    # the Prophet gone from her hand.
    game = play(
        new("T21", "T39", "T21"),
        PlaceTile(0, -1, 180),
        Deploy("SSE", prophet=True),
        PlaceArk(0, -1),
        PlaceTile(1, 0, 0),
        Pass(),
    )
    assert not game.prophet_available(0)
    assert "prophet" not in at_work(game)


def test_the_ark_moves_once_it_is_on_the_board() -> None:
    # Ruth completes the first city and puts the Ark on it; on her next turn it may move.
    game = play(
        new("T21"),
        PlaceTile(0, -1, 180),
        Pass(),
        PlaceArk(0, -1),
        PlaceTile(1, 0, 0),
        Pass(),
    )
    assert game.ark == (0, -1)
    assert at_work(game) == ["placing", "followers", "ark_moves"]
    assert "ark_moves" not in at_work(new("T21"))


# ------------------------------------------------------------------ what is suggested


def test_the_suggestion_sends_a_follower_until_the_prophet_is_taught() -> None:
    assert TEACHER is not None
    game = new("T21")
    hint = (PlaceTile(0, -1, 180), Deploy("SSE", prophet=True), PlaceArk(0, -1))
    known = frozenset({"placing", "followers"})
    assert TEACHER.within(seen(game), hint, known) == (
        PlaceTile(0, -1, 180),
        Deploy("SSE"),
        PlaceArk(0, -1),
    )
    # Before followers are taught, the tile alone; once the Prophet is, the hint as it is.
    assert TEACHER.within(seen(game), hint, frozenset({"placing"}))[1] == Pass()
    assert TEACHER.within(seen(game), hint, known | {"prophet"}) == hint


def test_the_arks_lesson_suggests_finishing_the_first_city_when_the_tile_can() -> None:
    assert TEACHER is not None
    # The hint puts the cap south of the start, where it finishes nothing; the lesson's
    # turn suggests closing the start's city instead, the follower scoring in it, the Ark
    # coming onto its tile.
    game = new("T21")
    hint = (PlaceTile(0, 1, 90), Pass())
    known = frozenset({"placing", "followers", "prophet", "ark"})
    assert TEACHER.within(seen(game), hint, known) == (
        PlaceTile(0, -1, 180),
        Deploy("SSE"),
        PlaceArk(0, -1),
    )
    # A hint that finishes it already is kept; a tile that cannot finish one, too.
    closing = (PlaceTile(0, -1, 180), Pass(), PlaceArk(0, 0))
    assert TEACHER.within(seen(game), closing, known) == closing
    road = new("T39")
    assert TEACHER.within(seen(road), (PlaceTile(1, 0, 0), Pass()), known) == (
        PlaceTile(1, 0, 0),
        Pass(),
    )


def test_the_suggestion_leaves_the_ark_until_its_moves_are_taught() -> None:
    assert TEACHER is not None
    game = play(new("T21"), PlaceTile(0, -1, 180), Pass(), PlaceArk(0, -1))
    game = play(game, PlaceTile(1, 0, 0), Pass())
    hint = (PlaceTile(-1, 0, 0), MoveArk("S"))
    known = frozenset({"placing", "followers", "prophet", "ark"})
    assert TEACHER.within(seen(game), hint, known) == (PlaceTile(-1, 0, 0), Pass())
    assert TEACHER.within(seen(game), hint, known | {"ark_moves"}) == hint


# ------------------------------------------------------------------ a lesson


def test_a_lesson_says_the_hints_move_and_rings_the_square_it_is_about() -> None:
    assert TEACHER is not None
    game = new("T21")
    hint = [PlaceTile(0, -1, 180), Deploy("SSE")]
    lesson = TEACHER.lesson("cities", seen(game), hint)
    assert lesson.key == "cities"
    assert said(lesson.lines) == [
        "A city is finished when its walls close it all round. It scores 2 points a tile, "
        "and 2 more for each scroll."
    ]
    assert lesson.suggestion is not None
    assert say(lesson.suggestion) == (
        "💡 Try this: Put the tile on **M12** (number 1), turned 180°. "
        "Put your follower on **B**, the city to the south."
    )
    assert lesson.picture is not None
    assert lesson.picture.function == "render.covenant:squares"
    # The learner's own view (no tile order), the first part of the board, M12 ringed.
    assert lesson.picture.args == (game.view(0).to_json(), 0, [[0, -1]])


def test_a_temple_tile_in_hand_rings_the_suggested_square_alone() -> None:
    assert TEACHER is not None
    game = new("T48")
    assert len(game.placements()) > 1  # it fits on more than one square
    lesson = TEACHER.lesson("temples", seen(game), [PlaceTile(1, 0, 0), Pass()])
    assert lesson.picture is not None and lesson.picture.args[2] == [[1, 0]]
    # Without a suggestion, the first few squares where it fits.
    plain = TEACHER.lesson("temples", seen(game), None)
    assert plain.picture is not None and len(plain.picture.args[2]) > 1


def test_a_whole_turns_hint_is_said_move_by_move() -> None:
    assert TEACHER is not None
    game = new("T21")
    hint = [PlaceTile(0, -1, 180), Pass(), PlaceArk(0, -1)]
    lesson = TEACHER.lesson("placing", seen(game), hint)
    assert lesson.suggestion is not None
    assert say(lesson.suggestion) == (
        "💡 Try this: Put the tile on **M12** (number 1), turned 180°. "
        "Put the Ark on **M12** (number 1)."
    )
    assert say(lesson.suggestion, "es-419").startswith("💡 Prueba esto: ")
    assert lesson.picture is not None and lesson.picture.args[2] == [[0, -1]]


def test_a_lesson_without_a_hint_suggests_nothing() -> None:
    assert TEACHER is not None
    lesson = TEACHER.lesson("placing", seen(new("T39")), None)
    assert lesson.suggestion is None
    assert lesson.picture is not None


def test_once_the_tile_lies_a_lesson_has_no_picture_of_squares() -> None:
    assert TEACHER is not None
    game = play(new("T21"), PlaceTile(0, -1, 180))
    lesson = TEACHER.lesson("prophet", seen(game), None)
    assert lesson.picture is None and lesson.lines


def test_the_end_lesson_says_how_many_tiles_are_left() -> None:
    assert TEACHER is not None
    game = new("T39", rest=["T39", "T39"])
    lesson = TEACHER.lesson("end", seen(game), None)
    assert said(lesson.lines)[0].startswith("Only 2 tiles are left after this one.")
    assert said(lesson.lines, "nl")[0].startswith("Na deze tegel zijn er nog maar 2 over.")
    assert said(lesson.lines, "es")[0].startswith("Después de esta solo quedan 2 losetas.")
    assert "1 a tile, plus scrolls and oases;" in said(lesson.lines)[0]
    # The first edition counts an unfinished road or city by its segments.
    first = Game.new(players=2, seed=0, deck=["T39"] * 3, edition="en1")
    lesson = TEACHER.lesson("end", seen(first), None)
    assert "1 a segment, plus scrolls and oases;" in said(lesson.lines)[0]


def test_the_end_lesson_rings_the_learners_pieces() -> None:
    assert TEACHER is not None
    # A road follower of seat 0 on the tile east of the start; two tiles left.
    game = play(new("T39", rest=["T39", "T39", "T39"]), PlaceTile(1, 0, 0), Deploy("E"))
    game = play(game, PlaceTile(-1, 0, 0), Pass())
    lesson = TEACHER.lesson("end", seen(game), None)
    assert said(lesson.lines)[0].endswith("temples 3; fields their sheep.")
    assert said(lesson.lines, "nl")[0].endswith("tempels 3; velden hun schapen.")
    assert said(lesson.lines, "es")[0].endswith("los templos, 3; los campos, sus ovejas.")
    assert lesson.picture is not None and [[1, 0]] in lesson.picture.args
    # Seat 1 has no piece out: no rings.
    other = TEACHER.lesson("end", seen(game, 1), None)
    assert other.picture is not None and [] in other.picture.args


@pytest.mark.parametrize("language", ["en", "nl", "es", "es-419"])
def test_every_lessons_words_exist_in_every_language(language: str) -> None:
    assert TEACHER is not None
    own = catalogue("covenant", "es" if language == "es-419" else language)
    game = new("T21")
    for key in LESSONS:
        assert f"covenant.lesson.{key}.text" in own
        assert f"covenant.lesson.{key}.summary" in own
        lesson = TEACHER.lesson(key, seen(game), [PlaceTile(0, -1, 180), Deploy("SSE")])
        lines = [*lesson.lines, lesson.suggestion]
        for text in said([line for line in lines if line is not None], language):
            assert "covenant." not in text and "{" not in text, (key, text)
    summary = said(TEACHER.summary(frozenset(LESSONS), {}), language)
    assert len(summary) == len(LESSONS)
    assert all("covenant." not in line for line in summary)


def test_the_summary_says_a_line_per_lesson_taught_in_the_rule_books_order() -> None:
    assert TEACHER is not None
    assert said(TEACHER.summary(frozenset({"end", "placing"}), {"length": "short"})) == [
        "A tile goes where every edge matches: city to city, road to road, field to field.",
        "At the end, unfinished roads, cities and temples score a little, and fields score "
        "their sheep.",
    ]
    assert TEACHER.summary(frozenset(), {}) == []


def test_the_lessons_picture_is_a_png_that_rings_what_the_plain_one_does_not() -> None:
    assert TEACHER is not None
    game = new("T21")
    lesson = TEACHER.lesson("cities", seen(game), None)
    assert lesson.picture is not None
    module, name = lesson.picture.function.split(":")
    draw = getattr(importlib.import_module(module), name)
    ringed = draw(*lesson.picture.args, language="en")
    plain = draw(*lesson.picture.args[:2], language="en")
    assert ringed[:8] == b"\x89PNG\r\n\x1a\n"
    with Image.open(io.BytesIO(ringed)) as image:
        image.verify()
    assert ringed != plain
    # With no squares to ring the picture is the turn panel's own, byte for byte.
    assert draw(*lesson.picture.args[:2], [], language="en") == plain


# ------------------------------------------------------------------ after the learner's turn


def after_move(game: Game, actions: list[Any], better: list[Any] | None = None) -> list[str]:
    assert TEACHER is not None
    after = play(game.copy(), *actions)
    return said(TEACHER.after_move(seen(game), seen(after), actions, better))


def test_a_completed_city_with_a_scroll_is_counted() -> None:
    # T22 north of the start closes its city: 2 tiles and 1 scroll, 2 x 2 + 2 = 6.
    game = new("T22")
    turn = [PlaceTile(0, -1, 180), Deploy("SSE"), PlaceArk(0, -1)]
    assert after_move(game, turn) == [
        "Your city of 2 tiles with 1 scroll is finished: 2 points a tile and 2 a scroll, "
        "so 6 points for you.",
        "You put the Ark on M12. From now on you may move it instead of putting out a follower.",
    ]


def test_a_completed_city_is_counted_in_dutch_and_spanish() -> None:
    assert TEACHER is not None
    game = new("T22")
    turn = [PlaceTile(0, -1, 180), Deploy("SSE"), PlaceArk(0, -1)]
    lines = TEACHER.after_move(seen(game), seen(play(game.copy(), *turn)), turn, None)
    assert said(lines, "nl")[0] == (
        "Je stad van 2 tegels met 1 boekrol is af: 2 punten per tegel en 2 per boekrol, "
        "dus 6 punten voor jou."
    )
    assert said(lines, "es")[0] == (
        "Tu ciudad de 2 losetas con 1 pergamino está completa: 2 puntos por loseta y 2 por "
        "pergamino; en total, 6 puntos para ti."
    )


def test_a_city_finished_by_the_prophet_is_counted_twice() -> None:
    game = new("T21")
    turn = [PlaceTile(0, -1, 180), Deploy("SSE", prophet=True), PlaceArk(0, -1)]
    assert after_move(game, turn)[0] == (
        "Your city of 2 tiles is finished: 2 points a tile, doubled by your Prophet, "
        "so 8 points for you."
    )


def test_a_completed_road_with_an_oasis_is_counted() -> None:
    # Ruth's follower is on the start tile's road, ended east by a crossing; her crossing
    # with an oasis on its east road ends it in the west: 3 tiles + 1 oasis = 4 points.
    game = play(
        new("T50", "T39", "T61"),
        PlaceTile(1, 0, 0),
        Deploy("W"),
        PlaceTile(0, 1, 0),
        Pass(),
    )
    assert after_move(game, [PlaceTile(-1, 0, 0), Pass()]) == [
        "Your road of 3 tiles with 1 oasis is finished: 1 point a tile and 1 an oasis, "
        "so 4 points for you."
    ]
    assert game.scores == (0, 0)


def test_a_completed_temple_is_counted() -> None:
    # Ruth's follower stands on the road of her temple tile east of the start; tiles lie
    # north, south and west of it, and hers in the east completes it: 7 points.
    game = play(
        new("T48", "T39", "T39", "T39", "T39"),
        PlaceTile(1, 0, 0),
        Deploy("W"),
        PlaceTile(1, -1, 0),
        Pass(),
        PlaceTile(1, 1, 0),
        Pass(),
        PlaceTile(-1, 0, 0),
        Pass(),
    )
    assert after_move(game, [PlaceTile(2, 0, 0), Pass()]) == [
        "The temple at N13 is complete and you have the most pieces on it and around it: "
        "7 points for you."
    ]


def test_a_follower_put_out_is_told_when_it_will_score() -> None:
    game = new("T22")
    assert after_move(game, [PlaceTile(0, 1, 180), Deploy("NNW")]) == [
        "Your follower now holds the field: it scores at the end of the game."
    ]


def test_the_ark_moved_past_your_pieces_is_counted() -> None:
    # Ruth's follower stands on the road east of the start; she moves the Ark from the
    # city north of the start onto that tile: 1 point.
    game = play(
        new("T21", "T39", "T39"),
        PlaceTile(0, -1, 180),
        Pass(),
        PlaceArk(0, -1),
        PlaceTile(1, 0, 0),
        Pass(),
    )
    game = play(game, PlaceTile(-1, 0, 0), Deploy("E"), PlaceTile(2, 0, 0), Pass())
    assert after_move(game, [PlaceTile(3, 0, 0), MoveArk("SW")]) == [
        "The Ark went 2 steps and passed your pieces: 1 point for each of them on each tile "
        "it entered, so 1 point for you."
    ]


def test_a_clearly_better_move_is_said_kindly() -> None:
    # Ruth puts her city tile south of the start and scores nothing; north of it, with a
    # follower in the city, it would have given 6 points.
    game = new("T22")
    better = [PlaceTile(0, -1, 180), Deploy("SSE")]
    assert after_move(game, [PlaceTile(0, 1, 180), Pass()], better) == [
        "No points this turn: that is fine, tiles and followers put out now score later.",
        "Nice try! You could have finished a city for 6 points this turn: keep an eye out "
        "for that.",
    ]


def test_a_move_only_a_little_better_is_not_mentioned() -> None:
    # The better move closes the road for 3 points where Ruth's gave none: under 4 more.
    game = play(
        new("T50", "T39", "T50"), PlaceTile(1, 0, 0), Deploy("W"), PlaceTile(0, 1, 0), Pass()
    )
    better = [PlaceTile(-1, 0, 0), Pass()]
    lines = after_move(game, [PlaceTile(-1, 1, 0), Pass()], better)
    assert not any(line.startswith("Nice try!") for line in lines)


def test_another_players_points_are_said_as_the_story_says_them() -> None:
    # Boaz's follower holds the city north of the start; Ruth's cap closes it for him.
    game = play(
        new("T39", "T17", "T21"),
        PlaceTile(1, 0, 0),
        Pass(),
        PlaceTile(0, -1, 0),
        Deploy("NNW"),
    )
    assert after_move(game, [PlaceTile(0, -2, 180), Pass(), PlaceArk(0, -1)]) == [
        "A 3-tile city was completed: Boaz +6.",
        "You put the Ark on M12. From now on you may move it instead of putting out a follower.",
    ]
