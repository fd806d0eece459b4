"""How the service runs Ark: the move made for a player whose turn timed out."""

from __future__ import annotations

from engine.common import Rng
from engine.noah import RULES, Game, Pass, PlayCards, TakeCards


def test_a_timed_out_turn_takes_the_first_face_up_card() -> None:
    game = Game.new(players=3, seed=2)
    action = RULES.timeout_action(game, Rng(1))
    assert action == TakeCards(game.face_up[0])
    assert action in game.legal_actions()
    game.apply(action)


def test_with_nothing_face_up_a_timed_out_turn_plays_a_legal_card() -> None:
    game = Game.arranged(3, hands=[["Sheep", "Cow"], ["Cat"], ["Dog"]], face_up=[])
    action = RULES.timeout_action(game, Rng(1))
    assert isinstance(action, PlayCards) and action in game.legal_actions()


def test_a_timed_out_pet_choice_takes_no_pet_and_the_endgame_passes() -> None:
    game, rng = Game.new(players=4, seed=3), Rng(3)
    phases = set()
    while game.phase != "over":
        action = RULES.timeout_action(game, rng)
        assert action in game.legal_actions()
        if game.phase in ("pet", "endgame"):
            assert action == Pass()
            phases.add(game.phase)
        game.apply(action if game.phase != "play" else game.sample_action(rng))
    assert phases == {"pet", "endgame"}
