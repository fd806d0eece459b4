"""Computer players for The Ark of the Covenant (see :mod:`engine.ai`).

The strong level refines the best candidates with its own weights and then looks one round
ahead at the next player's reply; why these settings, and what was tried and measured
against them, is in ``NOTES.md`` beside this file.
"""

from __future__ import annotations

from engine.ai.computer import Computer, Lookahead
from engine.ai.search import SearchSettings
from engine.covenant import Game
from engine.covenant.ai.evaluate import Evaluator, Weights
from engine.covenant.ai.hints import REASONS
from engine.covenant.ai.model import CovenantModel

__all__ = ["COMPUTER", "CovenantModel", "Evaluator", "Weights"]


def _model(game: Game, level: str) -> CovenantModel:
    # One model serves every level: the strong level's own weights are its searcher's.
    return CovenantModel(game)


COMPUTER = Computer(
    model=_model,
    reasons=REASONS,
    search=SearchSettings(first_width=4, widen=0.5, horizon=1),
    # One round of four lookaheads: what the lookahead brings (NOTES.md), some 65 ms a move.
    lookahead=Lookahead(width=4, prior=1.0, rounds=1),
)
