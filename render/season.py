"""A season's pictures: the standings when a round closes, and the podium at the end.

They look like the ratings table (:mod:`render.leaderboard`): parchment, ink, a striped row
per member, drawn 760 px wide so that the smallest text is still 10 px on a phone 400 px wide.
A row arrives JSON-ready from the bot's process: ``[place, name, [points per round, None
where no game has ended], total, left]`` (``Standing.picture_row()`` in
``bot.service.season.standings``).
Points are shown with the reader's decimal sign (a tie can give half a point).
"""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image, ImageDraw

from render.i18n import DEFAULT_LANGUAGE, number_text, t
from render.style import (
    GOLD,
    INK,
    INK_SOFT,
    PARCHMENT,
    PARCHMENT_DARK,
    RGB,
    clip,
    draw_text,
    encode_png,
    fitting,
    font,
    text_length,
)

WIDTH = 760
ROW = 50
PAD = 24
#: Where the names start (after the place).
NAME_X = PAD + 56
#: The right edge of the total and the width of each round's column before it.
TOTAL_RIGHT = WIDTH - PAD
TOTAL_WIDTH = 108
ROUND_WIDTH = 66
#: The most rounds shown as columns: the latest ones (the total counts them all).
ROUNDS_SHOWN = 5
HEADING_SIZES = (20, 18)
#: The smallest text: the mark beside a member who left, the note under the title.
NOTE_SIZE = 18
#: A title may shrink further than the leaderboard's: "Clasificación de la temporada: ..."
#: holds the game's name too (20 px is still 10 px on a phone).
TITLE_SIZES = (32, 28, 24, 22, 20)
#: Second and third place on the podium (first is the picture's gold).
SILVER: RGB = (178, 178, 186)
BRONZE: RGB = (196, 132, 72)
#: The most names written on one step of the podium (more tied: "+2").
ON_STEP = 3

Row = Sequence[object]


def points_text(value: object, language: str) -> str:
    """Points as the reader writes them: whole as "12", a tie's half as "7.5" / "7,5";
    "–" where no game of that round has ended."""
    if value is None:
        return "–"
    number = float(value)  # type: ignore[arg-type]  # a JSON number
    return number_text(int(number) if number.is_integer() else number, language)


def _columns(rounds: int) -> tuple[list[int], int]:
    """The shown rounds (numbers from 1) and the x where their columns start."""
    first = max(1, rounds - ROUNDS_SHOWN + 1)
    shown = list(range(first, rounds + 1))
    return shown, TOTAL_RIGHT - TOTAL_WIDTH - ROUND_WIDTH * len(shown)


