"""Where each player finished, for a game's final list: by points, a winner before those
it beat on the engine's tie break; seats the engine does not tell apart share a place."""

from __future__ import annotations

from collections.abc import Sequence


def places(scores: Sequence[int], winners: Sequence[int]) -> list[int]:
    """Each seat's place, from 1 (``winners``: the engine's, its tie break applied)."""

    def ahead(one: int, other: int) -> bool:
        if scores[one] != scores[other]:
            return scores[one] > scores[other]
        return one in winners and other not in winners

    seats = range(len(scores))
    return [1 + sum(ahead(other, seat) for other in seats) for seat in seats]


def ranked(scores: Sequence[int], winners: Sequence[int]) -> list[tuple[int, int]]:
    """``(place, seat)`` for every seat, the first place first (seat order within one)."""
    found = places(scores, winners)
    return sorted((found[seat], seat) for seat in range(len(scores)))
