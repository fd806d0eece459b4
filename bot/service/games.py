"""The kinds of game the service can run, and how to drive each engine.

The service knows nothing about tiles or cards: everything engine-specific goes through a
:class:`GameKind`. Adding an engine is one ``GameKind(...)`` and one :func:`register` call,
as the covenant entry below shows.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from engine.common.rng import Rng

_MASK = (1 << 64) - 1


class EngineGame(Protocol):
    """What the service needs from an engine's game object."""

    @property
    def phase(self) -> str: ...

    @property
    def current_player(self) -> int: ...

    @property
    def scores(self) -> tuple[int, ...]: ...

    def legal_actions(self) -> list[Any]: ...

    def apply(self, action: Any, seat: int | None = None) -> tuple[Any, ...]: ...

    def to_json(self) -> str: ...


@dataclass(frozen=True, slots=True)
class GameKind:
    """How to run one kind of game.

    - ``new(players, seed, options)``: a new game; ``options`` already validated.
    - ``check_options(options)``: the options cleaned up, or ``ValueError`` with a sentence.
    - ``parse_action(dict)`` / ``dump_action(action)``: the log's JSON form of an action.
    - ``bot_action(game, rng)``: a computer player's move (for a removed player's seat).
    - ``timeout_action(game, rng)``: the move made for a player whose turn timed out.
    - ``is_over(game)`` and ``winners(game)``: the end of the game and who won (seats).
    """

    name: str
    title: str
    min_players: int
    max_players: int
    new: Callable[[int, int, Mapping[str, Any]], EngineGame]
    from_json: Callable[[str], EngineGame]
    check_options: Callable[[Mapping[str, Any]], dict[str, Any]]
    parse_action: Callable[[Any], Any]
    dump_action: Callable[[Any], dict[str, Any]]
    bot_action: Callable[[Any, Rng], Any]
    timeout_action: Callable[[Any, Rng], Any]
    winners: Callable[[Any], tuple[int, ...]]

    def is_over(self, game: EngineGame) -> bool:
        return game.phase == "over"


def move_rng(seed: int, version: int) -> Rng:
    """The generator for the computer's move at ``version`` of a game.

    Derived from the game's seed and position, so every process (and every retry) picks the
    same move; the move is stored anyway, so replays never depend on it.
    """
    return Rng((seed * 0x9E3779B97F4A7C15 + version * 0xBF58476D1CE4E5B9 + 1) & _MASK)


# ---------------------------------------------------------------- The Ark of the Covenant


def _covenant_kind() -> GameKind:
    from engine.covenant import TILES, Game, Pass, PlaceTile, action_from_dict
    from engine.covenant.players import sensible_action

    def check_options(options: Mapping[str, Any]) -> dict[str, Any]:
        unknown = set(options) - {"deck"}
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
        return clean

    def new(players: int, seed: int, options: Mapping[str, Any]) -> Game:
        deck = options.get("deck")
        return Game.new(players=players, seed=seed, deck=list(deck) if deck is not None else None)

    def timeout_action(game: Game, rng: Rng) -> Any:
        # "Skip the turn": the tile still has to go somewhere for the game to go on, so it
        # is placed where the computer would put it; then no piece is deployed.
        if game.phase == "place_tile":
            action = sensible_action(game, rng)
            assert isinstance(action, PlaceTile)
            return action
        if game.phase == "deploy":
            return Pass()
        return game.legal_actions()[0]  # place_ark: any tile of the city will do

    return GameKind(
        name="covenant",
        title="The Ark of the Covenant",
        min_players=2,
        max_players=5,
        new=new,
        from_json=Game.from_json,
        check_options=check_options,
        parse_action=action_from_dict,
        dump_action=lambda action: action.to_dict(),
        bot_action=sensible_action,
        timeout_action=timeout_action,
        winners=lambda game: tuple(game.winners),
    )


# ---------------------------------------------------------------- Ark, the card game


def _noah_kind() -> GameKind:
    from engine.noah import Game, action_from_dict

    def check_options(options: Mapping[str, Any]) -> dict[str, Any]:
        if options:
            raise ValueError(f"Ark takes no options, not {sorted(options)}.")
        return {}

    def first_legal(game: Game, rng: Rng) -> Any:
        # No strategy player exists for Ark yet: any legal move, chosen from the seed.
        return rng.choice(game.legal_actions())

    return GameKind(
        name="noah",
        title="Ark",
        min_players=3,
        max_players=5,
        new=lambda players, seed, options: Game.new(players=players, seed=seed),
        from_json=Game.from_json,
        check_options=check_options,
        parse_action=action_from_dict,
        dump_action=lambda action: action.to_dict(),
        bot_action=first_legal,
        timeout_action=first_legal,
        winners=lambda game: tuple(game.winners),
    )


KINDS: dict[str, GameKind] = {}


def register(kind: GameKind) -> None:
    """Make ``kind`` available to every service created afterwards."""
    KINDS[kind.name] = kind


register(_covenant_kind())
with contextlib.suppress(ImportError):  # the card game's engine may not be there yet
    register(_noah_kind())
