"""Events to sentences: the story of a turn, in the user's language."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from bot.i18n import t
from engine.covenant import (
    ArkMoved,
    ArkPlaced,
    Event,
    FeatureScored,
    FinalScoring,
    Game,
    GameOver,
    Passed,
    PieceDeployed,
    TileDiscarded,
    TilePlaced,
    TurnStarted,
)
from engine.covenant.notation import Grid


def _gains(points: Sequence[int], names: Sequence[str]) -> str:
    return ", ".join(
        t("story.gain", player=names[seat], points=p) for seat, p in enumerate(points) if p
    )


def _scorers(event: FeatureScored, names: Sequence[str]) -> str:
    gains = _gains(event.points, names)
    if not gains:
        return t("story.no_points") if event.winners else t("story.nobody")
    text = t("story.scorers", list=gains)
    return text + t("story.doubled") if event.doubled else text


def describe(event: Event, names: Sequence[str], grid: Grid) -> str | None:
    """One sentence for ``event`` (None for events not worth telling)."""
    match event:
        case TurnStarted():
            return t(
                "story.turn_started",
                turn=event.turn,
                player=names[event.seat],
                tile=event.tile,
                tiles_left=event.tiles_left,
            )
        case TileDiscarded():
            return t("story.tile_discarded", tile=event.tile)
        case TilePlaced():
            return t(
                "story.tile_placed", player=names[event.seat], square=grid.name((event.x, event.y))
            )
        case PieceDeployed():
            key = "story.prophet_deployed" if event.prophet else "story.piece_deployed"
            return t(
                key,
                player=names[event.seat],
                feature=t(f"feature.{event.feature}"),
                square=grid.name((event.x, event.y)),
            )
        case Passed():
            return t("story.passed", player=names[event.seat])
        case ArkMoved():
            gains = _gains(event.points, names)
            return t(
                "story.ark_moved",
                player=names[event.seat],
                steps=len(event.path),
                square=grid.name(event.squares[-1]),
                gains=t("story.ark_gains", gains=gains) if gains else "",
            )
        case ArkPlaced():
            return t(
                "story.ark_placed", player=names[event.seat], square=grid.name((event.x, event.y))
            )
        case FeatureScored():
            scorers = _scorers(event, names)
            if event.feature == "temple":
                center = grid.name(event.squares[0])
                key = "story.temple_completed" if event.complete else "story.temple_final"
                return t(key, square=center, scorers=scorers)
            if event.feature == "field":
                return t(
                    "story.field_final",
                    tiles=event.tiles,
                    sheep=event.extras,
                    wolves=event.wolves,
                    scorers=scorers,
                )
            key = "story.feature_completed" if event.complete else "story.feature_final"
            return t(key, feature=t(f"feature.{event.feature}"), tiles=event.tiles, scorers=scorers)
        case FinalScoring():
            return t("story.final_scoring")
        case GameOver():
            winners = " & ".join(names[s] for s in event.winners)
            key = "story.game_over" if len(event.winners) == 1 else "story.game_over_tie"
            return t(key, winners=winners, points=event.scores[event.winners[0]])
    return None


def tell(events: Iterable[Event], names: Sequence[str], grid: Grid) -> list[str]:
    """The sentences for ``events``, skipping the silent ones."""
    return [line for e in events if (line := describe(e, names, grid)) is not None]


def turn_story(names: Sequence[str], before: Game, events: Iterable[Event]) -> list[str]:
    """The sentences of a turn whose last request turned ``before`` into ``events``.

    Squares are named on the grid of the picture posted when the turn began. If the
    tile was placed by an earlier request of the same turn, that is told first. Who draws
    next is left out: the turn message says it once, at its end.
    """
    # The grid of the picture posted when the turn began: before this turn's tile.
    squares = [p for p in before.board if before.phase == "place_tile" or p != before.last_placed]
    names_grid = Grid.around(squares)
    lines: list[str] = []
    if before.phase == "deploy" and before.last_placed is not None:
        lines.append(
            t(
                "story.tile_placed",
                player=names[before.current_player],
                square=names_grid.name(before.last_placed),
            )
        )
    shown = [e for e in events if not isinstance(e, TurnStarted)]
    return lines + tell(shown, names, names_grid)
