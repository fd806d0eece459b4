"""Ark, the Noah's-ark card game for 3 to 5 players: a pure, deterministic rules engine.

>>> from engine.noah import Game, TakeCards
>>> game = Game.new(players=4, seed=3)
>>> action = game.legal_actions()[0]
>>> events = game.apply(action)

The modules: :mod:`~engine.noah.cards` (the deck), :mod:`~engine.noah.actions` (what players
do), :mod:`~engine.noah.events` (what happened), :mod:`~engine.noah.ship` (the ship: cabin
rules and tilt), :mod:`~engine.noah.placing` (putting a card on the ship, special animals
included), :mod:`~engine.noah.scoring` (majorities and tie break), :mod:`~engine.noah.state`
(the data and its JSON), :mod:`~engine.noah.reasons` (why a card fits nowhere),
:mod:`~engine.noah.errors` (every refusal code) and :mod:`~engine.noah.game` (set-up and turn
flow). Each module's docstring lists the decisions taken where the rules leave room.

A play is built step by step with ``game.placements(card)``, ``game.second_placements(first)``,
``game.why_not(card)`` and ``game.preview(placements)``, which agree with ``legal_actions()``.
"""

from engine.noah.actions import (
    PORT,
    SIDES,
    STARBOARD,
    Action,
    ChoosePet,
    IllegalAction,
    Pass,
    Placement,
    PlayCards,
    TakeCards,
    action_from_dict,
)
from engine.noah.cards import CARDS, KINDS, Card, card_id
from engine.noah.events import (
    AnimalDrivenOut,
    CardDrawn,
    CardPlayed,
    CardTaken,
    DiscPaid,
    DiscsGained,
    DiscUnderFigure,
    EndgameStarted,
    Event,
    FaceUpRefilled,
    FigurePlaced,
    GameOver,
    Passed,
    PetChoiceStarted,
    PetChosen,
    PetDeclined,
    PetRevealed,
    RainFell,
    SupplyExhausted,
)
from engine.noah.game import Game, starting_discs
from engine.noah.rules import RULES

__all__ = [
    "CARDS",
    "KINDS",
    "PORT",
    "RULES",
    "SIDES",
    "STARBOARD",
    "Action",
    "AnimalDrivenOut",
    "Card",
    "CardDrawn",
    "CardPlayed",
    "CardTaken",
    "ChoosePet",
    "DiscPaid",
    "DiscUnderFigure",
    "DiscsGained",
    "EndgameStarted",
    "Event",
    "FaceUpRefilled",
    "FigurePlaced",
    "Game",
    "GameOver",
    "IllegalAction",
    "Pass",
    "Passed",
    "PetChoiceStarted",
    "PetChosen",
    "PetDeclined",
    "PetRevealed",
    "Placement",
    "PlayCards",
    "RainFell",
    "SupplyExhausted",
    "TakeCards",
    "action_from_dict",
    "card_id",
    "starting_discs",
]
