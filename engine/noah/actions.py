"""What a player can do in Ark, as immutable values.

A turn of the main game is either :class:`TakeCards` or :class:`PlayCards`. Playing puts one
or two cards on the ark, each described by a :class:`Placement`: the card, its cabin (a
``side`` and a ``row``; the row just past the last cabin of a side opens a new cabin there),
and the choices that only some placements need: the face-up card taken when opening a cabin,
the animal a skunk, mosquito or spider drives out, and the scoring card whose figure gets the
chimpanzee's orange disc. After the second rain card each player answers :class:`ChoosePet`
or :class:`Pass`; in the endgame a player plays one card (``PlayCards``) or passes for good.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from engine.common.values import Serialisable
from engine.errors import IllegalAction  # noqa: F401  (re-exported: engine.noah.IllegalAction)

#: The two sides of the ark. Port is the lower row of cabins, starboard the upper one; the
#: yellow tilt disc counts positive towards starboard.
PORT, STARBOARD = "port", "starboard"
SIDES: tuple[str, str] = (PORT, STARBOARD)


@dataclass(frozen=True, slots=True)
class Placement:
    """One card put on the ark.

    - ``card``: the id of a card in the player's hand (see :data:`engine.noah.CARDS`).
    - ``side``, ``row``: the cabin. Rows count from 0 at the bow; ``row`` equal to the number
      of cabins on that side opens a new cabin there (costs an action disc).
    - ``take``: when opening a new cabin, the id of the face-up card taken at once (``None``
      only when no face-up card is left); ``None`` otherwise.
    - ``drive_out``: for a skunk, mosquito or spider, the id of the animal it drives out of
      that cabin, taking its place; ``None`` to place it normally.
    - ``half``: when a chimpanzee is played or driven out, the scoring card (``"heavy"``,
      ``"useful"``, ``"slow"`` or ``"shy"``) where one of the player's figures gets an orange
      disc; ``None`` otherwise.
    """

    card: int
    side: str
    row: int
    take: int | None = None
    drive_out: int | None = None
    half: str | None = None


@dataclass(frozen=True, slots=True)
class TakeCards(Serialisable):
    """Take the face-up card ``card``, then the top card of the supply."""

    card: int
    type: ClassVar[str] = "take_cards"


@dataclass(frozen=True, slots=True)
class PlayCards(Serialisable):
    """Play one or two cards, in this order (each must be legal when it is played)."""

    placements: tuple[Placement, ...]
    type: ClassVar[str] = "play_cards"


@dataclass(frozen=True, slots=True)
class ChoosePet(Serialisable):
    """After the second rain card: put ``card`` from the hand face down as the pet."""

    card: int
    type: ClassVar[str] = "choose_pet"


@dataclass(frozen=True, slots=True)
class Pass(Serialisable):
    """Take no pet (pet choice), or stop playing for the rest of the game (endgame)."""

    type: ClassVar[str] = "pass"


#: Every action type.
Action = TakeCards | PlayCards | ChoosePet | Pass
ACTION_TYPES: tuple[type[Action], ...] = (TakeCards, PlayCards, ChoosePet, Pass)


def action_from_dict(data: Any) -> Action:
    """Rebuild an action from its ``to_dict`` form; raises ``ValueError`` if malformed."""
    by_type = {cls.type: cls for cls in ACTION_TYPES}
    if not isinstance(data, dict) or data.get("type") not in by_type:
        raise ValueError(f"not an action: {data!r}")
    fields = {k: v for k, v in data.items() if k != "type"}
    try:
        if data["type"] == PlayCards.type:
            placements = fields.pop("placements")
            if not isinstance(placements, list | tuple) or fields:
                raise TypeError("play_cards takes a list of placements only")
            return PlayCards(tuple(Placement(**p) for p in placements))
        return by_type[data["type"]](**fields)
    except TypeError as exc:
        raise ValueError(f"malformed {data['type']}: {exc}") from None
