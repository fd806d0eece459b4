"""Pictures of Ark, the card game: the table, a hand, a preview, the final scoring, the
rules' example and key. Each function takes JSON-like data (see
:mod:`render.noah.pictures`) and ``language=``, and returns PNG bytes; all are pure and
safe to call from worker threads or processes."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from render.i18n import DEFAULT_LANGUAGE
from render.noah.palette import shared_palette, to_png
from render.noah.pictures import (
    board_image,
    final_image,
    hand_image,
    key_image,
    rules_board_image,
)

__all__ = ["board", "final", "hand", "preview", "rules_board", "rules_key", "warm_up"]


def board(
    view: Mapping[str, Any],
    names: Sequence[str] | None = None,
    focus: Sequence[int | str] = (),
    viewer: int | None = None,
    *,
    language: str = DEFAULT_LANGUAGE,
) -> bytes:
    """The table from the public view: the ship, the face-up cards, the supply and rain, the
    scoring cards with everyone's figures, discs and hand sizes, whose turn. ``focus``: what
    a lesson points at, ringed (card ids, cabins, parts of the table: see
    :func:`render.noah.pictures.board_image`); nothing by default. ``viewer``: the seat it
    is drawn for privately, told "you" on their turn."""
    return to_png(board_image(view, names, language, focus=focus, viewer=viewer))


def preview(
    view: Mapping[str, Any],
    names: Sequence[str] | None = None,
    viewer: int | None = None,
    *,
    language: str = DEFAULT_LANGUAGE,
) -> bytes:
    """The table as a play being built would leave it (its cards ringed), for its player
    (``viewer``: their seat)."""
    return to_png(board_image(view, names, language, preview=True, viewer=viewer))


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
    return to_png(hand_image(cards, marks, pet, phase, language))


def final(
    view: Mapping[str, Any],
    names: Sequence[str] | None = None,
    *,
    language: str = DEFAULT_LANGUAGE,
) -> bytes:
    return to_png(final_image(view, names, language))


def rules_board(*, language: str = DEFAULT_LANGUAGE) -> bytes:
    return to_png(rules_board_image(language))


def rules_key(*, language: str = DEFAULT_LANGUAGE) -> bytes:
    return to_png(key_image(language))


def warm_up() -> None:
    """Load the fonts and the emoji atlas and learn the palette now, so the first picture is
    as quick as the others."""
    shared_palette()
