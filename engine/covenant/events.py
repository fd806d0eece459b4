"""What happened: immutable events returned by ``Game.apply``.

They hold enough to narrate a turn ("Ruth closed a city of 4 tiles and scored 8") and to
draw a score breakdown, without looking at the game again.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any, ClassVar, Literal

from engine.covenant.geometry import Pos

Feature = Literal["city", "road", "field", "temple"]


@dataclass(frozen=True, slots=True)
class PieceRef:
    """A piece on the board: its owner, where it stands and whether it is the Prophet.

    ``port`` names the feature it stands on by its first port on that tile, or is
    ``"temple"`` for a follower on the temple itself (edition "de").
    """

    seat: int
    x: int
    y: int
    port: str
    prophet: bool = False


@dataclass(frozen=True, slots=True)
class Event:
    type: ClassVar[str] = "event"

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.type, **asdict(self)}


@dataclass(frozen=True, slots=True)
class TurnStarted(Event):
    """``seat`` drew ``tile`` and must place it."""

    seat: int
    tile: str
    turn: int
    tiles_left: int
    type: ClassVar[str] = "turn_started"


@dataclass(frozen=True, slots=True)
class TileDiscarded(Event):
    """``tile`` fits nowhere on the board; it goes back in the box and another is drawn."""

    seat: int
    tile: str
    type: ClassVar[str] = "tile_discarded"


@dataclass(frozen=True, slots=True)
class TilePlaced(Event):
    seat: int
    tile: str
    x: int
    y: int
    rotation: int
    type: ClassVar[str] = "tile_placed"


@dataclass(frozen=True, slots=True)
class PieceDeployed(Event):
    seat: int
    x: int
    y: int
    port: str
    feature: Feature
    prophet: bool
    type: ClassVar[str] = "piece_deployed"


@dataclass(frozen=True, slots=True)
class Passed(Event):
    seat: int
    type: ClassVar[str] = "passed"


@dataclass(frozen=True, slots=True)
class ArkPlaced(Event):
    """``seat`` put the Ark on (x, y) and scored ``points`` for it (2 in "de", else 0)."""

    seat: int
    x: int
    y: int
    points: int = 0
    type: ClassVar[str] = "ark_placed"


@dataclass(frozen=True, slots=True)
class ArkMoved(Event):
    """The Ark went along ``path`` through ``squares`` (entered tiles, in order).

    ``points`` holds what each seat got, the mover's ``bonus`` included: the points for
    ending on a temple tile ("de"), 0 in the other editions.
    """

    seat: int
    path: str
    start: Pos
    squares: tuple[Pos, ...]
    points: tuple[int, ...]
    bonus: int = 0
    type: ClassVar[str] = "ark_moved"


@dataclass(frozen=True, slots=True)
class FeatureScored(Event):
    """A road, city, temple or field was scored.

    ``complete`` is false for the final scoring of unfinished roads, cities and temples, and
    for fields. ``extras`` counts oases (road), scrolls (city) or sheep (field). ``points``
    holds what each seat got; ``doubled`` names the seats whose Prophet doubled a city;
    ``returned`` the pieces that went back (the Prophet to the box). ``squares`` are in
    reading order, except that a temple's own square comes first. ``segments`` is the count
    of segments when the edition scores by segment instead of by tile (an unfinished road
    or city in "en1"), else None; ``ark_doubled`` is true when the Ark on a temple's tile
    multiplied its points ("de").
    """

    feature: Feature
    complete: bool
    squares: tuple[Pos, ...]
    tiles: int
    extras: int
    wolves: int
    points: tuple[int, ...]
    winners: tuple[int, ...]
    doubled: tuple[int, ...] = ()
    returned: tuple[PieceRef, ...] = ()
    segments: int | None = None
    ark_doubled: bool = False
    type: ClassVar[str] = "feature_scored"


@dataclass(frozen=True, slots=True)
class FinalScoring(Event):
    """The last tile was played; the final scoring follows."""

    type: ClassVar[str] = "final_scoring"


@dataclass(frozen=True, slots=True)
class GameOver(Event):
    scores: tuple[int, ...]
    winners: tuple[int, ...]
    type: ClassVar[str] = "game_over"
