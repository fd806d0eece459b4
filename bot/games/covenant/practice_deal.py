"""The arranged deal of a practice game of The Ark of the Covenant: the short game's tiles
(:func:`engine.covenant.lengths.deal`), put in an order that brings each lesson's idea onto
the board in the rule book's order, whatever the seed.

The learner sits first against two computers, so the learner draws tiles 1, 4, 7, ... of
the deck. For the first four rounds the computers draw only tiles without a city edge, and
the learner tiles whose cities all reach two edges or more: no city can be finished before
the learner's fourth tile, a one-edge city (a cap) that can close the start tile's city, the
turn the Ark's lesson comes (the first finished city brings the Ark onto the board). No
temple is drawn before the learner's temple tile, the turn temples are taught. The rest of
the deck follows in the seed's shuffle.
"""

from __future__ import annotations

from collections.abc import Callable

from engine.common.rng import Rng
from engine.covenant import TILES, TileDesign
from engine.covenant.lengths import EVERY_TILE, deal

#: The seats of a practice game: the learner and two computers.
PLAYERS = 3
LENGTH = "short"

Kind = Callable[[TileDesign], bool]


def _city_edges(design: TileDesign) -> list[int]:
    return [len(s.sides) for s in design.segments if s.kind == "city"]


def _no_city(design: TileDesign) -> bool:
    return not _city_edges(design) and not design.temple


def _wide_city(design: TileDesign) -> bool:
    """A tile whose cities all reach two edges or more: alone it never closes a city."""
    edges = _city_edges(design)
    return bool(edges) and min(edges) >= 2


def _cap(design: TileDesign) -> bool:
    """A tile with a one-edge city: it can close the start tile's city."""
    return 1 in _city_edges(design)


def _road_end(design: TileDesign) -> bool:
    """A crossing without a city or temple: roads end at it, so it can finish one."""
    return _no_city(design) and sum(1 for s in design.segments if s.kind == "road") >= 3


def _temple(design: TileDesign) -> bool:
    return design.temple


def _sheep(design: TileDesign) -> bool:
    return _no_city(design) and design.sheep > 0


def _anything(design: TileDesign) -> bool:
    return not design.temple


#: What each of the first tiles of the deck is, by its place; the learner's (every third,
#: from the first) with the lesson it is there for.
PLAN: tuple[Kind, ...] = (
    _wide_city,  # learner 1: placing
    _no_city,
    _no_city,
    _wide_city,  # learner 2: followers
    _no_city,
    _no_city,
    _wide_city,  # learner 3: the Prophet, into a city
    _no_city,
    _no_city,
    _cap,  # learner 4: the Ark comes with the first finished city
    _anything,
    _anything,
    _cap,  # learner 5: the Ark moves (a second city to finish, or to hold)
    _anything,
    _anything,
    _road_end,  # learner 6: roads
    _anything,
    _anything,
    _cap,  # learner 7: cities
    _anything,
    _anything,
    _anything,  # learner 8: most followers
    _anything,
    _anything,
    _temple,  # learner 9: temples
    _anything,
    _anything,
    _sheep,  # learner 10: fields
)


def practice_deck(seed: int) -> list[str]:
    """The short game's tiles for ``seed`` in the practice order (see the module)."""
    rng = Rng(seed)
    pool = deal(LENGTH, rng)
    rng.shuffle(pool)
    # The tiles of the whole set the short deal left out, for a kind the deal lacks.
    spare = list(EVERY_TILE)
    for tile in pool:
        spare.remove(tile)
    rng.shuffle(spare)
    deck: list[str] = []
    for kind in PLAN:
        found = next((t for t in pool if kind(TILES[t])), None)
        if found is None:
            # Swapped for a tile of that kind from outside the deal, so the deck keeps its
            # length; the tile it replaces is one the plan has not placed.
            found = next(t for t in spare if kind(TILES[t]))
            spare.remove(found)
            pool.remove(next(t for t in pool if not TILES[t].temple))
        else:
            pool.remove(found)
        deck.append(found)
    return deck + pool


__all__ = ["LENGTH", "PLAN", "PLAYERS", "practice_deck"]
