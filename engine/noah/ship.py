"""The ship itself: cabins, who may share one, shy neighbours and the tilt.

The players call the ship "the ark"; the code says *ship*, so that "Ark" names only the
Covenant's Ark. The ship is two rows of cabins, port (side 0) and starboard (side 1), each a
list of cabins from the bow outwards; a cabin is a list of up to three card ids. Cabins at the
same row on both sides are *opposite*, neighbouring rows on one side are *adjacent*, and the
other two (different side, neighbouring row) are *diagonal*. The ``*_problem`` functions say
why a card may not go somewhere, as the :class:`~engine.errors.IllegalAction` to raise (a
sentence, a code of :data:`engine.noah.errors.CODES` and the card ids it names), or return
``None`` when it may; they never change anything.

Rule readings:

- Climate and the food chain apply to every card, provisions included (bananas are hot).
- "Carnivores must be lighter than the other animals": provisions are not animals, so a
  carnivore may sit with provisions of any weight; omnivores obey both food rules.
- Turtle and hedgehog are "not bothered by larger carnivores or omnivores": the exemption is
  for strictly heavier ones; a predator of the same weight still may not join them.
- The hedgehog is itself a shy carnivore. Since it "can share a cabin with" heavier
  carnivores, its shyness ignores carnivores heavier than itself too (it still fears the
  weight-0 spider and mosquito). Other shy animals fear the hedgehog like any carnivore.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.errors import IllegalAction
from engine.noah.cards import (
    ANY,
    CARDS,
    CARNIVORE,
    CLIMATE,
    EATS_PLANTS,
    IS_ANIMAL,
    IS_PROVISION,
    PREDATOR,
    SHY,
    TOUGH,
    WEIGHT,
)

#: Cards per cabin.
CABIN_SIZE = 3

#: The yellow disc may stand at most this far from the middle of the bow.
MAX_TILT = 2

Cabins = list[list[list[int]]]


def _climate(card: int, other: int) -> IllegalAction:
    return IllegalAction("climate", card=card, other=other)


def _eats_provision(eater: int, provision: int) -> IllegalAction:
    return IllegalAction("eats_provision", eater=eater, provision=provision)


def _eaten(predator: int, prey: int) -> IllegalAction:
    """``predator`` (a carnivore or omnivore) is not lighter than ``prey``."""
    return IllegalAction("eaten", predator=predator, prey=prey)


def fit_problem(cabin: Sequence[int], card: int) -> IllegalAction | None:
    """Why ``card`` may not join the cards of ``cabin`` (climate, food), or ``None``.

    Capacity, tilt and shyness are checked elsewhere: this is only about cabin mates.
    """
    climate = CLIMATE[card]
    if climate != ANY:
        for other in cabin:
            their_climate = CLIMATE[other]
            if their_climate != ANY and their_climate != climate:
                return _climate(card, other)
    if IS_PROVISION[card]:
        for other in cabin:
            if EATS_PLANTS[other]:
                return _eats_provision(other, card)
        return None
    if not IS_ANIMAL[card]:
        return IllegalAction("not_on_ark", card=card)
    if EATS_PLANTS[card]:
        for other in cabin:
            if IS_PROVISION[other]:
                return _eats_provision(card, other)
    weight = WEIGHT[card]
    predator = PREDATOR[card]
    tough = TOUGH[card]
    for other in cabin:
        if not IS_ANIMAL[other]:
            continue
        theirs = WEIGHT[other]
        if predator and weight >= theirs and not (TOUGH[other] and weight > theirs):
            return _eaten(card, other)
        if PREDATOR[other] and theirs >= weight and not (tough and theirs > weight):
            return _eaten(other, card)
    return None


def _clashes(card: int) -> frozenset[int]:
    return frozenset(other for other in range(len(CARDS)) if fit_problem([other], card) is not None)


#: For each card, the cards it may not share a cabin with. :func:`fit_problem` judges each
#: cabin mate on its own, so a card fits a cabin exactly when it clashes with none of its
#: cards; the listing of placements asks this (one set operation) instead of the sentences.
CLASHES: tuple[frozenset[int], ...] = tuple(_clashes(card) for card in range(len(CARDS)))


def _fears(card: int) -> frozenset[int]:
    if not SHY[card]:
        return frozenset()
    weight, tough = WEIGHT[card], TOUGH[card]
    return frozenset(
        other
        for other in range(len(CARDS))
        if CARNIVORE[other] and other != card and not (tough and WEIGHT[other] > weight)
    )


#: For each shy card, the carnivores it will not sit with or next to (empty if not shy): the
#: test of :func:`shy_blocker`, as a set for :func:`shy_blocked`.
FEARS: tuple[frozenset[int], ...] = tuple(_fears(card) for card in range(len(CARDS)))


def neighbour_cabins(cabins: Cabins, side: int, row: int) -> list[list[int]]:
    """The cabins adjacent to (same side, next rows) or opposite (same row) a cabin.

    ``row`` may be the row of a cabin not opened yet; diagonal cabins are not included.
    """
    result = []
    mine = cabins[side]
    if row > 0:
        result.append(mine[row - 1])
    if row + 1 < len(mine):
        result.append(mine[row + 1])
    theirs = cabins[1 - side]
    if row < len(theirs):
        result.append(theirs[row])
    return result


def shy_blocker(cabins: Cabins, side: int, row: int, card: int) -> tuple[bool, int] | None:
    """The carnivore that keeps the shy ``card`` out of ``side``/``row``, as (in that very
    cabin, its id), or ``None`` when nothing does (or the card is not shy). The listing of
    legal placements asks this without building a sentence."""
    if not SHY[card]:
        return None
    weight = WEIGHT[card]
    tough = TOUGH[card]
    mine = cabins[side]
    here = mine[row] if row < len(mine) else []
    for inside, group in ((True, [here]), (False, neighbour_cabins(cabins, side, row))):
        for cabin in group:
            for other in cabin:
                if CARNIVORE[other] and other != card and not (tough and WEIGHT[other] > weight):
                    return inside, other
    return None


def shy_blocked(cabins: Cabins, side: int, row: int, card: int) -> bool:
    """Whether :func:`shy_blocker` finds a carnivore, without saying which: the listing of
    legal placements asks this for every cabin a shy card might enter."""
    fears = FEARS[card]
    if not fears:
        return False
    mine = cabins[side]
    if row < len(mine) and not fears.isdisjoint(mine[row]):
        return True
    if row > 0 and not fears.isdisjoint(mine[row - 1]):
        return True
    if row + 1 < len(mine) and not fears.isdisjoint(mine[row + 1]):
        return True
    theirs = cabins[1 - side]
    return row < len(theirs) and not fears.isdisjoint(theirs[row])


def shy_problem(cabins: Cabins, side: int, row: int, card: int) -> IllegalAction | None:
    """Why the shy ``card`` may not enter ``side``/``row`` for fear of a carnivore, or ``None``.

    Only the entering animal is checked: shy animals already aboard never leave.
    """
    found = shy_blocker(cabins, side, row, card)
    if found is None:
        return None
    inside, other = found
    return IllegalAction("shy" if inside else "shy_next_to", card=card, carnivore=other)


def cabin_is_legal(cabin: Sequence[int]) -> bool:
    """True when these cards may share one cabin (size, climate, food; not shyness)."""
    if len(cabin) > CABIN_SIZE:
        return False
    return all(fit_problem(cabin[:i], card) is None for i, card in enumerate(cabin))


def side_weights(cabins: Cabins) -> tuple[int, int]:
    """Total weight of the port and starboard cabins."""
    return (
        sum(WEIGHT[c] for cabin in cabins[0] for c in cabin),
        sum(WEIGHT[c] for cabin in cabins[1] for c in cabin),
    )
