"""A computer's suggestion for Ark in words, for the player on turn alone: never naming a
card that player cannot see."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.games.base import Seen
from bot.games.noah.words import cabin_text, card_text, scoring_text
from bot.games.noah.words import noah_text as _t
from bot.panels import Text
from engine.noah import KINDS, Game
from render.i18n import ListOf


def hint_text(
    seen: Seen, action: Mapping[str, Any], key: str, params: Mapping[str, Any]
) -> list[Text] | None:
    """The computer's suggestion for the player on turn, privately: the reason with the
    cards named (only the player's own, face-up or on the ark), then where each card
    goes. None for a reason this game does not word itself."""
    game: Game = seen.game
    seat = seen.seat if seen.seat is not None else game.current_player
    shown = set(game.hand(seat)) | set(game.face_up) if seat is not None else set()
    shown |= {c for side in game.cabins for cabin in side for c in cabin}

    def card(value: Any) -> Text:
        if type(value) is int and value in shown:
            return card_text(value)
        return _t("hint.some_card")  # never another player's card

    if key == "hint.takes_card":
        lines = [_t("hint.takes_card", card=card(params.get("card")))]
    elif key == "hint.takes_lead":
        kind = params.get("kind")
        lines = [
            _t(
                "hint.takes_lead",
                card=card(params.get("card")),
                kind=scoring_text(kind if kind in KINDS else "none"),
            )
        ]
    elif key == "hint.plays_cards":
        cards = list(params.get("cards") or ())
        lines = [
            _t(
                "hint.plays_cards",
                count=len(cards),
                cards=ListOf(tuple(_t("turn.the_card", card=card(c)) for c in cards), "standard"),
            )
        ]
    elif key == "hint.chooses_pet":
        lines = [_t("hint.chooses_pet", card=card(params.get("card")))]
    elif key == "hint.declines_pet":
        lines = [_t("hint.declines_pet")]
    elif key == "hint.passes":
        lines = [_t("hint.passes")]
    else:
        return None
    if action.get("type") == "play_cards":
        placements = list(action.get("placements") or ())
        named = params.get("card") if key == "hint.takes_lead" else None
        for placement in _named_first(placements, named):
            side, row = placement.get("side"), placement.get("row")
            if side not in ("port", "starboard") or type(row) is not int:
                continue
            new = row >= len(game.cabins[0 if side == "port" else 1])
            placed = {"card": card(placement.get("card")), "cabin": cabin_text(side, row, new)}
            taken = placement.get("take")
            if type(taken) is not int:
                lines.append(_t("hint.placed", **placed))
            elif taken in game.face_up:
                # Opening a cabin takes a face-up card, which the next card may be: the player
                # does not hold it yet, so the hint says where it comes from.
                lines.append(_t("hint.placed_taking", **placed, taken=card_text(taken)))
            else:  # a face-up card not turned up yet: which one is nobody's to know
                lines.append(_t("hint.placed_taking_any", **placed))
    return lines


def _named_first(placements: list[Mapping[str, Any]], named: Any) -> list[Mapping[str, Any]]:
    """The placements with the card the reason names first ("Play the Lion" then "The Lion
    in ..."), unless an earlier one takes it from the face-up row (it is not held before) or
    opens a new cabin on the same side (whose number would then come out of order)."""
    index = next((i for i, p in enumerate(placements) if p.get("card") == named), None)
    if not index:
        return placements
    earlier = placements[:index]
    if any(
        p.get("take") == named or p.get("side") == placements[index].get("side") for p in earlier
    ):
        return placements
    return [placements[index], *earlier, *placements[index + 1 :]]
