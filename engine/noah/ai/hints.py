"""Why a move of Ark, the card game, is good, as a hint reason: a message key and its
parameters, never a sentence (the bot says it in the player's language)."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from engine.noah import ChoosePet, Game, Pass, PlayCards, TakeCards
from engine.noah.cards import CARDS, KINDS

#: Every reason key a hint of this game gives, with the names of its parameters: scoring
#: card kinds (``"heavy"``...) and card ids.
REASONS: Mapping[str, tuple[str, ...]] = MappingProxyType(
    {
        "hint.takes_lead": ("kind", "card"),  # `card` puts you first on scoring card `kind`
        "hint.plays_cards": ("cards",),  # list of card ids
        "hint.takes_card": ("card",),  # take face-up card `card`
        "hint.chooses_pet": ("card",),
        "hint.declines_pet": (),
        "hint.passes": (),  # keep your discs (the endgame)
    }
)


def leaders(game: Game, kind: int) -> set[int]:
    """The seats with the most figures on scoring card ``kind`` (none if nobody has one)."""
    counts = [game.figures(s)[KINDS[kind]] for s in range(game.players)]
    top = max(counts)
    return {s for s, c in enumerate(counts) if c == top and c > 0}


def reason_for(game: Game, after: Game, seat: int, action: Any) -> tuple[str, dict[str, Any]]:
    """The reason for ``action`` by ``seat`` in ``game`` (``after``: once it is played)."""
    if isinstance(action, TakeCards):
        return "hint.takes_card", {"card": action.card}
    if isinstance(action, ChoosePet):
        return "hint.chooses_pet", {"card": action.card}
    if isinstance(action, Pass):
        return ("hint.declines_pet", {}) if game.phase == "pet" else ("hint.passes", {})
    assert isinstance(action, PlayCards)
    cards = [p.card for p in action.placements]
    for k in range(len(KINDS)):
        before, now = leaders(game, k), leaders(after, k)
        if seat in now and (seat not in before or len(now) < len(before)):
            # The card that scores there: its own kind's, else one that drives an animal of
            # that kind out or adds an orange disc; never a card with no part in it (the Fox
            # beside a Spider that drove out a shy animal).
            card = next((c for c in cards if _kind_of(c) == k), None)
            if card is None:
                card = next((c for c in cards if CARDS[c].special in _SCORING_SPECIALS), None)
            if card is not None:
                return "hint.takes_lead", {"kind": KINDS[k], "card": card}
    return "hint.plays_cards", {"cards": cards}


#: The "!" animals that put a figure on a scoring card not their own (driving an animal out)
#: or add to one (the Chimpanzee's orange disc).
_SCORING_SPECIALS = ("skunk", "mosquito", "spider", "chimpanzee")


def _kind_of(card: int) -> int:
    from engine.noah.cards import KIND_INDEX

    return KIND_INDEX[card]
