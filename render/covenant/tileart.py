"""Tile pictures drawn from the tile data: fields, roads, walled cities, temples and icons.

Geometry lives in a unit square (x east, y south) at rotation 0. A design is drawn once,
supersampled, as a *master* without icons; a sprite for a rotation and a size is the
master turned by a lossless transpose, shrunk, and then given its icons (temple, scrolls,
oases, sheep, wolves) drawn upright, so a sheep never stands on its head.

Where pieces and icons go is found on a small *segment map* (each pixel holds the index of
the segment under it): the deepest point of a segment (found by repeated erosion) takes the
piece, and icons are spread over the other deep points. This works for every shape in the
set without hand-placed coordinates.

Every cache holds images that are never drawn on after they are made, so sprites can be
shared between threads.
"""

from __future__ import annotations

import math
import threading
from collections import OrderedDict
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageChops, ImageDraw, ImageFilter

from engine.covenant import TEMPLE
from engine.covenant.geometry import PORT_INDEX
from engine.covenant.tiles import TILES, Segment, TileDesign
from render.covenant import icons
from render.covenant.colours import (
    CITY,
    CITY_ROOF,
    FIELD,
    FIELD_DARK,
    ROAD,
    ROAD_EDGE,
    WALL,
    WALL_TOP,
)

Point = tuple[float, float]

MASTER = 384  # supersampled master size in pixels; sprites are shrunk from it
MAP = 64  # segment-map size in pixels
ROAD_WIDTH = 0.095  # of the tile side
WALL_WIDTH = 0.035
ROTATE = {
    0: None,
    90: Image.Transpose.ROTATE_270,  # Pillow's ROTATE_n turns counter-clockwise
    180: Image.Transpose.ROTATE_180,
    270: Image.Transpose.ROTATE_90,
}

# Side s runs clockwise from CORNERS[s] to CORNERS[s + 1].
CORNERS: tuple[Point, ...] = ((0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0))
MIDDLES: tuple[Point, ...] = ((0.5, 0.0), (1.0, 0.5), (0.5, 1.0), (0.0, 0.5))
INWARD: tuple[Point, ...] = ((0.0, 1.0), (-1.0, 0.0), (0.0, -1.0), (1.0, 0.0))
CENTRE: Point = (0.5, 0.5)


def port_point(port: int) -> Point:
    """Where ``port`` lies on the tile edge (ports sit at a quarter, half, three quarters)."""
    side, offset = divmod(port, 3)
    (ax, ay), (bx, by) = CORNERS[side], CORNERS[(side + 1) % 4]
    t = (offset + 1) / 4
    return (ax + (bx - ax) * t, ay + (by - ay) * t)


