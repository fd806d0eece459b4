"""A card's features said of the card: in Spanish its diet and kind agree with its gender
and number, for every card (issue 42.2), and a card too heavy for the ark is said in one
sentence with one colon."""

from __future__ import annotations

import pytest

from bot.games.noah.hand import pet_why
from bot.games.noah.turn import _reasons
from bot.games.noah.words import features
from engine.errors import IllegalAction
from engine.noah import CARDS
from render.i18n import grammar, say
from render.noah.words import card_text

#: Spanish endings of an adjective by the noun's grammar.
ENDINGS = {
    "masculine": "o",
    "feminine": "a",
    "masculine_plural": "os",
    "feminine_plural": "as",
}
ADJECTIVES = ("herbívor", "carnívor", "omnívor", "pesad", "lent", "tímid")

ANIMALS = [c for c, card in enumerate(CARDS) if card.kind != "rain"]


def named(slug: str) -> int:
    return next(c for c in ANIMALS if card_text(c).key == f"noah.card.{slug}")


@pytest.mark.parametrize("language", ["es", "es-419"])
def test_every_cards_features_agree_with_it_in_spanish(language: str) -> None:
    checked = 0
    for card in ANIMALS:
        gender = grammar(card_text(card), language)
        said = say(features(card), language)
        # "peso 3, clima cálido, herbívora, pesada[, ! ...]": the diet and the kind.
        for word in said.split(", ")[2:4]:
            stem = next((a for a in ADJECTIVES if word.startswith(a)), None)
            if stem is not None:
                assert word == stem + ENDINGS[gender], (say(card_text(card), language), said)
                checked += 1
        if CARDS[card].kind == "useful":
            assert ("útiles" in said) == gender.endswith("plural"), said
    assert checked > len(ANIMALS)  # every animal has a diet, most a kind too


def test_the_giraffe_the_walrus_and_the_cow_in_spanish() -> None:
    assert say(features(named("giraffe")), "es") == "peso 3, clima cálido, herbívora, pesada"
    assert say(features(named("walrus")), "es").split(", ")[2] == "carnívora"
    assert say(features(named("cow")), "es").split(", ")[2] == "herbívora"
    assert say(features(named("sheep")), "es").split(", ")[2] == "herbívora"
    assert say(features(named("lion")), "es").split(", ")[2] == "carnívoro"
    # English and Dutch say the same words as before.
    assert say(features(named("giraffe")), "en") == "weight 3, hot, herbivore, heavy"
    assert say(features(named("giraffe")), "nl").endswith("planteneter, zwaar")


def test_a_pets_reason_agrees_with_the_card() -> None:
    assert say(pet_why(named("cow")), "es") == "peso 3, demasiado pesada"
    assert say(pet_why(named("cow")), "en") == "weight 3 is too heavy"


def test_a_card_too_heavy_for_the_ark_is_one_sentence_with_one_colon() -> None:
    cow = named("cow")
    tip = IllegalAction("would_tip", card=cow, lean=3, towards="port", most=2)
    said = {lang: say(_reasons({cow: tip})[0], lang) for lang in ("en", "nl", "es", "es-419")}
    assert said == {
        "en": "The Cow cannot go anywhere now: it is too heavy and would tip the ark "
        "(it would lean 3 to port, and 2 is the most it takes).",
        "nl": "De Koe kan nu nergens heen: hij is te zwaar en zou de ark laten kapseizen "
        "(de ark zou 3 naar bakboord hellen en kan er hooguit 2 aan).",
        "es": "La Vaca no cabe en ningún sitio ahora: es demasiado pesada y el arca volcaría "
        "(se inclinaría 3 casillas a babor, y 2 es lo máximo que aguanta).",
        "es-419": "La Vaca no cabe en ningún lugar ahora: es demasiado pesada y el arca "
        "volcaría (se inclinaría 3 casillas a babor, y 2 es lo máximo que aguanta).",
    }
    pig = IllegalAction("would_tip", card=named("pig"), lean=3, towards="port", most=2)
    assert "nergens heen: het is te zwaar en zou de ark" in say(_reasons({cow: pig})[0], "nl")


def test_a_previews_lines_never_begin_with_a_space() -> None:
    """Issue 40.11: " It drives out the Kangaroo." began with a space when nothing was
    taken. Seed 0, nine random moves in: a card that drives out the Gazelle, taking nothing."""
    import random

    from bot.games.base import Seen
    from bot.games.noah.plan import Plan
    from bot.games.noah.turn import _preview_panel
    from engine.noah import Game, PlayCards

    game = Game.new(players=3, seed=0)
    pick = random.Random(0)
    for _ in range(9):
        game.apply(pick.choice(game.legal_actions()))
    play = next(
        a
        for a in game.legal_actions()
        if isinstance(a, PlayCards) and len(a.placements) == 1 and a.placements[0].drive_out
    )
    placement = play.placements[0]
    assert placement.take is None and card_text(placement.drive_out).key == "noah.card.gazelle"
    seen = Seen(game, game.current_player, ("Ruth", "Boaz", "Miriam"), game.turn, {})
    panel = _preview_panel(seen, Plan((), (placement,), None))
    for language, line in (
        ("en", "It drives out the Gazelle."),
        ("nl", "De Gazelle wordt verjaagd."),
        ("es", "Expulsa a la Gacela."),
    ):
        said = [say(text, language) for text in panel.lines]
        assert line in said, said
        assert not any(s.startswith(" ") for s in said)
