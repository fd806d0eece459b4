"""The normal evaluation of a position of Ark, the card game, in about points.

A seat's value is what the scoring cards would give at the end, the discs it keeps, and
what its hand should still add: each card counts as part of a figure on its scoring card,
more when a cabin is open to it now (the cabin options), less as the rain runs out, and
with the strong level's weights less for a card played alone (it needs a turn of its
own). The majorities are counted with these expected figures, so a card that would take
or keep the lead on a scoring card weighs more than one that only adds a figure behind.

Only what the seat sees is read: its own hand and pet, and for the others the public view
(figures, discs, how many cards each holds, whether they have a pet).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from engine.noah import Game
from engine.noah.cards import CARDS, KIND_INDEX, KINDS, PLAYS_ALONE
from engine.noah.scoring import remembered_points

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
    # Before the endgame, a card played alone (a slow animal or a provision: it takes a turn
    # of its own, and none is played in the endgame) counts for this share of another, by
    # the rain cards fallen (0 to 4).
    alone: tuple[float, ...] = (1.0, 1.0, 1.0, 1.0, 1.0)


#: The normal level's.
WEIGHTS = Weights()
#: The strong level's (its search scores positions with these): a card played alone counts
#: for less, as often as such cards got played (measured: ``NOTES.md`` beside this file).
STRONG_WEIGHTS = Weights(alone=(0.7, 0.63, 0.41, 0.37, 0.34))


@lru_cache(maxsize=1 << 16)
def _steps(column: tuple[int, ...], seat: int, count: int) -> tuple[tuple[int, ...], ...]:
    """What each of ``count`` more figures of ``seat`` changes on a scoring card, one after
    the other, for every seat: remembered, as the evaluation asks it of every position."""
    changes = []
    before = remembered_points(column)
    trial = list(column)
    for _ in range(count):
        trial[seat] += 2
        after = remembered_points(tuple(trial))
        changes.append(tuple(a - b for a, b in zip(after, before, strict=True)))
        before = after
    return tuple(changes)


def values(
    game: Game,
    seat: int,
    hand: tuple[int, ...] | None = None,
    unknown: int = 0,
    weights: Weights = WEIGHTS,
) -> list[float]:
    """Every seat's value as ``seat`` sees it. ``hand`` replaces ``seat``'s hand (cards it
    knows it holds), and ``unknown`` more cards of its hand count as unknown ones.

    Majorities are counted exactly on the figures placed; each card still to play adds its
    odds times the points it would change, for every seat (one figure more can take a first
    place from someone), so a card that takes or keeps a lead weighs more than one behind.
    """
    if game.phase == "over":
        return [float(s) for s in game.scores]
    w = weights
    players = game.players
    seats = range(players)
    endgame = game.phase == "endgame"
    columns = game.halves()  # a figure on an orange disc counts 3 halves
    own = game.hand(seat) if hand is None else hand
    if endgame and game.has_passed(seat):
        own = ()  # a player who passed plays no more
    pet = game.pet(seat)
    if pet is not None and CARDS[pet].can_be_pet:
        columns[KIND_INDEX[pet]][seat] += 2  # scored at the end, for sure
    result = [w.disc + (0.0 if endgame else w.disc_play)] * players
    result = [result[0] * d for d in game.discs]
    options = game.cabin_options(seat, own) if own else {}
    share_open = w.endgame if endgame else w.playable
    share_stuck = w.stuck * (0.3 if endgame else 1.0)
    # A card played alone: none in the endgame (skipped below), before it a share of another.
    alone = 1.0 if endgame else w.alone[min(game.rain_fallen, 4)]
    odds_by_kind: list[list[float]] = [[] for _ in KINDS]
    for card in own:
        kind = KIND_INDEX[card]
        if kind >= 0 and not (endgame and PLAYS_ALONE[card]):
            share = share_open if options[card] else share_stuck
            odds_by_kind[kind].append(share * alone if PLAYS_ALONE[card] else share)
    # Cards still to come from each hand: sizes are public; a player who passed has none.
    cards_left = [0 if endgame and game.has_passed(s) else len(game.hand(s)) for s in seats]
    cards_left[seat] = unknown
    # Unknown cards (the others', and the seat's own drawn ones): one figure's worth for
    # their owner, times the figures they are expected to bring; a pet may add one more.
    expected = [cards_left[s] * w.unknown / _KIND_COUNT for s in seats]
    expected_pet = [
        x + 0.5 / len(_PET_KINDS) if s != seat and game.pet(s) is not None else x
        for s, x in enumerate(expected)
    ]
    for k, listed in enumerate(columns):
        column = tuple(listed)
        now = remembered_points(column)
        for s in seats:
            result[s] += now[s]
        # The seat's own cards: exact changes for everyone, weighed by their odds.
        odds = odds_by_kind[k]
        if odds:
            odds.sort(reverse=True)
            for chance, change in zip(odds, _steps(column, seat, len(odds)), strict=True):
                for s in seats:
                    result[s] += chance * change[s]
        weights_k = expected_pet if k in _PET_KINDS else expected
        for s in seats:
            if weights_k[s]:
                result[s] += weights_k[s] * _steps(column, s, 1)[0][s]
    return result


def margin(
    game: Game,
    seat: int,
    hand: tuple[int, ...] | None = None,
    unknown: int = 0,
    weights: Weights = WEIGHTS,
) -> float:
    """``seat``'s value less the best rival's."""
    v = values(game, seat, hand, unknown, weights)
    return v[seat] - max(x for s, x in enumerate(v) if s != seat)
