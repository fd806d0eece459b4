"""What a player can do: immutable action values.

Every action serialises to a small dict (``to_dict``) and back (:func:`action_from_dict`),
which is how the game log stores them.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, ClassVar

from engine.common.values import Serialisable


@dataclass(frozen=True, slots=True)
class PlaceTile(Serialisable):
    """Place the tile in hand at (x, y), turned ``rotation`` degrees clockwise."""

    x: int
    y: int
    rotation: int = 0
    type: ClassVar[str] = "place_tile"


@dataclass(frozen=True, slots=True)
class Deploy(Serialisable):
    """Put a follower (or the Prophet) on the feature of the new tile that holds ``port``."""

    port: str
    prophet: bool = False
    type: ClassVar[str] = "deploy"


@dataclass(frozen=True, slots=True)
class MoveArk(Serialisable):
    """Move the Ark one step per letter of ``path`` (N, E, S or W), 1 to 5 steps."""

    path: str
    type: ClassVar[str] = "move_ark"


@dataclass(frozen=True, slots=True)
class PlaceArk(Serialisable):
    """Put the Ark on tile (x, y) of the first city completed, which ends the turn."""

    x: int
    y: int
    type: ClassVar[str] = "place_ark"


@dataclass(frozen=True, slots=True)
class Pass(Serialisable):
    """Neither deploy a piece nor move the Ark this turn."""

    type: ClassVar[str] = "pass"


Action = PlaceTile | Deploy | MoveArk | PlaceArk | Pass
ACTION_TYPES: dict[str, type[Action]] = {
    cls.type: cls for cls in (PlaceTile, Deploy, MoveArk, PlaceArk, Pass)
}


def action_from_dict(data: dict[str, Any]) -> Action:
    """Rebuild an action from :meth:`to_dict` output; raises ``ValueError`` if malformed."""
    if not isinstance(data, dict) or data.get("type") not in ACTION_TYPES:
        raise ValueError(f"not an action: {data!r}")
    cls = ACTION_TYPES[data["type"]]
    names = {f.name for f in fields(cls)}
    extra = set(data) - names - {"type"}
    if extra:
        raise ValueError(f"unexpected fields for {cls.type}: {sorted(extra)}")
    try:
        return cls(**{k: v for k, v in data.items() if k != "type"})
    except TypeError as exc:
        raise ValueError(f"malformed {cls.type}: {exc}") from None
