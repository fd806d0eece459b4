"""Dealing a season's round: table sizes, nobody meeting again where it can be avoided (and
the fewest meetings again where it cannot, proved by trying every deal), tables balanced by
rating, computers only where the count needs them, busy members, late joiners and leavers."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import combinations

import pytest

from bot.games import plugins
from bot.service.season import dealing
from bot.service.season.dealing import (
    Deal,
    SeatRange,
    Shape,
    deal,
    meetings,
    repeats,
    table_plans,
)
from bot.service.season.members import Member

#: The built-in games' seat ranges, read as the service reads them (the rules' min and max
#: players).
RANGES = {
    name: SeatRange(plugins()[name].rules.min_players, plugins()[name].rules.max_players)
    for name in ("covenant", "noah")
}
COVENANT = RANGES["covenant"]
NOAH = RANGES["noah"]
#: The test group's ratings are evenly spaced over this range.
LOW, HIGH = 800.0, 1200.0


def group(count: int) -> list[Member]:
    """``count`` members, ids 1..count, ratings evenly spaced from LOW to HIGH."""
    step = (HIGH - LOW) / (count - 1)
    return [Member(i, f"m{i}", LOW + step * (i - 1)) for i in range(1, count + 1)]


def season(
    members: list[Member], rounds: int, seed: int, seats: SeatRange = COVENANT
) -> list[Deal]:
    """``rounds`` rounds dealt one after the other, each knowing the tables before it."""
    history: list[tuple[int, ...]] = []
    deals = []
    for number in range(1, rounds + 1):
        dealt = deal(
            members, seats, round_number=number, seed=seed * 1000 + number, history=history
        )
        deals.append(dealt)
        history += [table.members for table in dealt.tables]
    return deals


def sizes(dealt: Deal) -> list[int]:
    return sorted((len(t.members) for t in dealt.tables), reverse=True)


def spread(dealt: Deal, members: Sequence[Member]) -> float:
    """The gap between the strongest and the weakest table's mean rating."""
    rating = {m.user_id: m.rating for m in members}
    means = [sum(rating[u] for u in t.members) / len(t.members) for t in dealt.tables]
    return max(means) - min(means)


def imbalance(tables: Sequence[Sequence[int]], rating: dict[int, float]) -> float:
    """The dealer's own measure of balance: the squared gaps of the table means to the mean."""
    mean = sum(rating.values()) / len(rating)
    return sum((sum(rating[u] for u in t) / len(t) - mean) ** 2 for t in tables)


def every_deal(
    people: Sequence[int], table_sizes: Sequence[int]
) -> Iterator[list[tuple[int, ...]]]:
    """Every way of seating ``people`` at tables of ``table_sizes`` (each way once)."""
    if not people:
        if not table_sizes:
            yield []
        return
    first, rest = people[0], people[1:]
    for size in sorted(set(table_sizes)):
        left = list(table_sizes)
        left.remove(size)
        for others in combinations(rest, size - 1):
            remaining = [p for p in rest if p not in others]
            for tail in every_deal(remaining, left):
                yield [(first, *others), *tail]


# --------------------------------------------------------------------- table sizes


@pytest.mark.parametrize(
    ("count", "expected"),
    [
        (3, [[3]]),
        (4, [[4]]),
        (5, [[5]]),  # one table of five, not three and two with a computer
        (6, [[3, 3]]),
        (7, [[4, 3]]),
        (8, [[4, 4]]),
        (9, [[3, 3, 3]]),
        (10, [[4, 3, 3]]),
        (11, [[4, 4, 3]]),
        (12, [[4, 4, 4], [3, 3, 3, 3]]),
        (16, [[4, 4, 4, 4], [4, 3, 3, 3, 3]]),
        (100, [[4] * 25, [4] * 22 + [3] * 4, [4] * 19 + [3] * 8, [4] * 16 + [3] * 12]),
    ],
)
def test_tables_of_four_then_three_and_one_of_five_for_five(
    count: int, expected: list[list[int]]
) -> None:
    plans = table_plans(count, COVENANT)
    assert [[t.members for t in plan] for plan in plans] == expected
    assert all(t.computers == 0 for plan in plans for t in plan)


def test_a_game_of_three_or_four_seats_five_members_with_one_computer() -> None:
    """A game whose tables seat three or four: five members are a table of three and a table
    of two members and one computer; the computer sits only at the short table."""
    shapes = table_plans(5, SeatRange(3, 4))
    assert shapes == [[Shape(3), Shape(2, 1)]]
    dealt = deal(group(5), SeatRange(3, 4), round_number=1, seed=1)
    assert sorted((len(t.members), t.computers) for t in dealt.tables) == [(2, 1), (3, 0)]
    assert sorted(u for t in dealt.tables for u in t.members) == [1, 2, 3, 4, 5]


