"""Computer players for Ark, the card game (see :mod:`engine.ai`).

The strong level values the candidates with weights of its own and searches only between
those its evaluation rates the same; why, and what was tried and measured against it, is in
``NOTES.md`` beside this file.
"""

from __future__ import annotations

from engine.ai.computer import Computer
from engine.ai.search import SearchSettings
from engine.noah import Game
from engine.noah.ai.evaluate import STRONG_WEIGHTS, WEIGHTS
from engine.noah.ai.hints import REASONS
from engine.noah.ai.model import NoahModel

__all__ = ["COMPUTER", "NoahModel"]


def _model(game: Game, level: str) -> NoahModel:
    return NoahModel(game, STRONG_WEIGHTS if level == "strong" else WEIGHTS)


COMPUTER = Computer(
    model=_model,
    reasons=REASONS,
    # Searches only between the candidates its evaluation rates the same (close=0.0).
    search=SearchSettings(first_width=5, widen=0.5, horizon=2, close=0.0),
)
