"""What each game gives the search: its candidate turns, a guided playout and an evaluation.

One :class:`Model` per game and position, made by the game's
:class:`~engine.ai.computer.Computer`, lets the levels and the search in
:mod:`engine.ai.search` be written once for every game.
"""

from __future__ import annotations

from typing import Any, NamedTuple, Protocol

from engine.common import Rng


class Candidate(NamedTuple):
    """One way to play the rest of the current player's turn.

    ``actions`` is the whole rest of the turn (its first action is the move to make now);
    ``value`` is the normal evaluation of the position after it, for the mover, in about
    points ahead of the best rival; ``detail`` is what the model needs to tell the reason
    (the turn's events, or the position after it), read only for the move chosen.
    """

    actions: tuple[Any, ...]
    value: float
    detail: Any = None


class Model(Protocol):
    """The game-specific half of the computer player."""

    #: Points of margin that move the search's reward from 0.5 to about 0.73.
    scale: float

    def easy(self, game: Any, rng: Rng) -> object:
        """A plausible but weak move (the beginners' opponent)."""
        ...

    def candidates(self, game: Any, seat: int, rng: Rng) -> list[Candidate]:
        """Every sensible way to finish the turn, best first by the normal evaluation.
        ``game`` is a determinised copy: the model may apply actions to copies of it."""
        ...

    def reason(self, game: Any, seat: int, candidate: Candidate) -> tuple[str, dict[str, Any]]:
        """The hint's ``(key, params)`` for ``candidate`` in ``game``."""
        ...

    # Optional: ``refine(game, seat, candidates, width) -> candidates`` re-ranks the best
    # ``width`` candidates with a deeper evaluation before the search samples them.

    def margin(self, game: Any, seat: int) -> float:
        """The evaluation of ``game`` for ``seat``: about points ahead of the best rival."""
        ...

    def playout(self, game: Any, seat: int, rng: Rng, turns: int) -> None:
        """Play ``turns`` whole turns (or to the end) on ``game`` with a cheap guided policy."""
        ...
