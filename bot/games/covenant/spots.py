"""Names in words for the spots of a tile ("city to the north", "road from east to west").

A player on a phone picks where a follower goes from a list, so each spot needs a short
name that matches the picture, in the player's language.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from bot.panels import Text
from engine.covenant import Segment

# Where each port sits on the tile's edge, x to the east and y to the south, in [-1, 1].
_THIRD = 1 / 3
PORT_XY = (
    (-_THIRD, -1.0),
    (0.0, -1.0),
    (_THIRD, -1.0),
    (1.0, -_THIRD),
    (1.0, 0.0),
    (1.0, _THIRD),
    (_THIRD, 1.0),
    (0.0, 1.0),
    (-_THIRD, 1.0),
    (-1.0, _THIRD),
    (-1.0, 0.0),
    (-1.0, -_THIRD),
)
_EIGHT = ("e", "se", "s", "sw", "w", "nw", "n", "ne")  # by angle, clockwise from east
_SIXTEEN = (
    *("e", "ese", "se", "sse", "s", "ssw", "sw", "wsw"),
    *("w", "wnw", "nw", "nnw", "n", "nne", "ne", "ene"),
)
_SIDES = ("n", "e", "s", "w")


def _centre(segment: Segment) -> tuple[float, float]:
    x = sum(PORT_XY[p][0] for p in segment.ports) / len(segment.ports)
    y = sum(PORT_XY[p][1] for p in segment.ports) / len(segment.ports)
    return x, y


def direction(segment: Segment, winds: int = 8) -> str:
    """The compass key (``n``, ``ne``, ... or with ``winds=16`` also ``nne``, ...) of where
    ``segment`` lies, or ``middle``."""
    x, y = _centre(segment)
    if math.hypot(x, y) < 0.2:
        return "middle"
    angle = math.degrees(math.atan2(y, x)) % 360  # y grows south, so this turns clockwise
    names = _EIGHT if winds == 8 else _SIXTEEN
    return names[round(angle / (360 / len(names))) % len(names)]


def where(segment: Segment) -> Text:
    """Where the segment is, in words (one of eight directions, or the middle)."""
    if segment.kind == "road" and len(segment.sides) == 2:
        a, b = (Text(f"covenant.compass.{_SIDES[s]}") for s in segment.sides)
        return Text("covenant.where.through", a=a, b=b)
    return Text(f"covenant.where.{direction(segment)}")


def spot_name(segment: Segment, prophet: bool = False) -> Text:
    """E.g. "city to the north", "road from east to west", "field to the south-west"."""
    name = Text(f"covenant.spot.{segment.kind}", where=where(segment))
    return Text("covenant.spot.prophet", spot=name) if prophet else name


def spot_names(segments: Sequence[Segment]) -> list[Text]:
    """The names of all of a tile's ``segments``, no two alike, in the eight directions a
    child knows (no "west-north-west").

    Two fields may lie the same way ("field to the west" above and below a road's end): each
    is then named by the nearer of the two directions beside it that the other does not
    share ("north-west" and "south-west"), if no other spot has that name; when they lie
    exactly the same way, by which one reaches the tile's edge and which one comes nearer its
    middle.
    """
    names = [spot_name(s) for s in segments]
    for index in range(len(segments)):
        alike = [j for j, name in enumerate(names) if name == names[index]]
        if len(alike) < 2:
            continue
        shared = direction(segments[index])
        turned = {j: _beside(direction(segments[j], 16), shared) for j in alike}
        renamed = {
            j: Text(f"covenant.spot.{segments[j].kind}", where=Text(f"covenant.where.{way}"))
            for j, way in turned.items()
            if way is not None
        }
        others = [name for j, name in enumerate(names) if j not in alike]
        if len(renamed) == len(alike) and len({*renamed.values(), *others}) == len(names):
            for j, name in renamed.items():
                names[j] = name
            continue
        reach = sorted(alike, key=lambda j: -math.hypot(*_centre(segments[j])))
        for rank, j in enumerate(reach):
            key = "covenant.spot.outer" if rank == 0 else "covenant.spot.inner"
            names[j] = Text(key, spot=spot_name(segments[j]))
    return names


def _beside(finer: str, shared: str) -> str | None:
    """Of the two of eight directions either side of ``finer`` (one of sixteen: ``wnw`` lies
    between ``w`` and ``nw``), the one that is not ``shared``; None when ``finer`` is one of
    the eight itself or ``shared`` is not beside it."""
    if finer not in _SIXTEEN[1::2]:
        return None
    at = _SIXTEEN.index(finer)
    either = {_SIXTEEN[at - 1], _SIXTEEN[(at + 1) % len(_SIXTEEN)]}
    if shared not in either:
        return None
    (other,) = either - {shared}
    return other
