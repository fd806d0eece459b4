"""How the game service runs Ark, the card game."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.games.base import GameRules
from engine.common import Rng
from engine.noah import Game, Pass, TakeCards, action_from_dict


class NoahRules(GameRules):
    min_players = 3
    max_players = 5

    def new(self, players: int, seed: int, options: Mapping[str, Any]) -> Game:
        return Game.new(players=players, seed=seed)

    def turns(self, players: int, options: Mapping[str, Any]) -> int | None:
        # Measured: the times the turn went to another seat (the pet choice's answers
        # count), over 40 seeded games of easy computer players: 45.5 on average at three
        # seats, 46.6 at four, 48.2 at five.
        return {3: 46, 4: 47}.get(players, 48)

    def from_json(self, text: str) -> Game:
        return Game.from_json(text)

    def parse_action(self, data: Any) -> Any:
        return action_from_dict(data)

    def timeout_action(self, game: Game, rng: Rng) -> Any:
        # "Skip the turn" does the least the rules allow: in the main game take the first
        # face-up card (a turn must take or play; taking never needs a choice of cabin),
        # play the first legal cards only when nothing is face up; no pet at the pet
        # choice (a pet is optional); in the endgame pass for good (keeping the discs).
        if game.phase in ("pet", "endgame"):
            return Pass()
        if game.face_up:
            return TakeCards(game.face_up[0])
        return game.legal_actions()[0]
