"""Ark's pictures as the panels and posts ask for them: drawn later by :mod:`render.noah`
(by the function's name), from the public view or from this seat's own hand only."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot.games.noah.words import noah_text as _t
from bot.panels import Picture
from engine.noah import Game
from engine.noah.queries import card_choices

RENDER = "render.noah"


def board_picture(
    view: Mapping[str, Any], names: Sequence[str], filename: str, viewer: int | None = None
) -> Picture:
    """The table; ``viewer``: the seat it is shown to privately (told "you" on their turn),
    None for a public post."""
    args: tuple[Any, ...] = (dict(view), list(names))
    if viewer is not None:
        args += ((), viewer)
    return Picture(f"{RENDER}:board", args, filename, _t("picture_alt.board"))


def hand_picture(game: Game, seat: int, marks: Mapping[int, bool] | None = None) -> Picture:
    """``seat``'s own hand (for their private panel only); ``marks``: the cards to mark as
    playable (by default, on their turn, those that fit somewhere)."""
    hand = list(game.hand(seat))
    if marks is None:
        marks = (
            {c: r is None for c, r in card_choices(game).items()}
            if (game.current_player == seat)
            else {}
        )
    return Picture(
        f"{RENDER}:hand",
        (hand, {str(c): bool(m) for c, m in marks.items()}, game.pet(seat), game.phase),
        "your-hand.png",
        _t("picture_alt.hand"),
    )
