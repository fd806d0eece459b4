"""The leaderboard: a server's best players in one game, with their rating, games and wins.

Shared by every game (it shows people, not boards). Names are drawn with the fallback fonts,
so emoji and any script show as written.
"""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image, ImageDraw

from render.i18n import DEFAULT_LANGUAGE, t
from render.style import INK, INK_SOFT, PARCHMENT, PARCHMENT_DARK, clip, draw_text, encode_png, font

WIDTH = 760
ROW = 54
TOP = 96
PAD = 24


def leaderboard_png(
    title: str, rows: Sequence[Sequence[object]], *, language: str = DEFAULT_LANGUAGE
) -> bytes:
    """``rows``: (name, rating, games, wins) each, best first; ``title``: the game's name."""
    height = TOP + ROW * (len(rows) + 1) + PAD
    image = Image.new("RGB", (WIDTH, height), PARCHMENT)
    draw = ImageDraw.Draw(image)
    heading = t("common.picture.leaderboard", language, game=title)
    face = font(32, True)
    draw_text(draw, (PAD, 28), clip(heading, face, WIDTH - 2 * PAD), face, INK)
    columns = (
        (t("common.picture.rank", language), PAD, "la"),
        (t("common.picture.player_column", language), PAD + 60, "la"),
        (t("common.picture.rating", language), WIDTH - 260, "ra"),
        (t("common.picture.games", language), WIDTH - 140, "ra"),
        (t("common.picture.wins", language), WIDTH - PAD, "ra"),
    )
    small = font(20, True)
    for text, x, anchor in columns:
        draw_text(draw, (x, TOP), clip(text, small, 110), small, INK_SOFT, anchor)
    body = font(24)
    for number, (name, rating, games, wins) in enumerate(rows, start=1):
        y = TOP + ROW * number
        if number % 2:
            draw.rectangle([PAD // 2, y - 10, WIDTH - PAD // 2, y + ROW - 14], fill=PARCHMENT_DARK)
        draw_text(draw, (PAD, y), str(number), body, INK)
        shown = clip(str(name), body, WIDTH - 260 - 120 - PAD - 60)
        draw_text(draw, (PAD + 60, y), shown, body, INK)
        for value, x in (
            (f"{float(rating):.0f}", WIDTH - 260),
            (games, WIDTH - 140),
            (wins, WIDTH - PAD),
        ):  # type: ignore[arg-type]
            draw_text(draw, (x, y), str(value), body, INK, "ra")
    return encode_png(image)


def leaderboard(title: str, rows: list[list[object]], *, language: str = DEFAULT_LANGUAGE) -> bytes:
    """The painter's entry point (JSON-ready arguments)."""
    return leaderboard_png(title, rows, language=language)
