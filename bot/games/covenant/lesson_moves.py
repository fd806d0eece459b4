"""What a learner's turn did, in words: the points it scored and how they were counted, and
what a clearly better move would have given.

The turn is played again on a copy of the game before it, so the words come from the
engine's own scoring events (tiles, scrolls, oases, the Prophet's doubling), never from a
second count of our own.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.games.base import Seen
from bot.games.covenant.front import CovenantFront
from bot.games.covenant.story import describe
from bot.panels import Text
from engine.covenant import (
    ArkMoved,
    ArkPlaced,
    Event,
    FeatureScored,
    FinalScoring,
    Game,
    IllegalAction,
    Pass,
    PieceDeployed,
    PlaceArk,
)
from engine.covenant.notation import square_name

#: A better move is mentioned when it gives the learner at least this many points more:
#: less is within what a beginner cannot be expected to see.
CLEARLY_BETTER = 4


def _t(name: str, **params: Any) -> Text:
    return Text(f"covenant.{name}", **params)


def said_move(game: Game, action: Any) -> Text | None:
    """``action`` (played now on ``game``) in the words the hint says a move in."""
    if isinstance(action, PlaceArk):
        # By its number on the Ark's buttons too ("1 · M12"), where the panel asks for it.
        pos = (action.x, action.y)
        choices = list(game.ark_choices) if game.phase == "place_ark" else []
        number = choices.index(pos) + 1 if pos in choices else 0
        return _t("lesson.put_ark", square=square_name(pos), number=number)
    if isinstance(action, Pass):
        return None
    return CovenantFront._hint_move(game, action.to_dict())


def replay(game: Game, actions: Sequence[Any]) -> list[Event]:
    """The events of ``actions`` played on a copy of ``game``, up to the end of the turn
    (the final scoring after the last tile is everyone's, not the turn's); a move stopped
    after its tile is finished by passing, so that what the tile completed is scored."""
    copy = game.copy()
    events: list[Event] = []
    for action in actions:
        events += copy.apply(action)
    if copy.phase == "deploy":
        events += copy.apply(Pass())
    cut = next((i for i, e in enumerate(events) if isinstance(e, FinalScoring)), len(events))
    return events[:cut]


def _gained(events: Sequence[Event], seat: int) -> int:
    """The points ``seat`` won by ``events``."""
    total = 0
    for event in events:
        if isinstance(event, FeatureScored | ArkMoved):
            total += event.points[seat]
        elif isinstance(event, ArkPlaced) and event.seat == seat:
            total += event.points
    return total


def _scored(event: FeatureScored, seat: int) -> Text:
    """How ``seat``'s points for a completed road, city or temple were counted."""
    points = event.points[seat]
    if event.feature == "temple":
        return _t("lesson.scored_temple", square=square_name(event.squares[0]), points=points)
    return _t(
        f"lesson.scored_{event.feature}",
        tiles=event.tiles,
        extras=event.extras,
        points=points,
        doubled="yes" if seat in event.doubled else "no",
    )


def _told(
    event: Event, seat: int, names: Sequence[str], returned: set[tuple[int, int, str]]
) -> Text | None:
    """One line of the turn for the learner in ``seat``: their points said as "you", what
    else happened as the story tells it to everyone. A piece put out and scored home in the
    same turn (``returned``: where such pieces stood) is told by its points alone."""
    match event:
        case FeatureScored() if event.points[seat] and event.feature != "field":
            # (Fields score only after the last turn, which the turn's events stop before.)
            return _scored(event, seat)
        case FeatureScored():
            return describe(event, names)
        case ArkMoved() if event.points[seat]:
            return _t("lesson.ark_points", steps=len(event.path), points=event.points[seat])
        case ArkPlaced():
            return _t("lesson.ark_placed", square=square_name((event.x, event.y)))
        case PieceDeployed() if (event.x, event.y, event.port) not in returned:
            return _t(
                "lesson.deployed",
                piece="prophet" if event.prophet else "follower",
                feature=event.feature,
            )
    return None


def _better_line(events: Sequence[Event], seat: int, points: int) -> Text:
    """What the better move would have given, said by what gave the most of it."""
    best: Event | None = None
    most = 0
    for event in events:
        if isinstance(event, FeatureScored | ArkMoved) and event.points[seat] > most:
            best, most = event, event.points[seat]
    if isinstance(best, FeatureScored):
        return _t("lesson.better_feature", feature=best.feature, points=points)
    if isinstance(best, ArkMoved):
        return _t("lesson.better_ark", points=points)
    return _t("lesson.better_points", points=points)


def turn_lines(before: Seen, actions: Sequence[Any], better: Sequence[Any] | None) -> list[Text]:
    """What the learner's turn (``actions`` from ``before``) did, and a clearly better
    move's points (see :meth:`~bot.games.teaching.Teacher.after_move`)."""
    seat = before.seat
    game: Game = before.game
    if seat is None or not actions:
        return []
    events = replay(game, actions)
    returned = {
        (p.x, p.y, p.port) for e in events if isinstance(e, FeatureScored) for p in e.returned
    }
    lines = [line for e in events if (line := _told(e, seat, before.names, returned)) is not None]
    gained = _gained(events, seat)
    if not lines:
        lines.append(_t("lesson.no_points"))
    if better:
        try:
            instead = replay(game, better)
        except IllegalAction:
            return lines  # a suggestion for another moment of the turn: nothing to compare
        could = _gained(instead, seat)
        if could - gained >= CLEARLY_BETTER:
            lines.append(_better_line(instead, seat, could))
    return lines


__all__ = ["CLEARLY_BETTER", "replay", "said_move", "turn_lines"]
