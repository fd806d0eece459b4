"""The pictures of Ark: the table (the ship and everything around it), a hand, the final
scoring, and the rules' example and key.

Each is drawn from JSON-like data only: public pictures from the engine's public view
(``Game.view(None)``), which holds no hand and no pet until the game is over; the hand
picture from the list of its cards, drawn only for that hand's player. Every word comes from
the ``[picture]`` section of the ``noah`` catalogue in ``language``; player names are data.

The ship (the players' ark) is drawn bow up: the port cabins on the left, starboard on the
right, row 1 next to the bow. The bow carries the tilt scale (2 to port ... level ... 2 to
starboard) with the yellow disc; the cabins show their cards, the last cards played ringed in
red, and the two places where a new cabin can be opened are dashed boxes.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from PIL import Image, ImageDraw

from engine.noah import CARDS, KINDS, SIDES
from engine.noah.scoring import card_points
from render.i18n import DEFAULT_LANGUAGE, t
from render.marks import draw_mark
from render.noah.cards import (
    COLD,
    DISC_ORANGE,
    HIGHLIGHT,
    HOT,
    SPECIAL_RED,
    TILT_YELLOW,
    climate_fill,
    draw_card,
)
from render.noah.words import card_name, side_text
from render.style import (
    GOLD,
    INK,
    INK_SOFT,
    PARCHMENT,
    PARCHMENT_DARK,
    PLAYERS,
    WHITE,
    clip,
    draw_text,
    encode_png,
    fitting,
    font,
    phone_text,
    player_names,
    sentence,
    text_length,
    wrap,
)

W = 720
M = 16
HULL = (122, 78, 44)
HULL_LIGHT = (196, 156, 112)
WATER = (176, 206, 226)
SLOT_H = 66
FREE_H = 18  # an empty place in a cabin
CARD_GAP = 6
CABIN_PAD = 8
CABIN_H = 3 * SLOT_H + 2 * CARD_GAP + 2 * CABIN_PAD
NEW_H = 96  # the dashed box of a new cabin
ROW_GAP = 10
CENTRE = 36  # the gap between port and starboard, where the row numbers are
CABIN_W = (W - 2 * M - 2 * 14 - CENTRE) // 2
#: The smallest text of a picture 720 px wide: 9 px tall on a phone 400 px wide.
SMALLEST = phone_text(W)


def _p(key: str, language: str, **params: Any) -> str:
    return t(f"noah.picture.{key}", language, **params)


def lean_caption(tilt: int, language: str) -> str:
    """How the ark lies, above its scale: "Level", "Leans 2 to starboard" (the side said as
    in a sentence, not as the capitalised label under the scale)."""
    if tilt == 0:
        return _p("level", language)
    side = side_text("port" if tilt < 0 else "starboard")
    return _p("lean", language, lean=abs(tilt), side=side)


def figures_text(value: float) -> str:
    """1.5 figures drawn as ``1½``; whole figures as numbers."""
    whole = int(value)
    return f"{whole if whole else ''}½" if value - whole >= 0.5 else str(whole)


def _mark(draw: ImageDraw.ImageDraw, seat: int, cx: float, cy: float, r: float) -> None:
    style = PLAYERS[seat % len(PLAYERS)]
    draw.ellipse(
        (cx - r, cy - r, cx + r, cy + r), fill=style.colour, outline=style.outline, width=2
    )
    draw_mark(draw, style.mark, cx, cy, r * 0.55, style.mark_colour)


# --------------------------------------------------------------------- the parts


def _header(draw: ImageDraw.ImageDraw, y: int, text: str) -> int:
    face = fitting(text, W - 2 * M, (30, 28, 26, 24, 22), bold=True)
    draw_text(draw, (W / 2, y + 6), clip(text, face, W - 2 * M), face, INK, "ma")
    return y + 48


def _phase_text(
    view: Mapping[str, Any], names: list[str], language: str, viewer: int | None = None
) -> str:
    phase = view["phase"]
    if phase == "over":
        winners = [names[s] for s in view["winners"]]
        key = "over_one" if len(winners) == 1 else "over_many"
        joiner = t("common.picture.joiner", language)
        return sentence(
            lambda n: _p(key, language, winners=joiner.join(n)),
            winners,
            lambda s: text_length(s, font(26, True)) <= W - 2 * M,
        )
    player = names[view["current_player"]]
    key = {"pet": "phase_pet", "endgame": "phase_endgame"}.get(phase, "phase_play")
    you = "yes" if viewer is not None and viewer == view["current_player"] else "no"
    return sentence(
        lambda n: _p(key, language, player=n[0], you=you),
        [player],
        lambda s: text_length(s, font(22, True)) <= W - 2 * M,
    )


def _players(
    draw: ImageDraw.ImageDraw, y: int, view: Mapping[str, Any], names: list[str], language: str
) -> int:
    """One line per player: mark, name, discs, cards in hand, points; whose turn marked."""
    players = view["players"]
    row_h = 40
    current = view["current_player"]
    passed = view.get("passed") or [False] * players
    for seat in range(players):
        top = y + seat * row_h
        if seat == current and view["phase"] != "over":
            draw.rounded_rectangle((M, top + 1, W - M, top + row_h - 1), 8, fill=PARCHMENT_DARK)
            draw_text(draw, (M + 6, top + row_h / 2), "▶", font(20, True), INK, "lm")
        _mark(draw, seat, M + 40, top + row_h / 2, 14)
        stats = _p(
            "player_stats",
            language,
            discs=view["discs"][seat],
            cards=view["hand_sizes"][seat],
            points=view["scores"][seat],
        )
        if passed[seat] and view["phase"] == "endgame":
            stats = _p("passed", language) + " · " + stats
        face = font(20)
        width = text_length(stats, face)
        draw_text(draw, (W - M - 8, top + row_h / 2), stats, face, INK, "rm")
        name_face = font(22, True)
        room = W - 2 * M - 70 - width - 16
        draw_text(
            draw,
            (M + 62, top + row_h / 2),
            clip(names[seat], name_face, room),
            name_face,
            INK,
            "lm",
        )
    return y + players * row_h + 8


def _scoring_cards(
    draw: ImageDraw.ImageDraw, y: int, view: Mapping[str, Any], language: str
) -> int:
    """The five scoring cards, each with every player's figures on it."""
    players = view["players"]
    gap = 8
    card_w = (W - 2 * M - 4 * gap) / 5
    line_h = 28
    h = 40 + players * line_h + 6
    for k, kind in enumerate(KINDS):
        x0 = M + k * (card_w + gap)
        draw.rounded_rectangle(
            (x0, y, x0 + card_w, y + h), 10, fill=WHITE, outline=INK_SOFT, width=2
        )
        title = _p(f"kind_{kind}", language)
        face = fitting(title, card_w - 12, (20, 18, 17), bold=True)
        draw_text(draw, (x0 + card_w / 2, y + 10), clip(title, face, card_w - 10), face, INK, "ma")
        for seat in range(players):
            cy = y + 40 + seat * line_h + line_h / 2
            count = view["figures"][seat][kind]
            _mark(draw, seat, x0 + 22, cy, 10)
            colour = INK if count else INK_SOFT
            draw_text(
                draw,
                (x0 + 42, cy),
                figures_text(count) if count else "–",
                font(20, True),
                colour,
                "lm",
            )
    return y + h + 10


