"""Events to sentences: the story of a turn, the same for every reader but in their language.

Squares are named by :mod:`engine.covenant.notation`, whose names never change, so the story
needs nothing but the events.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from bot.games.base import TurnRecord
from bot.games.covenant.choices import tile_words
from bot.panels import Text
from engine.covenant import (
    ArkMoved,
    ArkPlaced,
    Event,
    FeatureScored,
    FinalScoring,
    Passed,
    PieceDeployed,
    TileDiscarded,
    TilePlaced,
)
from engine.covenant.notation import square_name


def _gains(points: Sequence[int], names: Sequence[str]) -> tuple[Text, ...]:
    return tuple(
        Text("covenant.story.gain", player=names[seat], points=p)
        for seat, p in enumerate(points)
        if p
    )


def _scorers(event: FeatureScored, names: Sequence[str]) -> Text:
    gains = _gains(event.points, names)
    if not gains:
        return Text("covenant.story.no_points" if event.winners else "covenant.story.nobody")
    if event.doubled:
        return Text("covenant.story.scorers_doubled", list=gains)
    return Text("covenant.story.scorers", list=gains)


def describe(event: Event, names: Sequence[str]) -> Text | None:
    """One sentence for ``event`` (None for events not worth telling)."""
    match event:
        case TileDiscarded():
            return Text("covenant.story.tile_discarded", tile=tile_words(event.tile))
        case TilePlaced():
            return Text(
                "covenant.story.tile_placed",
                player=names[event.seat],
                square=square_name((event.x, event.y)),
            )
        case PieceDeployed():
            key = (
                "covenant.story.prophet_deployed"
                if event.prophet
                else "covenant.story.piece_deployed"
            )
            return Text(
                key,
                player=names[event.seat],
                feature=event.feature,
                square=square_name((event.x, event.y)),
            )
        case Passed():
            return Text("covenant.story.passed", player=names[event.seat])
        case ArkMoved():
            gains = _gains(event.points, names)
            return Text(
                "covenant.story.ark_moved" if gains else "covenant.story.ark_moved_nobody",
                player=names[event.seat],
                steps=len(event.path),
                square=square_name(event.squares[-1]),
                gains=gains,
            )
        case ArkPlaced():
            return Text(
                "covenant.story.ark_placed",
                player=names[event.seat],
                square=square_name((event.x, event.y)),
            )
        case FeatureScored():
            scorers = _scorers(event, names)
            if event.feature == "temple":
                key = (
                    "covenant.story.temple_completed"
                    if event.complete
                    else "covenant.story.temple_final"
                )
                return Text(key, square=square_name(event.squares[0]), scorers=scorers)
            if event.feature == "field":
                return Text(
                    "covenant.story.field_final",
                    tiles=event.tiles,
                    sheep=event.extras,
                    wolves=event.wolves,
                    scorers=scorers,
                )
            key = (
                "covenant.story.feature_completed"
                if event.complete
                else "covenant.story.feature_final"
            )
            if event.complete:  # it was completed by the tile just placed: no square needed
                return Text(key, feature=event.feature, tiles=event.tiles, scorers=scorers)
            # At the end the board is full of open roads and cities: say where this one is
            # (its first square in reading order).
            return Text(
                key,
                feature=event.feature,
                tiles=event.tiles,
                square=square_name(event.squares[0]),
                scorers=scorers,
            )
        case FinalScoring():
            return Text("covenant.story.final_scoring")
    # TurnStarted: the post's last line says who plays next; GameOver: the final post does.
    return None


def tell(events: Iterable[Event], names: Sequence[str]) -> list[Text]:
    """The sentences for ``events``, skipping the silent ones."""
    return [line for e in events if (line := describe(e, names)) is not None]


def story(turns: Sequence[TurnRecord], names: Sequence[str]) -> list[Text]:
    """Every turn in ``turns``, told in order."""
    return [line for turn in turns for line in tell(turn.events, names)]
