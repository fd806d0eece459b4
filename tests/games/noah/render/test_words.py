"""Every word of Ark's pictures fits its place in every language, with the longest names:
the same checks as the Covenant pictures (:mod:`tests.support.fit`)."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

import pytest
from PIL import Image, ImageDraw

import render.noah as render
from engine.common import Rng
from engine.noah import CARDS, Game, PlayCards
from render.noah.cards import draw_card
from render.noah.pictures import CABIN_PAD, CABIN_W, CARD_GAP, M, W
from tests.support.fit import Pictures

LANGUAGES = ("en", "nl", "es", "es-419")
#: One card of each name (the rain cards are never drawn as cards).
ANIMALS = list({c.name: c.id for c in CARDS if c.kind != "rain"}.values())


def until(players: int, seed: int, done: Callable[[Game], bool]) -> Game:
    game, rng = Game.new(players=players, seed=seed), Rng(seed)
    while game.phase != "over" and not done(game):
        game.apply(game.sample_action(rng))
    return game


@pytest.fixture(scope="module")
def games() -> dict[str, Game]:
    """A table early, mid-game, at the pet choice, in the endgame and over; five players."""
    return {
        "early": until(3, 1, lambda g: g.turn > 3),
        "mid": until(4, 2, lambda g: g.turn > 20 and g.phase == "play"),
        "pet": until(5, 3, lambda g: g.phase == "pet"),
        "endgame": until(4, 4, lambda g: g.phase == "endgame" and any(map(g.has_passed, range(4)))),
        "over": until(5, 5, lambda g: False),
        "over three": until(3, 6, lambda g: False),
        # Every special animal on the ark, in full cabins.
        "specials": Game.arranged(
            5,
            port=[["Fox", "Turtle", "Hedgehog"], ["Skunk", "Sheep"]],
            starboard=[["Mosquito", "Spider", "Cat"], ["Chimpanzee", "Bronto"]],
            face_up=["Hippopotamus", "Polar bear", "Rhinoceros"],
        ),
    }


def two_cards(game: Game) -> PlayCards:
    plays = [a for a in game.legal_actions() if isinstance(a, PlayCards)]
    return max(plays, key=lambda a: len(a.placements))


def every_picture(games: dict[str, Game], names: list[str], language: str) -> dict[str, Callable]:
    """Every picture of Ark, drawn in ``language`` for players called ``names``."""
    mid = games["mid"]
    drawn: dict[str, Callable] = {
        f"board {name}": partial(
            render.board, game.view(None), names[: game.players], language=language
        )
        for name, game in games.items()
    }
    shown = mid.preview(two_cards(mid).placements)
    drawn |= {
        "preview": partial(render.preview, shown.view(None), names[:4], language=language),
        "final": partial(render.final, games["over"].view(None), names, language=language),
        "final three": partial(
            render.final, games["over three"].view(None), names[:3], language=language
        ),
        "rules board": partial(render.rules_board, language=language),
        "rules key": partial(render.rules_key, language=language),
    }
    # Every card as a pet of five players (the narrowest columns): the ones that do not
    # score are marked, and no name is cut for the mark.
    over = games["over"].view(None)
    drawn |= {
        f"final with the pets {pets}": partial(
            render.final, {**over, "pets": pets}, names, language=language
        )
        for pets in ((ANIMALS * 2)[i : i + 5] for i in range(0, len(ANIMALS), 5))
    }
    for name, game in games.items():
        if game.phase == "over":
            continue
        seat = game.current_player
        hand = list(game.hand(seat))
        marks = {str(card): i % 2 == 0 for i, card in enumerate(hand)}
        drawn[f"hand {name}"] = partial(
            render.hand, hand, marks, game.pet(seat), game.phase, language=language
        )
    every = ANIMALS
    drawn |= {
        "hand of every card": partial(render.hand, every, {}, every[0], language=language),
        "pet choice": partial(
            render.hand,
            every[:6],
            {str(c): c % 2 == 0 for c in every[:6]},
            None,
            "pet",
            language=language,
        ),
        "empty hand": partial(render.hand, [], {}, None, "play", language=language),
    }
    return drawn


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_picture_keeps_its_words_in_every_language(
    pictures: Pictures, games: dict[str, Game], language: str
) -> None:
    """Long names and the longest words of each language: nothing cut but names, nothing
    outside its picture, no text over another."""
    pictures.check_all(lambda names: every_picture(games, names, language), language)


#: The widths a card is drawn at: a cabin, the face-up row, the hand, the key.
CARD_WIDTHS = {
    "cabin": CABIN_W - 2 * CABIN_PAD,
    "face up": (W - 2 * M - 2 * 8) / 3,
    "hand": (W - 2 * M - 10) / 2 - 28,
    "key": 300,
}


def every_card(width: float, height: float, language: str) -> Image.Image:
    ids = ANIMALS
    image = Image.new("RGB", (round(width) + 20, len(ids) * round(height + CARD_GAP) + 20))
    draw = ImageDraw.Draw(image)
    for i, card in enumerate(ids):
        top = 10 + i * (height + CARD_GAP)
        draw_card(draw, (10, top, 10 + width, top + height), card, language)
    return image


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_card_keeps_its_words_wherever_it_is_drawn(pictures: Pictures, language: str) -> None:
    for place, width in CARD_WIDTHS.items():
        height = 88 if place == "face up" else 66
        found = pictures.problems(partial(every_card, width, height, language), [])
        assert found == [], place


def test_the_lean_above_the_scale_says_the_side_in_lower_case() -> None:
    """Issue 42.3: the capitalised label under the scale ("Bakboord") is not the word of a
    sentence ("Helt 1 naar bakboord")."""
    from render.noah.pictures import lean_caption

    assert lean_caption(-1, "nl") == "Helt 1 naar bakboord"
    assert lean_caption(2, "en") == "Leans 2 to starboard"
    assert lean_caption(1, "es") == "Se inclina 1 casilla a estribor"
    assert lean_caption(-2, "es-419") == "Se inclina 2 casillas a babor"
    assert lean_caption(0, "es") == "Recta"