def _face_up(draw: ImageDraw.ImageDraw, y: int, view: Mapping[str, Any], language: str) -> int:
    """The three face-up cards, the supply and the rain cards fallen."""
    label = _p("face_up", language)
    draw_text(draw, (M, y), clip(label, font(20, True), W / 2), font(20, True), INK)
    supply = _p("supply", language, count=view["supply"])
    draw_text(draw, (W - M, y), clip(supply, font(20), W / 2 - M), font(20), INK, "ra")
    y += 28
    gap = 8
    card_w = (W - 2 * M - 2 * gap) / 3
    for i in range(3):
        x0 = M + i * (card_w + gap)
        box = (x0, y, x0 + card_w, y + 88)
        if i < len(view["face_up"]):
            draw_card(draw, box, view["face_up"][i], language)
        else:
            draw.rounded_rectangle(box, 10, outline=INK_SOFT, width=2)
    y += 96
    # The five rain cards: the second brings the pets, the fifth the endgame.
    fallen = view["rain_fallen"]
    rain = _p("rain", language)
    draw_text(draw, (M, y + 18), rain, font(20, True), INK, "lm")
    start = M + text_length(rain, font(20, True)) + 14
    step = (W - M - start) / 5
    for n in range(1, 6):
        x0 = start + (n - 1) * step
        colour = (60, 110, 190) if n <= fallen else WHITE
        draw.rounded_rectangle(
            (x0, y + 2, x0 + 30, y + 34), 6, fill=colour, outline=INK_SOFT, width=2
        )
        draw_text(
            draw,
            (x0 + 15, y + 18),
            str(n),
            font(18, True),
            WHITE if n <= fallen else INK_SOFT,
            "mm",
        )
        note = {2: "rain_pets", 5: "rain_end"}.get(n)
        if note:
            text = _p(note, language)
            # Up to the next card: 2 px clear of it.
            face = fitting(text, step - 38, (18, 17))
            draw_text(draw, (x0 + 36, y + 18), clip(text, face, step - 38), face, INK, "lm")
    return y + 44


