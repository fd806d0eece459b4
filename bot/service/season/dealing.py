"""Dealing a season's round: which members sit at which table, and where a computer sits.

Pure and deterministic from a seed (no I/O, no clock): the same members, history, busy
members and seed give the same deal in every process, so a deal interrupted by a restart
comes out the same when it is dealt again.

What a youth leader wants from a round, in this order:

1. **Everyone free plays.** Every member in the season (:meth:`Member.dealt_in`) who is not
   still busy at an unfinished table of an earlier round is dealt a seat. Who is busy sits
   this round out and is dealt again in the next one (:attr:`Deal.waiting`).
2. **Tables of the size the game plays best**: four where the count allows, three for the
   rest (see :func:`table_sizes`); a table of four is each game at its liveliest and lets a
   member meet the most people in the fewest rounds (three rounds at tables of four: nine
   others). A computer sits only where the count cannot be dealt otherwise.
3. **Nobody meets the same players twice when it can be avoided**: the deal with the fewest
   pairs of members who sat together before (:attr:`Deal.repeats`; a pair who met twice
   before counts twice).
4. **Tables balanced by rating**: among the deals with those fewest repeats, one whose table
   means (members only) lie closest together.

The search is a local search over swaps of two members between tables, from several seeded
starting deals, each improved until no swap helps, then shaken (two random swaps) and
improved again; the best deal found wins. Each round is dealt knowing the rounds before it,
not the ones after: for 7 to 12 members each round's deal is the best there is after the
rounds before (every deal tried, in the tests), and for 13 to 16 a search thirty times as
long finds none better.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Literal

from bot.service.season.members import Member
from engine.common.rng import Rng

#: The table sizes the games play best, when their seat range allows them.
BEST_SIZES = (4, 3)
#: How many seeded starting deals the search improves: STARTS, or fewer for a big round
#: (at most START_BUDGET / members, at least two), where each start costs more and a swap
#: search from any start finds good deals.
STARTS = 6
START_BUDGET = 240
#: How many times each start's best deal is shaken (a few random swaps) and improved again:
#: SHAKES, or fewer for a big round (at most SHAKE_BUDGET / members, at least four).
SHAKES = 24
SHAKE_BUDGET = 800
#: How many ways of splitting a round into tables are tried (:func:`table_plans`).
PLANS = 4


@dataclass(frozen=True, slots=True)
class SeatRange:
    """How many seats a game's table has: the game's rules say it (``GameRules.min_players``
    and ``max_players``, which the service reads as ``core.game_rules(name)``)."""

    fewest: int
    most: int


@dataclass(frozen=True, slots=True)
class Table:
    """One table of a round: its members in seat order (the first plays first) and how many
    computers fill the seats after them."""

    members: tuple[int, ...]
    computers: int = 0

    @property
    def seats(self) -> int:
        return len(self.members) + self.computers


@dataclass(frozen=True, slots=True)
class Shape:
    """A table still to be filled: how many members sit at it and how many computers."""

    members: int
    computers: int = 0


#: Why a round could not be dealt: fewer free members than the smallest table the game plays
#: well ("too_few"), or a count no table of the game fits without computers it lacks
#: ("no_fit").
Problem = Literal["too_few", "no_fit"]


@dataclass(frozen=True, slots=True)
class Deal:
    """A round's tables, the members sitting it out (still playing an earlier round's game),
    and how many pairs of members meet again. ``problem`` says why nobody was dealt (then
    ``tables`` is empty and ``unseated`` holds the free members who could not be seated)."""

    tables: tuple[Table, ...]
    waiting: tuple[int, ...] = ()
    repeats: int = 0
    problem: Problem | None = None
    unseated: tuple[int, ...] = ()


def best_sizes(seats: SeatRange) -> tuple[int, ...]:
    """The table sizes to deal, biggest first: four and three where the game seats them, else
    the size of its range nearest to them (two for a game of two)."""
    sizes = tuple(size for size in BEST_SIZES if seats.fewest <= size <= seats.most)
    if sizes:
        return sizes
    return (seats.most,) if seats.most < min(BEST_SIZES) else (seats.fewest,)


def table_plans(count: int, seats: SeatRange, computers: bool = True) -> list[list[Shape]]:
    """The ways to seat ``count`` free members, best first; none if they cannot be dealt.

    - Fewer members than the smallest good table (one or two, for a game of three or four):
      nobody is dealt. A season game of one member against computers is no league game, and
      two members would play a two-player game the season does not measure alike; they play
      from the next round, when the others are free again.
    - Tables of the good sizes (:func:`best_sizes`) only, with as many of the biggest as
      possible first (ten members: 4 + 3 + 3; every count from six up splits into fours and
      threes), then the splits with more threes (twelve: 4 + 4 + 4, then 3 + 3 + 3 + 3): a
      split with more threes is dealt only when it lets fewer people meet again, and only
      the first :data:`PLANS` are tried.
    - A count that does not split so (five, for a game of three or four) is one table when
      the game seats it: five members play one table of five, which both games seat, rather
      than a three and a two with a computer. Friends of a youth group would rather all play
      together than have a computer make up their table.
    - Otherwise the tables are made as even as they can be and computers fill the seats up
      to the smallest good size (only for a game with computer players).
    """
    sizes = best_sizes(seats)
    if count < min(sizes):
        return []
    splits = _splits(count, sizes)[:PLANS]
    if not splits and seats.fewest <= count <= seats.most:
        splits = [[count]]
    if splits:
        return [[Shape(size) for size in split] for split in splits]
    if not computers:
        return []
    tables = -(-count // max(sizes))
    even = [count // tables + (1 if i < count % tables else 0) for i in range(tables)]
    return [[Shape(size, max(0, min(sizes) - size)) for size in even]]


def _splits(count: int, sizes: tuple[int, ...]) -> list[list[int]]:
    """Every way of writing ``count`` as a sum of ``sizes``, most of the first (biggest)
    first."""
    biggest, *rest = sizes
    found = []
    for many in range(count // biggest, -1, -1):
        left = count - many * biggest
        if left == 0:
            found.append([biggest] * many)
        elif rest:
            found += [[biggest] * many + tail for tail in _splits(left, tuple(rest))]
    return found


def meetings(history: Iterable[Iterable[int]]) -> Counter[frozenset[int]]:
    """How often each pair of members sat at the same table, from earlier tables' members."""
    met: Counter[frozenset[int]] = Counter()
    for table in history:
        met.update(frozenset(pair) for pair in combinations(sorted(set(table)), 2))
    return met


