"""Helpers for engine tests: play scripted turns and check what they produced."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from engine.covenant import Action, Event, FeatureScored, Game, Pass, PlaceTile


def turn(tile_x: int, tile_y: int, rotation: int = 0, *then: Action) -> list[Action]:
    """One turn: place the tile in hand at (x, y), then the given actions (default: pass)."""
    return [PlaceTile(tile_x, tile_y, rotation), *(then or (Pass(),))]


def play(game: Game, turns: Iterable[Sequence[Action]]) -> list[Event]:
    """Apply every action of every turn in order; return all events."""
    events: list[Event] = []
    for actions in turns:
        for action in actions:
            events.extend(game.apply(action))
    return events


def scored(events: Iterable[Event], feature: str | None = None) -> list[FeatureScored]:
    return [
        e
        for e in events
        if isinstance(e, FeatureScored) and (feature is None or e.feature == feature)
    ]
