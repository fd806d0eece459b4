"""How the game service runs Ark, the card game."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.games.base import GameRules
from engine.noah import Game, action_from_dict


class NoahRules(GameRules):
    name = "noah"
    min_players = 3
    max_players = 5

    def new(self, players: int, seed: int, options: Mapping[str, Any]) -> Game:
        return Game.new(players=players, seed=seed)

    def from_json(self, text: str) -> Game:
        return Game.from_json(text)

    def parse_action(self, data: Any) -> Any:
        return action_from_dict(data)
