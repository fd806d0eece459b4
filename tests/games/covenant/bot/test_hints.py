"""A Covenant hint says the move and why (issue 29.9): a tile that gains nothing at once was
given as the square alone, a move of the Ark was credited with the city the tile had already
completed, and a piece, the Ark put down or a pass were said without a reason. Every step of
the suggested turn is named as the panel offers it (issue 40.8): the square's number (and the
part of the board it is on), the rotation, the spot's letter, where the Ark ends and its
route; the hint gave the tile's square alone and never the piece or the Ark after it."""

from __future__ import annotations

from typing import Any

from bot.games import Seen, plugin
from engine.common import Rng
from engine.covenant import Deploy, FeatureScored, Game, MoveArk, Pass, PlaceTile
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
    action, *rest = (COVENANT.rules.dump_action(a) for a in actions)
    lines = COVENANT.front.hint_text(seen, action, key, params, rest=rest)
    return [say(line, language) for line in lines]


def test_a_tile_that_gains_nothing_at_once_says_why_it_goes_there() -> None:
    game = Game.new(players=2, seed=0)
    turn = [PlaceTile(0, -1, 90), Pass()]
    assert hint(game, turn) == [
        "Put the tile on **M12** (number 1), turned 90°.",
        "Then tap **Place it, no piece**.",
        "It scores nothing for you now and grows none of your roads or cities, but the computer "
        "has looked a few turns ahead: M12 is the best square for this tile.",
    ]
    assert hint(game, turn, "nl")[1] == "Tik dan op **Alleen leggen**."
    assert hint(game, turn, "es")[1] == "Luego pulsa **Solo colocarla**."
    assert hint(game, turn, "es-419")[1] == "Luego presiona **Solo colocarla**."
    assert hint(game, turn, "nl")[2] == (
        "Je krijgt er nu geen punten voor en geen van je wegen of steden wordt groter, maar de "
        "computer heeft een paar beurten vooruitgekeken: M12 is de beste plek voor deze tegel."
    )
    assert hint(game, turn, "es")[2] == (
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


def at_turn(seed: int, turn: int, players: int = 2) -> Game:
    """The seeded game played at random up to the tile of ``turn``."""
    game, rng = Game.new(players=players, seed=seed), Rng(seed)
    while not (game.turn == turn and game.phase == "place_tile"):
        game.apply(game.sample_action(rng))
    return game


def test_a_move_of_the_ark_after_the_tile_says_where_it_goes() -> None:
    game = at_turn(0, 7)
    turn = [PlaceTile(-2, -1, 90), MoveArk("NNW")]
    assert hint(game, turn) == [
        "Put the tile on **K12** (number 1), turned 90°.",
        "Move the Ark 3 steps to **L13** (route NNW).",
        "Its path gives you 1 point.",
    ]
    assert hint(game, turn, "nl") == [
        "Leg de tegel op **K12** (nummer 1), 90° gedraaid.",
        "Verplaats de Ark 3 stappen naar **L13** (route NNW).",
        "De route levert je 1 punt op.",
    ]
    assert hint(game, turn, "es") == [
        "Pon la loseta en **K12** (número 1), girada 90°.",
        "Mueve el Arca 3 casillas hasta **L13** (ruta NNO).",
        "Su recorrido te da 1 punto.",
    ]


def test_completing_a_city_says_where_the_piece_goes() -> None:
    game = at_turn(0, 3)
    turn = [PlaceTile(0, -1, 180), Deploy("SSE", False)]
    assert hint(game, turn) == [
        "Put the tile on **M12** (number 1), turned 180°.",
        "Put your follower on **B**, the city to the south.",
        "Complete your city: it scores 4 points.",
    ]
    assert hint(game, turn, "nl")[1] == "Zet je horige op **B**, de stad in het zuiden."
    assert hint(game, turn, "es")[1] == "Pon tu seguidor en **B**, la ciudad al sur."


def test_a_piece_claiming_a_feature_is_said_with_its_letter() -> None:
    game = at_turn(0, 1)
    turn = [PlaceTile(0, -1, 90), Deploy("NNW", False)]
    assert hint(game, turn) == [
        "Put the tile on **M12** (number 1), turned 90°.",
        "Put your follower on **A**, the field at M12: nobody holds it yet, and a field scores "
        "at the end of the game.",
    ]
    assert hint(game, turn, "nl")[1] == (
        "Zet je horige op **A**, het veld op M12: daar staat nog niemand, en een veld levert "
        "pas aan het eind van het spel punten op."
    )
    assert hint(game, turn, "es")[1] == (
        "Pon tu seguidor en **A**, el campo de M12: nadie lo tiene todavía, y los campos "
        "puntúan al final de la partida."
    )


def test_a_square_on_another_part_of_the_board_says_the_part() -> None:
    """Three players, turn 25: the squares fill two parts; M19 is number 22, on part 2."""
    game = at_turn(0, 25, players=3)
    turn = [PlaceTile(0, 6, 90), Pass()]
    assert hint(game, turn)[:2] == [
        "Put the tile on **M19** (number 22, on part 2), turned 90°.",
        "Then tap **Place it, no piece**: the Ark stays where it is.",
    ]
    assert (
        hint(game, turn, "nl")[0] == "Leg de tegel op **M19** (nummer 22, in deel 2), 90° gedraaid."
    )
    assert hint(game, turn, "es")[:2] == [
        "Pon la loseta en **M19** (número 22, en la parte 2), girada 90°.",
        "Luego pulsa **Solo colocarla**: el Arca se queda donde está.",
    ]
    assert (
        hint(game, turn, "nl")[1]
        == "Tik dan op **Alleen leggen**: de Ark blijft staan waar hij staat."
    )
