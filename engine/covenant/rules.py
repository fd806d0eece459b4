"""How the game service runs The Ark of the Covenant: its :class:`~engine.rules.Rules`."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.common.rng import Rng
from engine.covenant.actions import Action, Pass, PlaceTile, action_from_dict
from engine.covenant.editions import DEFAULT_EDITION, EDITIONS
from engine.covenant.errors import REFUSALS
from engine.covenant.game import Game
from engine.covenant.lengths import DEFAULT_LENGTH, LENGTHS
from engine.covenant.players import sensible_action
from engine.covenant.tiles import TILES
from engine.rules import Rules


def check_options(options: Mapping[str, Any]) -> dict[str, Any]:
    unknown = set(options) - {"deck", "edition", "length"}
    if unknown:
        raise ValueError(f"Unknown option(s) for The Ark of the Covenant: {sorted(unknown)}.")
    clean: dict[str, Any] = {}
    if "deck" in options:
        # A scripted deck: for tests and teaching games, the tiles in exactly this order.
        deck = options["deck"]
        if not isinstance(deck, list) or not all(
            isinstance(t, str) and t in TILES and not TILES[t].start for t in deck
        ):
            raise ValueError("The deck must be a list of tile ids other than the start tile.")
        clean["deck"] = list(deck)
    if "edition" in options:
        if options["edition"] not in EDITIONS:
            raise ValueError(f"There is no edition {options['edition']!r}.")
        clean["edition"] = options["edition"]
    if "length" in options:
        if options["length"] not in LENGTHS:
            raise ValueError(f"There is no game length {options['length']!r}.")
        clean["length"] = options["length"]
    return clean


def new(players: int, seed: int, options: Mapping[str, Any]) -> Game:
    deck = options.get("deck")
    return Game.new(
        players=players,
        seed=seed,
        deck=list(deck) if deck is not None else None,
        edition=options.get("edition", DEFAULT_EDITION),
        length=options.get("length", DEFAULT_LENGTH),
    )


def turns(players: int, options: Mapping[str, Any]) -> int | None:
    # A turn a tile: every tile but the start tile (one that fits nowhere is put aside,
    # which is rare and makes a turn fewer).
    deck = options.get("deck")
    return len(deck) if deck is not None else LENGTHS[options.get("length", DEFAULT_LENGTH)] - 1


def timeout_action(game: Game, rng: Rng) -> Action:
    # "Skip the turn": the tile still has to go somewhere for the game to go on, so it
    # is placed where the computer would put it; then no piece is deployed.
    if game.phase == "place_tile":
        action = sensible_action(game, rng)
        assert isinstance(action, PlaceTile)
        return action
    if game.phase == "deploy":
        return Pass()
    first: Action = game.legal_actions()[0]  # place_ark: any tile of the city will do
    return first


RULES: Rules[Game, Action] = Rules(
    Game,
    read_action=action_from_dict,
    refusals=REFUSALS,
    min_players=2,
    max_players=5,
    start=new,
    options=check_options,
    timeout=timeout_action,
    expected_turns=turns,
)
