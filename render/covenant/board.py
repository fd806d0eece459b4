"""The board picture: tiles, pieces, the Ark, square labels, the numbered
squares and the players' panel.

:func:`board_layout` decides every position (tile size, label positions, panel box) from the
game alone, so tests can check the layout and the pixels separately. The square names are
those of :mod:`engine.covenant.notation`, fixed for the whole game, so the bot and every
picture always agree on what "C4" means.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal, Protocol

from PIL import Image, ImageDraw

from engine.covenant import TEMPLE, RotatedTile
from engine.covenant.game import FOLLOWERS, Game, PlacedTile
from engine.covenant.geometry import Pos
from engine.covenant.notation import Grid, column_name, row_name
from engine.protocol import to_act
from render.covenant import indexed, pieces
from render.covenant.colours import CHOICE, LAST_TILE
from render.covenant.tileart import piece_point, sprite
from render.covenant.window import numbered_squares
from render.i18n import DEFAULT_LANGUAGE, t
from render.style import (
    GRID_LINE,
    INK,
    INK_SOFT,
    PARCHMENT,
    PARCHMENT_DARK,
    PLAYERS,
    WHITE,
    clip,
    draw_text,
    font,
    player_names,
    sentence,
    text_length,
    wrap,
)

MAX_SIDE = 2000  # Discord shows it well and phones can zoom; the PNG stays far below 2 MB
MAX_TILE = 120
MIN_TILE = 28
PAD = 12
PANEL_W = 480
CARD_H = 96
HEADER_H = 196
Box = tuple[int, int, int, int]


@dataclass(frozen=True, slots=True)
class Label:
    """One row or column label: its text and the pixel it is centred on."""

    text: str
    x: int
    y: int


@dataclass(frozen=True, slots=True)
class BoardLayout:
    """Where everything goes in a board picture."""

    grid: Grid
    tile: int
    label_band: int
    label_size: int
    origin: tuple[int, int]  # top-left pixel of square A1
    width: int
    height: int
    panel: Box
    panel_side: Literal["right", "bottom"]
    column_labels: tuple[Label, ...]  # above and below the board
    row_labels: tuple[Label, ...]  # left and right of the board

    def box(self, pos: Pos) -> Box:
        """The pixel box (left, top, right, bottom; right/bottom exclusive) of square ``pos``."""
        x0 = self.origin[0] + (pos[0] - self.grid.left) * self.tile
        y0 = self.origin[1] + (pos[1] - self.grid.top) * self.tile
        return (x0, y0, x0 + self.tile, y0 + self.tile)

    @property
    def board_box(self) -> Box:
        """The pixel box of the whole grid of squares."""
        return (
            self.origin[0],
            self.origin[1],
            self.origin[0] + self.grid.columns * self.tile,
            self.origin[1] + self.grid.rows * self.tile,
        )


def _panel_height(players: int, columns: int = 1) -> int:
    rows = -(-players // columns)
    return HEADER_H + rows * CARD_H + PAD


def board_layout(game: Game) -> BoardLayout:
    """Lay out the board picture of ``game``: the tile size shrinks as the board grows."""
    grid = Grid.around(game.board)
    cols, rows = grid.columns, grid.rows

    def band(tile: int) -> int:
        return max(22, round(_label_size(tile) * 1.6))

    def fit(width: int, height: int) -> int:
        tile = MAX_TILE
        while tile > MIN_TILE and (
            cols * tile + 2 * band(tile) > width or rows * tile + 2 * band(tile) > height
        ):
            tile -= 1
        return tile

    right_tile = fit(MAX_SIDE - PANEL_W - 3 * PAD, MAX_SIDE - 2 * PAD)
    bottom_cols = 2
    bottom_tile = fit(
        MAX_SIDE - 2 * PAD, MAX_SIDE - _panel_height(game.players, bottom_cols) - 3 * PAD
    )
    side: Literal["right", "bottom"] = "right" if right_tile >= bottom_tile else "bottom"
    tile = right_tile if side == "right" else bottom_tile
    label_band = band(tile)
    board_w = cols * tile + 2 * label_band
    board_h = rows * tile + 2 * label_band
    if side == "right":
        panel_h = _panel_height(game.players)
        width = PAD + board_w + PAD + PANEL_W + PAD
        height = PAD + max(board_h, panel_h) + PAD
        panel = (PAD + board_w + PAD, PAD, width - PAD, PAD + max(board_h, panel_h))
        top = PAD + max(0, (panel_h - board_h) // 2)
        left = PAD
    else:
        width = PAD + max(board_w, 2 * PANEL_W) + PAD
        panel_h = _panel_height(game.players, bottom_cols)
        height = PAD + board_h + PAD + panel_h + PAD
        left = PAD + max(0, (2 * PANEL_W - board_w) // 2)
        top = PAD
        panel = (PAD, PAD + board_h + PAD, width - PAD, height - PAD)
    origin = (left + label_band, top + label_band)
    half = label_band // 2
    column_labels = []
    for c in range(cols):
        x = origin[0] + c * tile + tile // 2
        for y in (top + half, top + board_h - half):
            column_labels.append(Label(column_name(grid.left + c), x, y))
    row_labels = []
    for r in range(rows):
        y = origin[1] + r * tile + tile // 2
        for x in (left + half, left + board_w - half):
            row_labels.append(Label(row_name(grid.top + r), x, y))
    return BoardLayout(
        grid=grid,
        tile=tile,
        label_band=label_band,
        label_size=_label_size(tile),
        origin=origin,
        width=width,
        height=height,
        panel=panel,
        panel_side=side,
        column_labels=tuple(column_labels),
        row_labels=tuple(row_labels),
    )


def _label_size(tile: int) -> int:
    return max(14, min(26, round(tile * 0.26)))


# --------------------------------------------------------------------- drawing


def draw_board(
    game: Game,
    *,
    numbered: bool = False,
    names: list[str] | None = None,
    language: str = DEFAULT_LANGUAGE,
    bag: bool = True,
    layout: BoardLayout | None = None,
    viewer: int | None = None,
) -> tuple[Image.Image, BoardLayout]:
    """The board picture as a Pillow image, with the layout used to draw it (``layout``: that
    of another state of the game, e.g. its end, so every frame of a replay is laid out alike;
    its window must hold this board)."""
    layout = layout or board_layout(game)
    image = Image.new("RGB", (layout.width, layout.height), PARCHMENT)
    draw = ImageDraw.Draw(image, "RGBA")
    _draw_ground(image, draw, layout)
    for pos, placed in game.board.items():
        image.paste(sprite(placed.id, placed.rotation, layout.tile), layout.box(pos)[:2])
    _draw_over_tiles(image, draw, game, layout, numbered, piece_stamps(game, layout))
    shown = player_names(game.players, names, language)
    draw_panel(image, game, layout, shown, language, bag, viewer)
    return image, layout


def _draw_ground(image: Image.Image, draw: ImageDraw.ImageDraw, layout: BoardLayout) -> None:
    """What lies under the tiles: the darker parchment of the grid, its lines, the labels."""
    # Pasted, not drawn: the same pixels, without blending two million of them one by one.
    image.paste(PARCHMENT_DARK, _grid_box(layout))
    _draw_grid(draw, layout, GRID_LINE)
    _draw_labels(draw, layout)


def _draw_over_tiles(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    game: Game,
    layout: BoardLayout,
    numbered: bool,
    stamps: list[tuple[Image.Image, tuple[int, int]]],
) -> None:
    """What is drawn onto the tiles: the pieces (``stamps``), the last tile's frame and, with
    ``numbered``, the squares where the tile in hand fits."""
    for picture, corner in stamps:
        image.paste(picture, corner, picture)
    if game.last_placed is not None:
        _outline(draw, layout.box(game.last_placed), LAST_TILE, layout.tile)
    if numbered and game.phase == "place_tile":
        _number_squares(draw, game, layout)


def _grid_box(layout: BoardLayout) -> Box:
    """The board's squares and the line round them: the darker parchment."""
    bx0, by0, bx1, by1 = layout.board_box
    return (bx0 - 1, by0 - 1, bx1 + 1, by1 + 1)


