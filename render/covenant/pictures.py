"""The smaller pictures: the tile in hand in its four rotations, and the final scoring."""

from __future__ import annotations

from PIL import Image, ImageDraw

from engine.covenant.game import CATEGORIES, Game
from engine.covenant.geometry import ROTATIONS
from engine.covenant.tiles import TILES
from render.covenant import pieces
from render.covenant.colours import CHOICE
from render.covenant.icons import icon
from render.covenant.tileart import sprite
from render.i18n import DEFAULT_LANGUAGE, t
from render.marks import draw_mark
from render.style import (
    GRID_LINE,
    INK,
    INK_SOFT,
    PARCHMENT,
    PARCHMENT_DARK,
    PLAYERS,
    clip,
    draw_text,
    fitting,
    font,
    phone_text,
    player_names,
    sentence,
    wrap,
)

ROTATION_TILE = 200
ROTATION_GAP = 24


def rotations_image(tile_id: str, language: str = DEFAULT_LANGUAGE) -> Image.Image:
    """``tile_id`` turned 0°, 90°, 180° and 270° clockwise, side by side and labelled."""
    if tile_id not in TILES:
        raise ValueError(f"unknown tile {tile_id!r}")
    size, gap = ROTATION_TILE, ROTATION_GAP
    title_h, label_h = 52, 44
    width = gap + len(ROTATIONS) * (size + gap)
    height = title_h + size + label_h + gap // 2
    image = Image.new("RGB", (width, height), PARCHMENT)
    draw = ImageDraw.Draw(image)
    title = t("covenant.picture.rotations_title", language)
    draw_text(
        draw, (gap, 12), clip(title, font(26, True), width - 2 * gap), font=font(26, True), fill=INK
    )
    label_font = font(28, bold=True)
    for i, rotation in enumerate(ROTATIONS):
        x = gap + i * (size + gap)
        image.paste(sprite(tile_id, rotation, size), (x, title_h))
        draw.rectangle([x - 2, title_h - 2, x + size + 1, title_h + size + 1], outline=INK, width=2)
        draw_text(
            draw,
            (x + size // 2, title_h + size + label_h // 2 + 2),
            t("covenant.picture.degrees", language, rotation=rotation),
            font=label_font,
            fill=INK,
            anchor="mm",
        )
    return image


# --------------------------------------------------------------------- final scoring

#: The final scoring's width, and its smallest text: 9 px tall on a phone 400 px wide.
FINAL_WIDTH = 840
SMALLEST = phone_text(FINAL_WIDTH)

_HEADINGS = {
    "road": "covenant.picture.column_road",
    "city": "covenant.picture.column_city",
    "temple": "covenant.picture.column_temple",
    "field": "covenant.picture.column_field",
    "ark": "covenant.picture.column_ark",
    "total": "covenant.picture.column_total",
}


def final_image(
    game: Game, names: list[str] | None = None, language: str = DEFAULT_LANGUAGE
) -> Image.Image:
    """The score breakdown, a column per player (a phone shows a tall table better than a
    wide one) and, below it, the score over the turns."""
    shown = player_names(game.players, names, language)
    width = FINAL_WIDTH
    pad = 24
    head_h, row_h = 112, 52
    label_w = 230
    rows = [*CATEGORIES, "total"]
    table_top = 110
    table_h = head_h + row_h * len(rows)
    chart_top = table_top + table_h + 40
    chart_h = 440
    height = chart_top + chart_h + 70
    image = Image.new("RGB", (width, height), PARCHMENT)
    draw = ImageDraw.Draw(image)
    over = game.phase == "over"
    winners = game.winners if over else ()
    if over:
        title = t("covenant.picture.final_title", language)
    else:
        title = t("covenant.picture.scores_after", language, turn=game.turn)
    draw_text(
        draw, (pad, 18), clip(title, font(40, True), width - 2 * pad), font=font(40, True), fill=INK
    )
    if over:
        key = "covenant.picture.winner_one" if len(winners) == 1 else "covenant.picture.winner_many"
        joiner = t("common.picture.joiner", language)
        points = game.scores[winners[0]]
        face = font(24)
        line = sentence(
            lambda who: t(key, language, winners=joiner.join(who), points=points),
            [shown[s] for s in winners],
            lambda text: face.getlength(text) <= width - 2 * pad,
        )
        draw_text(draw, (pad, 68), clip(line, face, width - 2 * pad), font=face, fill=INK_SOFT)
    col_w = (width - 2 * pad - label_w) // game.players
    right = pad + label_w + col_w * game.players
    draw.rectangle([pad, table_top, right, table_top + head_h], fill=PARCHMENT_DARK)
    for index, name in enumerate(rows):
        y = table_top + head_h + index * row_h
        if index % 2:
            draw.rectangle([pad, y, right, y + row_h], fill=(248, 238, 212))
        label = t(_HEADINGS[name], language)
        face = fitting(label, label_w - 20, (24, 22, 20, SMALLEST), bold=True)
        draw_text(draw, (pad + 12, y + row_h / 2), clip(label, face, label_w - 20), face, INK, "lm")
    heading = t("covenant.picture.column_player", language)
    face = fitting(heading, label_w - 20, (24, 22, 20, SMALLEST), bold=True)
    draw_text(
        draw, (pad + 12, table_top + head_h / 2), clip(heading, face, label_w - 20), face, INK, "lm"
    )
    for seat in range(game.players):
        x = pad + label_w + seat * col_w
        if seat in winners:
            draw.rectangle([x + 2, table_top, x + col_w - 2, table_top + table_h], fill=GOLD_SOFT)
        piece = pieces.legend_piece(seat, 44)
        image.paste(piece, (round(x + (col_w - 44) / 2), table_top + 6), piece)
        star = "★ " if seat in winners else ""
        _name(draw, star + shown[seat], x + col_w / 2, table_top + 56, col_w - 10)
        parts = game.breakdown(seat)
        for index, name in enumerate(rows):
            middle = table_top + head_h + index * row_h + row_h / 2
            value = game.scores[seat] if name == "total" else parts[name]
            face = font(30, True) if name == "total" else font(26)
            colour = INK if value or name == "total" else INK_SOFT
            draw_text(draw, (x + col_w / 2, middle), str(value), face, colour, "mm")
    total_top = table_top + head_h + row_h * (len(rows) - 1)
    draw.line([(pad, total_top), (right, total_top)], fill=INK, width=2)
    draw.rectangle([pad, table_top, right, table_top + table_h], outline=GRID_LINE, width=2)
    box = (pad + 60, chart_top + 40, width - pad - 20, chart_top + chart_h)
    _chart(draw, game, box, language)
    return image


#: The background of a winner's column.
GOLD_SOFT = (250, 236, 170)


def _name(draw: ImageDraw.ImageDraw, name: str, cx: float, top: float, width: float) -> None:
    """A player's name under their piece: on one line, else two, else shortened."""
    for size in (22, 20, SMALLEST):
        face = font(size, True)
        lines = wrap(name, face, width, 2)
        if lines is not None:
            break
    else:
        lines = [clip(name, face, width)]
    for i, line in enumerate(lines):
        draw_text(draw, (cx, top + i * (face.size + 4)), line, face, INK, "ma")


def _chart(
    draw: ImageDraw.ImageDraw,
    game: Game,
    box: tuple[int, int, int, int],
    language: str = DEFAULT_LANGUAGE,
) -> None:
    """Score over the turns: one line per player, with the seat's mark along it."""
    x0, y0, x1, y1 = box
    title = clip(t("covenant.picture.chart_title", language), font(26, True), x1 - x0 + 60)
    draw_text(draw, (x0 - 60, y0 - 44), title, font=font(26, True), fill=INK)
    history = [tuple(0 for _ in range(game.players)), *game.score_history]
    if game.phase == "over" and history[-1] != game.scores:
        # The end-of-game scoring (fields, unfinished features) comes after the last turn.
        history.append(game.scores)
    top = max(10, *(max(row) for row in history))
    step = 10 if top <= 60 else 20 if top <= 140 else 50
    top = -(-top // step) * step
    turns = max(1, len(history) - 1)
    axis_font = font(SMALLEST)
    for value in range(0, top + 1, step):
        y = y1 - (y1 - y0) * value / top
        draw.line([(x0, y), (x1, y)], fill=GRID_LINE, width=1)
        draw_text(draw, (x0 - 10, y), str(value), font=axis_font, fill=INK_SOFT, anchor="rm")
    tick = 10 if turns > 20 else 5 if turns > 8 else 1
    for turn in range(0, turns + 1, tick):
        x = x0 + (x1 - x0) * turn / turns
        draw_text(draw, (x, y1 + 8), str(turn), font=axis_font, fill=INK_SOFT, anchor="ma")
    axis = t("covenant.picture.chart_axis", language)
    draw_text(draw, ((x0 + x1) / 2, y1 + 34), axis, font=axis_font, fill=INK_SOFT, anchor="ma")
    draw.line([(x0, y0), (x0, y1), (x1, y1)], fill=INK, width=2)
    for seat in range(game.players):
        style = PLAYERS[seat]
        points = [
            (x0 + (x1 - x0) * t / turns, y1 - (y1 - y0) * row[seat] / top)
            for t, row in enumerate(history)
        ]
        # A dark edge under each line keeps the yellow one visible on parchment.
        draw.line(points, fill=INK, width=8, joint="curve")
        draw.line(points, fill=style.colour, width=5, joint="curve")
        # Marks along each line tell the players apart without colour.
        every = max(1, len(points) // 6)
        for i in [*range(every, len(points) - 1, every), len(points) - 1]:
            px, py = points[i]
            draw.ellipse(
                [px - 11, py - 11, px + 11, py + 11],
                fill=style.colour,
                outline=style.outline,
                width=2,
            )
            draw_mark(draw, style.mark, px, py, 6, style.mark_colour)


# --------------------------------------------------------------------- the rules' key

KEY_WIDTH = 760
KEY_ROW = 92
KEY_ICON = 72


def _key_rows() -> list[tuple[Image.Image, str]]:
    square = Image.new("RGBA", (KEY_ICON, KEY_ICON), (0, 0, 0, 0))
    d = ImageDraw.Draw(square)
    d.ellipse([6, 6, KEY_ICON - 6, KEY_ICON - 6], fill=CHOICE, outline=(255, 255, 255), width=3)
    draw_text(d, (KEY_ICON / 2, KEY_ICON / 2), "1", font(34, True), (255, 255, 255), "mm")
    return [
        (pieces.follower(0, KEY_ICON), "covenant.picture.key_follower"),
        (pieces.prophet(0, KEY_ICON), "covenant.picture.key_prophet"),
        (pieces.ark(KEY_ICON), "covenant.picture.key_ark"),
        (icon("temple", KEY_ICON), "covenant.picture.key_temple"),
        (icon("scroll", KEY_ICON), "covenant.picture.key_scroll"),
        (icon("oasis", KEY_ICON), "covenant.picture.key_oasis"),
        (icon("sheep", KEY_ICON), "covenant.picture.key_sheep"),
        (icon("wolf", KEY_ICON), "covenant.picture.key_wolf"),
        (square, "covenant.picture.key_spot"),
    ]


def key_image(language: str = DEFAULT_LANGUAGE) -> Image.Image:
    """The key of the pictures' icons and how squares are named, one per row, big enough to
    read on a phone."""
    rows = _key_rows()
    pad = 20
    title_h = 64
    square_h = 120
    height = title_h + len(rows) * KEY_ROW + square_h + pad
    image = Image.new("RGB", (KEY_WIDTH, height), PARCHMENT)
    draw = ImageDraw.Draw(image)
    title = t("covenant.picture.key_title", language)
    face = fitting(title, KEY_WIDTH - 2 * pad, (36, 32, 28), bold=True)
    draw_text(draw, (pad, 16), clip(title, face, KEY_WIDTH - 2 * pad), face, INK)
    text_x = pad + KEY_ICON + 20
    room = KEY_WIDTH - text_x - pad
    for i, (picture, key) in enumerate(rows):
        y = title_h + i * KEY_ROW
        if i % 2:
            draw.rectangle([0, y, KEY_WIDTH, y + KEY_ROW], fill=(248, 238, 212))
        image.paste(picture, (pad, y + (KEY_ROW - picture.height) // 2), picture)
        _key_text(draw, t(key, language), text_x, y + KEY_ROW // 2, room)
    # How squares are named: a little grid around the start tile.
    y = title_h + len(rows) * KEY_ROW + 10
    cell = 44
    from engine.covenant.notation import column_name, row_name

    for c in range(3):
        draw_text(
            draw,
            (pad + 30 + c * cell + cell / 2, y + 12),
            column_name(c - 1),
            font(18, True),
            INK,
            "mm",
        )
    for r in range(2):
        draw_text(
            draw, (pad + 12, y + 24 + r * cell + cell / 2), row_name(r), font(18, True), INK, "mm"
        )
        for c in range(3):
            box = [
                pad + 30 + c * cell,
                y + 24 + r * cell,
                pad + 30 + (c + 1) * cell - 2,
                y + 24 + (r + 1) * cell - 2,
            ]
            draw.rectangle(
                box, fill=PARCHMENT_DARK if (c, r) != (1, 0) else (226, 160, 98), outline=GRID_LINE
            )
    _key_text(
        draw, t("covenant.picture.key_squares", language), text_x + 90, y + 24 + cell, room - 90
    )
    return image


def _key_text(draw: ImageDraw.ImageDraw, text: str, x: int, cy: int, width: int) -> None:
    """A key's words centred on ``cy``: on one line, else two, else smaller."""
    for size in (28, 26, 24, 22, 20):
        face = font(size)
        lines = wrap(text, face, width, 2)
        if lines is not None:
            break
    else:
        lines = [clip(text, face, width)]
    step = face.size + 6
    top = cy - step * (len(lines) - 1) / 2
    for i, line in enumerate(lines):
        draw_text(draw, (x, top + i * step), line, face, INK, "lm")
