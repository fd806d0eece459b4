"""The tile set of The Ark of the Covenant, loaded from ``data/covenant/tiles.toml``.

A :class:`TileDesign` describes one printed design at rotation 0; :meth:`TileDesign.rotated`
gives the same tile turned clockwise, with every side and port in board orientation. Both
are immutable and cached, so the engine never recomputes a rotation.

The file is validated on load: every port belongs to exactly one segment, each edge's kind
agrees with the segments that touch it, and the set holds 72 tiles with one start tile.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Literal

from engine.common.data import load_toml
from engine.covenant.geometry import (
    PORT_INDEX,
    PORT_NAMES,
    ROTATIONS,
    SIDE_INDEX,
    middle_port,
    rotate_port,
    rotate_side,
    side_ports,
)

Kind = Literal["city", "road", "field"]
EdgeKind = Literal["C", "R", "F"]

START_TILE = "T27"
TILE_FILE = "covenant/tiles.toml"


@dataclass(frozen=True, slots=True)
class Segment:
    """One city, road or field area of a tile, in the orientation it is seen in.

    ``ports`` are port indices (see :mod:`engine.covenant.geometry`), sorted clockwise from
    NNW; ``sides`` are the sides whose whole edge (city) or middle port (road) it holds;
    ``extras`` counts scrolls (city), oases (road) or sheep (field); ``wolves`` is for fields.
    """

    kind: Kind
    ports: tuple[int, ...]
    sides: tuple[int, ...]
    extras: int = 0
    wolves: int = 0

    @property
    def first_port(self) -> str:
        """The name that actions use for this segment: its first port clockwise from NNW."""
        return PORT_NAMES[self.ports[0]]

    @property
    def port_names(self) -> tuple[str, ...]:
        return tuple(PORT_NAMES[p] for p in self.ports)

    def turned(self, quarter_turns: int) -> Segment:
        return Segment(
            self.kind,
            tuple(sorted(rotate_port(p, quarter_turns) for p in self.ports)),
            tuple(sorted(rotate_side(s, quarter_turns) for s in self.sides)),
            self.extras,
            self.wolves,
        )


@dataclass(frozen=True, slots=True)
class RotatedTile:
    """A design turned ``rotation`` degrees clockwise: what a placed tile looks like."""

    id: str
    rotation: int
    edges: tuple[EdgeKind, EdgeKind, EdgeKind, EdgeKind]
    segments: tuple[Segment, ...]
    #: For each of the 12 ports, the index in ``segments`` of the segment holding it.
    port_segment: tuple[int, ...]
    temple: bool
    #: Segment indices ordered by their first port, clockwise from NNW.
    deploy_order: tuple[int, ...]

    def segment_at(self, port: str | int) -> Segment:
        index = PORT_INDEX[port] if isinstance(port, str) else port
        return self.segments[self.port_segment[index]]


@dataclass(frozen=True, slots=True)
class TileDesign:
    """One tile design at rotation 0, with the number of copies in the set."""

    id: str
    count: int
    edges: tuple[EdgeKind, EdgeKind, EdgeKind, EdgeKind]
    segments: tuple[Segment, ...]
    temple: bool = False
    start: bool = False
    _rotations: tuple[RotatedTile, ...] = field(default=(), repr=False, compare=False)

    def rotated(self, rotation: int) -> RotatedTile:
        """This design turned ``rotation`` (0, 90, 180 or 270) degrees clockwise."""
        return self._rotations[ROTATIONS.index(rotation)]

    @property
    def scrolls(self) -> int:
        return sum(s.extras for s in self.segments if s.kind == "city")

    @property
    def oases(self) -> int:
        return sum(s.extras for s in self.segments if s.kind == "road")

    @property
    def sheep(self) -> int:
        return sum(s.extras for s in self.segments if s.kind == "field")

    @property
    def wolves(self) -> int:
        return sum(s.wolves for s in self.segments)


class TileDataError(ValueError):
    """The tile file breaks one of the set's invariants."""


def _sides(text: str, tile_id: str) -> tuple[int, ...]:
    try:
        return tuple(SIDE_INDEX[c] for c in text)
    except KeyError as exc:
        raise TileDataError(f"{tile_id}: unknown side {exc.args[0]!r}") from None


