"""A season's standings: points for places on one scale for every table size, ties shared,
computers left out, a late joiner at the bottom, a leaver keeping their points, and a late
game counted in its own round."""

from __future__ import annotations

import pytest

from bot.service.ratings import Finish
from bot.service.season.members import Member
from bot.service.season.standings import GameResult, Standing, points, standings


def finish(user_id: int, place: int) -> Finish:
    return Finish(user_id, f"m{user_id}", place, place == 1)


def game(*places: int) -> list[Finish]:
    """Members 1, 2, ... finishing at ``places`` (as ``ratings.places`` gives them)."""
    return [finish(number, place) for number, place in enumerate(places, start=1)]


@pytest.mark.parametrize(
    ("places", "expected"),
    [
        ((1, 2), [12, 0]),
        ((1, 2, 3), [12, 6, 0]),
        ((1, 2, 3, 4), [12, 8, 4, 0]),
        ((1, 2, 3, 4, 5), [12, 9, 6, 3, 0]),
        # Ties share the points of the places they take: two first of four get (12 + 8) / 2.
        ((1, 1, 3, 4), [10, 10, 4, 0]),
        ((1, 2, 2, 4), [12, 6, 6, 0]),
        ((1, 1, 1, 4), [8, 8, 8, 0]),
        ((1, 1, 1, 1), [6, 6, 6, 6]),
        ((1, 2, 2, 4, 5), [12, 7.5, 7.5, 3, 0]),
        ((1, 1, 3), [9, 9, 0]),
    ],
)
def test_first_earns_twelve_last_nothing_and_ties_share(
    places: tuple[int, ...], expected: list[float]
) -> None:
    earned = points(game(*places))
    assert [earned[u] for u in range(1, len(places) + 1)] == expected
    assert sum(expected) == 6 * len(places)  # the average is 6 at every table size


def test_a_computer_takes_no_points_from_the_members() -> None:
    """Three members and a computer, which finished second: the members' places among all
    four seats are 1, 3, 4, and they earn as at a table of three members (12, 6, 0)."""
    earned = points([finish(1, 1), finish(2, 3), finish(3, 4)])
    assert earned == {1: 12, 2: 6, 3: 0}


def test_a_member_alone_with_computers_earns_the_average() -> None:
    assert points([finish(7, 3)]) == {7: 6}


def test_who_left_a_game_counts_last_there() -> None:
    """Member 3 left; a computer played their seat. The service makes their finish last
    (place 5 at a table of four), as for the ratings."""
    earned = points([finish(1, 2), finish(2, 1), finish(3, 5), finish(4, 3)])
    assert earned == {2: 12, 1: 8, 4: 4, 3: 0}


MEMBERS = [Member(1, "Ruth"), Member(2, "Boaz"), Member(3, "Naomi"), Member(4, "Orpah")]


def test_standings_add_up_the_rounds_and_share_places() -> None:
    results = [
        GameResult(1, tuple(game(1, 2, 3, 4))),  # Ruth 12, Boaz 8, Naomi 4, Orpah 0
        GameResult(2, tuple(game(3, 1, 2, 4))),  # Ruth 4, Boaz 12, Naomi 8, Orpah 0
    ]
    table = standings(MEMBERS, results, rounds=2)
    assert table == [
        Standing(1, 2, "Boaz", (8, 12), 20, 2, False),
        Standing(2, 1, "Ruth", (12, 4), 16, 2, False),
        Standing(3, 3, "Naomi", (4, 8), 12, 2, False),
        Standing(4, 4, "Orpah", (0, 0), 0, 2, False),
    ]


def test_equal_totals_share_a_place_and_are_listed_by_name() -> None:
    results = [GameResult(1, tuple(game(1, 1, 3, 3)))]  # Ruth and Boaz 10, Naomi and Orpah 2
    table = standings(MEMBERS, results, rounds=1)
    assert [(s.place, s.name, s.total) for s in table] == [
        (1, "Boaz", 10),
        (1, "Ruth", 10),
        (3, "Naomi", 2),
        (3, "Orpah", 2),
    ]


def test_a_late_joiner_starts_at_the_bottom_and_a_leaver_keeps_their_points() -> None:
    members = [
        Member(1, "Ruth"),
        Member(2, "Boaz", left=2),
        Member(3, "Naomi"),
        Member(5, "Jesse", joined=2),
    ]
    after_one = standings(members, [GameResult(1, tuple(game(1, 2, 3)))], rounds=1)
    assert [(s.name, s.total, s.left) for s in after_one] == [
        ("Ruth", 12, False),
        ("Boaz", 6, True),
        ("Naomi", 0, False),
        ("Jesse", 0, False),
    ]
    assert after_one[-1].place == after_one[-2].place == 3 and after_one[-1].rounds == (None,)
    # Round 2: Boaz has left and is not dealt; Jesse plays and wins.
    round_two = GameResult(2, (finish(5, 1), finish(3, 2), finish(1, 3)))
    after_two = standings(members, [GameResult(1, tuple(game(1, 2, 3))), round_two], rounds=2)
    assert [(s.place, s.name, s.rounds, s.total) for s in after_two] == [
        (1, "Ruth", (12, 0), 12),  # equal: who joined earlier is listed first
        (1, "Jesse", (None, 12), 12),
        (3, "Boaz", (6, None), 6),
        (3, "Naomi", (0, 6), 6),
    ]


def test_a_late_game_counts_in_its_own_round_when_it_ends() -> None:
    """Round 1's second table ends during round 2: until then its members have no points
    for round 1 (shown as not ended); then they count in round 1's column."""
    members = [*MEMBERS, Member(5, "Jesse"), Member(6, "Obed")]
    first_table = GameResult(1, (finish(1, 1), finish(2, 2), finish(3, 3)))
    second_round = GameResult(2, (finish(4, 1), finish(5, 2), finish(6, 3)))
    before = standings(members, [first_table, second_round], rounds=2)
    assert {s.name: s.rounds for s in before}["Orpah"] == (None, 12)
    late_table = GameResult(1, (finish(4, 2), finish(5, 1), finish(6, 3)))
    after = standings(members, [first_table, second_round, late_table], rounds=2)
    rounds = {s.name: s.rounds for s in after}
    assert rounds["Orpah"] == (6, 12) and rounds["Jesse"] == (12, 6) and rounds["Obed"] == (0, 0)
    assert {s.name: s.games for s in after}["Orpah"] == 2


def test_a_line_goes_to_the_picture_as_json() -> None:
    line = Standing(3, 5, "Jesse", (None, 7.5), 7.5, 1, True)
    assert line.picture_row() == [3, "Jesse", [None, 7.5], 7.5, True]
