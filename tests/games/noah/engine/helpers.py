"""Shared helpers for the Ark engine tests: card ids by name and unchanged-state checks."""

from __future__ import annotations

import pytest

from engine.noah import Game, IllegalAction, Placement, PlayCards, card_id


def C(name: str, copy: int = 1) -> int:
    """The id of the card called ``name``."""
    return card_id(name, copy)


def refused(
    game: Game, action: object, code: str, by: int | None = None, **params: object
) -> IllegalAction:
    """Assert ``action`` (played by seat ``by``, or the current one) is refused with exactly
    ``code`` and ``params``, and changes nothing. Returns the refusal."""
    before = game.to_json()
    with pytest.raises(IllegalAction) as info:
        game.apply(action, seat=by)  # type: ignore[arg-type]
    assert game.to_json() == before
    assert (info.value.code, info.value.params) == (code, params)
    return info.value


def accepted(game: Game, action: object) -> tuple:
    """Apply ``action`` to a copy of ``game`` and return the copy's events (game unchanged)."""
    trial = Game.from_json(game.to_json())
    events = trial.apply(action)  # type: ignore[arg-type]
    return events


def one(card: str, side: str, row: int, **extra: object) -> PlayCards:
    """Play one card on ``side`` (port or starboard) in cabin ``row``."""
    return PlayCards((Placement(C(card), side, row, **extra),))  # type: ignore[arg-type]
