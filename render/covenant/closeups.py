"""Close-ups: a few squares of the board, large, so a phone shows them well however big the
board has grown. The tile in hand on its chosen square, and the Ark with its path.

Every close-up names its squares along the edges (the names of
:mod:`engine.covenant.notation`), so what it shows can be found on the whole board.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from PIL import Image, ImageDraw, ImageFont

from engine.covenant.game import Game, PlacedTile
from engine.covenant.geometry import SIDE_INDEX, Pos, neighbour
from engine.covenant.notation import column_name, row_name
from render.covenant import pieces
from render.covenant.board import Overlay, PiecesShown, _draw_pieces, _outline, overlay_for
from render.covenant.colours import CHOICE, LAST_TILE
from render.covenant.tileart import sprite
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
    player_names,
    sentence,
    wrap,
)

ZOOM_TILE = 150  # px a tile in a close-up: every letter readable at phone width
LABEL_BAND = 34
Box = tuple[int, int, int, int]


@dataclass(frozen=True, slots=True)
class Window:
    """Squares ``left..left+columns-1`` x ``top..top+rows-1``, ``tile`` px each, drawn with
    a band of square names around them, below a caption of ``caption`` px; ``margin`` px of
    parchment left and right make a narrow window wide enough for its caption."""

    left: int
    top: int
    columns: int
    rows: int
    tile: int
    caption: int = 0
    margin: int = 0

    @property
    def origin(self) -> tuple[int, int]:
        return (self.margin + LABEL_BAND, self.caption + LABEL_BAND)

    @property
    def size(self) -> tuple[int, int]:
        return (
            self.columns * self.tile + 2 * LABEL_BAND + 2 * self.margin,
            self.caption + self.rows * self.tile + 2 * LABEL_BAND,
        )

    def box(self, pos: Pos) -> Box:
        x0 = self.origin[0] + (pos[0] - self.left) * self.tile
        y0 = self.origin[1] + (pos[1] - self.top) * self.tile
        return (x0, y0, x0 + self.tile, y0 + self.tile)

    def centre(self, pos: Pos) -> tuple[float, float]:
        x0, y0, x1, y1 = self.box(pos)
        return ((x0 + x1) / 2, (y0 + y1) / 2)

    def contains(self, pos: Pos) -> bool:
        return (
            self.left <= pos[0] < self.left + self.columns
            and self.top <= pos[1] < self.top + self.rows
        )


def _draw_window(
    game: Game, window: Window, overlay: Overlay | None = None, ark: bool = True
) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    """The squares of ``window`` with their tiles and pieces, named along the edges."""
    image = Image.new("RGB", window.size, PARCHMENT)
    draw = ImageDraw.Draw(image, "RGBA")
    x0, y0 = window.origin
    x1, y1 = x0 + window.columns * window.tile, y0 + window.rows * window.tile
    draw.rectangle([x0, y0, x1 - 1, y1 - 1], fill=PARCHMENT_DARK)
    for pos, placed in game.board.items():
        if window.contains(pos):
            bx, by, _, _ = window.box(pos)
            image.paste(sprite(placed.id, placed.rotation, window.tile), (bx, by))
    if overlay is not None:
        bx, by, _, _ = window.box(overlay.pos)
        image.paste(sprite(overlay.tile_id, overlay.rotation, window.tile), (bx, by))
    shown = game if ark else _without_ark(game)
    _draw_pieces(image, shown, window)
    # Square names along all four edges.
    face = font(22, bold=True)
    for c in range(window.columns):
        name = column_name(window.left + c)
        cx = x0 + c * window.tile + window.tile // 2
        for cy in (y0 - LABEL_BAND // 2, y1 + LABEL_BAND // 2):
            draw_text(draw, (cx, cy), name, face, INK, "mm")
    for r in range(window.rows):
        name = row_name(window.top + r)
        cy = y0 + r * window.tile + window.tile // 2
        for cx in (x0 - LABEL_BAND // 2, x1 + LABEL_BAND // 2):
            draw_text(
                draw, (cx, cy), clip(name, font(18, True), LABEL_BAND), font(18, True), INK, "mm"
            )
    return image, draw


class _NoArk:
    """A game seen without its Ark (the Ark is drawn where it would go instead)."""

    def __init__(self, game: Game) -> None:
        self._game = game

    @property
    def board(self) -> Mapping[Pos, PlacedTile]:
        return self._game.board

    ark: Pos | None = None


def _without_ark(game: Game) -> PiecesShown:
    return _NoArk(game)


# --------------------------------------------------------------------- the tile in hand


def preview_zoom_image(game: Game, x: int, y: int, rotation: int) -> Image.Image:
    """The tile in hand on (x, y) turned ``rotation``, with the eight squares around it."""
    overlay = overlay_for(game, x, y, rotation)
    window = Window(x - 1, y - 1, 3, 3, ZOOM_TILE)
    image, draw = _draw_window(game, window, overlay)
    _dim_around(draw, window, (x, y))
    _outline(draw, window.box((x, y)), CHOICE, ZOOM_TILE)
    return image


def _dim_around(draw: ImageDraw.ImageDraw, window: Window, keep: Pos) -> None:
    """Soften every square but ``keep``, so the eye goes to it."""
    for c in range(window.columns):
        for r in range(window.rows):
            pos = (window.left + c, window.top + r)
            if pos != keep:
                bx0, by0, bx1, by1 = window.box(pos)
                draw.rectangle([bx0, by0, bx1 - 1, by1 - 1], fill=(*PARCHMENT, 80))


# --------------------------------------------------------------------- the Ark

ARK_WIDTH = 760  # px of squares at most; tiles shrink to fit the Ark's whole reach
ARK_CAPTION = 56
#: px: a reach one or two squares wide is centred in this much, so its caption has room.
ARK_MIN_WIDTH = 480


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


def ark_image(
    game: Game,
    path: str = "",
    names: list[str] | None = None,
    language: str = DEFAULT_LANGUAGE,
) -> Image.Image:
    """The board around the Ark: every square it can reach this turn, the path chosen so far
    (numbered steps, the Ark where it would stop), the squares of the next step (marked with
    their arrow letters), and on each tile the points entering it gives (one per piece)."""
    if game.ark is None:
        raise ValueError("the Ark is not on the board")
    paths = _paths(game)
    if path and path not in paths:
        raise ValueError(f"the Ark cannot go {path!r}")
    reach = set(ark_reach(game)) | {game.ark}
    xs = [p[0] for p in reach]
    ys = [p[1] for p in reach]
    columns, rows = max(xs) - min(xs) + 1, max(ys) - min(ys) + 1
    tile = max(64, min(ZOOM_TILE, ARK_WIDTH // max(columns, rows)))
    margin = max(0, (ARK_MIN_WIDTH - columns * tile - 2 * LABEL_BAND + 1) // 2)
    window = Window(min(xs), min(ys), columns, rows, tile, ARK_CAPTION, margin)
    image, draw = _draw_window(game, window, ark=False)
    steps = _walk(game.ark, path)
    end = steps[-1] if steps else game.ark
    # Where the Ark may still go from the end of the path: the rest is softened.
    ahead = {_walk(game.ark, p)[-1] for p in paths if p.startswith(path) and len(p) > len(path)}
    for c in range(columns):
        for row in range(rows):
            pos = (window.left + c, window.top + row)
            bx0, by0, bx1, by1 = window.box(pos)
            if pos not in game.board:
                continue
            if pos not in ahead and pos not in steps and pos != game.ark:
                draw.rectangle([bx0, by0, bx1 - 1, by1 - 1], fill=(*PARCHMENT, 150))
    # Points on every tile with pieces that the Ark may still enter, or has entered.
    for pos in {*ahead, *steps}:
        _points_badges(image, draw, game, window, pos)
    # The path: a golden line through the centres, each step numbered.
    line = [window.centre(game.ark), *(window.centre(p) for p in steps)]
    if len(line) > 1:
        width = max(6, tile // 14)
        draw.line(line, fill=INK, width=width + 6, joint="curve")
        draw.line(line, fill=GOLD, width=width, joint="curve")
    for number, pos in enumerate(steps, start=1):
        cx, cy = window.centre(pos)
        r = tile * 0.14
        ox, oy = cx - tile * 0.28, cy - tile * 0.28
        draw.ellipse([ox - r, oy - r, ox + r, oy + r], fill=INK, outline=GOLD, width=3)
        draw_text(draw, (ox, oy), str(number), font(round(r * 1.3), True), WHITE, "mm")
    # The next step's squares, lettered like the arrow buttons.
    if len(path) < 5:
        for letter in "NESW":
            nxt = neighbour(end, SIDE_INDEX[letter])
            if path + letter in paths:
                _outline(draw, window.box(nxt), CHOICE, tile)
                cx, cy = window.centre(nxt)
                r = tile * 0.15
                ox, oy = cx + tile * 0.28, cy - tile * 0.28
                draw.ellipse([ox - r, oy - r, ox + r, oy + r], fill=CHOICE, outline=WHITE, width=3)
                draw_text(draw, (ox, oy), letter, font(round(r * 1.3), True), WHITE, "mm")
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
    # The caption: what the path gives so far.
    lines, face = _caption_lines(game, path, names, language, window.size[0] - 24)
    step = face.size + 4
    top = ARK_CAPTION / 2 - step * (len(lines) - 1) / 2
    for i, text in enumerate(lines):
        draw_text(draw, (12, top + i * step), text, face, INK, "lm")
    return image


def _caption_lines(
    game: Game, path: str, names: list[str] | None, language: str, width: int
) -> tuple[list[str], ImageFont.FreeTypeFont]:
    """The caption on one line, smaller if need be, else on two; never cut: only the names
    are shortened if even two lines are not enough."""
    shown = player_names(game.players, names, language)

    def make(who: list[str]) -> str:
        return _ark_caption(game, path, who, language)

    for size, lines in ((28, 1), (24, 1), (20, 1), (20, 2)):
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
        return t("covenant.picture.ark_nobody", language, path=path)
    return t("covenant.picture.ark_gains", language, path=path, gains=tuple(gains))


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
    h = max(22, round(window.tile * 0.22))
    face = font(round(h * 0.72), True)
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
