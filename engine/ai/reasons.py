"""Why a move is suggested: a message key and its parameters, never a sentence.

The bot translates a :class:`Hint`'s ``reason`` with its own catalogues (English, Dutch,
Spanish); :data:`REASONS` lists every key, with the parameters it takes, so those
catalogues can be checked against it. Parameters are numbers, feature kinds (``"city"``,
``"road"``, ``"field"``), scoring-card kinds (``"heavy"``...), card ids and square
coordinates ``x``/``y``, never pre-formatted text.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

#: Every reason key, with the names of its parameters.
REASONS: dict[str, tuple[str, ...]] = {
    # The Ark of the Covenant
    "hint.completes_city": ("points",),  # completes your city for `points`
    "hint.completes_road": ("points",),
    "hint.completes_temple": ("points",),
    "hint.claims_feature": ("feature", "x", "y", "prophet"),  # a piece on a road/city/field
    "hint.extends_feature": ("feature", "x", "y"),  # grows a road/city you hold
    "hint.moves_ark": ("points",),  # the Ark's path gives you `points`
    "hint.places_ark": ("x", "y"),
    "hint.places_tile": ("x", "y"),  # the best square for the tile, nothing more to say
    # Ark, the card game
    "hint.takes_lead": ("kind", "card"),  # playing `card` puts you first on scoring card `kind`
    "hint.plays_cards": ("cards",),  # list of card ids
    "hint.takes_card": ("card",),  # take face-up card `card`
    "hint.chooses_pet": ("card",),
    "hint.declines_pet": (),
    "hint.passes": (),  # keep your pieces (covenant) or your discs (card game's endgame)
}


@dataclass(frozen=True, slots=True)
class Hint:
    """A suggested action and why: ``reason`` is ``(key, params)`` with a key of
    :data:`REASONS`; ``value`` is how much better the position looks after it (the
    evaluation's units: about points), for ordering several hints."""

    action: Any
    reason: tuple[str, dict[str, Any]]
    value: float = 0.0
    alternatives: tuple[Any, ...] = field(default=())

    def __post_init__(self) -> None:
        key, params = self.reason
        if key not in REASONS or set(params) != set(REASONS[key]):
            raise ValueError(f"unknown reason {key!r} with {sorted(params)}")