def turn_point(point: Point, rotation: int) -> Point:
    """``point`` turned clockwise about the tile centre by ``rotation`` degrees."""
    x, y = point
    for _ in range(rotation // 90):
        x, y = 1.0 - y, x
    return (x, y)


def _quad(p0: Point, c: Point, p1: Point, steps: int = 20) -> list[Point]:
    """Points along the quadratic Bézier curve from ``p0`` to ``p1`` pulled towards ``c``."""
    out = []
    for i in range(steps + 1):
        t = i / steps
        a, b, d = (1 - t) ** 2, 2 * (1 - t) * t, t * t
        out.append((a * p0[0] + b * c[0] + d * p1[0], a * p0[1] + b * c[1] + d * p1[1]))
    return out


def _inset(side: int, depth: float) -> Point:
    """The middle of ``side`` moved ``depth`` into the tile."""
    (mx, my), (nx, ny) = MIDDLES[side], INWARD[side]
    return (mx + nx * depth, my + ny * depth)


@dataclass(frozen=True, slots=True)
class CityShape:
    """A city area: its outline and the wall lines (the parts not on the tile edge)."""

    polygon: list[Point]
    walls: list[list[Point]]


def city_shape(sides: tuple[int, ...]) -> CityShape:
    """The area of a city that fills the edges ``sides`` (rotation-0 side numbers)."""
    held = set(sides)
    if len(held) == 4:
        return CityShape(list(CORNERS), [])
    if len(held) == 1:
        (s,) = held
        a, b = CORNERS[s], CORNERS[(s + 1) % 4]
        curve = _quad(b, _inset(s, 0.46), a)
        return CityShape([a, *curve], [curve])
    if len(held) == 2 and (max(held) - min(held)) % 2 == 1:
        # Two neighbouring sides: a corner piece whose wall runs from corner to corner,
        # bulging a little towards the free corner so it reads as a city, not a triangle.
        first = min(held) if (min(held) + 1) % 4 in held else max(held)
        a, k, b = CORNERS[first], CORNERS[(first + 1) % 4], CORNERS[(first + 2) % 4]
        free = CORNERS[(first + 3) % 4]
        c = (0.5 + (free[0] - 0.5) * 0.16, 0.5 + (free[1] - 0.5) * 0.16)
        curve = _quad(b, c, a)
        return CityShape([a, k, *curve], [curve])
    # Two opposite sides or three sides: walk round the tile, following each city edge and
    # curving inwards along each free side.
    polygon: list[Point] = []
    walls: list[list[Point]] = []
    for s in range(4):
        a, b = CORNERS[s], CORNERS[(s + 1) % 4]
        if s in held:
            polygon += [a, b]
        else:
            curve = _quad(a, _inset(s, 0.60 if len(held) == 3 else 0.46), b)
            polygon += curve
            walls.append(curve)
    return CityShape(polygon, walls)


def road_line(sides: tuple[int, ...]) -> list[Point]:
    """The centre line of a road holding the middles of ``sides``."""
    if len(sides) == 1:
        return [MIDDLES[sides[0]], CENTRE]
    a, b = sides
    if (a - b) % 2 == 0:
        return [MIDDLES[a], MIDDLES[b]]
    corner_side = b if (a + 1) % 4 == b else a  # the side that starts at the shared corner
    k = CORNERS[corner_side]
    c = (0.5 + (k[0] - 0.5) * 0.2, 0.5 + (k[1] - 0.5) * 0.2)
    return _quad(MIDDLES[a], c, MIDDLES[b])


def centre_feature(design: TileDesign) -> str | None:
    """What stands in the middle: ``"temple"``, a ``"crossing"`` where roads end, or None."""
    if design.temple:
        return "temple"
    ends = sum(1 for s in design.segments if s.kind == "road" and len(s.sides) == 1)
    return "crossing" if ends >= 2 else None


# --------------------------------------------------------------------- master pictures


def _px(points: list[Point], size: int) -> list[tuple[float, float]]:
    return [(x * size, y * size) for x, y in points]


def _tufts(design: TileDesign) -> list[Point]:
    """A few grass tufts at fixed pseudo-random points, different per design."""
    seed = sum(ord(c) * (i + 7) for i, c in enumerate(design.id))
    out = []
    for _ in range(14):
        seed = (seed * 1103515245 + 12345) & 0x7FFFFFFF
        x = 0.06 + (seed % 1000) / 1000 * 0.88
        seed = (seed * 1103515245 + 12345) & 0x7FFFFFFF
        y = 0.06 + (seed % 1000) / 1000 * 0.88
        out.append((x, y))
    return out


@lru_cache(maxsize=128)
def master(tile_id: str) -> Image.Image:
    """Design ``tile_id`` at rotation 0, supersampled, without icons (never modify it): a
    palette image, since it is drawn in a few flat colours without blending (a quarter of
    the memory of RGB: the 61 designs are 9 MB, not 36, in every picture worker)."""
    image = _draw_master(tile_id)
    # Exact: a palette of the picture's own colours, each pixel mapped to itself.
    colours = image.getcolors(256)
    assert colours is not None, f"{tile_id}: too many colours for a palette"
    palette = Image.new("P", (1, 1))
    palette.putpalette([channel for _, rgb in colours for channel in rgb])  # type: ignore[union-attr]
    return image.quantize(palette=palette, dither=Image.Dither.NONE)


def _draw_master(tile_id: str) -> Image.Image:
    design = TILES[tile_id]
    size = MASTER
    image = Image.new("RGB", (size, size), FIELD)
    draw = ImageDraw.Draw(image)
    for x, y in _tufts(design):
        # Short strokes of darker grass give the fields some life without noise.
        cx, cy = x * size, y * size
        for dx in (-5, 0, 5):
            draw.line([(cx + dx, cy + 4), (cx + dx * 1.6, cy - 6)], fill=FIELD_DARK, width=3)
    road_px = ROAD_WIDTH * size
    for segment in design.segments:
        if segment.kind == "road":
            line = _px(road_line(segment.sides), size)
            draw.line(line, fill=ROAD_EDGE, width=round(road_px + 0.045 * size), joint="curve")
    for segment in design.segments:
        if segment.kind == "road":
            line = _px(road_line(segment.sides), size)
            draw.line(line, fill=ROAD, width=round(road_px), joint="curve")
            for end in (line[0], line[-1]):
                r = road_px / 2
                draw.ellipse([end[0] - r, end[1] - r, end[0] + r, end[1] + r], fill=ROAD)
    wall = round(WALL_WIDTH * size)
    for segment in design.segments:
        if segment.kind == "city":
            _draw_city(draw, city_shape(segment.sides), size, wall)
    return image


def _draw_city(draw: ImageDraw.ImageDraw, shape: CityShape, size: int, wall: int) -> None:
    polygon = _px(shape.polygon, size)
    draw.polygon(polygon, fill=CITY)
    # Rows of little roofs inside the walls, clipped by drawing only where fully inside.
    xs = [p[0] for p in polygon]
    ys = [p[1] for p in polygon]
    step = size * 0.16
    roof = size * 0.045
    y = min(ys) + step * 0.6
    row = 0
    while y < max(ys):
        x = min(xs) + step * (0.5 + 0.5 * (row % 2))
        while x < max(xs):
            box = [(x - roof, y - roof * 0.6), (x + roof, y + roof * 0.6)]
            if all(_inside((px, py), polygon, margin=wall * 1.6) for px, py in box):
                draw.rectangle([box[0], box[1]], fill=CITY_ROOF)
            x += step
        y += step * 0.8
        row += 1
    for line in shape.walls:
        pts = _px(line, size)
        draw.line(pts, fill=WALL, width=wall, joint="curve")
        # Battlements: small stone blocks along the wall make it unmistakably a city edge.
        for i in range(1, len(pts) - 1, 2):
            x, y = pts[i]
            r = wall * 0.55
            draw.rectangle([x - r, y - r, x + r, y + r], fill=WALL_TOP)


def _inside(point: Point, polygon: list[tuple[float, float]], margin: float) -> bool:
    """Whether ``point`` lies inside ``polygon`` at least ``margin`` from every edge."""
    x, y = point
    inside = False
    n = len(polygon)
    for i in range(n):
        (x1, y1), (x2, y2) = polygon[i], polygon[(i + 1) % n]
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            inside = not inside
        if _segment_distance(point, (x1, y1), (x2, y2)) < margin:
            on_edge = _on_tile_edge((x1, y1), (x2, y2), MASTER)
            if not on_edge:
                return False
    return inside


def _on_tile_edge(a: Point, b: Point, size: int) -> bool:
    return (a[0] == b[0] and a[0] in (0, size)) or (a[1] == b[1] and a[1] in (0, size))


def _segment_distance(p: Point, a: Point, b: Point) -> float:
    ax, ay = a
    dx, dy = b[0] - ax, b[1] - ay
    length = dx * dx + dy * dy
    t = 0.0 if length == 0 else max(0.0, min(1.0, ((p[0] - ax) * dx + (p[1] - ay) * dy) / length))
    return math.hypot(p[0] - ax - t * dx, p[1] - ay - t * dy)


# --------------------------------------------------------------------- segment map & anchors

BLOCK = 253  # temple or crossing in the segment map
EMPTY = 255


@lru_cache(maxsize=128)
def segment_map(tile_id: str) -> Image.Image:
    """A MAP x MAP picture of the design at rotation 0 whose pixels are segment indices."""
    design = TILES[tile_id]
    image = Image.new("L", (MAP, MAP), EMPTY)
    draw = ImageDraw.Draw(image)
    for index, segment in enumerate(design.segments):
        if segment.kind == "road":
            draw.line(_px(road_line(segment.sides), MAP), fill=index, width=round(ROAD_WIDTH * MAP))
    for index, segment in enumerate(design.segments):
        if segment.kind == "city":
            draw.polygon(_px(city_shape(segment.sides).polygon, MAP), fill=index)
    if centre_feature(design):
        half = MAP * (0.17 if design.temple else 0.08)
        draw.rectangle([MAP / 2 - half, MAP / 2 - half, MAP / 2 + half, MAP / 2 + half], BLOCK)
    for index, segment in enumerate(design.segments):
        if segment.kind != "field":
            continue
        for port in segment.ports:
            x, y = port_point(port)
            # Step just inside the edge so the fill starts in the field, not on the border.
            px = min(MAP - 2, max(1, round(x * MAP)))
            py = min(MAP - 2, max(1, round(y * MAP)))
            if image.getpixel((px, py)) == EMPTY:
                ImageDraw.floodfill(image, (px, py), index)
    return image


@dataclass(frozen=True, slots=True)
class Anchors:
    """Where things go on one segment, in unit coordinates at rotation 0."""

    piece: Point
    icons: tuple[Point, ...]


@lru_cache(maxsize=128)
def anchors(tile_id: str) -> tuple[Anchors, ...]:
    """Per segment of the design (rotation 0): the spot where its piece stands and
    one point per icon.

    Every piece spot of the tile is chosen first, so that icons keep clear of all of them,
    not only of their own segment's: a sheep never hides a follower standing next to it.
    """
    design = TILES[tile_id]
    seg_map = segment_map(tile_id)
    cells_of: list[list[tuple[int, int, int]]] = []
    pieces: list[tuple[int, int] | None] = []
    for index in range(len(design.segments)):
        depth = _depth(seg_map, index)
        cells = [(i % MAP, i // MAP, d) for i, d in enumerate(depth) if d > 0]
        cells_of.append(cells)
        if not cells:  # cannot happen with the reference set; stay safe for other data
            pieces.append(None)
            continue
        cx = sum(c[0] for c in cells) / len(cells)
        cy = sum(c[1] for c in cells) / len(cells)
        top = max(c[2] for c in cells)
        deepest = [c for c in cells if c[2] >= top]
        px, py, _ = min(deepest, key=lambda c: (c[0] - cx) ** 2 + (c[1] - cy) ** 2)
        pieces.append((px, py))
    all_pieces = [p for p in pieces if p is not None]
    out = []
    for segment, cells, piece in zip(design.segments, cells_of, pieces, strict=True):
        if piece is None:
            out.append(Anchors(CENTRE, ()))
            continue
        top = max(c[2] for c in cells)
        chosen = [piece]
        # Keep clear of this segment's piece and of every other piece spot of the tile.
        avoid = [piece, *(p for p in all_pieces if p != piece)]
        wanted = _icon_count(segment)
        need = 2 if segment.kind == "road" else max(2, min(top - 1, 5))
        # Icons keep clear of the tile edge, where they would collide with the neighbour.
        margin = MAP * 0.16
        pool = (
            [
                c
                for c in cells
                if c[2] >= need
                and margin <= c[0] <= MAP - 1 - margin
                and margin <= c[1] <= MAP - 1 - margin
            ]
            or [c for c in cells if c[2] >= need]
            or cells
        )
        for _ in range(wanted):
            best = max(pool, key=lambda c: _spread(c, avoid))
            chosen.append((best[0], best[1]))
            avoid.append((best[0], best[1]))
        out.append(
            Anchors(
                ((chosen[0][0] + 0.5) / MAP, (chosen[0][1] + 0.5) / MAP),
                tuple(((x + 0.5) / MAP, (y + 0.5) / MAP) for x, y in chosen[1:]),
            )
        )
    return tuple(out)


def _icon_count(segment: Segment) -> int:
    return segment.extras + segment.wolves


def _spread(cell: tuple[int, int, int], chosen: list[tuple[int, int]]) -> float:
    """Prefer points far from what is already placed (up to a point), then deep ones."""
    x, y, d = cell
    near = min(math.hypot(x - cx, y - cy) for cx, cy in chosen)
    return min(near, MAP * 0.3) * 4 + d


def _depth(seg_map: Image.Image, index: int) -> list[int]:
    """For each pixel of segment ``index``: how many erosions it survives (0 outside)."""
    mask = seg_map.point(lambda v: 255 if v == index else 0)
    # The tile edge counts as outside, so pieces keep clear of it.
    ImageDraw.Draw(mask).rectangle([0, 0, MAP - 1, MAP - 1], outline=0)
    total = mask.point(lambda v: 1 if v else 0)
    while True:
        mask = mask.filter(ImageFilter.MinFilter(3))
        if not mask.getbbox():
            break
        total = ImageChops.add(total, mask.point(lambda v: 1 if v else 0))
    return list(total.tobytes())


def piece_point(tile_id: str, rotation: int, port: str) -> Point:
    """Where a piece on ``port`` (board orientation) of the tile stands, in unit coordinates.
    A follower on the temple itself (the German edition) stands on it, in the middle."""
    if port == TEMPLE:
        return (0.5, 0.5)
    view = TILES[tile_id].rotated(rotation)
    index = view.port_segment[PORT_INDEX[port]]
    return turn_point(anchors(tile_id)[index].piece, rotation)


# --------------------------------------------------------------------- sprites


#: Bytes of sprites kept (Pillow holds an RGB pixel in 4 bytes). A board's sprites are at
#: one size, which changes as the board grows; close-ups have sizes of their own. Counted
#: in entries (2,048), sprites grew past 100 MB in a picture worker drawing 60 games at
#: once. Making one costs 1.5 ms: in that test 64 MB cost 13 % more CPU than keeping them
#: all, 48 MB 45 % and 24 MB 180 %.
SPRITE_BYTES = 64 * 1024 * 1024
_sprites: OrderedDict[tuple[str, int, int], Image.Image] = OrderedDict()
_sprite_bytes = 0
_sprites_lock = threading.Lock()


def sprite(tile_id: str, rotation: int, size: int) -> Image.Image:
    """Tile ``tile_id`` turned ``rotation`` degrees, ``size`` pixels square (never modify it);
    the most recently used ones are kept, up to :data:`SPRITE_BYTES`."""
    global _sprite_bytes
    key = (tile_id, rotation, size)
    with _sprites_lock:
        found = _sprites.get(key)
        if found is not None:
            _sprites.move_to_end(key)
            return found
    made = _make_sprite(tile_id, rotation, size)
    with _sprites_lock:
        if key not in _sprites:  # (another thread may have made it meanwhile)
            _sprites[key] = made
            _sprite_bytes += 4 * size * size
            while _sprite_bytes > SPRITE_BYTES and len(_sprites) > 1:
                _, old = _sprites.popitem(last=False)
                _sprite_bytes -= 4 * old.width * old.height
        return _sprites[key]


def _make_sprite(tile_id: str, rotation: int, size: int) -> Image.Image:
    base = master(tile_id).convert("RGB")
    turn = ROTATE[rotation]
    if turn is not None:
        base = base.transpose(turn)
    image = base.resize((size, size), Image.Resampling.LANCZOS)
    design = TILES[tile_id]
    feature = centre_feature(design)
    if feature:
        _paste_centre(
            image, icons.icon(feature, round(size * (0.42 if feature == "temple" else 0.2)))
        )
    for segment, anchored in zip(design.segments, anchors(tile_id), strict=True):
        kinds = _icon_kinds(segment)
        for kind, point in zip(kinds, anchored.icons, strict=False):
            x, y = turn_point(point, rotation)
            picture = icons.icon(kind, round(size * 0.2))
            image.paste(
                picture,
                (round(x * size - picture.width / 2), round(y * size - picture.height / 2)),
                picture,
            )
    edge = ImageDraw.Draw(image, "RGBA")
    edge.rectangle([0, 0, size - 1, size - 1], outline=(60, 40, 20, 70))
    return image


def _icon_kinds(segment: Segment) -> list[str]:
    extra = {"city": "scroll", "road": "oasis", "field": "sheep"}[segment.kind]
    return [extra] * segment.extras + ["wolf"] * segment.wolves


def _paste_centre(image: Image.Image, picture: Image.Image) -> None:
    x = (image.width - picture.width) // 2
    y = (image.height - picture.height) // 2
    image.paste(picture, (x, y), picture)
