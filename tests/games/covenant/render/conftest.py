"""Games to draw: scripted ones with known pieces and seeded random full games."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from engine.common import Rng
from engine.covenant import Deploy, Game, PlaceTile
from engine.covenant.players import sensible_action


def play(players: int, seed: int, turns: int | None = None) -> Game:
    """A seeded game played by ``sensible_action`` until over (or past ``turns`` turns)."""
    game = Game.new(players=players, seed=seed)
    rng = Rng(seed)
    while game.phase != "over" and (turns is None or game.turn <= turns):
        game.apply(sensible_action(game, rng))
    return game


def decode(data: bytes) -> Image.Image:
    """PNG bytes as an RGB image (checks the PNG signature first)."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return Image.open(io.BytesIO(data)).convert("RGB")


@pytest.fixture(scope="session")
def scripted() -> Game:
    """Two players, three tiles: a road follower (seat 0) and a field follower (seat 1).

    The start tile T27 has a road running east-west; T39 (a straight road) continues it
    east, T37 (a curve) goes west of the start.
    """
    game = Game.new(players=2, seed=0, deck=["T39", "T37", "T21"])
    game.apply(PlaceTile(1, 0, 0))
    game.apply(Deploy("E"))
    game.apply(PlaceTile(-1, 0, 270))  # the curve turned to meet the road
    fields = [
        a
        for a in game.legal_actions()
        if isinstance(a, Deploy)
        and not a.prophet
        and game.board[(-1, 0)].view.segment_at(a.port).kind == "field"
    ]
    game.apply(fields[0])
    return game


@pytest.fixture(scope="session")
def full_five() -> Game:
    return play(5, 3)


@pytest.fixture(scope="session")
def full_two() -> Game:
    return play(2, 4)


@pytest.fixture(scope="session")
def mid_three() -> Game:
    return play(3, 5, turns=20)
