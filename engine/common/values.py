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
    #: Made by ``@dataclass`` on every subclass; declared here so ``asdict(self)`` is typed.
    __dataclass_fields__: ClassVar[dict[str, Any]]

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.type, **asdict(self)}