def repeats(tables: Iterable[Iterable[int]], met: Counter[frozenset[int]]) -> int:
    """How many earlier meetings the pairs at ``tables`` repeat."""
    return sum(met[frozenset(p)] for t in tables for p in combinations(sorted(set(t)), 2))


def deal(
    members: Sequence[Member],
    seats: SeatRange,
    *,
    round_number: int,
    seed: int,
    history: Iterable[Iterable[int]] = (),
    busy: Collection[int] = (),
    computers: bool = True,
) -> Deal:
    """Deal round ``round_number`` (see the module docstring).

    ``history``: the members of every table dealt earlier in the season, finished or not
    (computers left out);
    ``busy``: members still at an unfinished table; ``computers``: whether the game has
    computer players; ``seed``: the season's seed mixed with the round's, say.
    """
    waiting = tuple(
        sorted(m.user_id for m in members if m.dealt_in(round_number) and m.user_id in busy)
    )
    free = sorted(
        (m for m in members if m.dealt_in(round_number) and m.user_id not in busy),
        key=lambda m: m.user_id,
    )
    plans = table_plans(len(free), seats, computers)
    if not plans:
        problem: Problem = "too_few" if len(free) < min(best_sizes(seats)) else "no_fit"
        return Deal((), waiting, problem=problem, unseated=tuple(m.user_id for m in free))
    met = meetings(history)
    rng = Rng(seed)
    best: tuple[tuple[int, float], list[list[int]], list[Shape]] | None = None
    for shapes in plans:
        cost, groups = _Search(free, [shape.members for shape in shapes], met, rng).best()
        if best is None or cost[0] < best[0][0]:
            best = cost, groups, shapes
        if cost[0] == 0:
            break  # nobody meets again: a split with more threes cannot do better
    assert best is not None
    _, groups, shapes = best
    tables = []
    for group, shape in zip(groups, shapes, strict=True):
        order = [free[i].user_id for i in group]
        rng.shuffle(order)  # who plays first: drawn, as at any table
        tables.append(Table(tuple(order), shape.computers))
    return Deal(tuple(tables), waiting, repeats((t.members for t in tables), met))


