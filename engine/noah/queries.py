"""Questions a player's screen asks while a turn is built, answered from the engine.

A play is built one choice at a time (a card, its cabin, what the card needs, perhaps a
second card, then confirm), so the screen needs the choices of one step at a time, never the
flat list of :meth:`engine.noah.Game.legal_actions` (thousands of pairs). These functions
group what :meth:`~engine.noah.Game.placements`, :meth:`~engine.noah.Game.second_placements`
and :meth:`~engine.noah.Game.why_not` give, so they agree with ``legal_actions()`` exactly.
All are read-only and see only what the player to act may see (their hand, the table).

Decisions:

- A cabin's *cost* is what the player pays in action discs for that card there: 1 to open a
  new cabin (to the right neighbour), plus 1 for any card played in the endgame (to the
  supply).
- A pet *scores* if it is an animal of weight 0 to 2 without "!" that counts for a scoring
  card; a card that cannot score may still be chosen (the rules allow it; it is not scored).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from engine.errors import IllegalAction
from engine.noah.actions import SIDES, Placement
from engine.noah.cards import CARDS
from engine.noah.state import ENDGAME, PET, PLAY

if TYPE_CHECKING:
    from engine.noah.game import Game

__all__ = [
    "CabinChoice",
    "cabin_choices",
    "card_choices",
    "pet_choices",
    "pet_scores",
]


@dataclass(frozen=True, slots=True)
class CabinChoice:
    """A cabin where a card may go now, with every legal way to put it there."""

    side: str
    row: int
    #: It opens a new cabin (past the last one of that side).
    new: bool
    #: Action discs the player pays for this card there.
    cost: int
    #: The legal placements of the card in this cabin (different face-up card taken, animal
    #: driven out or chimpanzee's scoring card), in the order of ``legal_actions()``.
    ways: tuple[Placement, ...]
    #: The cards in the cabin now (after the first card, for a second card).
    cards: tuple[int, ...] = ()


def _ways(game: Game, card: int, after: Placement | None) -> list[Placement]:
    if after is None:
        return [p for p in game.placements(card)]
    return [p for p in game.second_placements(after) if p.card == card]


def cabin_choices(game: Game, card: int, after: Placement | None = None) -> list[CabinChoice]:
    """The cabins where ``card`` may go now (as the second card after ``after`` if given):
    port cabins from the bow then starboard ones, each new cabin after the open ones of its
    side; empty if it can go nowhere (:meth:`~engine.noah.Game.why_not` says why)."""
    endgame = game.phase == ENDGAME
    ways = _ways(game, card, after)
    if not ways:
        return []
    # After a first card the ark is as that card left it (it may have opened a cabin).
    shown = game if after is None else game.preview([after])
    cabins = shown.cabins
    grouped: dict[tuple[str, int], list[Placement]] = {}
    for placement in ways:
        grouped.setdefault((placement.side, placement.row), []).append(placement)
    choices = []
    for (side, row), ways in sorted(grouped.items(), key=lambda i: (SIDES.index(i[0][0]), i[0][1])):
        rows = cabins[SIDES.index(side)]
        new = row == len(rows)
        inside = () if new else tuple(rows[row])
        choices.append(CabinChoice(side, row, new, int(new) + int(endgame), tuple(ways), inside))
    return choices


def card_choices(game: Game, after: Placement | None = None) -> dict[int, IllegalAction | None]:
    """For each card of the current player's hand, in hand order (after a first card that
    opened a cabin, the face-up card it took last): ``None`` if it can be played now (as the
    second card after ``after`` if given), else the refusal that says best why not. Empty
    outside the play and endgame phases."""
    if game.phase not in (PLAY, ENDGAME):
        return {}
    seat = game.current_player
    assert seat is not None  # None only once the game is over
    hand = [c for c in game.hand(seat) if after is None or c != after.card]
    if after is not None and after.take is not None and after.take not in hand:
        # The face-up card a new cabin took is in the hand at once: it may be the second.
        hand.append(after.take)
    return {card: game.why_not(card, after) for card in hand}


def pet_scores(card: int) -> bool:
    """Whether ``card`` would score as a pet at the end."""
    found = CARDS[card]
    return found.can_be_pet


def pet_choices(game: Game) -> list[tuple[int, bool]]:
    """In the pet choice, each card of the current player's hand and whether it would score
    as a pet; empty at any other time."""
    if game.phase != PET:
        return []
    seat = game.current_player
    assert seat is not None  # None only once the game is over
    hand = game.hand(seat)
    return [(card, pet_scores(card)) for card in hand]
