"""A base for the engines' immutable action values: their dict form for the game log."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any, ClassVar


class Serialisable:
    """Gives a frozen dataclass ``to_dict()``: ``{"type": <its type name>, **fields}``.

    Subclasses set the class variable ``type`` (e.g. ``"place_tile"``).
    """

    __slots__ = ()
    type: ClassVar[str]

    def to_dict(self) -> dict[str, Any]:
        # Every subclass is a dataclass; this base is not one, so its self is not typed as one.
        return {"type": self.type, **asdict(self)}  # type: ignore[call-overload]