class _Search:
    """Swap search over members ``0 .. n-1`` (indices into ``free``) dealt into tables of the
    given sizes; cost (repeats, imbalance), compared in that order."""

    def __init__(
        self, free: Sequence[Member], sizes: list[int], met: Counter[frozenset[int]], rng: Rng
    ) -> None:
        self.n = len(free)
        self.sizes = sizes
        self.rng = rng
        self.rating = [m.rating for m in free]
        ids = [m.user_id for m in free]
        self.met = [[met[frozenset((a, b))] if a != b else 0 for b in ids] for a in ids]
        self.mean = sum(self.rating) / self.n

    def best(self) -> tuple[tuple[int, float], list[list[int]]]:
        """The best deal found and its cost."""
        if len(self.sizes) == 1:
            return _State(self, list(range(self.n))).cost(), [list(range(self.n))]
        best: tuple[tuple[int, float], list[list[int]]] | None = None
        starts = max(2, min(STARTS, START_BUDGET // self.n))
        for _ in range(starts):
            order = list(range(self.n))
            self.rng.shuffle(order)
            found = self._improve_with_shakes(order)
            if best is None or found[0] < best[0]:
                best = found
        assert best is not None
        return best

    # ----------------------------------------------------------------- one start
    def _improve_with_shakes(self, order: list[int]) -> tuple[tuple[int, float], list[list[int]]]:
        state = _State(self, order)
        state.descend()
        best_cost, best_groups = state.cost(), state.groups()
        for _ in range(max(4, min(SHAKES, SHAKE_BUDGET // self.n))):
            if best_cost[0] == 0 and best_cost[1] < 1e-9:
                break
            state = _State(self, [i for g in best_groups for i in g])
            for _ in range(2):
                state.swap_random()
            state.descend()
            cost = state.cost()
            if cost < best_cost:
                best_cost, best_groups = cost, state.groups()
        return best_cost, best_groups


class _State:
    """One deal under improvement: each member's table, each table's members and rating sum,
    and ``load[p][t]``, how many earlier meetings ``p`` has with the members of table ``t``."""

    def __init__(self, search: _Search, order: list[int]) -> None:
        self.s = search
        self.tables: list[list[int]] = []
        at = 0
        for size in search.sizes:
            self.tables.append(order[at : at + size])
            at += size
        self.where = [0] * search.n
        for t, members in enumerate(self.tables):
            for p in members:
                self.where[p] = t
        self.sums = [sum(search.rating[p] for p in members) for members in self.tables]
        met = search.met
        self.load = [
            [sum(met[p][q] for q in members) for members in self.tables] for p in range(search.n)
        ]

    def groups(self) -> list[list[int]]:
        return [list(t) for t in self.tables]

    def _spread(self, t: int, total: float) -> float:
        return (total / len(self.tables[t]) - self.s.mean) ** 2

    def cost(self) -> tuple[int, float]:
        repeats = sum(self.load[p][self.where[p]] for p in range(self.s.n)) // 2
        imbalance = sum(self._spread(t, total) for t, total in enumerate(self.sums))
        return repeats, imbalance

    def _swap(self, a: int, b: int) -> None:
        ta, tb = self.where[a], self.where[b]
        met = self.s.met
        for p in range(self.s.n):
            row, meet = self.load[p], met[p]
            row[ta] += meet[b] - meet[a]
            row[tb] += meet[a] - meet[b]
        change = self.s.rating[b] - self.s.rating[a]
        self.sums[ta] += change
        self.sums[tb] -= change
        self.tables[ta][self.tables[ta].index(a)] = b
        self.tables[tb][self.tables[tb].index(b)] = a
        self.where[a], self.where[b] = tb, ta

    def swap_random(self) -> None:
        a = self.s.rng.below(self.s.n)
        b = self.s.rng.below(self.s.n)
        if self.where[a] != self.where[b]:
            self._swap(a, b)

    def descend(self) -> None:
        """Make every swap that lowers the cost until none does (first improvement).

        (The cost of a swap is worked out inline: this loop is nearly all of a deal's time.
        A swap that makes people meet again is passed over before its balance is looked at.)
        """
        n, where, load, sums = self.s.n, self.where, self.load, self.sums
        met, rating, mean = self.s.met, self.s.rating, self.s.mean
        size = [len(members) for members in self.tables]
        improved = True
        while improved:
            improved = False
            for a in range(n):
                load_a, met_a, rating_a = load[a], met[a], rating[a]
                for b in range(a + 1, n):
                    ta, tb = where[a], where[b]
                    if ta == tb:
                        continue
                    load_b = load[b]
                    repeats = load_a[tb] + load_b[ta] - load_a[ta] - load_b[tb] - 2 * met_a[b]
                    if repeats > 0:
                        continue
                    if repeats == 0:
                        change = rating[b] - rating_a
                        gap_a, gap_b = sums[ta] / size[ta] - mean, sums[tb] / size[tb] - mean
                        moved_a, moved_b = gap_a + change / size[ta], gap_b - change / size[tb]
                        better = moved_a**2 + moved_b**2 - gap_a**2 - gap_b**2
                        if better >= -1e-9:
                            continue
                    self._swap(a, b)
                    improved = True
