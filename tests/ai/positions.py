"""Positions of both games for the computer-player tests, reached by seeded play."""

from __future__ import annotations

from engine.common import Rng
from engine.covenant import Game as Covenant
from engine.noah import Game as Noah


def covenant_positions(count: int = 6) -> list[Covenant]:
    """Games of 2 to 4 players at every phase: early, mid-game, late, and after a tile."""
    found = []
    for i in range(count):
        game = Covenant.new(players=2 + i % 3, seed=40 + i)
        rng = Rng(i)
        for _ in range(3 + 23 * i):
            if game.phase == "over":
                break
            game.apply(game.sample_action(rng))
        found.append(game)
    return found


def noah_positions(count: int = 6) -> list[Noah]:
    """Games of 3 to 5 players in the main game, the pet choice and the endgame."""
    found = []
    for i in range(count):
        game = Noah.new(players=3 + i % 3, seed=60 + i)
        rng = Rng(i)
        for _ in range(2 + 4 * i):
            if game.phase == "over":
                break
            game.apply(game.sample_action(rng))
        found.append(game)
    return found


def noah_in_phase(phase: str, seed: int = 0) -> Noah:
    """A four-player game that has just reached ``phase``."""
    rng = Rng(seed)
    game = Noah.new(players=4, seed=seed)
    while game.phase != phase:
        assert game.phase != "over", f"no {phase} in this game"
        game.apply(game.sample_action(rng))
    return game
