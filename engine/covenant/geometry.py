"""Board geometry: sides, ports, rotations and steps.

A tile has four sides and twelve ports, three along each side, named by the compass and
numbered clockwise from north-north-west::

    index:  0   1  2   3   4  5   6   7  8   9   10 11
    name:   NNW N  NNE ENE E  ESE SSE S  SSW WSW W  WNW

Side ``s`` (0 north, 1 east, 2 south, 3 west) holds ports ``3s``, ``3s + 1`` (its middle,
where a road crosses) and ``3s + 2``. Rotating a tile a quarter turn clockwise moves every
port three places on and every side one place on. y grows to the south.
"""

from __future__ import annotations

from typing import Final

Pos = tuple[int, int]

PORT_NAMES: Final = ("NNW", "N", "NNE", "ENE", "E", "ESE", "SSE", "S", "SSW", "WSW", "W", "WNW")
PORT_INDEX: Final = {name: i for i, name in enumerate(PORT_NAMES)}
SIDE_NAMES: Final = ("N", "E", "S", "W")
SIDE_INDEX: Final = {name: i for i, name in enumerate(SIDE_NAMES)}
#: One step towards each side, as (dx, dy).
STEPS: Final = ((0, -1), (1, 0), (0, 1), (-1, 0))
ROTATIONS: Final = (0, 90, 180, 270)


def side_ports(side: int) -> tuple[int, int, int]:
    """The three ports along ``side``, clockwise."""
    return (3 * side, 3 * side + 1, 3 * side + 2)


def middle_port(side: int) -> int:
    return 3 * side + 1


def port_side(port: int) -> int:
    return port // 3


def opposite(side: int) -> int:
    return (side + 2) % 4


def facing_port(port: int) -> int:
    """The port of the neighbouring tile that ``port`` touches.

    Across a north or south side the order of ports mirrors left to right (NNE meets SSE);
    across an east or west side it mirrors top to bottom (ENE meets WNW).
    """
    if port_side(port) % 2 == 0:
        return (8 - port) % 12
    return (14 - port) % 12


def rotate_port(port: int, quarter_turns: int) -> int:
    return (port + 3 * quarter_turns) % 12


def rotate_side(side: int, quarter_turns: int) -> int:
    return (side + quarter_turns) % 4


def neighbour(pos: Pos, side: int) -> Pos:
    dx, dy = STEPS[side]
    return (pos[0] + dx, pos[1] + dy)


def neighbours(pos: Pos) -> tuple[Pos, Pos, Pos, Pos]:
    x, y = pos
    return ((x, y - 1), (x + 1, y), (x, y + 1), (x - 1, y))
