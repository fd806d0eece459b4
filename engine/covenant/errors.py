"""Why The Ark of the Covenant refuses an action: every code its refusals carry.

Each refusal is an :class:`~engine.errors.IllegalAction` (shared by every engine) with a
``code`` listed here and the ``params`` its catalogue text (``covenant.illegal.<code>``) may
name; there is no sentence at the raise site. :data:`REFUSALS` maps each code to those param
names; a test checks every ``IllegalAction`` of ``engine/covenant`` against it, and another
checks that every language's catalogue says every code with those params.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from engine.errors import IllegalAction

REFUSALS: Mapping[str, tuple[str, ...]] = MappingProxyType(
    {
        # The turn and the phase
        "game_over": (),
        "view_only": (),
        "not_your_turn": ("seat", "current"),
        "malformed": (),
        "wrong_phase": ("phase", "attempted"),
        "unknown_edition": ("edition", "known"),
        "unknown_length": ("length", "known"),
        # Placing a tile
        "bad_rotation": ("rotation",),
        "occupied": ("x", "y"),
        "not_adjacent": ("x", "y"),
        "edge_mismatch": ("side", "mine", "theirs"),
        # Deploying
        "bad_port": ("port",),
        "prophet_used": (),
        "prophet_not_city": (),
        "no_followers": (),
        "taken": ("feature", "joined"),
        "temple_forbidden": ("edition",),
        "no_temple": (),
        # The Ark
        "no_ark": (),
        "bad_path": ("path",),
        "ark_off_board": ("step",),
        "ark_revisit": ("step",),
        "ark_no_temple": (),
        "ark_on_only_temple": (),
        "ark_not_towards_temple": ("step",),
        "ark_not_in_city": ("x", "y"),
    }
)

#: Every refusal code of The Ark of the Covenant.
CODES: tuple[str, ...] = tuple(REFUSALS)

__all__ = ["CODES", "REFUSALS", "IllegalAction"]
