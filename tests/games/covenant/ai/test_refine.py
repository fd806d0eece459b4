"""The strong level's refine in The Ark of the Covenant: more Ark moves, all legal."""

from __future__ import annotations

from engine.ai.levels import REFINE_WIDTH, ranked
from engine.common import Rng
from engine.covenant import Game, MoveArk
from engine.covenant.ai.model import ARK_ENDS


def ark_on_board() -> Game:
    """A two-player game in mid-play with the Ark on the board and a tile to place."""
    game = Game.new(players=2, seed=7)
    rng = Rng(7)
    while game.ark is None or game.phase != "place_tile" or game.tiles_left > 40:
        game.apply(game.sample_action(rng))
    return game


def test_refine_adds_ark_moves_to_more_end_squares_and_keeps_them_legal() -> None:
    game = ark_on_board()
    model, seat, candidates, root = ranked(game, 0)
    refined = model.refine(root, seat, candidates, REFINE_WIDTH)  # type: ignore[attr-defined]
    head = refined[: len(refined) - max(0, len(candidates) - REFINE_WIDTH)]
    assert len(head) > REFINE_WIDTH  # the extra Ark moves
    assert [c.value for c in head] == sorted((c.value for c in head), reverse=True)
    first = candidates[0].actions[0]
    ends = {c.actions[1] for c in refined if c.actions[0] == first and len(c.actions) > 1}
    moves = [a for a in ends if isinstance(a, MoveArk)]
    assert len(moves) >= min(ARK_ENDS, 3)
    for candidate in head:
        played = root.copy()
        for action in candidate.actions:
            played.apply(action)  # raises if the turn is not legal
        assert played.phase in ("place_tile", "over")
        assert candidate.value == model.searcher.margin(played, seat)  # type: ignore[attr-defined]
