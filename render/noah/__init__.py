"""Pictures of Ark, the card game: the table, a hand, a preview, the final scoring, the
rules' example and key. Each function takes JSON-like data (see
:mod:`render.noah.pictures`) and ``language=``, and returns PNG bytes; all are pure and
safe to call from worker threads or processes."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from render.i18n import DEFAULT_LANGUAGE
from render.noah.pictures import (
    board_image,
    final_image,
    hand_image,
    key_image,
    rules_board_image,
)
from render.style import encode_png

__all__ = ["board", "final", "hand", "preview", "rules_board", "rules_key", "warm_up"]


def board(
    view: Mapping[str, Any],
    names: Sequence[str] | None = None,
    *,
    language: str = DEFAULT_LANGUAGE,
) -> bytes:
    """The table from the public view: the ship, the face-up cards, the supply and rain, the
    scoring cards with everyone's figures, discs and hand sizes, whose turn."""
    return encode_png(board_image(view, names, language), flat=True)


def preview(
    view: Mapping[str, Any],
    names: Sequence[str] | None = None,
    *,
    language: str = DEFAULT_LANGUAGE,
) -> bytes:
    """The table as a play being built would leave it (its cards ringed), for its player."""
    return encode_png(board_image(view, names, language, preview=True), flat=True)


def hand(
    cards: Sequence[int],
    marks: Mapping[str, bool],
    pet: int | None = None,
    phase: str = "play",
    *,
    language: str = DEFAULT_LANGUAGE,
) -> bytes:
    """One player's hand, for that player only (``marks``: card id -> playable now, or in
    the pet choice: would score)."""
    return encode_png(hand_image(cards, marks, pet, phase, language), flat=True)


def final(
    view: Mapping[str, Any],
    names: Sequence[str] | None = None,
    *,
    language: str = DEFAULT_LANGUAGE,
) -> bytes:
    return encode_png(final_image(view, names, language), flat=True)


def rules_board(*, language: str = DEFAULT_LANGUAGE) -> bytes:
    return encode_png(rules_board_image(language), flat=True)


def rules_key(*, language: str = DEFAULT_LANGUAGE) -> bytes:
    return encode_png(key_image(language), flat=True)


def warm_up() -> None:
    """Load the fonts and the emoji atlas now, so the first picture is as quick as others."""
    from render.noah.pictures import example_view

    board_image(example_view(), None)
