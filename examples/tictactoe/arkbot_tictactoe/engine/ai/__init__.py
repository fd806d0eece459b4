"""Computer players for tic-tac-toe (see :mod:`engine.ai`): one model for every level; the
strong level plays each candidate out to the end (a game is nine moves at most)."""

from __future__ import annotations

from arkbot_tictactoe.engine import Game
from arkbot_tictactoe.engine.ai.model import REASONS, TicTacToeModel
from engine.ai.computer import Computer
from engine.ai.search import SearchSettings

__all__ = ["COMPUTER", "REASONS", "TicTacToeModel"]


def _model(game: Game, level: str) -> TicTacToeModel:
    return TicTacToeModel(game)


COMPUTER = Computer(
    model=_model,
    reasons=REASONS,
    search=SearchSettings(first_width=4, widen=1.0, horizon=9),
)
