"""Why a card can go nowhere now: the one refusal that explains it best.

When no cabin takes a card, each cabin has its own reason (full, a cat in it, the tilt...).
:func:`why_nowhere` picks the most telling one, in this order:

1. the card would tip the ark wherever it goes: too heavy is the whole story (the smallest
   overshoot is named);
2. the first cabin (port from the bow, then starboard; a new cabin after the open ones)
   where the tilt allows it but a cabin mate or a neighbour does not: the lion would eat
   the sheep, the hot camel and the cold penguin, the shy rabbit and the cat...;
3. a new cabin would take it but there is no disc left to open one;
4. the first cabin where the tilt allows it that is full or already played into this turn;
5. otherwise the tilt.

Before all these come the reasons that concern the card wherever it would go: not in the
hand, no disc for an endgame play, a slow animal or a provision where it may not be played.
"""

from __future__ import annotations

from engine.errors import IllegalAction
from engine.noah.actions import SIDES
from engine.noah.cards import DRIVERS, PLAYS_ALONE, SPECIAL
from engine.noah.placing import (
    alone_not_second,
    endgame_alone,
    legal_placements,
    no_disc,
    no_disc_for_cabin,
    not_in_hand,
    same_cabin,
    static_problem,
    tilt_after,
    tilt_problem,
)
from engine.noah.state import State

#: Reasons about the cabin itself rather than the card's company: told last.
_PLAIN = frozenset({"cabin_full", "same_cabin"})


def why_nowhere(
    state: State, seat: int, card: object, endgame: bool, used: set[tuple[int, int]], first: bool
) -> IllegalAction | None:
    """Why ``card`` cannot be played now by ``seat`` (as the first card of the turn, or the
    second when ``first`` is false, cabins in ``used`` taken), or ``None`` if it can."""
    if type(card) is not int or card not in state.hands[seat]:
        return not_in_hand(card)
    if endgame and state.discs[seat] < 1:
        return no_disc(card)
    if PLAYS_ALONE[card] and endgame:
        return endgame_alone(card)
    if PLAYS_ALONE[card] and not first:
        return alone_not_second(card)
    if legal_placements(state, seat, endgame, used, first, only=card):
        return None
    discs = state.discs[seat] - (1 if endgame else 0)
    driver = SPECIAL[card] in DRIVERS
    tips: list[IllegalAction] = []
    company: list[IllegalAction] = []
    plain: list[IllegalAction] = []
    missing: IllegalAction | None = None
    for side in (0, 1):
        rows = state.cabins[side]
        for row in range(len(rows) + 1):
            new = row == len(rows)
            victims: list[int | None] = [None]
            if driver and not new:
                victims += rows[row]
            for victim in victims:
                tip = tilt_problem(tilt_after(state, side, card, victim), card)
                if (side, row) in used:
                    problem: IllegalAction | None = same_cabin(SIDES[side], row)
                else:
                    problem = static_problem(state, side, row, card, victim)
                if tip is not None:
                    tips.append(tip)
                elif problem is not None:
                    (plain if problem.code in _PLAIN else company).append(problem)
                elif new and discs < 1 and missing is None:
                    missing = no_disc_for_cabin(card, endgame)
    if not company and not plain and missing is None:
        return min(tips, key=lambda tip: tip.params["lean"])
    return (company + ([missing] if missing else []) + plain + tips)[0]