def _table(
    draw: ImageDraw.ImageDraw, top: int, rows: Sequence[Row], rounds: int, language: str
) -> None:
    """The headings at ``top`` and a row per member under them."""
    shown, left = _columns(rounds)
    names_width = left - NAME_X - 12
    headings = [
        (PAD, t("common.picture.rank", language), "la", NAME_X - PAD - 8),
        (NAME_X, t("common.picture.player_column", language), "la", names_width),
        *(
            (
                left + ROUND_WIDTH * (i + 1),
                t("season.picture.round_short", language, number=n),
                "ra",
                ROUND_WIDTH - 8,
            )
            for i, n in enumerate(shown)
        ),
        (TOTAL_RIGHT, t("season.picture.points", language), "ra", TOTAL_WIDTH - 8),
    ]
    for x, text, anchor, width in headings:
        face = fitting(text, width, HEADING_SIZES, bold=True)
        draw_text(draw, (x, top), clip(text, face, width), face, INK_SOFT, anchor)
    body, bold, note = font(24), font(24, bold=True), font(NOTE_SIZE)
    for number, (place, name, per_round, total, left_season) in enumerate(rows, start=1):
        y = top + ROW * number
        if number % 2:
            draw.rectangle([PAD // 2, y - 10, WIDTH - PAD // 2, y + ROW - 14], fill=PARCHMENT_DARK)
        colour = INK_SOFT if left_season else INK
        draw_text(draw, (PAD, y), str(place), body, colour)
        label = str(name)
        if left_season:
            # Who left keeps their points and their place, marked so nobody waits for them.
            mark = t("season.picture.left", language)
            room = names_width - text_length(mark, note) - 8
            label = clip(label, body, room)
            draw_text(draw, (NAME_X + text_length(label, body) + 8, y + 5), mark, note, INK_SOFT)
        draw_text(draw, (NAME_X, y), clip(label, body, names_width), body, colour)
        values = list(per_round)  # type: ignore[call-overload]  # a JSON list
        for i, n in enumerate(shown):
            value = values[n - 1] if n - 1 < len(values) else None
            draw_text(
                draw,
                (left + ROUND_WIDTH * (i + 1), y),
                points_text(value, language),
                body,
                colour,
                "ra",
            )
        draw_text(draw, (TOTAL_RIGHT, y), points_text(total, language), bold, colour, "ra")


def _heading(draw: ImageDraw.ImageDraw, title: str, subtitle: str, note: str | None) -> int:
    """The title, the line under it and a note (games still being played); where the table
    starts below them."""
    face = fitting(title, WIDTH - 2 * PAD, TITLE_SIZES, bold=True)
    draw_text(draw, (PAD, 26), clip(title, face, WIDTH - 2 * PAD), face, INK)
    small = fitting(subtitle, WIDTH - 2 * PAD, (22, 20, NOTE_SIZE))
    draw_text(draw, (PAD, 70), clip(subtitle, small, WIDTH - 2 * PAD), small, INK_SOFT)
    if note is None:
        return 118
    face = fitting(note, WIDTH - 2 * PAD, (20, NOTE_SIZE))
    draw_text(draw, (PAD, 100), clip(note, face, WIDTH - 2 * PAD), face, INK_SOFT)
    return 146


def standings_png(
    title: str,
    rows: Sequence[Row],
    *,
    round_number: int,
    rounds: int,
    playing: int = 0,
    language: str = DEFAULT_LANGUAGE,
) -> bytes:
    """The standings after round ``round_number`` of ``rounds``, best first; ``title``: the
    game's name; ``playing``: how many of the season's games are still being played."""
    note = t("season.picture.still_playing", language, count=playing) if playing else None
    top = 146 if note else 118
    image = Image.new("RGB", (WIDTH, top + ROW * (len(rows) + 1) + PAD // 2), PARCHMENT)
    draw = ImageDraw.Draw(image)
    _heading(
        draw,
        t("season.picture.standings", language, game=title),
        t("season.picture.after_round", language, round=round_number, rounds=rounds),
        note,
    )
    _table(draw, top, rows, round_number, language)
    return encode_png(image, flat=True)


#: The podium's steps: (place, x of the step's centre, its height, colour); second on the
#: left, first in the middle, third on the right, as on any sports podium.
STEP_WIDTH = 220
STEPS = (
    (2, WIDTH // 2 - STEP_WIDTH, 122, SILVER),
    (1, WIDTH // 2, 150, GOLD),
    (3, WIDTH // 2 + STEP_WIDTH, 96, BRONZE),
)
PODIUM_TOP = 110
PODIUM_FLOOR = PODIUM_TOP + 3 * 34 + 150 + 12


def podium_png(
    title: str, rows: Sequence[Row], *, rounds: int, language: str = DEFAULT_LANGUAGE
) -> bytes:
    """The season's end: the first three places on a podium (members who tie stand on the
    same step), then the whole final standings."""
    table_top = PODIUM_FLOOR + 40
    image = Image.new("RGB", (WIDTH, table_top + ROW * (len(rows) + 1) + PAD // 2), PARCHMENT)
    draw = ImageDraw.Draw(image)
    _heading(
        draw,
        t("season.picture.podium", language, game=title),
        t("season.picture.final", language, rounds=rounds),
        None,
    )
    body, big = font(22, bold=True), font(40, bold=True)
    for place, centre, height, colour in STEPS:
        standing = [row for row in rows if row[0] == place]
        top = PODIUM_FLOOR - height
        draw.rectangle(
            [centre - STEP_WIDTH // 2 + 6, top, centre + STEP_WIDTH // 2 - 6, PODIUM_FLOOR],
            fill=colour,
            outline=INK,
            width=2,
        )
        if not standing:
            continue  # (members who tie for a place leave the next one empty, as in sport)
        draw_text(draw, (centre, top + 8), str(place), big, INK, "ma")
        draw_text(
            draw, (centre, top + 60), points_text(standing[0][3], language), font(22), INK, "ma"
        )
        names = [str(row[1]) for row in standing]
        if len(names) > ON_STEP:
            names = [*names[: ON_STEP - 1], f"+{len(names) - ON_STEP + 1}"]
        for i, name in enumerate(reversed(names)):
            y = top - 34 * (i + 1)
            draw_text(draw, (centre, y), clip(name, body, STEP_WIDTH - 16), body, INK, "ma")
    draw.line([PAD, PODIUM_FLOOR, WIDTH - PAD, PODIUM_FLOOR], fill=INK, width=2)
    _table(draw, table_top, rows, rounds, language)
    return encode_png(image, flat=True)


def standings(
    title: str, rows: list[list[object]], options: dict[str, int], *, language: str
) -> bytes:
    """The painter's entry point (JSON-ready arguments; ``options``: ``round_number``,
    ``rounds`` and ``playing``, as :func:`standings_png` takes them)."""
    return standings_png(title, rows, language=language, **options)


def podium(
    title: str, rows: list[list[object]], options: dict[str, int], *, language: str
) -> bytes:
    """The painter's entry point (JSON-ready arguments; ``options``: ``rounds``)."""
    return podium_png(title, rows, language=language, **options)
