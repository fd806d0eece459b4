"""Every action has a dict form for the game log, and it round-trips exactly."""

from __future__ import annotations

import pytest

from engine.common import Rng
from engine.noah import Game, action_from_dict


def test_every_legal_action_round_trips_through_its_dict() -> None:
    kinds = set()
    for seed in range(6):
        game = Game.new(players=3 + seed % 3, seed=seed)
        rng = Rng(seed)
        while game.phase != "over":
            actions = game.legal_actions()
            for action in actions[:: max(1, len(actions) // 20)]:
                data = action.to_dict()
                kinds.add(data["type"])
                assert action_from_dict(data) == action
            game.apply(rng.choice(actions))
    assert kinds == {"take_cards", "play_cards", "choose_pet", "pass"}


@pytest.mark.parametrize(
    "data",
    [
        None,
        {"type": "fly"},
        {"type": "take_cards"},
        {"type": "play_cards", "placements": 3},
        {"type": "play_cards", "placements": [{"card": 1}]},
        {"type": "pass", "card": 2},
    ],
)
def test_malformed_dicts_are_refused(data: object) -> None:
    with pytest.raises(ValueError):
        action_from_dict(data)
