"""The leaderboard picture in every language: headings whole, columns apart."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from render.i18n import t
from render.leaderboard import NAME_X, WIDTH, columns, leaderboard_png

LANGUAGES = ("en", "nl", "es", "es-419")
ROWS = [
    ["Ruth van der Berg-Jansen 🎲", 1532.6, 128, 77],
    ["Boaz", 1016, 1, 1],
    ["Maximiliano Fernández", 987.4, 1000, 999],
]
HEADINGS = ("rank", "player_column", "rating", "games", "wins")


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_heading_is_shown_whole_and_the_columns_do_not_touch(language: str) -> None:
    shown, names = columns(ROWS, language)
    assert [c.text for c in shown] == [t(f"common.picture.{k}", language) for k in HEADINGS]
    assert names >= 200  # the names keep most of the room
    edges = [NAME_X + names] + [c.x for c in shown[2:-1]]
    lefts = [c.x - c.width for c in shown[2:]]
    assert all(left > edge for left, edge in zip(lefts, edges, strict=True))
    assert shown[-1].x <= WIDTH


def test_english_keeps_its_columns() -> None:
    shown, names = columns(ROWS, "en")
    assert [c.x for c in shown[2:]] == [WIDTH - 260, WIDTH - 140, WIDTH - 24] and names == 296


def test_dutchs_longer_words_move_the_columns_left() -> None:
    shown, _ = columns(ROWS, "nl")
    assert shown[-1].text == "Gewonnen" and shown[3].x < WIDTH - 140


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_picture_is_drawn(language: str) -> None:
    picture = Image.open(io.BytesIO(leaderboard_png("Ark", ROWS, language=language)))
    assert picture.width == WIDTH and picture.height > 200