def test_without_computers_five_members_cannot_fill_tables_of_three_or_four() -> None:
    dealt = deal(group(5), SeatRange(3, 4), round_number=1, seed=1, computers=False)
    assert dealt == Deal((), problem="no_fit", unseated=(1, 2, 3, 4, 5))


@pytest.mark.parametrize("count", [1, 2])
def test_one_or_two_members_cannot_be_dealt(count: int) -> None:
    members = [Member(i, f"m{i}") for i in range(1, count + 1)]
    dealt = deal(members, COVENANT, round_number=1, seed=3)
    assert dealt == Deal((), problem="too_few", unseated=tuple(range(1, count + 1)))


def test_a_game_for_two_deals_pairs() -> None:
    dealt = deal(group(6), SeatRange(2, 2), round_number=1, seed=1)
    assert sizes(dealt) == [2, 2, 2]


# --------------------------------------------------------------------- everyone, once


@pytest.mark.parametrize("count", range(3, 17))
@pytest.mark.parametrize("seats", list(RANGES.values()), ids=list(RANGES))
def test_every_member_gets_one_seat_at_a_table_the_game_seats(count: int, seats: SeatRange) -> None:
    for dealt in season(group(count), 3, seed=count, seats=seats):
        dealt_ids = [u for t in dealt.tables for u in t.members]
        assert sorted(dealt_ids) == list(range(1, count + 1))
        assert all(seats.fewest <= t.seats <= seats.most for t in dealt.tables)
        assert all(t.computers == 0 for t in dealt.tables)
        assert all(3 <= len(t.members) <= 4 for t in dealt.tables) or count == 5


def test_the_same_seed_deals_the_same_tables() -> None:
    first = season(group(13), 3, seed=7)
    assert season(group(13), 3, seed=7) == first
    assert season(group(13), 3, seed=8) != first


# --------------------------------------------------------------------- meeting again

#: The counts where three rounds can be dealt with nobody meeting anyone twice.
WITHOUT_REPEATS = (9, 12, 13, 14, 15, 16)


@pytest.mark.parametrize("count", WITHOUT_REPEATS)
@pytest.mark.parametrize("seed", range(4))
def test_nobody_meets_anyone_twice_in_three_rounds(count: int, seed: int) -> None:
    deals = season(group(count), 3, seed)
    tables = [t.members for d in deals for t in d.tables]
    assert max(meetings(tables).values()) == 1
    assert [d.repeats for d in deals] == [0, 0, 0]


def test_twelve_play_tables_of_three_when_tables_of_four_would_meet_again() -> None:
    """Twelve at three tables of four: any table of four of round 2 holds two members of the
    same round-1 table (four members from three tables). Four tables of three need not."""
    first, second, third = season(group(12), 3, seed=2)
    assert sizes(first) == [4, 4, 4]
    assert sizes(second) == [3, 3, 3, 3] and sizes(third) == [3, 3, 3, 3]
    history = [t.members for t in first.tables]
    met = meetings(history)
    assert min(repeats(d, met) for d in every_deal(list(range(1, 13)), [4, 4, 4])) == 3


@pytest.mark.parametrize(
    ("count", "table_sizes", "fewest"),
    [(7, [4, 3], 9), (8, [4, 4], 12), (10, [4, 3, 3], 3)],
)
def test_where_meeting_again_cannot_be_avoided_three_rounds_have_the_fewest_repeats(
    count: int, table_sizes: list[int], fewest: int
) -> None:
    """Every pair of rounds 2 and 3 after round 1 is tried (round 1 is any deal: members are
    alike until they have met): no season of three rounds has fewer meetings again than
    ``fewest``, and the dealer's seasons have exactly that many."""
    people = list(range(1, count + 1))
    index = {pair: bit for bit, pair in enumerate(combinations(people, 2))}

    def pairs(tables: Sequence[Sequence[int]]) -> int:
        mask = 0
        for table in tables:
            for pair in combinations(sorted(table), 2):
                mask |= 1 << index[pair]
        return mask

    deals = [pairs(d) for d in every_deal(people, table_sizes)]
    first = deals[0]
    best = count * count
    for second in deals:
        two = (second & first).bit_count()
        if two >= best:
            continue
        for third in deals:
            best = min(best, two + (third & first).bit_count() + (third & second).bit_count())
    assert best == fewest
    for seed in range(4):
        assert sum(d.repeats for d in season(group(count), 3, seed)) == fewest


