"""Hundreds of seeded random games through legal_actions(), checking invariants as they go."""

from __future__ import annotations

import itertools

import pytest

from engine.common import Rng
from engine.covenant import (
    FOLLOWERS,
    Deploy,
    Game,
    IllegalAction,
    MoveArk,
    Pass,
    PieceDeployed,
    PlaceTile,
)
from engine.covenant.editions import EDITIONS
from engine.covenant.game import TEMPLE
from engine.covenant.geometry import PORT_NAMES, neighbours
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
            if piece.port == TEMPLE:  # only a follower, only where the edition allows it
                assert view.temple and game.rules.follower_on_temple and not piece.prophet
                # It goes home when its temple is scored, after the action that follows
                # the tile completing it.
                assert game.phase == "deploy" or not game.temple_complete(*pos)
                continue
            segment = view.segment_at(piece.port)
            assert segment.kind in ("city", "road", "field")
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
            if piece.port != TEMPLE:
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


@pytest.mark.parametrize("edition", EDITIONS)
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_random_games_keep_invariants(players: int, edition: str) -> None:
    for seed in range(60 if edition == "en2" else 20):
        game = Game.new(players=players, seed=seed, edition=edition)
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
    for seed in range(42):
        game = Game.new(players=2 + seed % 4, seed=seed, edition=tuple(EDITIONS)[seed % 3])
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


ALL_PATHS = ["".join(p) for n in range(1, 6) for p in itertools.product("NESW", repeat=n)]
ALL_DEPLOYS = [Deploy(port, prophet) for port in (*PORT_NAMES, TEMPLE) for prophet in (False, True)]


@pytest.mark.parametrize("edition", EDITIONS)
def test_listed_deploys_and_ark_moves_are_exactly_those_apply_accepts(edition: str) -> None:
    """At every deploy step of seeded games: every port (and the temple), with and without
    the Prophet, and every path of 1 to 5 steps, listed exactly when apply accepts it."""
    moved = 0
    for seed in range(4):
        game = Game.new(players=2 + seed % 4, seed=seed, edition=edition)
        rng = Rng(seed)
        while game.phase != "over":
            actions = game.legal_actions()
            if game.phase == "deploy":
                listed = set(actions)
                # Any port of a feature names it; legal_actions() names it by its first.
                named = set()
                saved = game.to_json()
                for action in ALL_DEPLOYS:
                    # A refusal changes nothing (test_bad_input), so most trials need no copy.
                    try:
                        piece = game.apply(action)[0]
                    except IllegalAction:
                        continue
                    assert isinstance(piece, PieceDeployed)
                    named.add(Deploy(piece.port, piece.prophet))
                    game = Game.from_json(saved)
                assert named == {a for a in actions if isinstance(a, Deploy)}
                if game.ark is not None:
                    for path in ALL_PATHS:
                        # ark_gain checks a path by the rules apply uses, without playing it.
                        try:
                            game.ark_gain(path)
                        except IllegalAction:
                            assert MoveArk(path) not in listed, path
                        else:
                            assert MoveArk(path) in listed, path
                    paths = [a for a in actions if isinstance(a, MoveArk)]
                    # The points added up along one walk are those of each path walked alone.
                    assert game.ark_gains() == [(a.path, game.ark_gain(a.path)) for a in paths]
                    moved += len(paths)
                    for action in paths[:: max(1, len(paths) // 5)]:
                        assert accepted(game, action)
            game.apply(random_action(game, rng) if seed % 2 else sensible_action(game, rng))
    assert moved > 0


def accepted(game: Game, action: object) -> bool:
    try:
        game.copy().apply(action)  # type: ignore[arg-type]
    except IllegalAction:
        return False
    return True
