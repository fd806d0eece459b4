"""A season's standings: points for places at each table, summed per member.

**Points for a place.** A member earns, for each game, the share of the other members at
their table they finished ahead of, a tie counting half, times :data:`WIN` (12): first earns
12 and last 0 at every table size, and the places between are evenly spaced (a table of
four: 12, 8, 4, 0; of three: 12, 6, 0; of five: 12, 9, 6, 3, 0). Members who tie share the
points of the places they take between them (two first at a table of four: 10 each). Why
this scale:

- It is the same for every table size: a win is a win, and the average of a table's points
  is 6 at any size, so nobody gains from the size of the table the dealer gave them.
- It is the ratings' own view (:mod:`bot.service.ratings`: a game of n counts as every pair
  playing a match, a tie half each), so the standings and the ratings never disagree about
  who did better at a table.
- 12 is the smallest number that makes every place at a table of two to five whole; a tie
  gives at worst a half.

**Computers** are not counted at all, as in the ratings: a member's points are their share
of the *members* they beat, so a computer neither earns points nor takes any from a member
(a member who finished behind the computer at a table of three members and one computer
still earns 12 if they beat both members). A member alone with computers (the others left)
earns 6, the average: they beat no member and lost to none.

**Life happens.** Someone who left a game (a computer took their seat) counts as finishing
last in it, as in the ratings. A late joiner starts with no points, so at the bottom, and
climbs by playing; standings count totals, not averages, so a late start is never hidden
by a good average. A member who leaves the season keeps their points and their place (the
picture marks them) and is not dealt again. A game that ends after its round closed counts
in its own round, from the moment it ends.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from bot.service.ratings import Finish
from bot.service.season.members import Member

#: A win's points; last earns 0 (see the module docstring).
WIN = 12.0
#: A member with no other member at their table.
ALONE = WIN / 2


@dataclass(frozen=True, slots=True)
class GameResult:
    """One finished season game: the round it was dealt in and its people's finishes, as the
    service makes them for the ratings (computers left out; who left is last)."""

    round_number: int
    finishes: tuple[Finish, ...]


@dataclass(frozen=True, slots=True)
class Standing:
    """One member's line: their place (equal points share it), points per round (None: no
    game of theirs in that round has ended), total, and whether they left the season."""

    place: int
    user_id: int
    name: str
    rounds: tuple[float | None, ...]
    total: float
    games: int
    left: bool

    def picture_row(self) -> list[object]:
        """The line as the standings pictures take it (:mod:`render.season`), JSON-ready."""
        return [self.place, self.name, list(self.rounds), self.total, self.left]


def points(finishes: Sequence[Finish]) -> dict[int, float]:
    """Each member's points for one game (see the module docstring)."""
    result: dict[int, float] = {}
    for me in finishes:
        others = [f for f in finishes if f is not me]
        if not others:
            result[me.user_id] = ALONE
            continue
        beaten = sum(
            1.0 if me.place < f.place else 0.5 if me.place == f.place else 0.0 for f in others
        )
        result[me.user_id] = WIN * beaten / len(others)
    return result


def standings(
    members: Iterable[Member], results: Iterable[GameResult], rounds: int
) -> list[Standing]:
    """Everyone who was ever in the season, best first, with ``rounds`` per-round columns
    (the season's rounds so far). Equal totals share a place (1, 2, 2, 4) and are listed
    by the round they joined in, then by name: a late joiner starts below everyone with as
    few points."""
    people = {m.user_id: m for m in members}
    per_round: dict[int, list[float | None]] = {uid: [None] * rounds for uid in people}
    games = dict.fromkeys(people, 0)
    for result in results:
        column = result.round_number - 1
        for user_id, earned in points(result.finishes).items():
            if user_id not in people or not 0 <= column < rounds:
                continue  # not a member (a guest of a moderator's making), or a later round
            before = per_round[user_id][column]
            per_round[user_id][column] = (before or 0.0) + earned
            games[user_id] += 1
    totals = {uid: sum(p for p in row if p is not None) for uid, row in per_round.items()}
    order = sorted(people.values(), key=lambda m: (-totals[m.user_id], m.joined, m.name.casefold()))
    return [
        Standing(
            place=1 + sum(total > totals[m.user_id] for total in totals.values()),
            user_id=m.user_id,
            name=m.name,
            rounds=tuple(per_round[m.user_id]),
            total=totals[m.user_id],
            games=games[m.user_id],
            left=m.left is not None,
        )
        for m in order
    ]
