"""The engines' search methods: fast copy, determinise and sample_action."""

from __future__ import annotations

import json

import pytest

from engine.common import Rng
from engine.covenant import Game as Covenant
from engine.covenant.game import _immutable
from engine.noah import Game as Noah
from tests.ai.positions import covenant_positions, noah_in_phase, noah_positions


@pytest.mark.parametrize("game", covenant_positions() + noah_positions())
def test_copy_equals_a_json_round_trip_and_is_independent(game) -> None:  # type: ignore[no-untyped-def]
    twin = game.copy()
    assert twin.to_json() == type(game).from_json(game.to_json()).to_json()
    before = game.to_json()
    rng = Rng(1)
    while twin.phase != "over":
        twin.apply(twin.sample_action(rng))
    assert game.to_json() == before


def test_the_covenant_copy_shares_no_mutable_slot() -> None:
    # A slot added later (an edition, say) is copied too: this fails if one is shared.
    game = covenant_positions()[3]
    twin = game.copy()
    for name in Covenant.__slots__:
        mine, theirs = getattr(game, name), getattr(twin, name)
        if not _immutable(mine) and name != "_rng":
            assert mine is not theirs, name
        assert type(mine) is type(theirs), name
    assert game._rng is not twin._rng and game._rng.state == twin._rng.state


def test_the_covenant_copy_copies_a_new_slot_by_value() -> None:
    class Later(Covenant):
        __slots__ = ("_edition", "_extra")

    game = Later.new(players=2, seed=3)
    game._edition = "de"
    game._extra = {"bonus": [1]}
    twin = game.copy()
    assert twin._edition == "de" and twin._extra == {"bonus": [1]}
    assert twin._extra is not game._extra and twin._extra["bonus"] is not game._extra["bonus"]


@pytest.mark.parametrize("game", covenant_positions() + noah_positions())
def test_sample_action_yields_legal_actions_until_the_game_is_over(game) -> None:  # type: ignore[no-untyped-def]
    rng = Rng(5)
    world = game.copy()
    steps = 0
    while world.phase != "over":
        action = world.sample_action(rng)
        if steps % 3 == 0:  # listing is slow; check every third step
            assert action in world.legal_actions()
        world.apply(action)
        steps += 1
    assert world.winners


def test_sample_action_can_reach_every_legal_action() -> None:
    for game in (covenant_positions()[2], noah_positions()[2]):
        legal = set(game.legal_actions())
        rng = Rng(0)
        seen = {game.sample_action(rng) for _ in range(20 * len(legal))}
        assert seen <= legal
        assert len(seen) >= 0.6 * len(legal)  # not uniform, but spread over the options


def test_covenant_determinise_keeps_the_view_and_shuffles_the_tiles_to_come() -> None:
    game = covenant_positions()[2]
    orders = set()
    for seed in range(4):
        world = game.determinise(game.current_player, Rng(seed))
        assert world.view(0).to_json() == game.view(0).to_json()
        assert world.tile == game.tile and world.board == game.board
        orders.add(tuple(json.loads(world.to_json())["deck"]))
        assert json.loads(world.to_json())["seed"] == 0
    assert len(orders) == 4


@pytest.mark.parametrize("phase", ["play", "pet", "endgame"])
def test_noah_determinise_keeps_the_seat_view_and_deals_the_hidden_cards(phase: str) -> None:
    game = noah_in_phase(phase, 3) if phase != "play" else noah_positions()[4]
    seat = game.current_player
    hidden = set()
    for seed in range(5):
        world = game.determinise(seat, Rng(seed))
        assert world.view(seat) == game.view(seat)
        assert sorted(world.cards_everywhere()) == list(range(60))
        others = tuple(world.hand(s) for s in range(world.players) if s != seat)
        pets = tuple(world.pet(s) for s in range(world.players) if s != seat)
        state = json.loads(world.to_json())
        hidden.add((others, pets, tuple(state["deck"])))
        assert state["seed"] == 0 and state["rng"] == 0
    assert len(hidden) == 5


def test_noah_determinise_keeps_the_known_place_of_the_rain() -> None:
    game = Noah.new(players=4, seed=8)
    state = json.loads(game.to_json())
    marker = state["deck"].index(59)  # the rain card laid on the bottom half
    for seed in range(5):
        deck = json.loads(game.determinise(0, Rng(seed)).to_json())["deck"]
        assert deck.index(59) == marker
        rains = [i for i, card in enumerate(deck) if card >= 55]
        assert len(rains) == 5 and max(i for i in rains if i != marker) < marker


def test_noah_apply_trusted_gives_what_apply_gives() -> None:
    rng = Rng(2)
    game = Noah.new(players=3, seed=2)
    while game.phase != "over":
        action = game.sample_action(rng)
        twin = game.copy()
        twin.apply_trusted(action)
        game.apply(action)
        assert twin.to_json() == game.to_json()


@pytest.mark.parametrize("edition", ["en2", "en1", "de"])
def test_covenant_remembered_claims_equal_claims_found_afresh(edition: str) -> None:
    # claimed_features() and feature_at() are remembered per feature for search; placing a
    # tile or a piece must drop exactly what it changes, in the game and in its copies.
    for seed in range(3):
        game = Covenant.new(players=2 + seed, seed=seed, edition=edition)
        rng = Rng(seed)
        while game.phase != "over":
            game.claimed_features()
            fresh = game.copy()
            fresh._claims = {}  # remembers nothing
            assert game.claimed_features() == fresh.claimed_features()
            for x, y in list(game.board)[-3:]:
                for port in ("N", "E", "S", "W", "NNE"):
                    assert game.feature_at(x, y, port) == fresh.feature_at(x, y, port)
            twin = game.copy()
            twin.apply(twin.sample_action(Rng(seed + 100)))
            blank = twin.copy()
            blank._claims = {}
            assert twin.claimed_features() == blank.claimed_features()
            game.apply(game.sample_action(rng))


def test_covenant_sample_action_when_the_ark_cannot_move() -> None:
    # Edition "de": the Ark moves only towards a temple; with none on the board the
    # sample is a deploy or a pass, never a failure.
    for seed in range(6):
        game = Covenant.new(players=2, seed=seed, edition="de")
        rng = Rng(seed)
        while game.phase != "over":
            action = game.sample_action(rng)
            game.apply(action)
            game.claimed_features()  # a follower on a temple is no claimed feature
        assert game.winners
