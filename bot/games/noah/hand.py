"""A player's own hand, privately: the hand panel (at any time) and the choice of a pet
from it after the second rain card (the cards that would score are marked)."""

from __future__ import annotations

from bot.games.base import Seen
from bot.games.noah.pictures import hand_picture
from bot.games.noah.words import card_text, feature_text, scoring_text
from bot.games.noah.words import noah_text as _t
from bot.panels import Button, Control, Option, Panel, Refusal, Select, Text
from engine.noah import CARDS, Game
from engine.noah.queries import card_choices, pet_choices

SELECT_PAGE = 25  # Discord's limit of options in one menu


def hand_line(game: Game, seat: int) -> Text:
    hand = game.hand(seat)
    if not hand:
        return _t("turn.hand_empty")
    return _t("turn.hand", count=len(hand), cards=tuple(card_text(c) for c in hand))


def pet_panel(seen: Seen, chosen: int | None = None) -> Panel:
    """The pet's choice, or (``chosen``) its confirmation."""
    game: Game = seen.game
    assert seen.seat is not None
    marked = pet_choices(game)
    if chosen is not None:
        scores = dict(marked).get(chosen)
        if scores is None:
            raise Refusal("noah.turn.no_such_card", card=str(chosen))
        key = "turn.pet_confirm" if scores else "turn.pet_confirm_no_score"
        line = _t(key, card=card_text(chosen), kind=scoring_text(CARDS[chosen].kind or "none"))
        buttons = (
            Button("petok", (str(chosen),), _t("button.pet_ok"), style="success", emoji="✅"),
            Button("back", (), _t("button.back"), emoji="↩️"),
        )
        return Panel((line,), (hand_picture(game, seen.seat, {chosen: True}),), buttons)
    lines = [_t("turn.pet_intro"), hand_line(game, seen.seat)]
    options: list[Option] = []
    for card, scores in marked:
        if any(o.value == str(card) for o in options):
            continue
        options.append(
            Option(
                _t("turn.pet_option", card=card_text(card), scores="yes" if scores else "no"),
                str(card),
                _t(
                    "turn.pet_scores" if scores else "turn.pet_no_score",
                    why=pet_why(card),
                ),
            )
        )
    controls: list[Control] = []
    if options:
        controls.append(
            Select("pet", tuple(options[:SELECT_PAGE]), (), _t("turn.pet_placeholder"), row=0)
        )
    controls.append(Button("nopet", (), _t("button.no_pet"), row=1))
    pictures = (hand_picture(game, seen.seat, dict(marked)),)
    return Panel(tuple(lines), pictures, tuple(controls))


def pet_why(card: int) -> Text:
    found = CARDS[card]
    if found.is_provision:
        return _t("pet_why.provision")
    if found.special:
        return _t("pet_why.special")
    if found.weight > 2:
        return _t("pet_why.heavy", weight=found.weight, card=card_text(card))
    return feature_text(card, found.kind or "no_kind")


def hand_panel(seen: Seen) -> Panel:
    """A seated player's own hand and pet, privately, at any time."""
    game: Game = seen.game
    if seen.seat is None:
        raise Refusal("table.turn.stranger")
    lines = [hand_line(game, seen.seat)]
    pet = game.pet(seen.seat)
    if pet is not None:
        lines.append(_t("turn.your_pet", card=card_text(pet)))
    lines.append(_t("turn.discs", discs=game.discs[seen.seat]))
    marks = (
        {c: r is None for c, r in card_choices(game).items()}
        if (game.current_player == seen.seat and game.phase in ("play", "endgame"))
        else {}
    )
    return Panel(tuple(lines), (hand_picture(game, seen.seat, marks),))
