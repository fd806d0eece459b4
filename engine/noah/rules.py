"""How the game service runs Ark, the card game: its :class:`~engine.rules.Rules`."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.common.rng import Rng
from engine.noah.actions import Action, Pass, TakeCards, action_from_dict
from engine.noah.errors import REFUSALS
from engine.noah.game import Game
from engine.rules import Rules


def turns(players: int, options: Mapping[str, Any]) -> int | None:
    # Measured: the times the turn went to another seat (the pet choice's answers
    # count), over 40 seeded games of easy computer players: 45.5 on average at three
    # seats, 46.6 at four, 48.2 at five.
    return {3: 46, 4: 47}.get(players, 48)


#: The deals a table may ask for: the practice game's spreads the rain cards out.
DEALS = ("normal", "practice")


def check_options(options: Mapping[str, Any]) -> dict[str, Any]:
    """Ark's one option, ``deal`` (only ``/table learn`` asks for ``"practice"``)."""
    unknown = set(options) - {"deal"}
    if unknown:
        raise ValueError(f"Ark takes no option {sorted(unknown)}.")
    deal = options.get("deal", "normal")
    if deal not in DEALS:
        raise ValueError(f"No deal {deal!r}: one of {', '.join(DEALS)}.")
    return {} if deal == "normal" else {"deal": deal}


def new(players: int, seed: int, options: Mapping[str, Any]) -> Game:
    return Game.new(players, seed, practice=options.get("deal") == "practice")


def timeout_action(game: Game, rng: Rng) -> Action:
    # "Skip the turn" does the least the rules allow: in the main game take the first
    # face-up card (a turn must take or play; taking never needs a choice of cabin),
    # play the first legal cards only when nothing is face up; no pet at the pet
    # choice (a pet is optional); in the endgame pass for good (keeping the discs).
    if game.phase in ("pet", "endgame"):
        return Pass()
    if game.face_up:
        return TakeCards(game.face_up[0])
    first: Action = game.legal_actions()[0]
    return first


RULES: Rules[Game, Action] = Rules(
    Game,
    read_action=action_from_dict,
    refusals=REFUSALS,
    min_players=3,
    max_players=5,
    timeout=timeout_action,
    expected_turns=turns,
    start=new,
    options=check_options,
)
