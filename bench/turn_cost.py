"""What a turn costs a person who plays it by tapping: taps, private pictures, kilobytes.

Whole games of both games are played through the in-process Discord harness
(``tests/support/harness.py``, the real bot on a fresh SQLite file, pictures drawn in
threads) by three and four players at several seeds. Every seat is a "sensible player": it
plays the move of the normal computer level, reached only through the panel's own
controls, tapping as a person who knows what they want would: ``Play my turn`` on the board
post, then the fewest taps to that move (``tests/support/taps.py``; a button is one tap, a
menu two: open it, pick an option).

Run: ``python bench/turn_cost.py [--seeds 1 2] [--players 3 4] [--game covenant]``. Prints,
per game, over all its tapped turns:

- ``<game>_taps_per_turn_median`` / ``<game>_taps_per_turn_max``;
- ``<game>_menu_as_one_tap_median`` / ``_max``: the same counted as issue 27 counted them (a
  menu's choice one tap, ``Play my turn`` not counted);
- ``<game>_pictures_per_turn_median``: private pictures uploaded in a turn (the turn's panels
  and their edits; the public board post is not counted);
- ``<game>_kb_per_turn_median``: their kilobytes;
- for the card game also ``noah_two_card_play_pictures_median`` / ``_max`` and
  ``noah_two_card_play_kb_median``: the same for the turns that play two cards;
- for the Covenant also ``covenant_place_pass_taps_max``: the most taps of a turn that only
  places its tile and passes;
- ``<game>_turns_played_another_way``, when not 0: turns whose planned move the panel does
  not offer as such, played as the same position by what it offers (the Ark moved to the
  same square by the route the panel finds best for the player, the computer having taken
  another one it valued the same).
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import statistics
import tempfile
from collections.abc import Sequence
from pathlib import Path

from _common import header

from bot.client import TableBot
from bot.games import Seen, plugin
from bot.service import FakeClock
from bot.settings import Settings
from bot.table.common import names_of
from engine.covenant import Pass, PlaceTile
from tests.support.bot import CHANNEL, make_bot
from tests.support.harness import Harness
from tests.support.taps import Tapper, TurnCost, plan_turn

GAMES = ("covenant", "noah")


async def play_game(game_name: str, players: int, seed: int, folder: Path) -> list[TurnCost]:
    """One whole game, every turn tapped; what each turn cost. Each turn may be taken back
    for the bot's usual time (nobody does): the clock is moved past it and the background
    round posts the turn, on whose board the next player taps ``Play my turn``."""
    clock = FakeClock()
    take_back = Settings().take_back
    path = folder / f"{game_name}-{players}-{seed}.sqlite3"
    bot: TableBot = await make_bot(path, clock, take_back=take_back)
    costs: list[TurnCost] = []
    # The last move draws the replay (seconds): waited for like any answer.
    async with Harness(bot, channel_id=CHANNEL, timeout=300) as h:
        users = [h.user(41 + n, f"Player {n + 1}").id for n in range(players)]
        service = bot.service
        record = await service.lobby.create_game(
            h.guild_id, CHANNEL, users[0], "Player 1", game_name, seed=seed, shuffle_seats=False
        )
        for n, user in enumerate(users[1:], start=2):
            await service.lobby.join(CHANNEL, user, f"Player {n}")
        await h.slash(users[0], "table start")
        front = plugin(game_name).front
        tapper = Tapper(h, front, record.id)
        while True:
            record, game = await service.play.state(record.id)
            if record.status != "active":
                break
            seat = record.seats[game.current_player]
            assert seat.user_id is not None
            seen = Seen(game, seat.index, names_of(record), record.version, record.options)
            plan = plan_turn(game, seed=seed * 1000 + game.turn)
            cost = TurnCost(game_name)
            await tapper.play(seat.user_id, seen, plan, cost)
            costs.append(cost)
            clock.advance(take_back)
            await bot.reminders.run_once()  # type: ignore[union-attr]
    return costs


def report(game_name: str, costs: Sequence[TurnCost]) -> None:
    taps = [c.taps for c in costs]
    print(f"{game_name}_turns: {len(costs)} turns")
    print(f"{game_name}_taps_per_turn_median: {statistics.median(taps):g} taps")
    print(f"{game_name}_taps_per_turn_max: {max(taps)} taps")
    # As taps are often counted: a menu choice one tap, "Play my turn" not counted.
    light = [c.taps - c.menus - 1 for c in costs]
    print(f"{game_name}_menu_as_one_tap_median: {statistics.median(light):g} taps")
    print(f"{game_name}_menu_as_one_tap_max: {max(light)} taps")
    pictures = statistics.median(c.pictures for c in costs)
    print(f"{game_name}_pictures_per_turn_median: {pictures:g} pictures")
    kb = statistics.median(c.bytes / 1000 for c in costs)
    print(f"{game_name}_kb_per_turn_median: {kb:.0f} KB")
    loose = sum(c.loose for c in costs)
    if loose:
        # The planned move was not offered as such (the Ark's route): the same position.
        print(f"{game_name}_turns_played_another_way: {loose} turns")
    if game_name == "noah":
        # A play of two cards: the longest way through the panels (issue 40.6).
        two = [c for c in costs if any(len(getattr(a, "placements", ())) == 2 for a in c.actions)]
        if two:
            pictures = statistics.median(c.pictures for c in two)
            print(f"noah_two_card_play_pictures_median: {pictures:g} pictures")
            print(f"noah_two_card_play_pictures_max: {max(c.pictures for c in two)} pictures")
            kb = statistics.median(c.bytes / 1000 for c in two)
            print(f"noah_two_card_play_kb_median: {kb:.0f} KB")
    if game_name == "covenant":
        quiet = [c.taps for c in costs if [type(a) for a in c.actions] == [PlaceTile, Pass]]
        if quiet:
            print(f"covenant_place_pass_taps_max: {max(quiet)} taps")


async def main(games: Sequence[str], seeds: Sequence[int], tables: Sequence[int]) -> None:
    logging.disable(logging.WARNING)
    with tempfile.TemporaryDirectory() as folder:
        for game_name in games:
            header(f"{game_name}_turn_cost")
            costs: list[TurnCost] = []
            for players in tables:
                for seed in seeds:
                    costs += await play_game(game_name, players, seed, Path(folder))
            report(game_name, costs)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", choices=GAMES, action="append")
    parser.add_argument("--seeds", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--players", type=int, nargs="+", default=[3, 4])
    options = parser.parse_args()
    asyncio.run(main(options.game or GAMES, options.seeds, options.players))
