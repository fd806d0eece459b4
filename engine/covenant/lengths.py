"""How long a game of The Ark of the Covenant lasts: all 72 tiles, or a shorter deal of them.

:data:`LENGTHS` holds the lengths a table can choose, by the tiles in play (the start tile
counted): ``"full"`` 72 (the default), ``"medium"`` 54 and ``"short"`` 36.

A shorter game draws a subset of the tiles chosen so that it keeps the game's character,
deterministically from the seed (:func:`deal`):

1. Each *kind* of tile in proportion: the temple tiles, the tiles with a city, and the
   tiles of roads and fields only. Proportion is kept by the largest remainder: each kind
   gets its share rounded down, and the tiles still to give go to the largest fractions (a
   tie broken by the seed). A short game has 3 temples of the 6, 21 city tiles of 42 and
   11 road tiles of 23.
2. Within a kind, each *shape* in proportion the same way: the outline of the tile (which
   sides are city, road or field, up to rotation) and how its cities and roads run, since a
   corner city and two separate cities on the same edges play differently. So the cities
   that can be closed, the road crossings and the caps that close a city stay in the mix.
3. Within a shape, the designs differ only in what they carry: scrolls, oases, sheep and
   wolves. Any tiles of the shape may be dealt, each as likely. Of :data:`DRAWS` such
   deals, the one whose scrolls, oases, sheep and wolves come nearest their share of the
   whole set is kept (the first of equals): over 300 seeds each is within 2 of its share,
   the sheep within 3.2.

The start tile always begins the game. The Ark crosses any tile, so no tile has to be kept
for it; it comes onto the board with the first completed city, and the city tiles are kept
in proportion.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType

from engine.common.rng import Rng
from engine.covenant.tiles import TILES, TileDesign
from engine.errors import IllegalAction

DEFAULT_LENGTH = "full"
#: Every length by key, the default first: the tiles in play, the start tile counted.
LENGTHS: Mapping[str, int] = MappingProxyType({"full": 72, "medium": 54, "short": 36})
#: How many seeded deals a shorter game weighs, keeping the one nearest in what it carries.
DRAWS = 32
#: What a tile carries, each to be dealt in proportion as near as the shapes allow.
CARRIED = ("scrolls", "oases", "sheep", "wolves")


def length(key: object) -> str:
    """``key`` if it names a length; raises :class:`IllegalAction` (a ``ValueError``) if not."""
    if not isinstance(key, str) or key not in LENGTHS:
        raise IllegalAction("unknown_length", length=key, known=tuple(LENGTHS))
    return key


def kind_of(design: TileDesign) -> str:
    """``"temple"``, ``"city"`` (a tile with a city) or ``"road"`` (roads and fields only)."""
    if design.temple:
        return "temple"
    return "city" if "C" in design.edges else "road"


def shape_of(design: TileDesign) -> tuple[str, int, int]:
    """The tile's outline up to rotation (the first of its four readings clockwise, in
    alphabetical order: ``"CCFF"`` for a corner city), with how many separate cities and
    roads it has."""
    edges = "".join(design.edges)
    outline = min(edges[turn:] + edges[:turn] for turn in range(4))
    cities = sum(1 for s in design.segments if s.kind == "city")
    roads = sum(1 for s in design.segments if s.kind == "road")
    return outline, cities, roads


#: How a deal is split, level by level: kind, then shape.
_LEVELS: tuple[Callable[[TileDesign], str | tuple[str, int, int]], ...] = (kind_of, shape_of)

#: Every tile but the start tile, one entry a copy, in the order of the tile set.
EVERY_TILE: tuple[str, ...] = tuple(
    design.id for design in TILES.values() if not design.start for _ in range(design.count)
)


def shares(sizes: Sequence[int], total: int, rng: Rng) -> list[int]:
    """``total`` split in proportion to ``sizes`` by the largest remainder: each its share
    rounded down, then one more to each of the largest fractions, ties in an order drawn
    from ``rng``. In integers: the fraction of ``size`` is ``size * total % whole``."""
    whole = sum(sizes)
    given = [size * total // whole for size in sizes]
    left = total - sum(given)
    if left:  # (the order is drawn only when there is a tile left to give)
        order = list(range(len(sizes)))
        rng.shuffle(order)
        order.sort(key=lambda i: -(sizes[i] * total % whole))
        for i in order[:left]:
            given[i] += 1
    return given


@dataclass(frozen=True, slots=True)
class _Group:
    """Tiles alike down to a level: ``parts`` are its groups one level down, in the order
    they first come in the tile set; a group of the last level (the tiles of one shape)
    has none."""

    tiles: tuple[str, ...]
    parts: tuple[_Group, ...] = ()


def _grouped(tiles: tuple[str, ...], level: int = 0) -> _Group:
    if level == len(_LEVELS):
        return _Group(tiles)
    groups: dict[str | tuple[str, int, int], list[str]] = {}
    for tile in tiles:
        groups.setdefault(_LEVELS[level](TILES[tile]), []).append(tile)
    return _Group(tiles, tuple(_grouped(tuple(g), level + 1) for g in groups.values()))


#: Every tile but the start tile, by kind, shape and design: made once, dealt from often.
_EVERY_GROUP = _grouped(EVERY_TILE)


def _draw(group: _Group, count: int, rng: Rng) -> list[str]:
    """``count`` tiles of ``group``, each of its parts (and theirs) in proportion; of one
    shape, any ``count`` of its tiles, each as likely (a design with more copies is as
    likely to be dealt as their number says, where shares would favour the single ones)."""
    if not group.parts:
        tiles = list(group.tiles)
        rng.shuffle(tiles)
        return tiles[:count]
    if len(group.parts) == 1:
        return _draw(group.parts[0], count, rng)
    sizes = [len(part.tiles) for part in group.parts]
    dealt: list[str] = []
    for part, share in zip(group.parts, shares(sizes, count, rng), strict=True):
        if share:
            dealt += _draw(part, share, rng)
    return dealt


def carried(tiles: Sequence[str]) -> dict[str, int]:
    """The scrolls, oases, sheep and wolves on ``tiles`` together."""
    return {what: sum(getattr(TILES[t], what) for t in tiles) for what in CARRIED}


#: What each tile carries, in the order of :data:`CARRIED`, and the whole set's.
_CARRIES = {tile: tuple(getattr(TILES[tile], w) for w in CARRIED) for tile in set(EVERY_TILE)}
_WHOLE = tuple(carried(EVERY_TILE)[w] for w in CARRIED)


def _distance(tiles: Sequence[str]) -> float:
    """How far what ``tiles`` carry is from their share of the whole set's (chi-squared)."""
    found = [sum(column) for column in zip(*(_CARRIES[t] for t in tiles), strict=True)]
    part = len(tiles) / len(EVERY_TILE)
    return float(sum((f - w * part) ** 2 / (w * part) for f, w in zip(found, _WHOLE, strict=True)))


def deal(key: str, rng: Rng) -> list[str]:
    """The tiles a game of length ``key`` draws besides the start tile, in the order of the
    tile set (the game shuffles them). The full game takes every tile and leaves ``rng``
    untouched, so that its shuffle is the one it always was."""
    count = LENGTHS[length(key)] - 1
    if count >= len(EVERY_TILE):
        return list(EVERY_TILE)
    best: list[str] = []
    nearest = float("inf")
    for _ in range(DRAWS):
        tiles = _draw(_EVERY_GROUP, count, rng)
        distance = _distance(tiles)
        if distance < nearest:
            best, nearest = tiles, distance
    order = {tile: index for index, tile in enumerate(dict.fromkeys(EVERY_TILE))}
    return sorted(best, key=order.__getitem__)
