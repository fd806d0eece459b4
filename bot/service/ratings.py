"""Ratings: Elo, generalised to tables of more than two players.

A game of n players counts as every pair of them playing one match: who finished higher wins
it, a tie is half each. Each player's rating moves by ``K / (n - 1)`` times the sum, over the
others, of (result - expected), with Elo's expected score ``1 / (1 + 10 ** ((Rb - Ra) / 400))``;
so a two-player game is plain Elo with ``K``, and a bigger table moves a rating about as much
as one match does, however many players sat at it. The sum of all ratings stays the same.

Only people count: computer players are left out (as if not at the table), games a moderator
ended early are not rated at all, and a player who left a game counts as finishing last.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

from bot.service.models import Rating, Seat

START = 1000.0
K = 32.0


@dataclass(frozen=True, slots=True)
class Finish:
    """One person's result: their place (1 is first; equal places are a tie)."""

    user_id: int
    name: str
    place: int
    won: bool


def expected(mine: float, theirs: float) -> float:
    return 1.0 / (1.0 + float(10.0 ** ((theirs - mine) / 400.0)))


def rated(before: Mapping[int, Rating], finishes: Sequence[Finish]) -> list[Rating]:
    """Everyone's rating after the game (``before``: ratings so far; new players start at
    :data:`START`). Fewer than two people: nothing to rate."""
    if len(finishes) < 2:
        return []
    now = {f.user_id: before[f.user_id].rating if f.user_id in before else START for f in finishes}
    step = K / (len(finishes) - 1)
    after = []
    for me in finishes:
        change = 0.0
        for other in finishes:
            if other is me:
                continue
            result = 1.0 if me.place < other.place else 0.5 if me.place == other.place else 0.0
            change += result - expected(now[me.user_id], now[other.user_id])
        old = before.get(me.user_id)
        after.append(
            Rating(
                me.user_id,
                me.name,
                round(now[me.user_id] + step * change, 2),
                (old.games if old else 0) + 1,
                (old.wins if old else 0) + int(me.won),
            )
        )
    return after


def places(scores: Sequence[int]) -> list[int]:
    """Competition ranking of scores, highest first (ties share a place: 1, 2, 2, 4)."""
    return [1 + sum(other > mine for other in scores) for mine in scores]


def finishes(
    seats: Sequence[Seat], scores: Sequence[int], winners: Collection[int]
) -> list[Finish]:
    """The people's finishes of a game that ended with ``scores`` (by seat) and ``winners``
    (seat indices): computers left out, who left counted last (for the ratings and a
    season's points alike)."""
    ranks = places(scores)
    last = len(scores) + 1
    people = [
        Finish(s.user_id, s.name, ranks[s.index], s.index in winners)
        for s in seats
        if s.user_id is not None and not s.is_bot
    ]
    return people + [
        Finish(s.left_user_id, s.name, last, False)
        for s in seats
        if s.left_user_id is not None and s.user_id is None
    ]
