"""Names of any script are drawn: emoji in colour, CJK, Hangul, Thai... never a box (tofu)."""

from __future__ import annotations

import io

import pytest
from PIL import Image, ImageDraw

import render.covenant as render
from engine.covenant import Game
from render import fonts
from render.style import draw_text, font, text_length

NAMES = [
    "😀gracie😀",
    "👨‍👩‍👧‍👦 family",
    "🇳🇱 Anouk",
    "🤷‍♀️ 👍🏽 1️⃣",
    "김민준",
    "山田太郎",
    "陳大文",
    "สมชาย",
    "देव",
    "𝓰𝓻𝓪𝓬𝓲𝓮",
    "Zoë ❤️",
    "Ωμέγα Дима",
]


def notdef_mask(name: str, size: int) -> bytes:
    """What the font ``name`` draws for a character it does not have (its .notdef box)."""
    face = fonts.face(name, size)
    return bytes(face.getmask("\U0010fffd"))


@pytest.mark.parametrize("name", NAMES)
def test_every_character_of_a_name_has_a_font(name: str) -> None:
    for run in fonts.runs(name):
        if run.font == "emoji":
            assert run.emoji >= 0
            continue
        covered = fonts.coverage(run.font)
        assert all(ord(c) in covered for c in run.text), (name, run)
        assert fonts.MISSING not in run.text, (name, run)


def test_sequences_are_one_emoji_and_text_symbols_stay_text() -> None:
    family = fonts.runs("👨‍👩‍👧‍👦")
    assert [r.font for r in family] == ["emoji"]
    assert [r.font for r in fonts.runs("🇳🇱")] == ["emoji"]
    assert [r.font for r in fonts.runs("1️⃣")] == ["emoji"]
    assert [r.font for r in fonts.runs("👍🏽")] == ["emoji"]
    # Digits, © and # are emoji only when asked (VS16, a keycap); alone they are text.
    assert fonts.runs("©2024 #1") == (fonts.Run(fonts.MAIN[False], "©2024 #1"),)
    # Fancy letters are drawn as the letters they are.
    assert fonts.runs("𝓰𝓻𝓪𝓬𝓲𝓮") == (fonts.Run(fonts.MAIN[False], "gracie"),)


def test_emoji_are_drawn_in_colour_and_latin_text_as_before() -> None:
    image = Image.new("RGB", (200, 40), (255, 255, 255))
    draw_text(ImageDraw.Draw(image), (4, 4), "😀 hi", font(24), (0, 0, 0))
    colours = {image.getpixel((x, y)) for x in range(4, 34) for y in range(4, 36)}
    assert any(r > 200 and g > 150 and b < 100 for r, g, b in colours)  # the yellow face
    plain = Image.new("RGB", (200, 40), (255, 255, 255))
    ImageDraw.Draw(plain).text((4, 4), "Ruth", font=font(24), fill=(0, 0, 0))
    ours = Image.new("RGB", (200, 40), (255, 255, 255))
    draw_text(ImageDraw.Draw(ours), (4, 4), "Ruth", font(24), (0, 0, 0))
    assert plain.tobytes() == ours.tobytes()
    assert text_length("😀 hi", font(24)) > font(24).getlength(" hi") + 20


def test_the_fallback_fonts_are_small_and_licensed() -> None:
    shipped = {p.name: p.stat().st_size for p in fonts.FONT_DIR.iterdir()}
    made = [fonts.CJK, *fonts.SCRIPTS, fonts.EMOJI_ATLAS, fonts.EMOJI_INDEX]
    assert all(name in shipped for name in made)
    assert sum(shipped[name] for name in made) < 4_500_000
    licence = (fonts.FONT_DIR / "LICENSE-Noto.txt").read_text()
    assert "SIL OPEN FONT LICENSE Version 1.1" in licence
    assert all(name in licence for name in made)
    # The CJK subset holds the common characters of all three languages.
    cjk = fonts.coverage(fonts.CJK)
    assert all(
        ord(c) in cjk for c in "的是不了人我在有他这陳張劉黃林山田太郎김이박최정ひらがなカタカナ"
    )
    assert len(fonts.emoji_set().cells) > 3900


def test_a_board_with_emoji_and_cjk_names_has_no_boxes() -> None:
    """The card of each player shows their name: emoji in colour, Hangul drawn (issue 11)."""
    game = Game.new(players=3, seed=1)
    png = render.board_png(game, names=["😀gracie😀", "김민준", "สมชาย"])
    image = Image.open(io.BytesIO(png)).convert("RGB")
    layout = render.board_layout(game)
    x0, y0, x1, _ = layout.panel
    card = image.crop((x0 + 78, y0 + 196 + 8, x1 - 60, y0 + 196 + 40))
    pixels = [card.getpixel((x, y)) for x in range(card.width) for y in range(card.height)]
    yellow = sum(1 for r, g, b in pixels if r > 200 and g > 150 and b < 90)
    assert yellow > 20  # the faces are yellow, even through the PNG palette
    # No .notdef box of any font: draw the names alone and compare with the boxes' shape.
    for name in ["김민준", "สมชาย", "山田太郎"]:
        for run in fonts.runs(name):
            face = fonts.face(run.font, 24)
            for char in run.text:
                assert bytes(face.getmask(char)) != notdef_mask(run.font, 24), char
