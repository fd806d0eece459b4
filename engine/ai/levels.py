"""The three levels, written once for every game on top of its :class:`~engine.ai.model.Model`,
which the game's :class:`~engine.ai.computer.Computer` makes (found through the registry:
nothing here names a game).

- easy: the model's plausible but weak move.
- normal: the candidate turn the normal evaluation likes best, on a position dealt from what
  the mover knows (so that applying a candidate never reveals a hidden card or tile).
- strong: the same candidates (valued by the model made for the strong level, which may
  weigh things its own way), the best looked at again by the model's deeper evaluation
  (``refine``, where the model has one), then, within the budget,
  :func:`engine.ai.search.lookahead_search` (where the game's computer gives a
  ``lookahead``: the next player's reply looked at in dealt worlds) or
  :func:`engine.ai.search.search` (playouts, with the game's search settings).
"""

from __future__ import annotations

from typing import Any

from engine import registry
from engine.ai.budget import Budget
from engine.ai.computer import Computer
from engine.ai.model import Candidate, Model
from engine.ai.search import lookahead_search, search
from engine.common import Rng

LEVELS: tuple[str, ...] = ("easy", "normal", "strong")

#: Candidates the strong level looks at again with the model's deeper evaluation.
REFINE_WIDTH = 16


def computer_of(game: Any) -> Computer:
    """The computer players of ``game``'s engine; ``LookupError`` if it has none."""
    return registry.descriptor_of(game).computer()


def model_for(game: Any, level: str = "normal") -> Model:
    """The model of ``game``'s engine for ``level``, bound to this position."""
    return computer_of(game).model(game, level)


def _seat_of(game: Any) -> int:
    seat: int | None = game.current_player
    if seat is None or game.phase == "over":
        raise ValueError("The game is over: there is no move to choose.")
    return seat


def ranked(game: Any, seed: int, level: str = "normal") -> tuple[Model, int, list[Candidate], Any]:
    """The model of ``level``, the mover, the candidates best first, and the dealt root they
    came from."""
    seat = _seat_of(game)
    model = model_for(game, level)
    rng = Rng(seed)
    root = game.determinise(seat, rng)
    return model, seat, model.candidates(root, seat, rng), root


def choose_candidate(
    game: Any, level: str, *, seed: int, budget_s: float, iterations: int | None
) -> tuple[Model, Candidate] | None:
    """The model and the candidate turn of ``level`` (None for easy, which has none)."""
    if level not in LEVELS:
        raise ValueError(f"level must be one of {', '.join(LEVELS)}, not {level!r}")
    if level == "easy":
        return None
    budget = Budget(budget_s, iterations)  # started before the candidates: they count too
    model, seat, candidates, _root = ranked(game, seed, level)
    if level == "normal" or len(candidates) == 1:
        return model, candidates[0]
    refine = getattr(model, "refine", None)
    if refine is not None:
        candidates = refine(_root, seat, candidates, REFINE_WIDTH)
    computer = computer_of(game)
    rng = Rng(seed ^ 0x5EED)
    ahead = computer.lookahead
    if ahead is not None:
        chosen = lookahead_search(
            game, model, seat, candidates, budget, rng, ahead.width, ahead.prior, ahead.rounds
        )
        return model, chosen
    return model, search(game, model, seat, candidates, budget, rng, computer.search)
