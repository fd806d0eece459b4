"""A whole game between computer players, through the real game service and renderer.

``python -m bot demo`` needs no Discord token: the same service the bot uses stores the
game in a temporary SQLite file, the same story sentences tell it, and with ``--out DIR``
the turn pictures and the final scoring picture are written to ``DIR``.
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time
from pathlib import Path

import render
from bot.i18n import t
from bot.service import GameService
from bot.story import turn_story
from engine.common import Rng
from engine.covenant import Game
from engine.covenant.players import sensible_action

NAMES = ("Ruth", "Boaz", "Miriam", "Gideon", "Deborah")


async def play(players: int, seed: int, out: Path | None) -> Game:
    names = list(NAMES[:players])
    with tempfile.TemporaryDirectory(prefix="arkbot-demo-") as folder:
        service = await GameService.open(Path(folder) / "demo.sqlite3")
        async with service:
            channel = 1
            await service.create_game(1, channel, 1, names[0], seed=seed, shuffle_seats=False)
            for user, name in enumerate(names[1:], start=2):
                await service.join(channel, user, name)
            record = await service.start(channel, 1)
            print(t("demo.start", players=players, seed=seed))
            rng = Rng(seed)
            turn_start: Game | None = None
            told: list = []  # the events of the turn so far
            while True:
                record, game = await service.state(record.id)
                if game.phase in ("place_tile", "over") and turn_start is not None:
                    # A turn ended: tell it whole, as the bot's turn message does.
                    for line in turn_story(names, turn_start, told):
                        print(line)
                    turn_start, told = None, []
                if game.phase == "over":
                    break
                if game.phase == "place_tile":
                    turn_start = game
                    print(
                        t(
                            "story.turn_started",
                            turn=game.turn,
                            player=names[game.current_player],
                            tile=game.tile,
                            tiles_left=game.tiles_left,
                        )
                    )
                    if out is not None:
                        picture = await asyncio.to_thread(
                            render.board_png, game, spots=True, names=names
                        )
                        (out / f"turn-{game.turn:02d}.png").write_bytes(picture)
                user = record.seats[game.current_player].user_id
                result = await service.act(
                    channel, user, sensible_action(game, rng), expected_version=record.version
                )
                told.extend(result.events)
            if out is not None:
                (out / "final-scores.png").write_bytes(render.final_png(game, names=names))
                (out / "final-board.png").write_bytes(render.board_png(game, names=names))
                print(t("demo.written", folder=out))
            return game


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot demo", description=__doc__)
    parser.add_argument("--players", type=int, default=3, choices=range(2, 6))
    parser.add_argument("--seed", type=int, default=None, help="the table's seed (default: new)")
    parser.add_argument("--out", type=Path, default=None, help="folder for the pictures")
    args = parser.parse_args(argv)
    seed = args.seed if args.seed is not None else time.time_ns() % 1_000_000
    if args.out is not None:
        args.out.mkdir(parents=True, exist_ok=True)
    asyncio.run(play(args.players, seed, args.out))
    return 0