def _design(raw: Mapping[str, Any]) -> TileDesign:
    tile_id = raw["id"]
    edges = tuple(raw["edges"])
    if len(edges) != 4 or any(e not in "CRF" for e in edges):
        raise TileDataError(f"{tile_id}: edges must be four of C, R, F")
    segments: list[Segment] = []
    for city in raw.get("cities", []):
        sides = _sides(city["edges"], tile_id)
        ports = sorted(p for s in sides for p in side_ports(s))
        segments.append(Segment("city", tuple(ports), sides, city.get("scrolls", 0)))
    for road in raw.get("roads", []):
        sides = _sides(road["edges"], tile_id)
        ports = sorted(middle_port(s) for s in sides)
        segments.append(Segment("road", tuple(ports), sides, road.get("oases", 0)))
    for fld in raw.get("fields", []):
        try:
            ports = sorted(PORT_INDEX[name] for name in fld["ports"])
        except KeyError as exc:
            raise TileDataError(f"{tile_id}: unknown port {exc.args[0]!r}") from None
        segments.append(
            Segment("field", tuple(ports), (), fld.get("sheep", 0), fld.get("wolves", 0))
        )
    design = TileDesign(
        id=tile_id,
        count=raw["count"],
        edges=edges,
        segments=tuple(segments),
        temple=bool(raw.get("temple", False)),
        start=bool(raw.get("start", False)),
    )
    _validate(design)
    rotations = tuple(_turn(design, q) for q in range(4))
    object.__setattr__(design, "_rotations", rotations)
    return design


def _validate(design: TileDesign) -> None:
    owner: dict[int, Segment] = {}
    for segment in design.segments:
        for port in segment.ports:
            if port in owner:
                raise TileDataError(f"{design.id}: port {PORT_NAMES[port]} is in two segments")
            owner[port] = segment
    missing = [PORT_NAMES[p] for p in range(12) if p not in owner]
    if missing:
        raise TileDataError(f"{design.id}: ports {missing} belong to no segment")
    for side, edge in enumerate(design.edges):
        left, middle, right = (owner[p].kind for p in side_ports(side))
        expected = {"C": ("city",) * 3, "R": ("field", "road", "field"), "F": ("field",) * 3}
        if (left, middle, right) != expected[edge]:
            raise TileDataError(
                f"{design.id}: side {'NESW'[side]} is {edge} but its ports are "
                f"{left}/{middle}/{right}"
            )


def _turn(design: TileDesign, quarter_turns: int) -> RotatedTile:
    segments = tuple(s.turned(quarter_turns) for s in design.segments)
    port_segment = [0] * 12
    for index, segment in enumerate(segments):
        for port in segment.ports:
            port_segment[port] = index
    north, east, south, west = (design.edges[(side - quarter_turns) % 4] for side in range(4))
    return RotatedTile(
        id=design.id,
        rotation=90 * quarter_turns,
        edges=(north, east, south, west),
        segments=segments,
        port_segment=tuple(port_segment),
        temple=design.temple,
        deploy_order=tuple(sorted(range(len(segments)), key=lambda i: segments[i].ports[0])),
    )


def load_tiles(data: Mapping[str, Any] | None = None) -> Mapping[str, TileDesign]:
    """Load and validate the tile set (the project's ``data/`` copy unless ``data`` is given)."""
    raw = load_toml(TILE_FILE) if data is None else data
    designs: dict[str, TileDesign] = {}
    for entry in raw["tile"]:
        design = _design(entry)
        if design.id in designs:
            raise TileDataError(f"{design.id} is listed twice")
        designs[design.id] = design
    starts = [d.id for d in designs.values() if d.start]
    if starts != [START_TILE]:
        raise TileDataError(f"the set needs exactly one start tile {START_TILE}, found {starts}")
    total = sum(d.count for d in designs.values())
    if total != 72:
        raise TileDataError(f"the set holds {total} tiles, not 72")
    return MappingProxyType(designs)


#: Every design of the reference set by id, e.g. ``TILES["T27"].count``.
TILES: Mapping[str, TileDesign] = load_tiles()