def _draw_grid(draw: ImageDraw.ImageDraw, layout: BoardLayout, ink: int | tuple[int, ...]) -> None:
    """Faint squares over the whole grid, so free squares can be counted and named (``ink``:
    a colour, or a palette's index in a palette picture)."""
    tile = layout.tile
    bx0, by0, bx1, by1 = layout.board_box
    for c in range(layout.grid.columns + 1):
        x = bx0 + c * tile
        draw.line([(x, by0), (x, by1)], fill=ink, width=1)
    for r in range(layout.grid.rows + 1):
        y = by0 + r * tile
        draw.line([(bx0, y), (bx1, y)], fill=ink, width=1)


def _bands(layout: BoardLayout) -> list[Box]:
    """The four bands of labels round the grid (the bottom and right ones hold the grid's
    last line)."""
    bx0, by0, bx1, by1 = layout.board_box
    band = layout.label_band
    left, top, right, bottom = bx0 - band, by0 - band, bx1 + band, by1 + band
    return [
        (left, top, right, by0),
        (left, by1, right, bottom),
        (left, by0, bx0, by1),
        (bx1, by0, right, by1),
    ]


@lru_cache(maxsize=16)  # some 170 KB each, for a 72-tile board
def _ground_bands(layout: BoardLayout) -> list[tuple[Image.Image, tuple[int, int]]]:
    """The label bands of ``layout`` in the palette's colours, with their corners: the same
    on every turn until the board grows, so reduced once."""
    image = Image.new("RGB", (layout.width, layout.height), PARCHMENT)
    _draw_ground(image, ImageDraw.Draw(image, "RGBA"), layout)
    return [(indexed.reduced(image.crop(box)), box[:2]) for box in _bands(layout)]


