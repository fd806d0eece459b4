"""The game's length (issue 27): all 72 tiles, 54 or 36, a shorter deal keeping each kind of
tile in proportion, deterministic from the seed, kept in the save, in every edition."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from engine.common import Rng
from engine.covenant import LENGTHS, Game, IllegalAction, TileDiscarded
from engine.covenant.editions import EDITIONS
from engine.covenant.lengths import EVERY_TILE, carried, deal, kind_of, shape_of, shares
from engine.covenant.players import sensible_action
from engine.covenant.tiles import TILES


def test_the_lengths_are_72_54_and_36_tiles_and_full_is_the_default() -> None:
    assert dict(LENGTHS) == {"full": 72, "medium": 54, "short": 36}
    assert Game.new(players=3, seed=1).length == "full"
    for key, tiles in LENGTHS.items():
        game = Game.new(players=3, seed=1, length=key)
        # The start tile on the board, one tile in hand, the rest in the bag.
        assert (len(game.board), game.tiles_left) == (1, tiles - 2)
        assert game.length == key
        assert json.loads(game.to_json())["length"] == key
        assert Game.from_json(game.to_json()).length == key
        assert game.copy().length == key and game.view(None).length == key
        assert game.determinise(0, Rng(5)).length == key


def test_an_unknown_length_is_refused_with_a_code_and_an_old_save_is_a_full_game() -> None:
    with pytest.raises(IllegalAction) as error:
        Game.new(players=2, seed=0, length="tiny")
    assert (error.value.code, error.value.params) == (
        "unknown_length",
        {"length": "tiny", "known": ("full", "medium", "short")},
    )
    state = json.loads(Game.new(players=2, seed=3).to_json())
    del state["length"]  # a save from before lengths
    assert Game.from_json(json.dumps(state)).length == "full"
    state["length"] = "tiny"
    with pytest.raises(ValueError):
        Game.from_json(json.dumps(state))


def test_a_full_game_is_dealt_as_it_always_was() -> None:
    rng = Rng(11)
    assert deal("full", rng) == list(EVERY_TILE) and rng.state == Rng(11).state
    assert len(EVERY_TILE) == 71 and "T27" not in EVERY_TILE
    # The first tiles of seed 0, as every full game of seed 0 drew them before lengths were.
    game = Game.new(players=2, seed=0)
    assert (game.tile, game.tiles_left) == ("T13", 70)
    assert json.loads(game.to_json())["deck"][:5] == ["T59", "T21", "T10", "T01", "T25"]


def test_largest_remainder_splits_exactly_and_breaks_ties_by_the_seed() -> None:
    # 35 of 71 by kind: 2.96 temples, 20.70 city tiles, 11.34 road tiles.
    assert shares([6, 42, 23], 35, Rng(0)) == [3, 21, 11]
    assert shares([6, 42, 23], 53, Rng(0)) == [5, 31, 17]  # 4.48, 31.35, 17.17
    # Two equal fractions and one tile to give: the seed decides which.
    picked = {tuple(shares([1, 1], 1, Rng(seed))) for seed in range(20)}
    assert picked == {(1, 0), (0, 1)}


def _kinds(tiles: list[str]) -> Counter[str]:
    return Counter(kind_of(TILES[t]) for t in tiles)


@pytest.mark.parametrize("key", ["medium", "short"])
def test_every_kind_and_shape_of_a_shorter_deal_is_in_proportion(key: str) -> None:
    count = LENGTHS[key] - 1
    whole_kinds = _kinds(list(EVERY_TILE))
    for seed in range(40):
        tiles = deal(key, Rng(seed))
        assert len(tiles) == count and "T27" not in tiles
        kinds = _kinds(tiles)
        for kind, whole in whole_kinds.items():
            quota = whole * count / len(EVERY_TILE)
            assert int(quota) <= kinds[kind] <= int(quota) + 1, (seed, kind)
            # Within a kind, each shape in proportion to the kind's share.
            of_kind = [t for t in EVERY_TILE if kind_of(TILES[t]) == kind]
            shapes = Counter(shape_of(TILES[t]) for t in tiles if kind_of(TILES[t]) == kind)
            for shape, size in Counter(shape_of(TILES[t]) for t in of_kind).items():
                within = size * kinds[kind] / len(of_kind)
                assert int(within) <= shapes[shape] <= int(within) + 1, (seed, shape)
        # What the tiles carry stays near its share of the whole set's.
        whole = carried(EVERY_TILE)
        for what, found in carried(tiles).items():
            share = whole[what] * count / len(EVERY_TILE)
            assert abs(found - share) <= max(2.0, share / 6), (seed, what, found, share)
        assert deal(key, Rng(seed)) == tiles  # the same seed, the same deal


def test_the_deals_of_seed_7_exactly() -> None:
    short = deal("short", Rng(7))
    assert _kinds(short) == {"temple": 3, "city": 21, "road": 11}
    assert carried(short) == {"scrolls": 6, "oases": 8, "sheep": 24, "wolves": 6}
    # The outlines (the single four-sided city, 0.49 of a tile, was rounded away).
    assert Counter(shape_of(TILES[t])[0] for t in short) == {
        "CCCF": 2, "CCCR": 1, "CCFF": 3, "CCRR": 3, "CFCF": 3, "CFFF": 2, "CFRR": 2,
        "CRFR": 2, "CRRF": 2, "CRRR": 1, "FFRR": 4, "FRFR": 4, "FRRR": 3, "RRRR": 3,
    }  # fmt: skip
    medium = deal("medium", Rng(7))
    assert _kinds(medium) == {"temple": 5, "city": 31, "road": 17}
    assert carried(medium) == {"scrolls": 9, "oases": 13, "sheep": 37, "wolves": 9}
    # The whole set, for comparison: 12 scrolls, 17 oases, 49 sheep, 12 wolves in 71 tiles
    # (a short game's share: 5.9, 8.4, 24.2, 5.9; a medium one's: 9.0, 12.7, 36.6, 9.0).
    assert carried(EVERY_TILE) == {"scrolls": 12, "oases": 17, "sheep": 49, "wolves": 12}


@pytest.mark.parametrize("edition", EDITIONS)
@pytest.mark.parametrize("key", ["medium", "short"])
def test_a_shorter_game_plays_to_the_end_through_json_round_trips(key: str, edition: str) -> None:
    for seed in range(3):
        game = Game.new(players=3 + seed % 2, seed=seed, edition=edition, length=key)
        rng = Rng(seed)
        discarded = steps = 0
        while game.phase != "over":
            events = game.apply(sensible_action(game, rng))
            discarded += sum(isinstance(e, TileDiscarded) for e in events)
            steps += 1
            if steps % 5 == 0:
                text = game.to_json()
                game = Game.from_json(text)
                assert game.to_json() == text
        # Every tile of the length was drawn: placed, or discarded where none fitted.
        assert len(game.board) + discarded == LENGTHS[key]
        assert (game.length, game.edition, game.tiles_left) == (key, edition, 0)
        assert game.winners
