"""What a front and a teacher work on: :class:`Seen`, one game as one user sees it."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

#: The engine's ``Game`` class of the game shown.
G = TypeVar("G")


@dataclass(frozen=True, slots=True)
class Seen(Generic[G]):
    """What a front works on: the game (the full state, held by the bot; what the front shows
    must be limited to what ``seat`` may see), the seat of the user who asked (``None`` for
    someone not at the table), everyone's display names and the game's version, and the
    language of the one who asked, for what they type (a front's words are :class:`Text`,
    said later in whatever language)."""

    game: G
    seat: int | None
    names: tuple[str, ...]
    version: int
    options: Mapping[str, Any]
    language: str = "en"
