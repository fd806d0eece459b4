"""A turn as the game's log tells it: who made its actions and what the engine said happened.

The game service makes these from its log, the table's fronts tell them as the story, so the
record sits on the floor both stand on.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class TurnRecord:
    """One player's turn, or the part of it played so far: the actions stored for it (with who
    made them: ``"player"``, ``"bot"`` or ``"timeout"``) and the engine's events, in order.
    ``complete`` is False while the same player is still at it."""

    seat: int
    number: int
    sources: tuple[str, ...]
    events: tuple[Any, ...]
    complete: bool
    #: Everyone's points when the turn began.
    start_scores: tuple[int, ...] = ()

    def gained(self, scores: Sequence[int]) -> tuple[int, ...]:
        """Points won since the turn began, given the scores now."""
        return tuple(now - before for now, before in zip(scores, self.start_scores, strict=True))

    @property
    def by_computer(self) -> bool:
        return "bot" in self.sources

    @property
    def timed_out(self) -> bool:
        return "timeout" in self.sources
