"""A Covenant hint says the move and why (issue 29.9): a tile that gains nothing at once was
given as the square alone, a move of the Ark was credited with the city the tile had already
completed, and a piece, the Ark put down or a pass were said without a reason."""

from __future__ import annotations

from typing import Any

from bot.games import Seen, plugin
from engine.common import Rng
from engine.covenant import FeatureScored, Game, MoveArk, Pass, PlaceTile
from engine.covenant.ai.hints import reason_for
from render.i18n import say

COVENANT = plugin("covenant")
NAMES = ("Ruth", "Boaz")


def hint(game: Game, actions: list[Any], language: str = "en") -> list[str]:
    """The hint for the turn ``actions`` (its first is the move suggested now), said."""
    after, events = game.copy(), []
    for action in actions:
        events += after.apply(action)
    key, params = reason_for(game, game.current_player, actions, events)
    seen = Seen(game, game.current_player, NAMES, 0, {})
    action = COVENANT.rules.dump_action(actions[0])
    return [say(line, language) for line in COVENANT.front.hint_text(seen, action, key, params)]


def test_a_tile_that_gains_nothing_at_once_says_why_it_goes_there() -> None:
    game = Game.new(players=2, seed=0)
    turn = [PlaceTile(0, -1, 90), Pass()]
    assert hint(game, turn) == [
        "Put the tile on M12, turned 90°.",
        "It scores nothing for you now and grows none of your roads or cities, but the computer "
        "has looked a few turns ahead: M12 is the best square for this tile.",
    ]
    assert hint(game, turn, "nl")[1] == (
        "Je krijgt er nu geen punten voor en geen van je wegen of steden wordt groter, maar de "
        "computer heeft een paar beurten vooruitgekeken: M12 is de beste plek voor deze tegel."
    )
    assert hint(game, turn, "es")[1] == (
        "Ahora no te da puntos ni hace crecer ninguno de tus caminos o ciudades, pero el "
        "ordenador ha mirado unos turnos más allá: M12 es el mejor sitio para esta loseta."
    )


def after_the_tile(seed: int, turn: int) -> Game:
    """The seeded game played at random up to the piece step of ``turn``."""
    game, rng = Game.new(players=2, seed=seed), Rng(seed)
    while not (game.turn == turn and game.phase == "deploy"):
        game.apply(game.sample_action(rng))
    return game


def test_a_move_of_the_ark_is_not_credited_with_the_city_the_tile_completed() -> None:
    """Boaz's tile has completed his city (8 points, whatever he does next); moving the Ark
    one step east gives him nothing on the way."""
    game = after_the_tile(0, 24)
    assert game.current_player == 1
    scored = [e for e in game.copy().apply(Pass()) if isinstance(e, FeatureScored)]
    assert [(e.feature, e.complete, e.points[1]) for e in scored] == [("city", True, 8)]
    assert hint(game, [MoveArk("E")]) == [
        "Move the Ark 1 step to **L12** (route E).",
        "It gives you nothing on its way now, but the computer has looked a few turns ahead "
        "and rates where it ends best.",
    ]
    # Where it ends, from K12, as the route's panel says it.
    assert hint(game, [MoveArk("E")], "nl")[0] == "Verplaats de Ark 1 stap naar **L12** (route O)."
    assert hint(game, [MoveArk("E")], "es")[0] == "Mueve el Arca 1 casilla hasta **L12** (ruta E)."
    # Passing, the city still scores: a pass is never "complete your city" either.
    assert hint(game, [Pass()]) == [
        "Keep your pieces for later: the computer has looked a few turns ahead and rates that "
        "above any spot on this tile or a move of the Ark."
    ]


def test_a_piece_put_down_says_why() -> None:
    game = after_the_tile(0, 24)
    claims = [a for a in game.legal_actions() if type(a).__name__ == "Deploy"]
    said = hint(game, [claims[0]])
    assert len(said) == 1 and ": nobody holds it yet, and " in said[0], said
