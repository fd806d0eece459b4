"""The one action, putting one's mark on a square, and the events a move tells."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from engine.common.values import Serialisable


@dataclass(frozen=True, slots=True)
class Mark(Serialisable):
    """Put the mover's mark on ``square`` (0 to 8, row by row from the top left)."""

    square: int
    type: ClassVar[str] = "mark"


def action_from_dict(data: Mapping[str, Any]) -> Mark:
    """An action from its log form (``Mark.to_dict()``); ``ValueError`` if malformed."""
    if data.get("type") != Mark.type:
        raise ValueError(f"not a tic-tac-toe action: {data.get('type')!r}")
    square = data.get("square")
    if type(square) is not int:
        raise ValueError(f"a square is a number, not {square!r}")
    return Mark(square)


@dataclass(frozen=True, slots=True)
class Marked:
    """``seat`` put its mark on ``square``."""

    seat: int
    square: int
    type: ClassVar[str] = "marked"


@dataclass(frozen=True, slots=True)
class Won:
    """``seat`` filled ``line`` (three squares) and won."""

    seat: int
    line: tuple[int, int, int]
    type: ClassVar[str] = "won"


@dataclass(frozen=True, slots=True)
class Drawn:
    """The board is full and no line was filled: nobody won."""

    type: ClassVar[str] = "drawn"


Event = Marked | Won | Drawn