@pytest.mark.parametrize("count", range(7, 13))
def test_each_round_is_the_best_deal_there_is_after_the_rounds_before(count: int) -> None:
    """Every deal of each round, tried: none has fewer meetings again, and none as few at
    tables of the same sizes, or of sizes the dealer prefers (more fours: twelve at 4+4+4
    before 3+3+3+3), has table means closer together (in the dealer's measure, the squared
    gaps to the mean)."""
    members = group(count)
    rating = {m.user_id: m.rating for m in members}
    people = list(rating)
    history: list[tuple[int, ...]] = []
    for number, dealt in enumerate(season(members, 3, seed=count), start=1):
        met = meetings(history)
        plans = [[t.members for t in plan] for plan in table_plans(count, COVENANT)]
        best = min(
            (repeats(d, met), preference, imbalance(d, rating))
            for preference, plan in enumerate(plans)
            for d in every_deal(people, plan)
        )
        mine = [t.members for t in dealt.tables]
        assert dealt.repeats == repeats(mine, met) == best[0], f"round {number}"
        assert sizes(dealt) == sorted(plans[best[1]], reverse=True), f"round {number}"
        assert imbalance(mine, rating) <= best[2] + 1e-6, f"round {number}"
        history += mine


# --------------------------------------------------------------------- balance by rating


@pytest.mark.parametrize("count", range(7, 17))
def test_a_first_round_balances_the_tables_as_closely_as_the_ratings_allow(count: int) -> None:
    """Before anyone has met, the table means lie within a quarter of the gap between two
    neighbouring ratings (they cannot always be equal: ten at 4 + 3 + 3)."""
    step = (HIGH - LOW) / (count - 1)
    for seed in range(3):
        first = season(group(count), 1, seed)[0]
        assert spread(first, group(count)) <= step / 3


#: The most the table means of any round may lie apart, as a share of the group's range of
#: ratings. Tables drawn by lot lie 0.31 to 0.39 of the range apart (the median of 500 lots,
#: for each count of 7 to 16, measured); the dealer, which first keeps people from meeting
#: again, stays below 0.28 in every round of these seasons (0.27 the worst, a third round of
#: fifteen, whose two rounds before leave few deals without meeting again: the test below
#: shows no search finds a better one).
SPREAD_BOUND = 0.3


@pytest.mark.parametrize("count", range(7, 17))
def test_every_round_keeps_the_table_means_close(count: int) -> None:
    for seed in range(4):
        for dealt in season(group(count), 3, seed):
            assert spread(dealt, group(count)) <= SPREAD_BOUND * (HIGH - LOW)


@pytest.mark.parametrize("count", range(13, 17))
def test_a_search_thirty_times_as_long_finds_no_better_third_round(
    count: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Where every deal cannot be tried (13 and more), a third round, the hardest (two rounds
    of people not to meet again), is as good as a search with 30 times the starting deals
    finds: the dealer's search has done what searching can."""
    members = group(count)
    rating = {m.user_id: m.rating for m in members}
    deals = season(members, 3, seed=0)
    history = [t.members for d in deals[:2] for t in d.tables]
    mine = [t.members for t in deals[2].tables]
    monkeypatch.setattr(dealing, "STARTS", dealing.STARTS * 30)
    monkeypatch.setattr(dealing, "START_BUDGET", dealing.START_BUDGET * 30)
    longer = deal(members, COVENANT, round_number=3, seed=99, history=history)
    theirs = [t.members for t in longer.tables]
    assert deals[2].repeats == longer.repeats == 0
    assert imbalance(mine, rating) <= imbalance(theirs, rating) + 1e-6


# --------------------------------------------------------------------- life happens


def test_busy_members_sit_the_round_out_and_are_dealt_again_when_free() -> None:
    members = group(9)
    first = deal(members, COVENANT, round_number=1, seed=5)
    late = first.tables[0].members  # their game goes on after round 1 closed
    history = [t.members for t in first.tables]
    second = deal(members, COVENANT, round_number=2, seed=6, history=history, busy=late)
    assert second.waiting == tuple(sorted(late))
    seated = sorted(u for t in second.tables for u in t.members)
    assert seated == sorted(set(range(1, 10)) - set(late))
    third = deal(
        members,
        COVENANT,
        round_number=3,
        seed=7,
        history=history + [t.members for t in second.tables],
    )
    assert sorted(u for t in third.tables for u in t.members) == list(range(1, 10))


def test_a_late_joiner_is_dealt_from_their_first_round_and_a_leaver_never_again() -> None:
    members = group(8)
    joiner = Member(20, "Late", joined=2)
    leaver = Member(21, "Gone", left=1)
    everyone = [*members, joiner, leaver]
    first = deal(everyone, COVENANT, round_number=1, seed=1)
    assert sorted(u for t in first.tables for u in t.members) == list(range(1, 9))
    second = deal(
        everyone, COVENANT, round_number=2, seed=2, history=[t.members for t in first.tables]
    )
    seated = sorted(u for t in second.tables for u in t.members)
    assert seated == [*range(1, 9), 20]
    assert sizes(second) == [3, 3, 3]


def test_when_too_few_are_free_nobody_is_dealt_and_the_busy_wait() -> None:
    members = group(6)
    dealt = deal(members, COVENANT, round_number=2, seed=1, busy={1, 2, 3, 4})
    assert dealt == Deal((), waiting=(1, 2, 3, 4), problem="too_few", unseated=(5, 6))