def _bow(draw: ImageDraw.ImageDraw, y: int, tilt: int, language: str) -> int:
    """The bow card with its tilt scale and the yellow disc."""
    h = 116
    cx = W / 2
    draw.polygon(
        [(M + 14, y + h), (cx - 120, y + 12), (cx, y), (cx + 120, y + 12), (W - M - 14, y + h)],
        fill=HULL_LIGHT,
        outline=HULL,
    )
    slot = 58
    for value in range(-2, 3):
        sx = cx + value * slot
        top = y + 46
        fill = WHITE if value else PARCHMENT
        draw.rounded_rectangle(
            (sx - 24, top, sx + 24, top + 34), 8, fill=fill, outline=HULL, width=2
        )
        if value != tilt:
            draw_text(draw, (sx, top + 17), str(abs(value)), font(18, True), INK_SOFT, "mm")
        else:
            draw.ellipse((sx - 17, top, sx + 17, top + 34), fill=TILT_YELLOW, outline=INK, width=3)
            draw_text(draw, (sx, top + 17), str(abs(value)), font(18, True), INK, "mm")
    port, starboard = _p("port", language), _p("starboard", language)
    face = font(20, True)
    draw_text(draw, (cx - 3 * slot + 4, y + h - 14), clip(port, face, 150), face, INK, "rs")
    draw_text(draw, (cx + 3 * slot - 4, y + h - 14), clip(starboard, face, 150), face, INK, "ls")
    lean = lean_caption(tilt, language)
    lean_face = fitting(lean, 300, (18, 17), bold=False)
    draw_text(draw, (cx, y + 22), clip(lean, lean_face, 300), lean_face, INK, "ma")
    return y + h


# --------------------------------------------------------------------- the ship, folded

#: The table picture stays under this many px tall at its width (on a phone, two screens or
#: so): when the ship would make it taller, its rows fold, what matters least first (see
#: :func:`_rows`).
MOST_HEIGHT = 1590
CHIP_H = 32  # a card folded to one line: its weight and name
CHIP_GAP = 4
BAND_H = 44  # several rows folded to one line that says what they hold
CHIP_TEXT = 17  # 9 px tall on a phone 400 px wide
CHIP_MARGIN = 14  # px of a chip beside its words


@dataclass(frozen=True, slots=True)
class Row:
    """How a row of the ship is drawn: ``full`` (every card as a card), ``chips`` (each card
    one short line, two side by side), ``band`` (rows ``first`` to ``last`` as one line), or
    ``new`` (the dashed boxes of the next cabins); and how high."""

    kind: Literal["full", "chips", "band", "new"]
    first: int
    last: int
    height: int


def _full_height(view: Mapping[str, Any], row: int, new_cabins: bool) -> int:
    """A row drawn with its cards in full: its fuller cabin's cards, empty places thin."""
    ship = view["ship"]
    cards = [len(side[row]) for side in (ship["port"], ship["starboard"]) if row < len(side)]
    most = max(cards)
    inner = most * SLOT_H + (3 - most) * FREE_H + 2 * CARD_GAP
    return max(NEW_H if new_cabins else 0, inner + 2 * CABIN_PAD)


def _chip_text(card: int, language: str) -> str:
    return _p("chip", language, weight=CARDS[card].weight, card=card_name(card, language))


def _chip_columns(cabin: Sequence[int], language: str) -> int:
    """Two chips side by side, or one a line where a card's words need the whole width."""
    half = (CABIN_W - 2 * CABIN_PAD - CHIP_GAP) / 2 - CHIP_MARGIN
    face = font(CHIP_TEXT, True)
    return 2 if all(text_length(_chip_text(c, language), face) <= half for c in cabin) else 1


