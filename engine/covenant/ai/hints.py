"""Why a turn of The Ark of the Covenant is good, read from the events it makes: a hint's
reason is a message key and its parameters, never a sentence (the bot says it in the
player's language)."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from engine.covenant import (
    ArkMoved,
    ArkPlaced,
    FeatureScored,
    Game,
    MoveArk,
    Pass,
    PieceDeployed,
    PlaceTile,
)

#: Every reason key a hint of this game gives, with the names of its parameters: numbers,
#: feature kinds ("city", "road", "field") and square coordinates ``x``/``y``.
REASONS: Mapping[str, tuple[str, ...]] = MappingProxyType(
    {
        "hint.completes_city": ("points",),  # completes your city for `points`
        "hint.completes_road": ("points",),
        "hint.completes_temple": ("points",),
        "hint.claims_feature": ("feature", "x", "y", "prophet"),  # a piece on a feature
        "hint.extends_feature": ("feature", "x", "y"),  # grows a road/city you hold
        "hint.moves_ark": ("points",),  # the Ark's path gives you `points`
        "hint.moves_ark_ahead": (),  # gives nothing on the way: the search rates where it ends
        "hint.places_ark": ("x", "y"),
        "hint.places_tile": ("x", "y"),  # gains nothing at once: the search rates the square
        "hint.passes": (),  # keep your pieces
    }
)


def reason_for(
    game: Game, seat: int, actions: list[Any], events: list[Any]
) -> tuple[str, dict[str, Any]]:
    """The one thing the turn does best, as a hint reason (see :data:`REASONS`)."""
    completed = _completed(seat, events)
    if game.phase != "place_tile":
        # The tile is down: what it completes scores whatever the rest of the turn does, so
        # only what this move adds is its reason (a piece put on a road the tile closed is;
        # the road itself, when the move is the Ark's, is not).
        for feature, points in _completed(seat, _passing(game)).items():
            completed[feature] = completed.get(feature, 0) - points
    completed = {feature: points for feature, points in completed.items() if points > 0}
    if completed:
        feature = max(completed, key=lambda k: (completed[k], k))
        if feature in ("city", "road", "temple"):
            return f"hint.completes_{feature}", {"points": completed[feature]}
    for event in events:
        if isinstance(event, ArkMoved) and event.points[seat] > 0:
            return "hint.moves_ark", {"points": event.points[seat]}
    for event in events:
        if isinstance(event, PieceDeployed):
            return "hint.claims_feature", {
                "feature": event.feature,
                "x": event.x,
                "y": event.y,
                "prophet": event.prophet,
            }
    for event in events:
        if isinstance(event, ArkPlaced):
            return "hint.places_ark", {"x": event.x, "y": event.y}
    placement = next((a for a in actions if isinstance(a, PlaceTile)), None)
    if placement is not None:
        extended = _extends(game, seat, placement)
        if extended is not None:
            return "hint.extends_feature", {
                "feature": extended,
                "x": placement.x,
                "y": placement.y,
            }
        return "hint.places_tile", {"x": placement.x, "y": placement.y}
    if any(isinstance(a, MoveArk) for a in actions):
        return "hint.moves_ark_ahead", {}  # nothing for the seat on the way: where it ends
    return "hint.passes", {}  # nothing to deploy or move that is worth it: keep the pieces


def _completed(seat: int, events: list[Any]) -> dict[str, int]:
    """The points ``seat`` gets from roads, cities and temples completed, by kind."""
    completed: dict[str, int] = {}
    for event in events:
        if isinstance(event, FeatureScored) and event.complete and event.points[seat] > 0:
            completed[event.feature] = completed.get(event.feature, 0) + event.points[seat]
    return completed


def _passing(game: Game) -> list[Any]:
    """The events of ending the turn now, without a piece or the Ark (none where a pass is
    no move, as when the Ark must be put down)."""
    if Pass() not in game.legal_actions():
        return []
    return list(game.copy().apply(Pass()))


def _extends(game: Game, seat: int, placement: PlaceTile) -> str | None:
    """The kind of a road or city ``seat`` holds that the placement continues, if any."""
    square = (placement.x, placement.y)
    for feature in game.claimed_features():
        mine = any(p.seat == seat for p in feature.pieces)
        if feature.kind != "field" and square in feature.holes and mine:
            return feature.kind
    return None
