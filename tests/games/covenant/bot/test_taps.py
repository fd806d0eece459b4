"""Issue 27.2: a Covenant turn in few taps, counted as a person taps.

The normal computer's moves of the first 36 turns of a game (the Ark moving from the
tenth or so) are played with the panel's own controls only, the fewest taps each
(``tests/support/taps.py``). Counted as the issue counted them (a control used, a menu's
choice one tap, "Play my turn" not counted): a turn takes median 4 taps at most and never
more than 7, a tile placed and a pass 3; counted strictly ("Play my turn" a tap, a menu two:
open it, pick), never more than 7 either. ``bench/turn_cost.py`` counts the same over whole
games, through Discord, with the pictures sent.
"""

from __future__ import annotations

import statistics

from bot.games import Seen, plugin
from engine.covenant import Game, Pass, PlaceTile
from tests.support.taps import cheapest_taps, plan_turn

FRONT = plugin("covenant").front


def test_a_turn_takes_four_taps_or_so_and_never_more_than_seven() -> None:
    game = Game.new(players=3, seed=1)
    names = ("Ruth", "Boaz", "Naomi")
    counted: list[int] = []  # as the issue counted
    strict: list[int] = []
    while game.turn <= 36:
        plan = plan_turn(game, seed=1000 + game.turn)
        seen = Seen(game, game.current_player, names, 0, {})
        try:
            found = cheapest_taps(FRONT, seen, plan)
        except LookupError:
            # The Ark to the same square by the route the panel offers (the best for the
            # player; the computer sometimes takes another with the same worth to it).
            found = cheapest_taps(FRONT, seen, plan, loose=True)
        counted.append(len(found))
        strict.append(1 + sum(tap.cost for tap in found))
        for action in plan:
            game.apply(action)
    assert statistics.median(counted) <= 4 and max(counted) <= 7
    assert max(strict) <= 7


def test_a_tile_placed_with_no_piece_takes_two_taps_three_if_it_is_turned() -> None:
    """The square, and "Place it, no piece"; the tile turned first if need be."""
    game = Game.new(players=2, seed=0, deck=["T21", "T39"])
    seen = Seen(game, 0, ("Ruth", "Boaz"), 0, {})
    first = cheapest_taps(FRONT, seen, [PlaceTile(0, 1, 90), Pass()])
    assert [(t.control, t.args) for t in first] == [
        ("sq", ("0", "1")),
        ("pass", ("0", "1", "90")),
    ]
    turned = cheapest_taps(FRONT, seen, [PlaceTile(0, 1, 180), Pass()])
    assert [(t.control, t.args) for t in turned] == [
        ("sq", ("0", "1")),
        ("rot", ("0", "1", "180")),
        ("pass", ("0", "1", "180")),
    ]