def draw_board_indexed(
    game: Game,
    *,
    numbered: bool = False,
    names: list[str] | None = None,
    language: str = DEFAULT_LANGUAGE,
    viewer: int | None = None,
    panel: bool = True,
) -> Image.Image:
    """:func:`draw_board`'s picture in the shared palette's colours, pixel for pixel what
    reducing it to the palette gives, at a fraction of the cost: the parchment, the grid,
    the labels and the tiles are put down as palette indices (each tile's picture and the
    labels reduced once, and kept), and only what is blended (the pieces, the last tile's
    frame, the numbers, the players' panel) is drawn in RGB and reduced, box by box. A
    palette's nearest colour is a colour's alone, so a box reduced apart is the same as
    reduced with the whole. ``viewer`` is as in :func:`draw_board`; without ``panel``, the
    board alone (cropped above or beside where the players' panel would stand)."""
    layout = board_layout(game)
    tile = layout.tile
    stamps = piece_stamps(game, layout)
    # The boxes of what is drawn onto tiles.
    boxes: list[Box] = [(x, y, x + p.width, y + p.height) for p, (x, y) in stamps]
    if game.last_placed is not None:
        boxes.append(layout.box(game.last_placed))
    if numbered and game.phase == "place_tile":
        boxes += [layout.box(pos) for pos in numbered_squares(game)]
    grid = _grid_box(layout)
    x0, y0, x1, _ = layout.panel
    columns = 1 if layout.panel_side == "right" else max(1, (x1 - x0) // PANEL_W)
    # What the panel draws on: below its cards there is only parchment.
    cards = (x0, y0, x1, y0 + HEADER_H + cards_height(game.players, columns))
    if all(_inside(box, grid) for box in boxes):
        # Nothing reaches out over a label: only the boxes reduced below, and the panel,
        # need their ground in RGB (the rest of this picture is never read: not filled).
        rgb = Image.new("RGB", (layout.width, layout.height), None)
        draw = ImageDraw.Draw(rgb, "RGBA")
        for box in boxes:
            rgb.paste(PARCHMENT_DARK, box)
        _draw_grid(draw, layout, GRID_LINE)
        rgb.paste(PARCHMENT, cards)
    else:
        rgb = Image.new("RGB", (layout.width, layout.height), PARCHMENT)
        draw = ImageDraw.Draw(rgb, "RGBA")
        _draw_ground(rgb, draw, layout)
    for pos in _squares_under(layout, boxes):
        placed = game.board.get(pos)
        if placed is not None:
            rgb.paste(sprite(placed.id, placed.rotation, tile), layout.box(pos)[:2])
    _draw_over_tiles(rgb, draw, game, layout, numbered, stamps)
    image = indexed.blank((layout.width, layout.height), PARCHMENT)
    for band, corner in _ground_bands(layout):
        image.paste(band, corner)
    image.paste(indexed.colour_index(PARCHMENT_DARK), grid)
    _draw_grid(ImageDraw.Draw(image), layout, indexed.colour_index(GRID_LINE))
    for pos, placed in game.board.items():
        image.paste(indexed.sprite(placed.id, placed.rotation, tile), layout.box(pos)[:2])
    for x0, y0, x1, y1 in boxes:
        box = (max(0, x0), max(0, y0), min(layout.width, x1), min(layout.height, y1))
        if box[0] < box[2] and box[1] < box[3]:
            image.paste(indexed.reduced(rgb.crop(box)), box[:2])
    if not panel:
        left, top, _, _ = layout.panel
        if layout.panel_side == "bottom":
            return image.crop((0, 0, image.width, top))
        return image.crop((0, 0, left, image.height))
    # The panel stands on the parchment alone, apart from the board.
    shown = player_names(game.players, names, language)
    draw_panel(rgb, game, layout, shown, language, viewer=viewer)
    image.paste(indexed.reduced(rgb.crop(cards)), cards[:2])
    return image


def _inside(box: Box, other: Box) -> bool:
    return other[0] <= box[0] and other[1] <= box[1] and box[2] <= other[2] and box[3] <= other[3]


def _squares_under(layout: BoardLayout, boxes: list[Box]) -> set[Pos]:
    """The squares some pixel of ``boxes`` lies on."""
    (ox, oy), tile, grid = layout.origin, layout.tile, layout.grid
    squares: set[Pos] = set()
    for x0, y0, x1, y1 in boxes:
        for x in range((x0 - ox) // tile, (x1 - 1 - ox) // tile + 1):
            for y in range((y0 - oy) // tile, (y1 - 1 - oy) // tile + 1):
                squares.add((grid.left + x, grid.top + y))
    return squares


def _draw_labels(draw: ImageDraw.ImageDraw, layout: BoardLayout) -> None:
    face = font(layout.label_size, bold=True)
    for label in (*layout.column_labels, *layout.row_labels):
        draw_text(draw, (label.x, label.y), label.text, font=face, fill=INK, anchor="mm")


def outline_width(tile: int) -> int:
    """How thick the highlight around a tile is."""
    return max(3, tile // 16)


def _outline(draw: ImageDraw.ImageDraw, box: Box, colour: tuple[int, int, int], tile: int) -> None:
    """A thick frame inside ``box`` with a thin white line inside it, visible on any tile."""
    w = outline_width(tile)
    x0, y0, x1, y1 = box
    draw.rectangle([x0, y0, x1 - 1, y1 - 1], outline=colour, width=w)
    draw.rectangle(
        [x0 + w, y0 + w, x1 - 1 - w, y1 - 1 - w], outline=(*WHITE, 200), width=max(1, w // 3)
    )


class PiecesShown(Protocol):
    """What drawing the pieces reads of a game: its tiles and the Ark's square (a close-up
    passes a game without its Ark, to draw the Ark where it would go instead)."""

    @property
    def board(self) -> Mapping[Pos, PlacedTile]: ...

    @property
    def ark(self) -> Pos | None: ...


class SquareBoxes(Protocol):
    """What drawing the pieces reads of a layout: a square's size and its box (the whole
    board's layout, or a window of a few squares)."""

    @property
    def tile(self) -> int: ...

    def box(self, pos: Pos) -> Box: ...


def _draw_pieces(image: Image.Image, game: PiecesShown, layout: SquareBoxes) -> None:
    for picture, corner in piece_stamps(game, layout):
        image.paste(picture, corner, picture)


def piece_stamps(
    game: PiecesShown, layout: SquareBoxes
) -> list[tuple[Image.Image, tuple[int, int]]]:
    """Each piece's picture (and the Ark's) with the pixel of its top-left corner, in the
    order they are drawn."""
    tile = layout.tile
    stamps: list[tuple[Image.Image, tuple[int, int]]] = []
    for pos, placed in game.board.items():
        x0, y0, _, _ = layout.box(pos)
        taken: list[tuple[float, float]] = []
        for piece in placed.pieces:
            px, py = piece_point(placed.id, placed.rotation, piece.port)
            kind = _kind_at(placed.view, piece.port)
            if piece.prophet:
                picture = pieces.prophet(piece.seat, max(16, round(tile * 0.46)))
            else:
                picture = pieces.follower(piece.seat, max(14, round(tile * 0.36)), kind == "field")
            cx, cy = x0 + px * tile, y0 + py * tile
            # Two pieces on one tile (rare) must not hide each other.
            while any(
                abs(cx - tx) < tile * 0.15 and abs(cy - ty) < tile * 0.15 for tx, ty in taken
            ):
                cx += tile * 0.18
            taken.append((cx, cy))
            stamps.append(
                (picture, (round(cx - picture.width / 2), round(cy - picture.height / 2)))
            )
        if game.ark == pos:
            picture = pieces.ark(max(18, round(tile * 0.5)))
            corners = [(0.27, 0.73), (0.73, 0.73), (0.27, 0.27), (0.73, 0.27)]
            spots = [(x0 + u * tile, y0 + v * tile) for u, v in corners]
            # The Ark sits in the corner farthest from the pieces on its tile.
            cx, cy = max(
                spots,
                key=lambda p: min(
                    ((p[0] - tx) ** 2 + (p[1] - ty) ** 2 for tx, ty in taken), default=0
                ),
            )
            stamps.append(
                (picture, (round(cx - picture.width / 2), round(cy - picture.height / 2)))
            )
    return stamps


def _number_squares(draw: ImageDraw.ImageDraw, game: Game, layout: BoardLayout) -> None:
    """Number the squares where the tile in hand fits (1, 2, ... as :func:`squares_pages`
    numbers them)."""
    tile = layout.tile
    face = font(max(12, round(tile * 0.32)), bold=True)
    for number, pos in enumerate(numbered_squares(game), start=1):
        x0, y0, x1, y1 = layout.box(pos)
        inset = max(2, tile // 14)
        draw.rectangle(
            [x0 + inset, y0 + inset, x1 - inset - 1, y1 - inset - 1],
            fill=(*CHOICE, 40),
            outline=CHOICE,
            width=max(2, tile // 30),
        )
        r = tile * 0.24
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        draw.ellipse(
            [cx - r, cy - r, cx + r, cy + r], fill=CHOICE, outline=WHITE, width=max(1, tile // 40)
        )
        draw_text(draw, (cx, cy), str(number), font=face, fill=WHITE, anchor="mm")


def deploy_ports(game: Game) -> list[str]:
    """In ``deploy``: the features of the new tile where a piece may go, each named by its
    port, in the order of ``legal_actions()``; the picture letters them A, B, C, ..."""
    ports: list[str] = []
    for action in game.legal_actions():
        port = getattr(action, "port", None)
        if port is not None and port not in ports:
            ports.append(port)
    return ports


def _kind_at(view: RotatedTile, port: str) -> str:
    """The kind of feature a piece on ``port`` stands on (``"temple"`` for the temple)."""
    return "temple" if port == TEMPLE else view.segment_at(port).kind


def _same_spot(view: RotatedTile, one: str, other: str) -> bool:
    if TEMPLE in (one, other):
        return one == other
    return view.segment_at(one) == view.segment_at(other)


def spot_letter(index: int) -> str:
    return chr(ord("A") + index)


# --------------------------------------------------------------------- panel

_PROPHET_WORDS = {
    "hand": "covenant.picture.prophet_hand",
    "board": "covenant.picture.prophet_board",
    "box": "covenant.picture.prophet_box",
}
_DOING = {
    "place_tile": "covenant.picture.placing",
    "deploy": "covenant.picture.deploying",
    "place_ark": "covenant.picture.placing_ark",
}
PHASE_SIZE = 22
PHASE_LINE = 26


def phase_lines(
    game: Game,
    names: list[str],
    language: str = DEFAULT_LANGUAGE,
    width: float = PANEL_W - 8,
    lines: int = 1,
    viewer: int | None = None,
) -> list[str]:
    """Whose turn it is and what they do now, in at most ``lines`` lines of ``width`` pixels
    ("you" to ``viewer``, the seat it is drawn for privately).

    The words are never cut: a name too long to fit is shortened instead.
    """
    face = font(PHASE_SIZE)
    if game.phase == "over":
        seats = game.winners
        key = "covenant.picture.over_one" if len(seats) == 1 else "covenant.picture.over_many"
        joiner = t("common.picture.joiner", language)

        def make(shown: list[str]) -> str:
            return t(key, language, winners=joiner.join(shown))

        who = [names[s] for s in seats]
    else:
        key = _DOING[game.phase]
        you = "yes" if viewer is not None and viewer == to_act(game) else "no"

        def make(shown: list[str]) -> str:
            return t(key, language, player=shown[0], you=you)

        who = [names[to_act(game)]]
    text = sentence(make, who, lambda text: wrap(text, face, width, lines) is not None)
    return wrap(text, face, width, lines) or [clip(text, face, width)]


def phase_text(game: Game, names: list[str], language: str = DEFAULT_LANGUAGE) -> str:
    """One line saying whose turn it is and what they do now (names shortened to fit)."""
    return " ".join(phase_lines(game, names, language))


def draw_panel(
    image: Image.Image,
    game: Game,
    layout: BoardLayout,
    names: list[str],
    language: str = DEFAULT_LANGUAGE,
    bag: bool = True,
    viewer: int | None = None,
) -> None:
    """The players' panel: turn, tile in hand, tiles left (unless not ``bag``: a made-up
    board, e.g. the rules' example), then one card per player; ``viewer`` as in
    :func:`phase_lines`."""
    x0, y0, x1, y1 = layout.panel
    draw_header(image, game, (x0, y0, x1, y0 + HEADER_H), names, language, bag, viewer)
    columns = 1 if layout.panel_side == "right" else max(1, (x1 - x0) // PANEL_W)
    draw_cards(image, game, (x0, y0 + HEADER_H, x1, y1), columns, names, language)


def draw_header(
    image: Image.Image,
    game: Game,
    box: Box,
    names: list[str],
    language: str = DEFAULT_LANGUAGE,
    bag: bool = True,
    viewer: int | None = None,
) -> None:
    """The turn, whose turn it is and what they do, the tile in hand and the tiles left
    (unless not ``bag``), in ``box`` (:data:`HEADER_H` px high); ``viewer`` as in
    :func:`phase_lines`."""
    draw = ImageDraw.Draw(image, "RGBA")
    x0, y0, x1, _ = box
    title_face = font(34, bold=True)
    title = t("covenant.picture.turn", language, turn=game.turn)
    draw_text(draw, (x0 + 4, y0 + 4), clip(title, title_face, x1 - x0 - 8), title_face, INK)
    hand_size = 96
    hy = y0 + 86
    shown = game.tile
    # With no tile in hand the phase may take two lines: the hand's place is free.
    rows = 1 if shown is not None else 2
    lines = phase_lines(game, names, language, x1 - x0 - 8, rows, viewer)
    for i, line in enumerate(lines):
        draw_text(draw, (x0 + 4, y0 + 48 + i * PHASE_LINE), line, font=font(PHASE_SIZE), fill=INK)
    if shown is not None:
        image.paste(sprite(shown, 0, hand_size), (x0 + 4, hy))
        draw.rectangle([x0 + 3, hy - 1, x0 + 4 + hand_size, hy + hand_size], outline=INK, width=2)
        face = font(22, bold=True)
        words = t("covenant.picture.in_hand", language)
        room = x1 - x0 - hand_size - 20
        draw_text(draw, (x0 + hand_size + 16, hy + 8), clip(words, face, room), face, INK)
    tx = x0 + (hand_size + 16 if shown is not None else 4)
    if bag:
        left = t("covenant.picture.tiles_left", language, left=game.tiles_left)
        draw_text(draw, (tx, hy + 40), clip(left, font(22), x1 - tx - 4), font(22), INK_SOFT)


def draw_cards(
    image: Image.Image,
    game: Game,
    box: Box,
    columns: int,
    names: list[str],
    language: str = DEFAULT_LANGUAGE,
) -> None:
    """One card per player in ``box``, ``columns`` side by side, :data:`CARD_H` px high."""
    draw = ImageDraw.Draw(image, "RGBA")
    x0, y0, x1, _ = box
    card_w = (x1 - x0) // columns
    for seat in range(game.players):
        row, col = divmod(seat, columns)
        cx = x0 + col * card_w
        cy = y0 + row * CARD_H
        _player_card(
            image,
            draw,
            game,
            seat,
            names[seat],
            (cx, cy, cx + card_w - 8, cy + CARD_H - 8),
            language,
        )


def cards_height(players: int, columns: int) -> int:
    """How high :func:`draw_cards` draws the cards of ``players`` players."""
    return -(-players // columns) * CARD_H


#: The smallest text of a player's card: its picture is at most 840 px wide.
CARD_TEXT = 20


def _player_card(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    game: Game,
    seat: int,
    name: str,
    box: Box,
    language: str = DEFAULT_LANGUAGE,
) -> None:
    x0, y0, x1, y1 = box
    style = PLAYERS[seat]
    current = game.phase != "over" and seat == game.current_player
    fill = (255, 250, 236, 255) if current else (255, 250, 236, 110)
    draw.rounded_rectangle(
        [x0, y0, x1, y1],
        radius=10,
        fill=fill,
        outline=style.colour if current else GRID_LINE,
        width=4 if current else 2,
    )
    piece = pieces.legend_piece(seat, 60)
    image.paste(piece, (x0 + 8, y0 + (y1 - y0 - 60) // 2), piece)
    score = str(game.scores[seat])
    score_face = font(38, bold=True)
    # The name must stay clear of the score on the right; the details below take the
    # card's whole width, on two lines if one is not enough.
    room = x1 - 14 - score_face.getlength(score) - 12 - (x0 + 78)
    title = ("▶ " if current else "") + name
    title_face = font(24, bold=True)
    draw_text(draw, (x0 + 78, y0 + 8), clip(title, title_face, room), font=title_face, fill=INK)
    draw_text(draw, (x1 - 14, y0 + 8), score, font=score_face, fill=INK, anchor="ra")
    prophet = t(_PROPHET_WORDS[game.prophet_state(seat)], language)
    left = game.followers_left(seat)
    one = t("covenant.picture.followers", language, left=left, total=FOLLOWERS, prophet=prophet)
    wide = x1 - 10 - (x0 + 78)
    face = font(CARD_TEXT)
    lines = [one]
    if text_length(one, face) > wide:
        lines = [t("covenant.picture.followers_count", language, left=left, total=FOLLOWERS)]
        lines.append(prophet)
    top = y0 + 40 if len(lines) == 1 else y0 + 36
    for i, line in enumerate(lines):
        draw_text(draw, (x0 + 78, top + i * 24), clip(line, face, wide), face, INK_SOFT)
