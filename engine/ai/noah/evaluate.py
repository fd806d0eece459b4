"""The normal evaluation of a position of Ark, the card game, in about points.

A seat's value is what the scoring cards would give at the end, the discs it keeps, and
what its hand should still add: each card counts as part of a figure on its scoring card,
more when a cabin is open to it now (the cabin options), less as the rain runs out. The
majorities are counted with these expected figures, so a card that would take or keep the
lead on a scoring card weighs more than one that only adds a figure behind.

Only what the seat sees is read: its own hand and pet, and for the others the public view
(figures, discs, how many cards each holds, whether they have a pet).
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.noah import Game
from engine.noah.cards import CARDS, KIND_INDEX, KINDS
from engine.noah.scoring import card_points

_KIND_COUNT = len(KINDS)
#: Scoring cards that an unknown card or pet may add to (a pet is never a provision).
_PET_KINDS = tuple(k for k, name in enumerate(KINDS) if name != "provision")


@dataclass(frozen=True, slots=True)
class Weights:
    """The evaluation's tuned constants."""

    playable: float = 0.75  # a card in hand with a cabin open to it now
    stuck: float = 0.3  # one with none (cabins may open later)
    endgame: float = 0.55  # each card's share in the endgame, where each play costs a disc
    unknown: float = 0.45  # a card of another player's hand, spread over the cards
    disc: float = 1.0  # an action disc kept is a point
    disc_play: float = 0.4  # while cards are still played, a disc also opens cabins


WEIGHTS = Weights()


def _soft_points(halves: list[float]) -> list[float]:
    """Points per seat for one scoring card from expected figure halves."""
    return [float(p) for p in card_points(halves)]  # type: ignore[arg-type]


def values(
    game: Game,
    seat: int,
    hand: tuple[int, ...] | None = None,
    unknown: int = 0,
    weights: Weights = WEIGHTS,
) -> list[float]:
    """Every seat's value as ``seat`` sees it. ``hand`` replaces ``seat``'s hand (cards it
    knows it holds), and ``unknown`` more cards of its hand count as unknown ones."""
    if game.phase == "over":
        return [float(s) for s in game.scores]
    w = weights
    players = game.players
    view_halves = [
        [2.0 * v for v in game.figures(s).values()] for s in range(players)
    ]  # figures() gives 1.5 for a figure on a disc
    own = game.hand(seat) if hand is None else hand
    endgame = game.phase == "endgame"
    if endgame and game.has_passed(seat):
        own = ()  # a player who passed plays no more
    options = game.cabin_options(seat, own) if own else {}
    share_open = w.endgame if endgame else w.playable
    share_stuck = w.stuck * (0.3 if endgame else 1.0)
    mine = view_halves[seat]
    for card in own:
        kind = KIND_INDEX[card]
        if kind < 0:
            continue
        mine[kind] += 2.0 * (share_open if options[card] else share_stuck)
    pet = game.pet(seat)
    if pet is not None and CARDS[pet].can_be_pet:
        mine[KIND_INDEX[pet]] += 2.0
    spread = 2.0 * w.unknown / _KIND_COUNT
    if unknown:
        for k in range(_KIND_COUNT):
            mine[k] += unknown * spread
    hand_sizes = [len(game.hand(s)) for s in range(players)]  # sizes are public
    for other in range(players):
        if other == seat:
            continue
        theirs = view_halves[other]
        cards = 0 if endgame and game.has_passed(other) else hand_sizes[other]
        for k in range(_KIND_COUNT):
            theirs[k] += cards * spread
        if game.pet(other) is not None:
            for k in _PET_KINDS:
                theirs[k] += 2.0 * 0.5 / len(_PET_KINDS)
    result = [0.0] * players
    for k in range(_KIND_COUNT):
        column = [view_halves[s][k] for s in range(players)]
        for s, points in enumerate(_soft_points(column)):
            result[s] += points
    disc_value = w.disc + (0.0 if endgame else w.disc_play)
    for s, discs in enumerate(game.discs):
        result[s] += disc_value * discs
    return result


def margin(game: Game, seat: int, hand: tuple[int, ...] | None = None, unknown: int = 0) -> float:
    """``seat``'s value less the best rival's."""
    v = values(game, seat, hand, unknown)
    return v[seat] - max(x for s, x in enumerate(v) if s != seat)
