"""Final scoring: majorities of figures on the five scoring cards, discs, and the tie break.

Figures are counted in halves so that the 1.5-figure pieces of the bronto and chimpanzee
stay integers: a plain figure is 2 halves, a figure on an orange disc 3. Two such pieces of
one player make three whole figures, which the half count gives without exchanging pieces.

On each scoring card the most figures earn 10, the second most 6, every other player with at
least one figure 2. Players tied share the points of the places they cover, averaged and
rounded up: two tied first get (10 + 6) / 2 = 8 each, three tied first (10 + 6 + 2) / 3 = 6,
two tied second (6 + 2) / 2 = 4. Each action disc left is worth 1 point.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

#: Points for the first, second, and every later place on a scoring card.
PLACE_POINTS: tuple[int, int] = (10, 6)
OTHER_POINTS = 2


def _place_points(place: int) -> int:
    return PLACE_POINTS[place] if place < len(PLACE_POINTS) else OTHER_POINTS


def card_points(halves: Sequence[int]) -> list[int]:
    """Points per seat for one scoring card, given each seat's figures counted in halves.

    >>> card_points([4, 4, 2, 0])
    [8, 8, 2, 0]
    """
    points = [0] * len(halves)
    ranked = sorted((h for h in set(halves) if h > 0), reverse=True)
    place = 0
    for value in ranked:
        tied = [seat for seat, h in enumerate(halves) if h == value]
        total = sum(_place_points(place + i) for i in range(len(tied)))
        share = -(-total // len(tied))  # averaged, rounded up
        for seat in tied:
            points[seat] = share
        place += len(tied)
    return points


@lru_cache(maxsize=1 << 16)
def remembered_points(halves: tuple[int, ...]) -> tuple[int, ...]:
    """:func:`card_points`, remembered: a pure function of a few small numbers that every
    playout of the computer players ends with, and their evaluation asks of every position."""
    return tuple(card_points(halves))


def total_scores(halves_by_seat: Sequence[Sequence[int]], discs: Sequence[int]) -> list[int]:
    """Points per seat: every scoring card (``halves_by_seat[seat][kind]``) plus discs."""
    scores = list(discs)
    for column in zip(*halves_by_seat, strict=True):
        for seat, points in enumerate(remembered_points(column)):
            scores[seat] += points
    return scores


def winners(scores: Sequence[int], animals_in_hand: Sequence[int]) -> tuple[int, ...]:
    """The winning seats: most points, then fewest animal cards in hand; several if tied."""
    best = max(scores)
    leaders = [seat for seat, s in enumerate(scores) if s == best]
    fewest = min(animals_in_hand[seat] for seat in leaders)
    return tuple(seat for seat in leaders if animals_in_hand[seat] == fewest)
