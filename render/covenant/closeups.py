"""Close-ups: a few squares of the board, large, so a phone shows them well however big the
board has grown. The squares where the tile in hand fits, the tile on its chosen square
with the spots a piece may take, the Ark's route, and the city that gets the Ark.

Every close-up names its squares along the edges (the names of
:mod:`engine.covenant.notation`), so what it shows can be found on the whole board. Each is
at most :data:`WIDTH` px wide and draws no text smaller than ``phone_text(WIDTH)``, so on a
phone 400 px wide its words are at least 9 px tall and its squares at least 24 px (see
:mod:`render.style`). Only the squares inside a close-up are drawn: no piece of a tile
beside it reaches into its caption.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw, ImageFont

from engine.covenant.game import Game, PlacedTile
from engine.covenant.geometry import SIDE_INDEX, Pos, neighbour
from engine.covenant.notation import column_name, row_name
from render.covenant import pieces
from render.covenant.board import _draw_pieces, _outline, deploy_ports, spot_letter
from render.covenant.colours import CHOICE, LAST_TILE
from render.covenant.route import route_text
from render.covenant.tileart import piece_point, sprite
from render.covenant.window import LABEL_BAND, WIDTH, Window, squares_pages
from render.i18n import DEFAULT_LANGUAGE, t
from render.style import (
    GOLD,
    INK,
    PARCHMENT,
    PARCHMENT_DARK,
    PLAYERS,
    WHITE,
    clip,
    draw_text,
    font,
    phone_text,
    player_names,
    sentence,
    wrap,
)

LABEL_SIZE = 22
TEXT = max(20, phone_text(WIDTH))  # the smallest font size of a close-up


@dataclass(frozen=True, slots=True)
class _Shown:
    """The tiles and the Ark a close-up draws: those inside its window only."""

    board: Mapping[Pos, PlacedTile]
    ark: Pos | None


def _draw_window(
    game: Game, window: Window, overlay: tuple[Pos, str, int] | None = None, ark: bool = True
) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    """The squares of ``window`` with their tiles and pieces (and ``overlay``: a tile drawn
    on a free square, ``(square, tile id, rotation)``), named along the edges."""
    image = Image.new("RGB", window.size, PARCHMENT)
    draw = ImageDraw.Draw(image, "RGBA")
    x0, y0 = window.origin
    x1, y1 = x0 + window.columns * window.tile, y0 + window.rows * window.tile
    draw.rectangle([x0, y0, x1 - 1, y1 - 1], fill=PARCHMENT_DARK)
    inside = {pos: placed for pos, placed in game.board.items() if window.contains(pos)}
    for pos, placed in inside.items():
        bx, by, _, _ = window.box(pos)
        image.paste(sprite(placed.id, placed.rotation, window.tile), (bx, by))
    if overlay is not None:
        pos, tile_id, rotation = overlay
        bx, by, _, _ = window.box(pos)
        image.paste(sprite(tile_id, rotation, window.tile), (bx, by))
    shown_ark = game.ark if ark and game.ark is not None and window.contains(game.ark) else None
    _draw_pieces(image, _Shown(inside, shown_ark), window)
    # Square names along all four edges.
    face = font(LABEL_SIZE, bold=True)
    for c in range(window.columns):
        name = column_name(window.left + c)
        cx = x0 + c * window.tile + window.tile // 2
        for cy in (y0 - LABEL_BAND // 2, y1 + LABEL_BAND // 2):
            draw_text(draw, (cx, cy), clip(name, face, window.tile - 4), face, INK, "mm")
    for r in range(window.rows):
        name = row_name(window.top + r)
        cy = y0 + r * window.tile + window.tile // 2
        for cx in (x0 - LABEL_BAND // 2, x1 + LABEL_BAND // 2):
            draw_text(draw, (cx, cy), clip(name, face, LABEL_BAND - 2), face, INK, "mm")
    return image, draw


def _dim(draw: ImageDraw.ImageDraw, window: Window, keep: set[Pos], alpha: int = 110) -> None:
    """Soften every square of ``window`` but ``keep``, so the eye goes to those."""
    for pos in window.squares:
        if pos not in keep:
            bx0, by0, bx1, by1 = window.box(pos)
            draw.rectangle([bx0, by0, bx1 - 1, by1 - 1], fill=(*PARCHMENT, alpha))


def _badge(
    draw: ImageDraw.ImageDraw, centre: tuple[float, float], text: str, radius: float
) -> None:
    """A number or letter in a blue disc: what a button of the panel says."""
    cx, cy = centre
    r = max(radius, TEXT * 0.8)
    draw.ellipse([cx - r, cy - r, cx + r, cy + r], fill=CHOICE, outline=WHITE, width=3)
    face = font(max(TEXT, round(r * (1.2 if len(text) < 2 else 0.95))), bold=True)
    draw_text(draw, (cx, cy), text, face, WHITE, "mm")


def _number(draw: ImageDraw.ImageDraw, window: Window, pos: Pos, number: int) -> None:
    """A numbered square: framed and tinted, its number large in the middle."""
    x0, y0, x1, y1 = window.box(pos)
    inset = max(2, window.tile // 14)
    draw.rectangle(
        [x0 + inset, y0 + inset, x1 - inset - 1, y1 - inset - 1],
        fill=(*CHOICE, 50),
        outline=CHOICE,
        width=max(3, window.tile // 24),
    )
    _badge(draw, window.centre(pos), str(number), window.tile * 0.26)


def _caption(
    draw: ImageDraw.ImageDraw, lines: list[str], face: ImageFont.FreeTypeFont, x: float, h: int
) -> None:
    """``lines`` centred on the height of a caption band ``h`` px high."""
    step = face.size + 6
    top = h / 2 - step * (len(lines) - 1) / 2
    for i, text in enumerate(lines):
        draw_text(draw, (x, top + i * step), text, face, INK, "lm")


def _fit_lines(text: str, width: float, lines: int = 2) -> tuple[list[str], ImageFont.FreeTypeFont]:
    """``text`` on one line, smaller if need be, else on up to ``lines`` lines."""
    for size, count in ((28, 1), (24, 1), (TEXT, 1), (24, lines), (TEXT, lines)):
        face = font(size, bold=True)
        found = wrap(text, face, width, count)
        if found is not None:
            return found, face
    face = font(TEXT, bold=True)
    return [clip(text, face, width)], face


# --------------------------------------------------------------------- where the tile fits


SQUARES_HEADER = 124
HAND_TILE = 100


def squares_window(game: Game, page: int, focus: Sequence[Pos] = ()) -> Window:
    """The window of the picture of part ``page`` of :func:`squares_pages`, grown to show
    the squares of ``focus`` too."""
    pages = squares_pages(game)
    return Window.around([*pages[page], *focus], caption=SQUARES_HEADER, least=WIDTH * 3 // 4)


def _ring(draw: ImageDraw.ImageDraw, window: Window, pos: Pos) -> None:
    """A gold ring round square ``pos``, over whatever it shows: what a lesson points at."""
    x0, y0, x1, y1 = window.box(pos)
    inset = max(3, window.tile // 16)
    width = max(4, window.tile // 18)
    box = [x0 + inset, y0 + inset, x1 - inset - 1, y1 - inset - 1]
    # Dark under gold, so the ring shows on sandstone cities and pale roads alike.
    draw.ellipse(box, outline=INK, width=width + 4)
    draw.ellipse([box[0] + 2, box[1] + 2, box[2] - 2, box[3] - 2], outline=GOLD, width=width)


def squares_image(
    game: Game,
    page: int = 0,
    language: str = DEFAULT_LANGUAGE,
    focus: Sequence[Pos] = (),
) -> Image.Image:
    """Part ``page`` of the board where the tile in hand fits: its squares numbered as
    :func:`squares_pages` numbers them, with the tile in hand above; the squares of
    ``focus`` (what a lesson is about) ringed in gold, the window grown to show them."""
    if game.tile is None:
        raise ValueError("there is no tile in hand")
    pages = squares_pages(game)
    if not 0 <= page < len(pages):
        raise ValueError(f"there is no part {page} of the squares")
    window = squares_window(game, page, focus)
    image, draw = _draw_window(game, window)
    first = sum(len(p) for p in pages[:page]) + 1
    for number, pos in enumerate(pages[page], start=first):
        _number(draw, window, pos, number)
    for pos in focus:
        _ring(draw, window, pos)
    # The tile in hand, and what to do.
    pad = 16
    top = (SQUARES_HEADER - HAND_TILE) // 2
    image.paste(sprite(game.tile, 0, HAND_TILE), (pad, top))
    draw.rectangle(
        [pad - 2, top - 2, pad + HAND_TILE + 1, top + HAND_TILE + 1], outline=INK, width=2
    )
    x = pad + HAND_TILE + 18
    room = window.size[0] - x - pad
    title = t("covenant.picture.squares_title", language)
    face = font(28, bold=True)
    draw_text(draw, (x, top + 4), clip(title, face, room), face, INK)
    if len(pages) > 1:
        text = t("covenant.picture.squares_part", language, page=page + 1, pages=len(pages))
    else:
        text = t("covenant.picture.squares_all", language)
    lines, small = _fit_lines(text, room)
    for i, line in enumerate(lines):
        draw_text(draw, (x, top + 46 + i * (small.size + 6)), line, small, INK)
    return image


# --------------------------------------------------------------------- the tile placed


def placed_image(game: Game) -> Image.Image:
    """The tile just placed (or previewed: ``game`` is then the game as it would be) with
    the eight squares around it, large; the spots of the new tile a piece may take
    lettered A, B, ... in the order of :func:`render.covenant.board.deploy_ports`."""
    if game.last_placed is None or game.phase != "deploy":
        raise ValueError("no tile has just been placed")
    pos = game.last_placed
    window = Window.around([pos])
    image, draw = _draw_window(game, window)
    _dim(draw, window, {pos}, 80)
    _outline(draw, window.box(pos), CHOICE, window.tile)
    placed = game.board[pos]
    x0, y0, _, _ = window.box(pos)
    for index, port in enumerate(deploy_ports(game)):
        px, py = piece_point(placed.id, placed.rotation, port)
        _badge(draw, (x0 + px * window.tile, y0 + py * window.tile), spot_letter(index), 16)
    return image


# --------------------------------------------------------------------- the Ark

ARK_CAPTION = 64


def ark_reach(game: Game) -> tuple[Pos, ...]:
    """The squares the Ark may end on this turn (every legal path's last square)."""
    if game.ark is None:
        return ()
    found: dict[Pos, None] = {}
    for path in _paths(game):
        found[_walk(game.ark, path)[-1]] = None
    return tuple(found)


def _paths(game: Game) -> list[str]:
    return [a.path for a in game.legal_actions() if hasattr(a, "path")]


def _walk(start: Pos, path: str) -> list[Pos]:
    squares = []
    pos = start
    for letter in path:
        pos = neighbour(pos, SIDE_INDEX[letter])
        squares.append(pos)
    return squares


def ark_window(game: Game) -> Window:
    """The window of the Ark's pictures: every square it can reach this turn."""
    if game.ark is None:
        raise ValueError("the Ark is not on the board")
    reach = [*ark_reach(game), game.ark]
    return Window.around(reach, ring=0, caption=ARK_CAPTION, least=WIDTH * 2 // 3)


def ark_image(
    game: Game,
    path: str = "",
    names: list[str] | None = None,
    language: str = DEFAULT_LANGUAGE,
) -> Image.Image:
    """The board around the Ark: every square it can reach this turn (framed), and with
    ``path`` its route there (numbered steps, the Ark where it would stop), with on each
    tile of the route the points entering it gives (one per piece)."""
    if game.ark is None:
        raise ValueError("the Ark is not on the board")
    if path and path not in _paths(game):
        raise ValueError(f"the Ark cannot go {path!r}")
    window = ark_window(game)
    tile = window.tile
    image, draw = _draw_window(game, window, ark=False)
    steps = _walk(game.ark, path)
    end = steps[-1] if steps else game.ark
    reach = set(ark_reach(game))
    _dim(draw, window, {*steps, game.ark} if steps else {*reach, game.ark}, 150)
    if not steps:
        for pos in reach:
            _outline(draw, window.box(pos), CHOICE, tile)
    for pos in steps:
        _points_badges(image, draw, game, window, pos)
    # The route: a golden line through the centres, each step numbered.
    line = [window.centre(game.ark), *(window.centre(p) for p in steps)]
    if len(line) > 1:
        width = max(6, tile // 14)
        draw.line(line, fill=INK, width=width + 6, joint="curve")
        draw.line(line, fill=GOLD, width=width, joint="curve")
    for number, pos in enumerate(steps, start=1):
        cx, cy = window.centre(pos)
        r = max(tile * 0.14, TEXT * 0.75)
        ox, oy = cx - tile * 0.28, cy - tile * 0.28
        draw.ellipse([ox - r, oy - r, ox + r, oy + r], fill=INK, outline=GOLD, width=3)
        draw_text(draw, (ox, oy), str(number), font(max(TEXT, round(r * 1.3)), True), WHITE, "mm")
    # The Ark where it would stop, faint where it stands now.
    size = max(30, round(tile * 0.5))
    ark = pieces.ark(size)
    if steps:
        ghost = ark.copy()
        ghost.putalpha(ghost.getchannel("A").point(lambda a: a * 0.45))
        gx, gy = window.centre(game.ark)
        image.paste(ghost, (round(gx - size / 2), round(gy - size / 2)), ghost)
    ex, ey = window.centre(end)
    image.paste(ark, (round(ex - size / 2), round(ey - size / 2)), ark)
    _outline(draw, window.box(end), LAST_TILE if steps else GOLD, tile)
    lines, face = _caption_lines(game, path, names, language, window.size[0] - 24)
    _caption(draw, lines, face, 12, ARK_CAPTION)
    return image


def _caption_lines(
    game: Game, path: str, names: list[str] | None, language: str, width: int
) -> tuple[list[str], ImageFont.FreeTypeFont]:
    """The caption on one line, smaller if need be, else on two; never cut: only the names
    are shortened if even two lines are not enough."""
    shown = player_names(game.players, names, language)

    def make(who: list[str]) -> str:
        return _ark_caption(game, path, who, language)

    for size, lines in ((28, 1), (24, 1), (TEXT, 1), (TEXT, 2)):
        face = font(size, bold=True)
        found = wrap(make(shown), face, width, lines)
        if found is not None:
            return found, face
    text = sentence(make, shown, lambda text: wrap(text, face, width, 2) is not None)
    return wrap(text, face, width, 2) or [clip(text, face, width)], face


def _ark_caption(game: Game, path: str, shown: list[str], language: str) -> str:
    if not path:
        return t("covenant.picture.ark_start", language)
    gains = [
        t("covenant.picture.ark_gain", language, player=shown[s], points=p)
        for s, p in enumerate(game.ark_gain(path))
        if p
    ]
    if not gains:
        return t("covenant.picture.ark_nobody", language, path=route_text(path))
    return t("covenant.picture.ark_gains", language, path=route_text(path), gains=tuple(gains))


def _points_badges(
    image: Image.Image, draw: ImageDraw.ImageDraw, game: Game, window: Window, pos: Pos
) -> None:
    """One badge per seat with pieces on the tile: "+n" in the seat's colour."""
    placed = game.board.get(pos)
    if placed is None or not placed.pieces:
        return
    counts: dict[int, int] = {}
    for piece in placed.pieces:
        counts[piece.seat] = counts.get(piece.seat, 0) + 1
    x0, _, _, y1 = window.box(pos)
    face = font(max(TEXT, round(window.tile * 0.18)), True)
    h = round(face.size * 1.35)
    x = x0 + 6
    for seat, count in sorted(counts.items()):
        style = PLAYERS[seat]
        text = f"+{count}"
        w = round(face.getlength(text)) + h // 2 + 8
        draw.rounded_rectangle(
            [x, y1 - h - 6, x + w, y1 - 6], radius=h // 2, fill=style.colour, outline=INK, width=2
        )
        draw_text(draw, (x + w / 2, y1 - 6 - h / 2), text, face, style.mark_colour, "mm")
        x += w + 4


# --------------------------------------------------------------------- the Ark put in a city


def put_ark_window(game: Game) -> Window:
    """The window of the picture of where the Ark may be put: the city and a square
    around it."""
    if game.phase != "place_ark":
        raise ValueError("the Ark is not to be put on the board now")
    return Window.around(list(game.ark_choices), caption=ARK_CAPTION, least=WIDTH * 2 // 3)


def put_ark_image(game: Game, language: str = DEFAULT_LANGUAGE) -> Image.Image:
    """The city just completed, its tiles numbered in the order of ``game.ark_choices``:
    the squares where the Ark may be put; the rest softened."""
    window = put_ark_window(game)
    image, draw = _draw_window(game, window)
    choices = list(game.ark_choices)
    _dim(draw, window, set(choices))
    for number, pos in enumerate(choices, start=1):
        _number(draw, window, pos, number)
    lines, face = _fit_lines(t("covenant.picture.put_ark", language), window.size[0] - 24)
    _caption(draw, lines, face, 12, ARK_CAPTION)
    return image