def _chips_height(view: Mapping[str, Any], row: int, new_cabins: bool, language: str) -> int:
    """A row drawn with its cards as chips (and room for the dashed box of a new cabin
    beside them)."""
    sides = (view["ship"]["port"], view["ship"]["starboard"])
    lines = max(
        -(-len(side[row]) // _chip_columns(side[row], language))
        for side in sides
        if row < len(side)
    )
    opens = new_cabins and any(len(side) == row for side in sides)
    return max(NEW_H if opens else 0, 2 * CABIN_PAD + lines * CHIP_H + (lines - 1) * CHIP_GAP)


def _rows(view: Mapping[str, Any], new_cabins: bool, room: int, language: str) -> list[Row]:
    """The ship's rows from the bow, within ``room`` px if folding can make them fit.

    What matters least folds first: full cabins before those with a free place (where a card
    may still go), rows nearer the bow (played longer ago) before the others, the cards just
    played last of all; folded to chips first, then, if that is not enough, runs of folded
    rows from the bow to one line each."""
    ship = view["ship"]
    sides = (ship["port"], ship["starboard"])
    count = max(len(sides[0]), len(sides[1]))
    last = set(view.get("last_played") or ())
    rows = [Row("full", r, r, _full_height(view, r, new_cabins)) for r in range(count)]
    tail = [Row("new", count, count, NEW_H)] if new_cabins else []

    def height(plan: list[Row]) -> int:
        return sum(r.height for r in plan) + ROW_GAP * len(plan) + 24

    def weight(row: int) -> tuple[bool, bool, int]:
        cabins = [side[row] for side in sides if row < len(side)]
        free = any(len(cabin) < 3 for cabin in cabins)
        fresh = any(card in last for cabin in cabins for card in cabin)
        return (fresh, free, row)

    for row in sorted(range(count), key=weight):
        if height(rows + tail) <= room:
            return rows + tail
        rows[row] = Row("chips", row, row, _chips_height(view, row, new_cabins, language))
    # Still too tall: the rows nearest the bow folded to one line, as many as it takes
    # (never a row where a new cabin may be opened).
    plan = rows
    for folded in range(1, min(len(sides[0]), len(sides[1])) + 1):
        if height(plan + tail) <= room:
            break
        plan = [Row("band", 0, folded - 1, BAND_H), *rows[folded:]]
    return plan + tail


def _cabin_box(side: int, y: float, h: float) -> tuple[float, float, float, float]:
    x0 = M + 14 if side == 0 else W / 2 + CENTRE / 2
    return (x0, y, x0 + CABIN_W, y + h)


def _ship(
    draw: ImageDraw.ImageDraw,
    y: int,
    view: Mapping[str, Any],
    language: str,
    rows: list[Row],
    new_cabins: bool,
) -> int:
    """The cabins row by row from the bow as ``rows`` says, the next new cabins dashed, the
    hull around."""
    ship = view["ship"]
    sides = (ship["port"], ship["starboard"])
    bottom = y + sum(r.height for r in rows) + ROW_GAP * len(rows) + 14
    draw.rectangle((M, y, W - M, bottom), fill=HULL_LIGHT)
    draw.rectangle((M, y, W - M, bottom), outline=HULL, width=4)
    draw.line((W / 2, y, W / 2, bottom), fill=HULL, width=3)
    last = set(view.get("last_played") or ())
    top = y + 10
    for plan in rows:
        h = plan.height
        if plan.kind == "band":
            _band(draw, top, h, sides, plan, language)
            top += h + ROW_GAP
            continue
        row = plan.first
        draw_text(draw, (W / 2, top + h / 2), str(row + 1), font(20, True), WHITE, "mm")
        for side in (0, 1):
            cabins = sides[side]
            if row < len(cabins):
                box = _cabin_box(side, top, h)
                draw.rounded_rectangle(box, 10, fill=(236, 222, 192), outline=HULL, width=3)
                if plan.kind == "chips":
                    _chips(draw, box, cabins[row], last, language)
                else:
                    _cards(draw, box, cabins[row], last, language)
            elif row == len(cabins) and new_cabins:
                _new_cabin(draw, _cabin_box(side, top, NEW_H), language)
        top += h + ROW_GAP
    return bottom + 10


def _cards(
    draw: ImageDraw.ImageDraw,
    box: tuple[float, float, float, float],
    cabin: Sequence[int],
    last: set[int],
    language: str,
) -> None:
    """A cabin's cards in full, its free places thin."""
    sy = box[1] + CABIN_PAD
    for slot in range(3):
        if slot < len(cabin):
            inner = (box[0] + CABIN_PAD, sy, box[2] - CABIN_PAD, sy + SLOT_H)
            draw_card(draw, inner, cabin[slot], language, highlight=cabin[slot] in last)
            sy += SLOT_H + CARD_GAP
        else:
            inner = (box[0] + CABIN_PAD, sy, box[2] - CABIN_PAD, sy + FREE_H)
            draw.rounded_rectangle(inner, 6, outline=HULL_LIGHT, width=2)
            sy += FREE_H + CARD_GAP


def _chips(
    draw: ImageDraw.ImageDraw,
    box: tuple[float, float, float, float],
    cabin: Sequence[int],
    last: set[int],
    language: str,
) -> None:
    """A cabin folded: each card one line in its climate's colour, its weight and its name,
    two side by side."""
    columns = _chip_columns(cabin, language)
    width = (box[2] - box[0] - 2 * CABIN_PAD - (columns - 1) * CHIP_GAP) / columns
    face = font(CHIP_TEXT, True)
    for index, card in enumerate(cabin):
        line, column = divmod(index, columns)
        x0 = box[0] + CABIN_PAD + column * (width + CHIP_GAP)
        y0 = box[1] + CABIN_PAD + line * (CHIP_H + CHIP_GAP)
        chip = (x0, y0, x0 + width, y0 + CHIP_H)
        climate_fill(draw, chip, CARDS[card].climate, 6)
        outline, thick = (HIGHLIGHT, 4) if card in last else (INK_SOFT, 1)
        draw.rounded_rectangle(chip, 6, outline=outline, width=thick)
        text = _chip_text(card, language)
        room = width - CHIP_MARGIN
        draw_text(draw, (x0 + 8, y0 + CHIP_H / 2), clip(text, face, room), face, INK, "lm")


def _band(
    draw: ImageDraw.ImageDraw,
    top: float,
    h: int,
    sides: tuple[Sequence[Sequence[int]], Sequence[Sequence[int]]],
    plan: Row,
    language: str,
) -> None:
    """Rows folded to one line: which rows, and how many cards they hold."""
    cards = sum(len(side[r]) for side in sides for r in range(plan.first, plan.last + 1))
    box = (M + 14, top, W - M - 14, top + h)
    draw.rounded_rectangle(box, 10, fill=(236, 222, 192), outline=HULL, width=3)
    rows = (
        str(plan.first + 1)
        if plan.first == plan.last
        else _p("rows", language, first=plan.first + 1, last=plan.last + 1)
    )
    text = _p("folded", language, rows=rows, cards=cards)
    face = fitting(text, box[2] - box[0] - 20, (20, CHIP_TEXT), bold=True)
    draw_text(draw, (W / 2, top + h / 2), clip(text, face, box[2] - box[0] - 20), face, INK, "mm")


def _new_cabin(
    draw: ImageDraw.ImageDraw, box: tuple[float, float, float, float], language: str
) -> None:
    """Where a new cabin may be opened: a dashed box."""
    _dashed(draw, box, INK)
    text = _p("new_cabin", language)
    face = font(20, True)
    lines = wrap(text, face, CABIN_W - 30, 3) or [clip(text, face, CABIN_W - 30)]
    cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    for i, line in enumerate(lines):
        draw_text(draw, (cx, cy + (i - (len(lines) - 1) / 2) * 26), line, face, INK, "mm")


def _dashed(draw: ImageDraw.ImageDraw, box: tuple[float, float, float, float], colour: Any) -> None:
    x0, y0, x1, y1 = box
    dash = 12
    x = x0
    while x < x1:
        draw.line((x, y0, min(x + dash, x1), y0), fill=colour, width=3)
        draw.line((x, y1, min(x + dash, x1), y1), fill=colour, width=3)
        x += 2 * dash
    yy = y0
    while yy < y1:
        draw.line((x0, yy, x0, min(yy + dash, y1)), fill=colour, width=3)
        draw.line((x1, yy, x1, min(yy + dash, y1)), fill=colour, width=3)
        yy += 2 * dash


# --------------------------------------------------------------------- the pictures


def board_image(
    view: Mapping[str, Any],
    names: Sequence[str] | None = None,
    language: str = DEFAULT_LANGUAGE,
    *,
    preview: bool = False,
    focus: Sequence[int | str] = (),
    viewer: int | None = None,
) -> Image.Image:
    """The whole table from the public view (or a preview of a play); ``focus``: what to
    ring for a lesson (see :func:`_places`), nothing by default."""
    players = view["players"]
    named = player_names(players, list(names or []), language)
    over = view["phase"] == "over"
    height = 48 + players * 40 + 8 + (40 + players * 28 + 16) + 28 + 96 + 44 + 116
    if preview:
        height += 40
    rows = _rows(view, not over, MOST_HEIGHT - height - 10, language)
    height += sum(r.height for r in rows) + ROW_GAP * len(rows) + 24 + 10
    image = Image.new("RGB", (W, height), PARCHMENT)
    draw = ImageDraw.Draw(image)
    y = 0
    if preview:
        draw.rectangle((0, 0, W, 40), fill=HIGHLIGHT)
        text = _p("preview", language)
        draw_text(
            draw, (W / 2, 20), clip(text, font(22, True), W - 2 * M), font(22, True), WHITE, "mm"
        )
        y = 40
    y = _header(draw, y, _phase_text(view, named, language, viewer))
    tops = [y]
    y = _players(draw, y, view, named, language)
    tops.append(y)
    y = _scoring_cards(draw, y, view, language)
    tops.append(y)
    y = _face_up(draw, y, view, language)
    tops.append(y)
    y = _bow(draw, y, view["tilt"], language)
    tops.append(y)
    _ship(draw, y, view, language, rows, not over)
    if focus:
        _rings(draw, _places(view, rows, not over, tops), focus)
    return image


# --------------------------------------------------------------------- a lesson's rings

#: A lesson's rings are gold edged with ink: neither the red of the last play nor a
#: climate's, and colours of the shared palette (see :mod:`render.noah.palette`), so they
#: come out exactly without changing every other picture's palette.
FOCUS = GOLD

Box = tuple[float, float, float, float]


def _places(
    view: Mapping[str, Any], rows: list[Row], new_cabins: bool, tops: Sequence[int]
) -> dict[int | str, list[Box]]:
    """Where each thing a lesson may point at is drawn, by what ``focus`` calls it: a card id
    (face up or on the ship), ``"players"``, ``"scoring"``, ``"kind:<kind>"`` (one scoring
    card), ``"face_up"``, ``"rain"``, ``"bow"`` (the tilt scale), ``"port:<row>"`` /
    ``"starboard:<row>"`` (a cabin, rows from 0) and ``"new_cabin"`` (both dashed boxes).
    ``tops``: where the players, scoring cards, face-up row, bow and ship begin. The
    geometry is the drawing functions' own (their constants), read again, not drawn."""
    players, scoring, face_up, bow, ship = tops
    places: dict[int | str, list[Box]] = {}

    def put(name: int | str, box: Box) -> None:
        places.setdefault(name, []).append(box)

    put("players", (M, players, W - M, scoring - 8))
    put("scoring", (M, scoring, W - M, face_up - 10))
    card_w = (W - 2 * M - 4 * 8) / 5
    for k, kind in enumerate(KINDS):
        x0 = M + k * (card_w + 8)
        put(f"kind:{kind}", (x0, scoring, x0 + card_w, face_up - 10))
    put("face_up", (M, face_up + 28, W - M, face_up + 116))
    card_w = (W - 2 * M - 2 * 8) / 3
    for i, card in enumerate(view["face_up"][:3]):
        x0 = M + i * (card_w + 8)
        put(card, (x0, face_up + 28, x0 + card_w, face_up + 116))
    put("rain", (M, face_up + 124, W - M, face_up + 160))
    put("bow", (W / 2 - 154, bow + 14, W / 2 + 154, bow + 88))
    sides = (view["ship"]["port"], view["ship"]["starboard"])
    top = ship + 10
    for plan in rows:
        h = plan.height
        if plan.kind == "band":
            box: tuple[float, float, float, float] = (M + 14, top, W - M - 14, top + h)
            for row in range(plan.first, plan.last + 1):
                for side, cabins in enumerate(sides):
                    if row < len(cabins):
                        put(f"{SIDES[side]}:{row}", box)
                        for card in cabins[row]:
                            put(card, box)
        else:
            for side, cabins in enumerate(sides):
                row = plan.first
                if row < len(cabins):
                    box = _cabin_box(side, top, h)
                    put(f"{SIDES[side]}:{row}", box)
                    _card_places(put, box, cabins[row], plan.kind == "full")
                elif row == len(cabins) and new_cabins:
                    box = _cabin_box(side, top, NEW_H)
                    put(f"{SIDES[side]}:{row}", box)
                    put("new_cabin", box)
        top += h + ROW_GAP
    return places


def _card_places(put: Any, box: Box, cabin: Sequence[int], full: bool) -> None:
    """Each card of a cabin: its own slot when drawn in full (as :func:`_cards` lays them
    out), else the whole cabin (chips are small)."""
    sy = box[1] + CABIN_PAD
    for card in cabin:
        if full:
            put(card, (box[0] + CABIN_PAD, sy, box[2] - CABIN_PAD, sy + SLOT_H))
            sy += SLOT_H + CARD_GAP
        else:
            put(card, box)


def _rings(
    draw: ImageDraw.ImageDraw, places: Mapping[int | str, list[Box]], focus: Sequence[int | str]
) -> None:
    """A thick ring just outside each place ``focus`` names (unknown names ring nothing: a
    card no longer on the table)."""
    for name in focus:
        for x0, y0, x1, y1 in places.get(name, ()):
            draw.rounded_rectangle((x0 - 7, y0 - 7, x1 + 7, y1 + 7), 14, outline=INK, width=2)
            draw.rounded_rectangle((x0 - 5, y0 - 5, x1 + 5, y1 + 5), 12, outline=FOCUS, width=6)


def hand_image(
    cards: Sequence[int],
    marks: Mapping[str, bool],
    pet: int | None,
    phase: str,
    language: str = DEFAULT_LANGUAGE,
) -> Image.Image:
    """One player's hand (private): the cards two by two; in their turn the cards that can
    be played now are ticked and the others greyed; in the pet choice the cards that would
    score are starred."""
    columns = 2
    gap = 10
    card_w = (W - 2 * M - gap) / columns
    card_h = 72
    rows = max(1, -(-len(cards) // columns))
    extra = 40 if pet is not None else 0
    height = 52 + rows * (card_h + gap) + extra + 40
    image = Image.new("RGB", (W, height), PARCHMENT)
    draw = ImageDraw.Draw(image)
    title = _p("hand_title", language, count=len(cards))
    _header(draw, 0, title)
    y = 52
    if not cards:
        empty = _p("hand_empty", language)
        draw_text(draw, (W / 2, y + 20), empty, font(22), INK_SOFT, "mm")
    for index, card in enumerate(cards):
        x0 = M + (index % columns) * (card_w + gap)
        top = y + (index // columns) * (card_h + gap)
        box = (x0 + 28, top, x0 + card_w, top + card_h)
        mark = marks.get(str(card))
        draw_card(draw, box, card, language, faded=mark is False and phase != "pet")
        if mark is not None:
            symbol = ("★" if mark else "✗") if phase == "pet" else ("✓" if mark else "✗")
            colour = (30, 130, 60) if mark else SPECIAL_RED
            draw_text(draw, (x0 + 12, top + card_h / 2), symbol, font(26, True), colour, "mm")
    y += rows * (card_h + gap)
    if pet is not None:
        text = _p("your_pet", language, card=card_name(pet, language))
        draw_text(draw, (M, y + 8), clip(text, font(22, True), W - 2 * M), font(22, True), INK)
        y += extra
    key = _p("hand_key_pet" if phase == "pet" else "hand_key", language)
    face = fitting(key, W - 2 * M, (18, 17))
    draw_text(draw, (M, y + 8), clip(key, face, W - 2 * M), face, INK_SOFT)
    return image


def _two_lines(name: str, face: Any, width: float) -> list[str]:
    """``name`` on at most two lines of ``width``, shortened as a whole if it must be."""
    for room in range(round(2 * width), 0, -12):
        short = clip(name, face, room)
        lines = wrap(short, face, width, 2)
        if lines is not None:
            return lines
    return [clip(name, face, width)]


def final_image(
    view: Mapping[str, Any], names: Sequence[str] | None = None, language: str = DEFAULT_LANGUAGE
) -> Image.Image:
    """The final scoring: pets revealed, each scoring card's figures and points (ties and
    halves), discs, totals, and the tie break when it decided. Each row's name stands
    above its values, so that five players' columns take the whole width: on a phone every
    word stays 9 px tall and no card's name is cut."""
    players = view["players"]
    named = player_names(players, list(names or []), language)
    col_w = (W - 2 * M) / players
    label_h, row_h = 26, 44
    rows = 1 + len(KINDS) + 1 + 1  # pets, kinds, discs, total
    names_h = 30 + 2 * 22 + 6
    height = 56 + names_h + rows * (label_h + row_h) + 70
    image = Image.new("RGB", (W, height), PARCHMENT)
    draw = ImageDraw.Draw(image)
    _header(draw, 0, _p("final_title", language))
    y = 56
    winners = set(view["winners"])
    halves = [[round(2 * view["figures"][s][k]) for k in KINDS] for s in range(players)]
    for seat in range(players):
        x = M + seat * col_w
        if seat in winners:
            draw.rectangle((x + 2, y, x + col_w - 2, height - 70), fill=(250, 236, 170))
        _mark(draw, seat, x + col_w / 2, y + 14, 11)
        # A long name on two lines (the second one shortened if need be), never tiny.
        face = fitting(named[seat], col_w - 8, (20, 18, SMALLEST), bold=True)
        lines = _two_lines(named[seat], face, col_w - 6)
        for i, line in enumerate(lines):
            draw_text(draw, (x + col_w / 2, y + 30 + i * 22), line, face, INK, "ma")
    y += names_h

    def label(text: str, rule: Any = PARCHMENT_DARK) -> float:
        """A row's name across the picture, above its values; where the values go."""
        nonlocal y
        draw.line((M, y, W - M, y), fill=rule, width=3 if rule == INK else 2)
        face = fitting(text, W - 2 * M - 8, (20, 18, SMALLEST), bold=True)
        draw_text(draw, (M + 4, y + 4), clip(text, face, W - 2 * M - 8), face, INK_SOFT)
        top = y + label_h
        y += label_h + row_h
        return top

    def cell(seat: int, top: float, text: str, bold: bool = False, colour: Any = INK) -> None:
        x = M + seat * col_w + col_w / 2
        face = fitting(text, col_w - 8, (22, 20, 18, SMALLEST), bold=bold)
        draw_text(draw, (x, top + row_h / 2), clip(text, face, col_w - 6), face, colour, "mm")

    def pet_cell(seat: int, top: float, name: str, scored: bool) -> None:
        """The pet's name, and ✗ when it does not score: below the name when both do not
        fit on one line, so the name is not cut for the mark."""
        text, colour = (name, INK) if scored else (f"{name} ✗", SPECIAL_RED)
        if text_length(text, font(SMALLEST)) <= col_w - 8:
            cell(seat, top, text, colour=colour)
            return
        x = M + seat * col_w + col_w / 2
        face = font(SMALLEST)
        for i, line in enumerate((clip(name, face, col_w - 6), "✗")):
            draw_text(draw, (x, top + row_h / 2 + (i - 0.5) * 21), line, face, colour, "mm")

    top = label(_p("pets", language))
    for seat in range(players):
        pet = view["pets"][seat]
        if type(pet) is int:
            pet_cell(seat, top, card_name(pet, language), CARDS[pet].can_be_pet)
        else:
            cell(seat, top, "–", colour=INK_SOFT)
    for k, kind in enumerate(KINDS):
        top = label(_p(f"kind_{kind}", language))
        points = card_points([halves[s][k] for s in range(players)])
        for seat in range(players):
            count = view["figures"][seat][kind]
            if not count:
                cell(seat, top, "–", colour=INK_SOFT)
                continue
            cell(
                seat,
                top,
                _p("figures_points", language, figures=figures_text(count), points=points[seat]),
            )
    top = label(_p("discs", language))
    for seat in range(players):
        cell(seat, top, str(view["discs"][seat]))
    top = label(_p("total", language), INK)
    for seat in range(players):
        cell(seat, top, str(view["scores"][seat]), bold=True)
    y += 8
    scores = view["scores"]
    best = max(scores) if scores else 0
    leaders = [s for s in range(players) if scores[s] == best]
    if len(leaders) > len(winners):
        note = _p("tie_break", language)
    elif len(winners) > 1:
        note = _p("shared", language)
    else:
        note = _p("ties_note", language)
    lines = wrap(note, font(18), W - 2 * M, 2) or [clip(note, font(18), W - 2 * M)]
    for i, line in enumerate(lines):
        draw_text(draw, (M, y + i * 24), line, font(18), INK)
    return image


# --------------------------------------------------------------------- rules help


def example_view() -> dict[str, Any]:
    """A small position for the rules picture (three players, a few cabins)."""
    from engine.noah import Game

    game = Game.arranged(
        3,
        port=[["Sheep", "Cat"], ["Elephant"]],
        starboard=[["Penguin", "Fish"], ["Camel", "Skunk"]],
        hands=[["Lion", "Mouse"], ["Cow"], ["Goat", "Dog"]],
        face_up=["Hay", "Bison", "Fox"],
        figures={0: {"useful": 1, "heavy": 1}, 1: {"slow": 1, "provision": 1}, 2: {"heavy": 1}},
        half_figures={2: {"useful": 1}},
        rain=1,
    )
    view = game.view(None)
    view["last_played"] = [CARDS.index(next(c for c in CARDS if c.name == "Skunk"))]
    return view


def rules_board_image(language: str = DEFAULT_LANGUAGE) -> Image.Image:
    names = [_p("example_player", language, number=n) for n in (1, 2, 3)]
    return board_image(example_view(), names, language)


def key_image(language: str = DEFAULT_LANGUAGE) -> Image.Image:
    """The key of the card symbols and the eight special animals, one sentence each."""
    from engine.noah.cards import SPECIALS

    entries: list[tuple[str, Any]] = []
    height = 56 + 4 * 56 + 10 + len(SPECIALS) * 84 + 20
    image = Image.new("RGB", (W, height), PARCHMENT)
    draw = ImageDraw.Draw(image)
    _header(draw, 0, _p("key_title", language))
    y = 56
    # Climate, weight, diet, "!": a symbol on the left, its sentence on the right.
    sym_w = 120
    text_x = M + sym_w + 12
    room = W - M - text_x

    def explain(top: float, text: str) -> None:
        face = font(19)
        lines = wrap(text, face, room, 2)
        if lines is None:
            face = font(SMALLEST)
            lines = wrap(text, face, room, 3) or [clip(text, face, room)]
        for i, line in enumerate(lines):
            draw_text(
                draw, (text_x, top + 28 + (i - (len(lines) - 1) / 2) * 23), line, face, INK, "lm"
            )

    boxes = (
        (M, y + 8, M + 36, y + 48),
        (M + 42, y + 8, M + 78, y + 48),
        (M + 84, y + 8, M + sym_w, y + 48),
    )
    for box, climate in zip(boxes, ("hot", "cold", "any"), strict=True):
        climate_fill(draw, box, climate, 6)
    explain(y, _p("key_climate", language))
    y += 56
    draw.ellipse((M + 40, y + 8, M + 80, y + 48), fill=WHITE, outline=INK, width=2)
    draw_text(draw, (M + 60, y + 28), "3", font(24, True), INK, "mm")
    explain(y, _p("key_weight", language))
    y += 56
    draw_text(draw, (M + 60, y + 28), "🌿 🥩", font(24), INK, "mm")
    explain(y, _p("key_diet", language))
    y += 56
    draw.ellipse((M + 46, y + 14, M + 74, y + 42), fill=SPECIAL_RED)
    draw_text(draw, (M + 60, y + 28), "!", font(20, True), WHITE, "mm")
    explain(y, _p("key_special", language))
    y += 66
    del entries
    for special in SPECIALS:
        card = next(c.id for c in CARDS if c.special == special)
        draw_card(draw, (M, y, M + 300, y + 72), card, language)
        text = t(f"noah.rules.special.{special}", language).replace("**", "")
        face = font(SMALLEST)
        width = W - M - (M + 312)
        lines = (
            wrap(text, face, width, 3) or wrap(text, face, width, 4) or [clip(text, face, width)]
        )
        for i, line in enumerate(lines):
            draw_text(
                draw, (M + 312, y + 36 + (i - (len(lines) - 1) / 2) * 21), line, face, INK, "lm"
            )
        y += 84
    return image


__all__ = [
    "COLD",
    "DISC_ORANGE",
    "GOLD",
    "HOT",
    "board_image",
    "encode_png",
    "final_image",
    "hand_image",
    "key_image",
    "rules_board_image",
]
