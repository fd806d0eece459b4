"""The card game's strong evaluation: a hand beyond the turns left counts for less."""

from __future__ import annotations

from engine.ai.noah import NoahModel
from engine.ai.noah.evaluate import STRONG_WEIGHTS, WEIGHTS, room_left, values
from engine.common import Rng
from engine.noah import Game as Noah
from tests.ai.positions import noah_in_phase


def late_with_a_big_hand() -> tuple[Noah, int]:
    """A main-game position after the fourth rain where some seat holds more cards than
    it can still play."""
    for seed in range(50):
        rng = Rng(seed)
        game = Noah.new(players=4, seed=seed)
        while game.phase in ("play", "pet"):
            if game.phase == "play" and game.rain_fallen >= 4:
                for seat in range(game.players):
                    if len(game.hand(seat)) > room_left(game, seat, STRONG_WEIGHTS.room) + 1:
                        return game, seat
            game.apply(game.sample_action(rng))
    raise AssertionError("no such position in 50 games")


def test_the_room_in_the_endgame_is_a_card_per_disc() -> None:
    game = noah_in_phase("endgame", 2)
    for seat in range(game.players):
        assert room_left(game, seat, STRONG_WEIGHTS.room) == game.discs[seat]


def test_the_room_shrinks_as_the_supply_runs_out() -> None:
    early = Noah.new(players=4, seed=1)
    late, _ = late_with_a_big_hand()
    assert room_left(late, 0, 0.25) - late.discs[0] < room_left(early, 0, 0.25) - early.discs[0]


def test_a_hand_beyond_the_room_counts_for_less_for_strong_only() -> None:
    game, seat = late_with_a_big_hand()
    normal = values(game, seat, weights=WEIGHTS)
    strong = values(game, seat, weights=STRONG_WEIGHTS)
    assert strong[seat] < normal[seat]
    early = Noah.new(players=4, seed=1)
    mover = early.current_player
    assert values(early, mover, weights=STRONG_WEIGHTS) == values(early, mover, weights=WEIGHTS)


def test_refine_switches_to_the_strong_weights_and_keeps_every_candidate() -> None:
    game, seat = late_with_a_big_hand()
    while game.current_player != seat:
        game.apply(game.sample_action(Rng(0)))
    model = NoahModel(game)
    candidates = model.candidates(game.copy(), seat, Rng(1))
    assert model.weights is WEIGHTS
    refined = model.refine(game, seat, candidates, 4)
    assert model.weights is STRONG_WEIGHTS
    assert sorted(repr(c.actions) for c in refined) == sorted(repr(c.actions) for c in candidates)
    assert [c.value for c in refined[:4]] == sorted((c.value for c in refined[:4]), reverse=True)
