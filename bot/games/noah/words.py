"""Ark's cards, cabins and refusals in words (message ids with their values), and its own
messages by their short ids.

The engine names cards by id and sides as ``"port"``/``"starboard"``; these helpers turn
them into :class:`~bot.panels.Text` values the table says in the reader's language.
"""

from __future__ import annotations

from typing import Any

from bot.panels import Refusal, Text
from engine.errors import IllegalAction
from engine.noah import CARDS, KINDS
from render.noah.words import card_text, kind_text, scoring_text, side_text

__all__ = [
    "cabin_text",
    "card_text",
    "feature_text",
    "features",
    "kind_text",
    "noah_text",
    "reason_text",
    "refusal",
    "scoring_text",
    "side_text",
    "tilt_text",
]

#: Refusal params that name a card, a side, a scoring card; rows are said from 1.
_CARD_PARAMS = frozenset(
    {"card", "other", "eater", "provision", "predator", "prey", "carnivore", "victim", "take"}
)
_SIDE_PARAMS = frozenset({"side", "towards"})
_ROW_PARAMS = frozenset({"row", "last", "new"})


def _card(value: Any) -> Any:
    if type(value) is int and 0 <= value < len(CARDS):
        return card_text(value)
    return Text("common.raw", text=str(value)[:20])


def _param(name: str, value: Any) -> Any:
    if name in _CARD_PARAMS:
        return _card(value)
    if name in _SIDE_PARAMS:
        return side_text(value) if value in ("port", "starboard") else Text("common.raw", text="?")
    if name in _ROW_PARAMS and type(value) is int:
        return value + 1
    if name == "half":
        return kind_text(value) if value in KINDS else Text("common.raw", text="?")
    if name == "options":
        return tuple(kind_text(k) for k in value if k in KINDS)
    if name == "face_up":
        return tuple(_card(c) for c in value)
    return value


def reason_text(error: IllegalAction) -> Text:
    """The engine's refusal as a sentence in the reader's language (by its code)."""
    params = {name: _param(name, value) for name, value in error.params.items()}
    return Text(f"noah.illegal.{error.code}", **params)


def refusal(error: IllegalAction) -> Refusal:
    """The engine's refusal, to be told privately."""
    said = reason_text(error)
    return Refusal(said.key, **said.params)


def cabin_text(side: str, row: int, new: bool = False) -> Text:
    """``port cabin 2`` or ``a new starboard cabin 3`` (rows said from 1: the picture's
    numbers; a new cabin's number tells two new cabins of one play apart)."""
    if new:
        return Text("noah.cabin.new", side=side_text(side), row=row + 1)
    return Text("noah.cabin.open", side=side_text(side), row=row + 1)


def tilt_text(tilt: int, then: bool = False) -> Text:
    """How the ark lies: "the ark is level", "the ark leans 2 to port"; ``then`` for what a
    choice would lead to ("then the ark is level"), a sentence of its own in each language
    (Dutch puts the verb before the ark after "daarna")."""
    if tilt == 0:
        return Text("noah.turn.then_level" if then else "noah.turn.tilt_level")
    side = side_text("starboard" if tilt > 0 else "port")
    return Text("noah.turn.then_tilt" if then else "noah.turn.tilt", lean=abs(tilt), side=side)


def noah_text(name: str, **params: Any) -> Text:
    """One of this game's messages by its short id: ``"turn.intro"`` is ``noah.turn.intro``.

    The modules of the front call it ``_t``: the catalogue test finds the ids it is given
    by that name."""
    return Text(f"noah.{name}", **params)


_t = noah_text


def features(card: int) -> Text:
    """A card's features in a few words: weight, climate, diet, kind, its "!"."""
    found = CARDS[card]
    return _t(
        "card_features",
        weight=found.weight,
        climate=_t(f"climate.{found.climate}"),
        diet=feature_text(card, found.diet if found.diet != "none" else "no_diet"),
        kind=feature_text(card, found.kind or "no_kind"),
        special=_t(f"special_hint.{found.special}") if found.special else _t("special_hint.none"),
    )


def feature_text(card: int, feature: str) -> Text:
    """A diet or kind said of ``card``: an adjective agreeing with it where the language
    makes one agree ("la Jirafa, herbívora, pesada")."""
    return _t(f"feature.{feature}", card=card_text(card))
