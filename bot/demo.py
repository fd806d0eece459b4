"""A whole game between computer players, through the real game service and renderer.

``python -m bot demo`` needs no Discord token: the same service the bot uses stores the
game in a temporary SQLite file, the game's front tells each turn with the same sentences
as the bot's posts, and with ``--out DIR`` the pictures of every post are written to ``DIR``
(and the whole game's replay, as the bot posts it after the result). ``--language`` says it
all in another of the bot's languages.
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time
from pathlib import Path
from typing import Any

from bot.games import plugin, plugins
from bot.i18n import LANGUAGES
from bot.panels import Panel
from bot.pictures import draw
from bot.service import GameService
from render.i18n import Text, say

NAMES = ("Ruth", "Boaz", "Miriam", "Gideon", "Deborah")


def _write(panel: Panel, out: Path | None, language: str, name: str | None = None) -> None:
    """The panel's pictures into ``out``: under their own names, or ``name`` for one alone."""
    if out is None:
        return
    for picture in panel.pictures:
        data = draw(picture.function, picture.args, language)
        alone = len(panel.pictures) == 1
        (out / (name if name is not None and alone else picture.filename)).write_bytes(data)


def ready_games() -> list[str]:
    """The games a demo can play (their front is ready), in the registry's order: the first
    is :func:`bot.games.default_game`."""
    return [name for name, p in plugins().items() if p.front.ready]


async def play(
    players: int, seed: int, out: Path | None, game: str | None = None, language: str = "en"
) -> Any:
    """Play ``game`` (by default the registry's first ready game); returns the finished
    engine game."""
    game = game if game is not None else ready_games()[0]
    chosen = plugin(game)
    names = list(NAMES[:players])
    with tempfile.TemporaryDirectory(prefix="arkbot-demo-") as folder:
        service = await GameService.open(Path(folder) / "demo.sqlite3")
        async with service:
            channel = 1
            title = chosen.front.title()
            await service.lobby.create_game(
                1, channel, 1, names[0], game, seed=seed, shuffle_seats=False
            )
            for user, name in enumerate(names[1:], start=2):
                await service.lobby.join(channel, user, name)
            record = await service.lobby.start(channel, 1)
            print(say(Text("table.demo.start", game=title, players=players, seed=seed), language))
            record, state = await service.play.state(record.id)
            pictured = None  # the turn whose board was written last
            while not chosen.rules.is_over(state):
                if state.turn != pictured:
                    pictured = state.turn
                    post = chosen.front.board_post(state.view(None), names)
                    _write(post, out, language, f"turn-{state.turn:02d}.png")
                user = record.seats[state.current_player].user_id
                # The normal computer player (greedy, quick and the same for a given seed).
                action = chosen.rules.computer_action(
                    state, "normal", seed + record.version, 1.0, None
                )
                result = await service.play.act(
                    record.id, user, action, expected_version=record.version
                )
                for turn in result.turns:
                    if not turn.complete:
                        continue
                    print(
                        say(
                            Text("table.demo.turn", turn=turn.number, player=names[turn.seat]),
                            language,
                        )
                    )
                    for line in chosen.front.story([turn], names):
                        print("  " + say(line, language))
                record, state = result.record, result.state
            final = chosen.front.final_post(state.view(None), names, ended_early=False)
            for line in final.lines:
                print(say(line, language))
            _write(final, out, language)
            if out is not None:
                _, turns, last = await service.history.replay_turns(record.id)
                replay = chosen.front.replay_picture([v for v, _ in turns] + [last], names)
                if replay is not None:
                    _write(Panel(pictures=(replay,)), out, language)
                print(say(Text("table.demo.written", folder=str(out)), language))
            return state


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot demo", description=__doc__)
    ready = ready_games()
    parser.add_argument("--game", default=ready[0], choices=ready)
    parser.add_argument("--players", type=int, default=3, choices=range(2, 6))
    parser.add_argument("--seed", type=int, default=None, help="the table's seed (default: new)")
    parser.add_argument("--out", type=Path, default=None, help="folder for the pictures")
    parser.add_argument("--language", default="en", choices=LANGUAGES)
    args = parser.parse_args(argv)
    seed = args.seed if args.seed is not None else time.time_ns() % 1_000_000
    if args.out is not None:
        args.out.mkdir(parents=True, exist_ok=True)
    asyncio.run(play(args.players, seed, args.out, args.game, args.language))
    return 0
