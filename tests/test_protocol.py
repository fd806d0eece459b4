"""Both engines keep the one protocol of engine.protocol (design.md, "The protocol")."""

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


@pytest.mark.parametrize(("name", "players"), [("covenant", 3), ("noah", 4)])
def test_each_engine_keeps_the_protocol(name: str, players: int) -> None:
    cls = registry.game_class(name)
    game = cls.new(players=players, seed=5)
    assert isinstance(game, Game)
    assert registry.name_of(game) == name
    assert game.players == players and game.current_player == 0 and game.turn == 1
    assert game.winners == ()  # a property in every engine, empty until the end
    play_some(game, 12)
    twin = game.copy()
    assert twin is not game and twin.to_json() == game.to_json()
    twin.apply(twin.legal_actions()[0])
    assert twin.to_json() != game.to_json()  # the copy is independent
    assert cls.from_json(game.to_json()).to_json() == game.to_json()


@pytest.mark.parametrize(("name", "players"), [("covenant", 2), ("noah", 3)])
def test_winners_once_over_and_one_refusal_type(name: str, players: int) -> None:
    game = play_some(registry.game_class(name).new(players=players, seed=2), 10_000)
    assert game.phase == "over" and game.current_player is None
    top = max(game.scores)
    assert game.winners and all(game.scores[s] == top for s in game.winners)
    with pytest.raises(IllegalAction) as refused:
        game.apply(None)
    assert refused.value.code == "game_over"


def test_a_move_out_of_turn_has_the_same_code_in_both_engines() -> None:
    for name, players in (("covenant", 2), ("noah", 3)):
        game = registry.game_class(name).new(players=players, seed=0)
        with pytest.raises(IllegalAction) as refused:
            game.apply(game.legal_actions()[0], seat=1)
        assert refused.value.code == "not_your_turn"
        assert refused.value.params == {"seat": 1, "current": 0}


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
