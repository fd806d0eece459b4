"""Placing tiles: touching, matching every edge, rotations, discards, the legal list."""

from __future__ import annotations

import pytest

from engine.covenant import (
    Game,
    Pass,
    PlaceArk,
    PlaceTile,
    TileDiscarded,
    TurnStarted,
)
from tests.games.covenant.engine.helpers import play, raises_refusal, turn


def test_new_game_has_start_tile_and_first_tile_in_hand() -> None:
    game = Game.new(players=2, seed=0, deck=["T39", "T37"])
    assert game.phase == "place_tile"
    assert game.current_player == 0
    assert game.tile == "T39"
    assert game.tiles_left == 1
    start = game.board[(0, 0)]
    assert (start.id, start.rotation, start.pieces) == ("T27", 0, ())
    assert game.ark is None
    assert game.scores == (0, 0)


def test_shuffled_deck_holds_the_71_other_tiles() -> None:
    game = Game.new(players=3, seed=7)
    assert game.tiles_left + 1 == 71
    same = Game.new(players=3, seed=7)
    other = Game.new(players=3, seed=8)
    assert same.to_json() == game.to_json()
    assert other.to_json() != game.to_json()


def test_player_count_and_deck_are_checked() -> None:
    for players in (1, 6):
        with pytest.raises(ValueError):
            Game.new(players=players, seed=0)
    with pytest.raises(ValueError):
        Game.new(players=2, seed=0, deck=["T27"])
    with pytest.raises(ValueError):
        Game.new(players=2, seed=0, deck=["X99"])


def test_legal_placements_around_the_start_tile() -> None:
    # T39 is a straight road with fields either side (F R F R at rotation 0).
    game = Game.new(players=2, seed=0, deck=["T39"])
    legal = set(game.legal_actions())
    # North of the start tile lies its city: a road-and-field tile cannot go there.
    assert not any(a.y == -1 for a in legal)
    # East: the start's road must meet a road, so the tile lies east-west (0 or 180).
    assert {a for a in legal if (a.x, a.y) == (1, 0)} == {PlaceTile(1, 0, 0), PlaceTile(1, 0, 180)}
    # South: the start's field must meet a field, so the road runs east-west again.
    assert {a for a in legal if (a.x, a.y) == (0, 1)} == {PlaceTile(0, 1, 0), PlaceTile(0, 1, 180)}
    assert len(legal) == 6
    assert game.placements() == {(1, 0): (0, 180), (-1, 0): (0, 180), (0, 1): (0, 180)}


def test_a_tile_must_touch_and_every_edge_must_match() -> None:
    game = Game.new(players=2, seed=0, deck=["T21", "T39"])
    before = game.to_json()
    with raises_refusal("not_adjacent", x=2, y=2) as not_touching:
        game.apply(PlaceTile(2, 2, 0))
    assert not_touching.value.code == "not_adjacent"
    with raises_refusal("not_adjacent", x=1, y=1):
        game.apply(PlaceTile(1, 1, 0))  # only diagonal to the start tile
    with raises_refusal("occupied", x=0, y=0):
        game.apply(PlaceTile(0, 0, 0))
    # T21 at rotation 0 has its city to the north: against the start's southern field.
    with raises_refusal("edge_mismatch", side="N", mine="C", theirs="F"):
        game.apply(PlaceTile(0, 1, 0))
    with raises_refusal("bad_rotation", rotation=45):
        game.apply(PlaceTile(0, 1, 45))
    assert game.to_json() == before
    game.apply(PlaceTile(0, 1, 180))
    assert game.board[(0, 1)].rotation == 180
    assert game.board[(0, 1)].view.edges == ("F", "F", "C", "F")


def test_every_edge_is_checked_when_a_tile_touches_several() -> None:
    # Build an L of tiles, then a tile at the inner corner touches two of them.
    game = Game.new(players=2, seed=0, deck=["T39", "T39", "T37"])
    play(game, [turn(0, 1), turn(1, 0)])  # roads east-west, fields north and south
    # (1, 1) touches (1, 0) to the north (a field edge) and (0, 1) to the west (a road).
    # T37 is a bend: fields north and east, road south and west at rotation 0.
    assert game.placements()[(1, 1)] == (0,)
    # At 270 its north edge is a field (fine) but its west edge is a field too.
    with raises_refusal("edge_mismatch", side="W", mine="F", theirs="R"):
        game.apply(PlaceTile(1, 1, 270))
    with raises_refusal("edge_mismatch", side="N", mine="R", theirs="F"):
        game.apply(PlaceTile(1, 1, 90))


def test_a_tile_that_fits_nowhere_is_discarded_and_the_next_drawn() -> None:
    # After T21 closes the start's city, no open square needs only city edges, so the
    # all-city tile T01 fits nowhere.
    game = Game.new(players=2, seed=0, deck=["T21", "T01", "T39"])
    events = play(game, [[PlaceTile(0, -1, 180), Pass(), PlaceArk(0, -1)]])
    discarded = [e for e in events if isinstance(e, TileDiscarded)]
    assert discarded == [TileDiscarded(seat=1, tile="T01")]
    assert events[-1] == TurnStarted(seat=1, tile="T39", turn=2, tiles_left=0)
    assert game.tile == "T39"
    assert game.current_player == 1


def test_discarding_the_last_tiles_ends_the_game() -> None:
    game = Game.new(players=2, seed=0, deck=["T21", "T01"])
    events = play(game, [[PlaceTile(0, -1, 180), Pass(), PlaceArk(0, 0)]])
    assert [e.type for e in events[-3:]] == ["tile_discarded", "final_scoring", "game_over"]
    assert game.phase == "over"
    assert game.legal_actions() == []
    assert game.tile is None


def test_scripted_deck_ends_the_game_when_used_up() -> None:
    game = Game.new(players=2, seed=0, deck=["T39", "T39"])
    play(game, [turn(1, 0), turn(2, 0)])
    assert game.phase == "over"
    assert game.turn == 2
