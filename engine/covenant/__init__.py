"""The Ark of the Covenant (2003), a Carcassonne variant, as a pure rules engine.

Three editions can be played (``Game.new(..., edition="en2" | "en1" | "de")``); where their
rules differ is described as data in :mod:`engine.covenant.editions`. A game is of all 72
tiles or shorter (``length="medium"``: 54, ``"short"``: 36; :mod:`engine.covenant.lengths`).

>>> from engine.covenant import Game, PlaceTile, Pass
>>> game = Game.new(players=2, seed=0, deck=["T39"])
>>> game.apply(PlaceTile(x=1, y=0, rotation=0))[0].type
'tile_placed'
>>> game.phase
'deploy'
"""

from engine.covenant.actions import (
    Action,
    Deploy,
    MoveArk,
    Pass,
    PlaceArk,
    PlaceTile,
    action_from_dict,
)
from engine.covenant.editions import DEFAULT_EDITION, EDITIONS, Edition
from engine.covenant.errors import IllegalAction
from engine.covenant.events import (
    ArkMoved,
    ArkPlaced,
    Event,
    FeatureScored,
    FinalScoring,
    GameOver,
    Passed,
    PieceDeployed,
    PieceRef,
    TileDiscarded,
    TilePlaced,
    TurnStarted,
)
from engine.covenant.game import (
    CATEGORIES,
    FOLLOWERS,
    TEMPLE,
    FeatureInfo,
    Game,
    Phase,
    PlacedTile,
)
from engine.covenant.geometry import PORT_NAMES, Pos
from engine.covenant.lengths import DEFAULT_LENGTH, LENGTHS
from engine.covenant.rules import RULES
from engine.covenant.tiles import START_TILE, TILES, RotatedTile, Segment, TileDesign

__all__ = [
    "CATEGORIES",
    "DEFAULT_EDITION",
    "DEFAULT_LENGTH",
    "EDITIONS",
    "FOLLOWERS",
    "LENGTHS",
    "PORT_NAMES",
    "RULES",
    "START_TILE",
    "TEMPLE",
    "TILES",
    "Action",
    "ArkMoved",
    "ArkPlaced",
    "Deploy",
    "Edition",
    "Event",
    "FeatureInfo",
    "FeatureScored",
    "FinalScoring",
    "Game",
    "GameOver",
    "IllegalAction",
    "MoveArk",
    "Pass",
    "Passed",
    "Phase",
    "PieceDeployed",
    "PieceRef",
    "PlaceArk",
    "PlaceTile",
    "PlacedTile",
    "Pos",
    "RotatedTile",
    "Segment",
    "TileDesign",
    "TileDiscarded",
    "TilePlaced",
    "TurnStarted",
    "action_from_dict",
]
