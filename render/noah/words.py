"""The words of Ark's cards, shared by the pictures and the bot's front: message ids only,
so every reader gets them in their language (``data/noah/i18n/<language>.toml``).

A card is named by its id in actions and events; these functions give the message ids of
its name and features. Two copies of a card share a name.
"""

from __future__ import annotations

from engine.noah import CARDS
from render.i18n import DEFAULT_LANGUAGE, Text, t


def slug(card: int) -> str:
    """The card's name as a message id part: ``"Polar bear"`` -> ``"polar_bear"``."""
    return CARDS[card].name.lower().replace(" ", "_")


def card_text(card: int) -> Text:
    """The card's name, to be said in the reader's language."""
    return Text(f"noah.card.{slug(card)}")


def card_name(card: int, language: str = DEFAULT_LANGUAGE) -> str:
    return t(f"noah.card.{slug(card)}", language)


def kind_text(kind: str) -> Text:
    """A scoring card's name (``heavy``, ``useful``, ``slow``, ``shy``, ``provision``)."""
    return Text(f"noah.kind.{kind}")


def scoring_text(kind: str) -> Text:
    """A scoring card named in a sentence ("the heavy card", "de kaart voor zware dieren"):
    each language says it its own way, article and all."""
    return Text(f"noah.scoring_card.{kind}")


def side_text(side: str) -> Text:
    """``port`` or ``starboard``."""
    return Text(f"noah.side.{side}")
