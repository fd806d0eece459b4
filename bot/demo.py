"""A whole game between computer players, told in the terminal.

``python -m bot demo`` needs no Discord token: it shows that the engine, the story and
(once they exist) the pictures and the game service work together.
"""

from __future__ import annotations

import argparse

from bot.i18n import t
from bot.story import tell
from engine.common import Rng
from engine.covenant import Game
from engine.covenant.notation import Grid
from engine.covenant.players import sensible_action

NAMES = ("Ruth", "Boaz", "Miriam", "Gideon", "Deborah")


def run(players: int = 3, seed: int = 1) -> Game:
    names = NAMES[:players]
    game = Game.new(players=players, seed=seed)
    rng = Rng(seed)
    print(t("demo.start", players=players, seed=seed))
    print(
        t("story.turn_started", turn=1, player=names[0], tile=game.tile, tiles_left=game.tiles_left)
    )
    while game.phase != "over":
        # Squares are named on the grid the player saw when choosing the move.
        grid = Grid.around(game.board)
        events = game.apply(sensible_action(game, rng))
        for line in tell(events, names, grid):
            print(line)
        if game.phase == "place_tile" and game.turn % players == 1:
            print(
                t(
                    "story.scores",
                    list=", ".join(f"{n} {s}" for n, s in zip(names, game.scores, strict=True)),
                )
            )
    return game


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot demo", description=__doc__)
    parser.add_argument("--players", type=int, default=3, choices=range(2, 6))
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    run(args.players, args.seed)
    return 0
