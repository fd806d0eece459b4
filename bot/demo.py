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

from bot.games import plugin, ready_plugins
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
    return list(ready_plugins())


async def play(
    players: int,
    seed: int,
    out: Path | None,
    game: str | None = None,
    language: str = "en",
    length: str | None = None,
) -> Any:
    """Play ``game`` (by default the registry's first ready game), at ``length`` where the
    game has lengths (its own default otherwise); returns the finished engine game."""
    game = game if game is not None else ready_games()[0]
    chosen = plugin(game)
    names = list(NAMES[:players])
    with tempfile.TemporaryDirectory(prefix="arkbot-demo-") as folder:
        service = await GameService.open(Path(folder) / "demo.sqlite3")
        async with service:
            channel = 1
            title = chosen.front.title()
            options = {"length": length} if length is not None else {}
            await service.lobby.create_game(
                1, channel, 1, names[0], game, options, seed=seed, shuffle_seats=False
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


def game_names() -> dict[str, str]:
    """Every name ``--game`` accepts, folded to lower case, and the game it means: a game's
    own name, and the names players see, its command group (``/<group>``) and its English
    title. A name two games would share means neither; a game's own name always means it."""
    meant: dict[str, set[str]] = {}
    ready = ready_plugins()
    for name, found in ready.items():
        for seen in (found.front.command_group, say(found.front.title(), "en")):
            if seen:
                meant.setdefault(seen.casefold(), set()).add(name)
    names = {alias: next(iter(games)) for alias, games in meant.items() if len(games) == 1}
    names.update((name.casefold(), name) for name in ready)
    return names


def _game(text: str) -> str:
    """``--game``'s value: the name of the game ``text`` means."""
    try:
        return game_names()[text.strip().removeprefix("/").casefold()]
    except KeyError:
        known = ", ".join(ready_games())
        raise argparse.ArgumentTypeError(
            f"no game is called {text!r} (choose: {known}; --help names them all)"
        ) from None


def _games_listed() -> str:
    """The games, one a line, with the names players see: for ``--help``."""
    lines = ["games (--game takes a game's name, its title or its commands' /group):"]
    for name, found in ready_plugins().items():
        seen = say(found.front.title(), "en")
        if found.front.command_group:
            seen += f" (/{found.front.command_group})"
        fewest, most = found.rules.min_players, found.rules.max_players
        players = f"{fewest} players" if fewest == most else f"{fewest} to {most} players"
        lines.append(f"  {name:<10} {seen}, {players}")
    return "\n".join(lines)


def lengths(game: str) -> tuple[str, ...]:
    """The lengths a game can be played at (its lobby's ``length`` menu): none for a game
    of one length."""
    for option in plugin(game).front.table_options:
        if option.name == "length":
            return tuple(choice.value for choice in option.choices)
    return ()


def default_players(game: str) -> int:
    """The players of a demo that names none: three, or as near as the game allows."""
    rules = plugin(game).rules
    return min(max(3, rules.min_players), rules.max_players, len(NAMES))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bot demo",
        description=__doc__,
        epilog=_games_listed(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--game",
        type=_game,
        default=ready_games()[0],
        metavar="GAME",
        help="the game to play, by any of its names below (default: %(default)s)",
    )
    parser.add_argument(
        "--players",
        type=int,
        default=None,
        choices=range(2, len(NAMES) + 1),
        help="how many computer players (default: 3, or as near as the game allows)",
    )
    parser.add_argument("--seed", type=int, default=None, help="the table's seed (default: new)")
    parser.add_argument("--out", type=Path, default=None, help="folder for the pictures")
    parser.add_argument("--language", default="en", choices=LANGUAGES)
    parser.add_argument(
        "--length",
        default=None,
        metavar="LENGTH",
        help="how long a game, for a game that has lengths (the Covenant: short, medium, full;"
        " default: the game's own)",
    )
    args = parser.parse_args(argv)
    rules = plugin(args.game).rules
    players = args.players if args.players is not None else default_players(args.game)
    if not rules.min_players <= players <= rules.max_players:
        title = say(plugin(args.game).front.title(), "en")
        parser.error(
            f"argument --players: {title} is played by {rules.min_players} to "
            f"{rules.max_players} players, not {players}"
        )
    if args.length is not None and args.length not in lengths(args.game):
        title = say(plugin(args.game).front.title(), "en")
        offered = ", ".join(lengths(args.game)) or "none: it has one length"
        parser.error(f"argument --length: {title} has no length {args.length!r} ({offered})")
    seed = args.seed if args.seed is not None else time.time_ns() % 1_000_000
    if args.out is not None:
        args.out.mkdir(parents=True, exist_ok=True)
    asyncio.run(play(players, seed, args.out, args.game, args.language, args.length))
    return 0
