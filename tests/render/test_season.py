"""A season's pictures in every language: the standings after a round, the podium at the
end, and their words in every catalogue."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from render.i18n import catalogue, t
from render.season import (
    HEADING_SIZES,
    NOTE_SIZE,
    ROW,
    TITLE_SIZES,
    WIDTH,
    podium_png,
    points_text,
    standings_png,
)
from render.style import phone_text

LANGUAGES = ("en", "nl", "es", "es-419")
ROWS = [
    [1, "Ruth van der Berg-Jansen 🎲", [12, 8], 20, False],
    [2, "Boaz", [6, 10], 16, False],
    [2, "Maximiliano Fernández", [8, 8], 16, True],
    [4, "Noa", [4, 6.5], 10.5, False],
    [5, "Jesse", [None, 0], 0, False],
]


def test_every_word_is_said_in_every_language() -> None:
    english = catalogue("season", "en")
    assert english
    for language in ("nl", "es"):
        assert set(catalogue("season", language)) == set(english)
    assert set(catalogue("season", "es-419")) < set(english)


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        ("en", "2 games are still being played: they count when they end."),
        ("nl", "Er worden nog 2 spellen gespeeld: ze tellen mee zodra ze afgelopen zijn."),
        ("es", "Aún se están jugando 2 partidas: contarán cuando terminen."),
    ],
)
def test_the_note_on_games_still_played(language: str, expected: str) -> None:
    assert t("season.picture.still_playing", language, count=2) == expected


@pytest.mark.parametrize(
    ("language", "count", "expected"),
    [
        ("en", 0, "No member is free this round, and a table needs at least 3"),
        ("en", 2, "Only 2 members are free this round, and a table needs at least 3"),
        ("nl", 1, "Deze ronde is maar 1 lid vrij, en een tafel heeft er minstens 3 nodig"),
        ("es", 2, "Esta ronda solo hay 2 miembros libres y cada mesa necesita al menos 3"),
        ("es-419", 1, "Esta ronda solo hay 1 miembro libre y cada mesa necesita al menos 3"),
    ],
)
def test_too_few_free_members_is_said(language: str, count: int, expected: str) -> None:
    said = t("season.round.too_few", language, count=count, fewest=3)
    assert said.startswith(expected + ":")


def test_the_smallest_text_is_readable_on_a_phone() -> None:
    assert min(*HEADING_SIZES, *TITLE_SIZES, NOTE_SIZE) >= phone_text(WIDTH)


def test_latin_america_says_it_in_the_simple_past() -> None:
    assert t("season.picture.left", "es") == "se ha retirado"
    assert t("season.picture.left", "es-419") == "se retiró"


@pytest.mark.parametrize(
    ("value", "language", "expected"),
    [
        (12.0, "en", "12"),
        (7.5, "en", "7.5"),
        (7.5, "nl", "7,5"),
        (7.5, "es", "7,5"),
        (None, "en", "–"),
    ],
)
def test_points_are_written_as_the_reader_writes_them(
    value: object, language: str, expected: str
) -> None:
    assert points_text(value, language) == expected


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_standings_picture_has_a_row_per_member(language: str) -> None:
    picture = Image.open(
        io.BytesIO(
            standings_png("Ark", ROWS, round_number=2, rounds=3, playing=1, language=language)
        )
    )
    assert picture.width == WIDTH
    assert picture.height == 146 + ROW * (len(ROWS) + 1) + 12


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_podium_is_drawn_above_the_final_standings(language: str) -> None:
    rows = [[*row[:2], [*row[2], 4], float(row[3]) + 4, row[4]] for row in ROWS]  # type: ignore[arg-type]
    plain = Image.open(
        io.BytesIO(standings_png("Ark", rows, round_number=3, rounds=3, language=language))
    )
    picture = Image.open(io.BytesIO(podium_png("Ark", rows, rounds=3, language=language)))
    assert picture.width == WIDTH and picture.height > plain.height + 200
