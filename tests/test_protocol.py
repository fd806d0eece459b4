"""What each engine's views hide, beyond the protocol every game keeps (that one is tested
for every registered game in tests/games/test_every_game.py)."""

from __future__ import annotations

import json

import pytest

from engine import registry
from engine.common import Rng
from engine.errors import IllegalAction
from engine.protocol import Game


def play_some(game: Game, steps: int, seed: int = 1) -> Game:
    rng = Rng(seed)
    for _ in range(steps):
        if game.phase == "over":
            break
        game.apply(rng.choice(game.legal_actions()))
    return game


def test_the_covenant_view_hides_the_order_of_the_tiles() -> None:
    game = play_some(registry.game_class("covenant").new(players=2, seed=9), 6)
    seen = game.view(None)
    saved, shown = json.loads(game.to_json()), json.loads(seen.to_json())
    assert shown["deck"] == sorted(saved["deck"]) and shown["deck"] != saved["deck"]
    assert shown["seed"] == 0 and shown["rng"] == 0 and shown["view"] is True
    assert seen.board == game.board and seen.scores == game.scores and seen.tile == game.tile
    with pytest.raises(IllegalAction) as refused:
        seen.apply(seen.legal_actions()[0])
    assert refused.value.code == "view_only"


def test_the_card_game_view_shows_a_seat_its_own_hand_only() -> None:
    game = registry.game_class("noah").new(players=4, seed=3)
    public = game.view(None)
    assert "hand" not in public and public["hand_sizes"] == [2, 2, 2, 2]
    mine = game.view(2)
    assert mine["hand"] == list(game.hand(2)) and mine["seat"] == 2
