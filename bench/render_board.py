"""Pictures as a picture worker draws them: a full board of The Ark of the Covenant, the
tile in its four rotations, and the card game's table; time to draw and encode, and PNG size.

Run: ``python bench/render_board.py``. Single-threaded; medians of repeated runs with warm
caches (tile sprites and fonts are cached by design, so warm figures are what a running bot
sees after its first picture), in a process set up as the bot's picture workers are (warmed
up, then keeping the memory it frees). ``*_ms`` is the time on the clock, ``*_cpu_ms`` the
process's CPU time (which a busy machine disturbs less).
"""

from __future__ import annotations

import time
from collections.abc import Callable

from _common import figure, header, median

import render.covenant as render
import render.noah as ark
from bot.workers import keep_freed_memory
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


def ark_table() -> tuple[dict, list[str]]:
    """The card game's table in the middle of a seeded game of four."""
    from engine.noah import Game as Ark

    game, rng = Ark.new(players=4, seed=4), Rng(4)
    while game.turn < 16:
        game.apply(game.sample_action(rng))
    return game.view(None), ["Ruth", "Boaz", "Naomi", "Obed"]


def time_ms(call: Callable[[], object], repeats: int) -> tuple[float, float]:
    """Medians of (clock, CPU) milliseconds of ``call``."""
    clock, cpu = [], []
    for _ in range(repeats):
        start, start_cpu = time.perf_counter(), time.process_time()
        call()
        clock.append((time.perf_counter() - start) * 1000)
        cpu.append((time.process_time() - start_cpu) * 1000)
    return median(clock), median(cpu)


def main() -> None:
    header("render_board")
    game = with_twenty_pieces(11)
    pieces = sum(len(t.pieces) for t in game.board.values())
    render.warm_up()
    ark.warm_up()
    keep_freed_memory()  # as the picture workers do, once warmed up
    png = render.board_png(game)  # warm: sprites at this board's tile size
    board_ms, board_cpu = time_ms(lambda: render.board_png(game), 25)
    ids = list(TILES)
    for tile_id in ids:
        render.tile_rotations_png(tile_id)
    cycle = iter(ids * 10)
    rotations_ms, _ = time_ms(lambda: render.tile_rotations_png(next(cycle)), 120)
    view, names = ark_table()
    table = ark.board(view, names)
    table_ms, table_cpu = time_ms(lambda: ark.board(view, names), 25)
    print(f"board: {len(game.board)} tiles, {pieces} pieces, {game.players} players")
    figure("board_72_ms", board_ms, "ms")
    figure("board_72_cpu_ms", board_cpu, "ms")
    figure("rotations_ms", rotations_ms, "ms")
    figure("board_72_png_kb", len(png) / 1024, "KB")
    figure("ark_table_ms", table_ms, "ms")
    figure("ark_table_cpu_ms", table_cpu, "ms")
    figure("ark_table_png_kb", len(table) / 1024, "KB")


if __name__ == "__main__":
    main()
