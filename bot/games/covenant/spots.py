"""Names in words for the spots of a tile ("city to the north", "road east–west").

A player on a phone picks where a follower goes from a list, so each spot needs a short
name that matches the picture, in the player's language.
"""

from __future__ import annotations

import math

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
_SIDES = ("n", "e", "s", "w")


def direction(segment: Segment) -> str:
    """The compass key (``n``, ``ne``, ...) of where ``segment`` lies, or ``middle``."""
    x = sum(PORT_XY[p][0] for p in segment.ports) / len(segment.ports)
    y = sum(PORT_XY[p][1] for p in segment.ports) / len(segment.ports)
    if math.hypot(x, y) < 0.2:
        return "middle"
    angle = math.degrees(math.atan2(y, x)) % 360  # y grows south, so this turns clockwise
    return _EIGHT[round(angle / 45) % 8]


def where(segment: Segment) -> Text:
    """Where the segment is, in words."""
    if segment.kind == "road" and len(segment.sides) == 2:
        a, b = (Text(f"covenant.compass.{_SIDES[s]}") for s in segment.sides)
        return Text("covenant.where.through", a=a, b=b)
    return Text(f"covenant.where.{direction(segment)}")


def spot_name(segment: Segment, prophet: bool = False) -> Text:
    """E.g. "city to the north", "road east–west", "field to the south-west"."""
    key = "covenant.spot.prophet" if prophet else f"covenant.spot.{segment.kind}"
    return Text(key, where=where(segment))
