"""How the game service runs tic-tac-toe."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from arkbot_tictactoe.engine import Game, Mark, action_from_dict
from bot.games.base import GameRules


class TicTacToeRules(GameRules):
    min_players = 2
    max_players = 2

    def new(self, players: int, seed: int, options: Mapping[str, Any]) -> Game:
        return Game.new(players, seed)

    def from_json(self, text: str) -> Game:
        return Game.from_json(text)

    def parse_action(self, data: Any) -> Mark:
        return action_from_dict(data)
