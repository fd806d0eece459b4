"""Board pictures of The Ark of the Covenant: time to draw and encode, and PNG size.

Run: ``python bench/render_board.py``. Single-threaded; medians of repeated runs with warm
caches (tile sprites and fonts are cached by design, so warm figures are what a running bot
sees after its first picture).
"""

from __future__ import annotations

import time

from _common import figure, header, median

import render.covenant as render
from engine.common import Rng
from engine.covenant import TILES, Game
from engine.covenant.players import sensible_action


def full_game(players: int, seed: int) -> Game:
    """A finished seeded game, 72 tiles on the board."""
    game = Game.new(players=players, seed=seed)
    rng = Rng(seed)
    while game.phase != "over":
        game.apply(sensible_action(game, rng))
    return game


def with_twenty_pieces(seed: int) -> Game:
    """A full 72-tile board carrying at least 20 pieces (5 players keep many on the board)."""
    best: Game | None = None
    for offset in range(40):
        game = full_game(5, seed + offset)
        count = sum(len(t.pieces) for t in game.board.values())
        if count >= 20:
            return game
        if best is None or count > sum(len(t.pieces) for t in best.board.values()):
            best = game
    assert best is not None
    return best


def time_ms(call, repeats: int) -> float:
    samples = []
    for _ in range(repeats):
        start = time.perf_counter()
        call()
        samples.append((time.perf_counter() - start) * 1000)
    return median(samples)


def main() -> None:
    header("render_board")
    game = with_twenty_pieces(11)
    pieces = sum(len(t.pieces) for t in game.board.values())
    render.warm_up()
    png = render.board_png(game)  # warm: sprites at this board's tile size
    board_ms = time_ms(lambda: render.board_png(game), 25)
    ids = list(TILES)
    for tile_id in ids:
        render.tile_rotations_png(tile_id)
    cycle = iter(ids * 10)
    rotations_ms = time_ms(lambda: render.tile_rotations_png(next(cycle)), 120)
    print(f"board: {len(game.board)} tiles, {pieces} pieces, {game.players} players")
    figure("board_72_ms", board_ms, "ms")
    figure("rotations_ms", rotations_ms, "ms")
    figure("board_72_png_kb", len(png) / 1024, "KB")


if __name__ == "__main__":
    main()
