"""Why Ark refuses an action: every code an :class:`IllegalAction` of this engine carries.

Each refusal is an :class:`~engine.errors.IllegalAction` with a ``code`` listed here and the
``params`` its catalogue text (``noah.illegal.<code>``) may name (cards by id: a reader's
catalogue names them in its language; sides as ``"port"``/``"starboard"``); there is no
sentence at the raise site. :data:`REFUSALS` maps each code to those param names; a test checks
every ``IllegalAction`` of ``engine/noah`` against it, and another checks that every language's
catalogue says every code with those params.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from engine.errors import IllegalAction

REFUSALS: Mapping[str, tuple[str, ...]] = MappingProxyType(
    {
        # The turn and the phase
        "game_over": (),
        "not_your_turn": ("seat", "current"),
        "malformed": (),
        "pet_first": (),
        "no_take_in_endgame": (),
        "not_face_up": ("card",),
        "nothing_played": (),
        "one_card_in_endgame": ("count",),
        "too_many_cards": ("count",),
        "played_alone": ("card",),
        "alone_not_second": ("card",),
        "not_pet_time": (),
        "pet_not_in_hand": ("card",),
        "no_pass": (),
        "preview_only": (),
        # The card, its cabin and what the play needs
        "not_in_hand": ("card",),
        "no_disc": ("card",),
        "bad_side": ("side",),
        "no_such_cabin": ("side", "row", "last", "new"),
        "same_cabin": ("side", "row"),
        "endgame_alone": ("card",),
        "no_disc_for_cabin": ("card",),
        "no_disc_for_cabin_endgame": ("card",),
        "drive_out_new_cabin": ("victim",),
        "take_needed": ("take", "face_up"),
        "nothing_to_take": ("take",),
        "take_only_new": ("take",),
        "half_needed": ("half", "options"),
        "half_only_chimpanzee": ("card", "half"),
        # Cabin mates, shyness and the tilt
        "cabin_full": ("side", "row"),
        "climate": ("card", "other"),
        "eats_provision": ("eater", "provision"),
        "eaten": ("predator", "prey"),
        "not_on_ark": ("card",),
        "shy": ("card", "carnivore"),
        "shy_next_to": ("card", "carnivore"),
        "would_tip": ("card", "lean", "towards", "most"),
        # Driving out
        "not_a_driver": ("card",),
        "victim_not_there": ("victim",),
        "victim_provision": ("victim",),
        "undrivable": ("victim",),
        "mosquito_weight": ("card", "victim"),
        "spider_shy": ("card", "victim"),
    }
)

#: Every refusal code of Ark.
CODES: tuple[str, ...] = tuple(REFUSALS)

__all__ = ["CODES", "REFUSALS", "IllegalAction"]
