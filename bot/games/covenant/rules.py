"""How the game service runs The Ark of the Covenant's engine."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.games.base import GameRules
from engine.common.rng import Rng
from engine.covenant import TILES, Game, Pass, PlaceTile, action_from_dict
from engine.covenant.editions import DEFAULT_EDITION, EDITIONS
from engine.covenant.lengths import DEFAULT_LENGTH, LENGTHS
from engine.covenant.players import sensible_action


class CovenantRules(GameRules):
    min_players = 2
    max_players = 5

    def check_options(self, options: Mapping[str, Any]) -> dict[str, Any]:
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

    def new(self, players: int, seed: int, options: Mapping[str, Any]) -> Game:
        deck = options.get("deck")
        return Game.new(
            players=players,
            seed=seed,
            deck=list(deck) if deck is not None else None,
            edition=options.get("edition", DEFAULT_EDITION),
            length=options.get("length", DEFAULT_LENGTH),
        )

    def turns(self, players: int, options: Mapping[str, Any]) -> int | None:
        # A turn a tile: every tile but the start tile (one that fits nowhere is put aside,
        # which is rare and makes a turn fewer).
        deck = options.get("deck")
        return len(deck) if deck is not None else LENGTHS[options.get("length", DEFAULT_LENGTH)] - 1

    def from_json(self, text: str) -> Game:
        return Game.from_json(text)

    def parse_action(self, data: Any) -> Any:
        return action_from_dict(data)

    def timeout_action(self, game: Game, rng: Rng) -> Any:
        # "Skip the turn": the tile still has to go somewhere for the game to go on, so it
        # is placed where the computer would put it; then no piece is deployed.
        if game.phase == "place_tile":
            action = sensible_action(game, rng)
            assert isinstance(action, PlaceTile)
            return action
        if game.phase == "deploy":
            return Pass()
        return game.legal_actions()[0]  # place_ark: any tile of the city will do
