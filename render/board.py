"""The board picture: tiles, pieces, the Ark, square labels, spots and the players' panel.

:func:`board_layout` decides every position (tile size, label spots, panel box) from the
game alone, so tests can check the layout and the pixels separately. The square names are
those of :meth:`engine.covenant.notation.Grid.around` over the placed tiles, so the bot and
the picture always agree on what "C4" means.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from PIL import Image, ImageDraw

from engine.covenant.game import FOLLOWERS, Game
from engine.covenant.geometry import Pos
from engine.covenant.notation import Grid, column_name
from engine.covenant.tiles import TILES
from render import pieces
from render.style import (
    GRID_LINE,
    INK,
    INK_SOFT,
    LAST_TILE,
    PARCHMENT,
    PARCHMENT_DARK,
    PLAYERS,
    SPOT,
    WHITE,
    font,
    player_names,
)
from render.tileart import piece_point, sprite

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
            column_labels.append(Label(column_name(c), x, y))
    row_labels = []
    for r in range(rows):
        y = origin[1] + r * tile + tile // 2
        for x in (left + half, left + board_w - half):
            row_labels.append(Label(str(r + 1), x, y))
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


@dataclass(frozen=True, slots=True)
class Overlay:
    """A tile drawn on an empty square without touching the game (for previews)."""

    pos: Pos
    tile_id: str
    rotation: int


def draw_board(
    game: Game,
    *,
    spots: bool = False,
    names: list[str] | None = None,
    overlay: Overlay | None = None,
) -> tuple[Image.Image, BoardLayout]:
    """The board picture as a Pillow image, with the layout used to draw it."""
    layout = board_layout(game)
    image = Image.new("RGB", (layout.width, layout.height), PARCHMENT)
    draw = ImageDraw.Draw(image, "RGBA")
    tile = layout.tile
    bx0, by0, bx1, by1 = layout.board_box
    draw.rectangle([bx0 - 1, by0 - 1, bx1, by1], fill=PARCHMENT_DARK)
    # Faint squares over the whole grid, so free squares can be counted and named.
    for c in range(layout.grid.columns + 1):
        x = bx0 + c * tile
        draw.line([(x, by0), (x, by1)], fill=GRID_LINE, width=1)
    for r in range(layout.grid.rows + 1):
        y = by0 + r * tile
        draw.line([(bx0, y), (bx1, y)], fill=GRID_LINE, width=1)
    _draw_labels(draw, layout)
    for pos, placed in game.board.items():
        x0, y0, _, _ = layout.box(pos)
        image.paste(sprite(placed.id, placed.rotation, tile), (x0, y0))
    if overlay is not None:
        x0, y0, _, _ = layout.box(overlay.pos)
        image.paste(sprite(overlay.tile_id, overlay.rotation, tile), (x0, y0))
    _draw_pieces(image, game, layout)
    if overlay is not None:
        _outline(draw, layout.box(overlay.pos), SPOT, tile)
    elif game.last_placed is not None:
        _outline(draw, layout.box(game.last_placed), LAST_TILE, tile)
    if spots and overlay is None:
        _draw_spots(draw, game, layout)
    draw_panel(image, game, layout, player_names(game.players, names), overlay)
    return image, layout


def _draw_labels(draw: ImageDraw.ImageDraw, layout: BoardLayout) -> None:
    face = font(layout.label_size, bold=True)
    for label in (*layout.column_labels, *layout.row_labels):
        draw.text((label.x, label.y), label.text, font=face, fill=INK, anchor="mm")


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


def _draw_pieces(image: Image.Image, game: Game, layout: BoardLayout) -> None:
    tile = layout.tile
    for pos, placed in game.board.items():
        x0, y0, _, _ = layout.box(pos)
        taken: list[tuple[float, float]] = []
        for piece in placed.pieces:
            px, py = piece_point(placed.id, placed.rotation, piece.port)
            kind = placed.view.segment_at(piece.port).kind
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
            image.paste(
                picture, (round(cx - picture.width / 2), round(cy - picture.height / 2)), picture
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
            image.paste(
                picture, (round(cx - picture.width / 2), round(cy - picture.height / 2)), picture
            )


def _draw_spots(draw: ImageDraw.ImageDraw, game: Game, layout: BoardLayout) -> None:
    """Number the squares where the tile in hand fits, in reading order (1, 2, ...)."""
    tile = layout.tile
    face = font(max(12, round(tile * 0.32)), bold=True)
    for number, pos in enumerate(game.placements(), start=1):
        x0, y0, x1, y1 = layout.box(pos)
        inset = max(2, tile // 14)
        draw.rectangle(
            [x0 + inset, y0 + inset, x1 - inset - 1, y1 - inset - 1],
            fill=(*SPOT, 40),
            outline=SPOT,
            width=max(2, tile // 30),
        )
        r = tile * 0.24
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        draw.ellipse(
            [cx - r, cy - r, cx + r, cy + r], fill=SPOT, outline=WHITE, width=max(1, tile // 40)
        )
        draw.text((cx, cy), str(number), font=face, fill=WHITE, anchor="mm")


# --------------------------------------------------------------------- panel

_PROPHET_WORDS = {"hand": "Prophet ready", "board": "Prophet on board", "box": "Prophet used"}


def phase_text(game: Game, names: list[str]) -> str:
    """One line saying whose turn it is and what they do now."""
    if game.phase == "over":
        winners = " & ".join(names[s] for s in game.winners())
        return f"Game over · {winners} win{'s' if len(game.winners()) == 1 else ''}"
    who = names[game.current_player]
    doing = {
        "place_tile": "places a tile",
        "deploy": "deploys, moves the Ark or passes",
        "place_ark": "places the Ark",
    }[game.phase]
    return f"{who} {doing}"


def draw_panel(
    image: Image.Image,
    game: Game,
    layout: BoardLayout,
    names: list[str],
    overlay: Overlay | None = None,
) -> None:
    """The players' panel: turn, tile in hand, tiles left, then one card per player."""
    draw = ImageDraw.Draw(image, "RGBA")
    x0, y0, x1, _ = layout.panel
    draw.text((x0 + 4, y0 + 4), f"Turn {game.turn}", font=font(34, bold=True), fill=INK)
    draw.text(
        (x0 + 4, y0 + 48), _fit(phase_text(game, names), 22, x1 - x0 - 8), font=font(22), fill=INK
    )
    hand_size = 96
    hy = y0 + 86
    shown = overlay.tile_id if overlay else game.tile
    if shown is not None:
        rotation = overlay.rotation if overlay else 0
        image.paste(sprite(shown, rotation, hand_size), (x0 + 4, hy))
        draw.rectangle([x0 + 3, hy - 1, x0 + 4 + hand_size, hy + hand_size], outline=INK, width=2)
        if overlay:
            caption = f"Preview: {shown} at {layout.grid.name(overlay.pos)}, {overlay.rotation}°"
        else:
            caption = f"In hand: {shown}"
        draw.text((x0 + hand_size + 16, hy + 8), caption, font=font(22, bold=True), fill=INK)
    tx = x0 + (hand_size + 16 if shown is not None else 4)
    draw.text((tx, hy + 40), f"Tiles left: {game.tiles_left}", font=font(22), fill=INK_SOFT)
    columns = 1 if layout.panel_side == "right" else max(1, (x1 - x0) // PANEL_W)
    card_w = (x1 - x0) // columns
    for seat in range(game.players):
        row, col = divmod(seat, columns)
        cx = x0 + col * card_w
        cy = y0 + HEADER_H + row * CARD_H
        _player_card(
            image, draw, game, seat, names[seat], (cx, cy, cx + card_w - 8, cy + CARD_H - 8)
        )


def _player_card(
    image: Image.Image, draw: ImageDraw.ImageDraw, game: Game, seat: int, name: str, box: Box
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
    title = ("▶ " if current else "") + name
    draw.text((x0 + 78, y0 + 8), _fit(title, 24, x1 - x0 - 170), font=font(24, bold=True), fill=INK)
    prophet = game.prophet_state(seat)
    words = _PROPHET_WORDS.get(prophet, prophet)
    detail = f"Followers {game.followers_left(seat)}/{FOLLOWERS} · {words}"
    draw.text((x0 + 78, y0 + 48), detail, font=font(18), fill=INK_SOFT)
    draw.text(
        (x1 - 14, y0 + 22), str(game.scores[seat]), font=font(38, bold=True), fill=INK, anchor="ra"
    )


def _fit(text: str, size: int, width: int) -> str:
    """``text`` shortened with an ellipsis so that it fits ``width`` pixels."""
    face = font(size, bold=True)
    if face.getlength(text) <= width:
        return text
    while text and face.getlength(text + "…") > width:
        text = text[:-1]
    return text + "…"


def overlay_for(game: Game, x: int, y: int, rotation: int) -> Overlay:
    """Check that the tile in hand fits at (x, y) turned ``rotation``; raise ValueError if not."""
    if game.tile is None:
        raise ValueError("There is no tile in hand to preview.")
    fits = game.placements().get((x, y), ())
    if rotation not in fits:
        grid = Grid.around(game.board)
        raise ValueError(f"{game.tile} does not fit at {grid.name((x, y))} turned {rotation}°.")
    assert game.tile in TILES
    return Overlay((x, y), game.tile, rotation)
