"""Hundreds of seeded random games through legal_actions(), checking invariants as they go."""

from __future__ import annotations

import pytest

from engine.common import Rng
from engine.covenant import FOLLOWERS, Game, IllegalAction, Pass, PlaceTile
from engine.covenant.geometry import neighbours
from engine.covenant.players import random_action, sensible_action


def check_invariants(game: Game) -> None:
    board = game.board
    for seat in range(game.players):
        followers = [
            p for t in board.values() for p in t.pieces if p.seat == seat and not p.prophet
        ]
        prophets = [p for t in board.values() for p in t.pieces if p.seat == seat and p.prophet]
        # Pieces on the board + in supply + in the box = 8 (7 followers and the Prophet).
        assert len(followers) + game.followers_left(seat) == FOLLOWERS
        assert len(prophets) == (game.prophet_state(seat) == "board")
        assert sum(game.breakdown(seat).values()) == game.scores[seat]
    for pos, placed in board.items():
        view = placed.view
        for piece in placed.pieces:
            segment = view.segment_at(piece.port)
            assert segment.kind in ("city", "road", "field")  # never a temple
            assert piece.port == segment.first_port
            if piece.prophet:
                assert segment.kind == "city"
        for side, other in enumerate(neighbours(pos)):
            if other in board:
                assert board[other].view.edges[(side + 2) % 4] == view.edges[side]
    if game.ark is not None:
        assert game.ark in board
    # Every feature with pieces holds them legally: each piece belongs to the feature it names.
    for placed in board.values():
        for piece in placed.pieces:
            info = game.feature(piece.x, piece.y, piece.port)
            assert piece in info.pieces


def play_out(game: Game, rng: Rng, chooser=random_action) -> list:
    actions = []
    while game.phase != "over":
        action = chooser(game, rng)
        actions.append(action)
        before = game.scores
        game.apply(action)
        assert all(a >= b for a, b in zip(game.scores, before, strict=True))
    return actions


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_random_games_keep_invariants(players: int) -> None:
    for seed in range(60):
        game = Game.new(players=players, seed=seed)
        rng = Rng(seed)
        steps = 0
        while game.phase != "over":
            previous = game.scores
            game.apply(random_action(game, rng) if seed % 2 else sensible_action(game, rng))
            steps += 1
            assert all(a >= b for a, b in zip(game.scores, previous, strict=True))
            if steps % 7 == 0:
                check_invariants(game)
        check_invariants(game)
        assert len(game.board) + game.tiles_left <= 72
        assert game.legal_actions() == []


def test_json_round_trip_at_any_point_continues_identically() -> None:
    for seed in range(40):
        game = Game.new(players=2 + seed % 4, seed=seed)
        rng = Rng(seed)
        cut = Rng(seed + 99).below(140)
        steps = 0
        while game.phase != "over" and steps < cut:
            game.apply(random_action(game, rng))
            steps += 1
        text = game.to_json()
        copy = Game.from_json(text)
        assert copy.to_json() == text
        assert copy.legal_actions() == game.legal_actions()
        rng_state = rng.state
        play_out(game, rng)
        play_out(copy, Rng.from_state(rng_state))
        assert copy.to_json() == game.to_json()
        assert copy.scores == game.scores


def test_same_seed_and_actions_give_the_same_game() -> None:
    for seed in range(10):
        first = Game.new(players=4, seed=seed)
        actions = play_out(first, Rng(seed))
        second = Game.new(players=4, seed=seed)
        for action in actions:
            second.apply(action)
        assert second.to_json() == first.to_json()


def test_every_listed_action_is_legal_and_unlisted_placements_are_not() -> None:
    for seed in range(8):
        game = Game.new(players=3, seed=seed)
        rng = Rng(seed)
        while game.phase != "over":
            actions = game.legal_actions()
            text = game.to_json()
            for action in actions[:: max(1, len(actions) // 12)]:
                Game.from_json(text).apply(action)  # must not raise
            if game.phase == "place_tile":
                listed = set(actions)
                x, y = actions[0].x, actions[0].y
                for rotation in (0, 90, 180, 270):
                    if PlaceTile(x, y, rotation) not in listed:
                        with pytest.raises(IllegalAction):
                            Game.from_json(text).apply(PlaceTile(x, y, rotation))
            game.apply(rng.choice(actions))
        assert Pass() not in game.legal_actions()
