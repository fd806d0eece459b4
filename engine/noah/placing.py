"""Putting one card on the ark: is it legal, doing it, and every way of doing it.

These functions work on a :class:`~engine.noah.state.State` for the player ``seat``. The
caller (:class:`engine.noah.Game`) runs them on a private copy of the state, so a problem
found halfway through a two-card play never leaves a trace.

Decisions where the rules leave room:

- Playing two cards, each card must be legal when it is played, against the ark as the first
  one left it (its weight, its cabin, a cabin it opened, a face-up card it took).
- The face-up card taken when opening a cabin goes to the hand at once, so it may be the
  second card of the same turn.
- Opening a cabin in the endgame costs its disc on top of the disc every endgame play costs;
  a face-up card is still taken if one is left (they are no longer refilled).
- A driving-out animal may enter a full cabin (it takes the driven animal's place) and must
  fit there by climate and food; it is never shy, so shyness is not checked. Only animals are
  driven out (not provisions), never the fox, spider or mosquito; the mosquito drives out
  weight-2 animals, the spider shy ones, the skunk any. Driving out is optional.
- Driving out moves the tilt by the difference of the two weights, like every other card: a
  lighter driver makes its side lighter. (The rulebook's example says the disc goes "to the
  side with the skunk"; the engine keeps the tilt equal to the real weight difference.)
- The figure for the driven animal goes on its scoring card; for the bronto it stands on an
  orange disc, for the chimpanzee the driver also slides a disc under one of their figures.
- The chimpanzee's disc goes under a plain figure (a figure has at most one disc) on the
  heavy, useful, slow or shy card; the chimpanzee's own figure is placed first, so "useful"
  is always possible.
- Orange discs and figures never run out (the rules say the box may hold more pieces than
  listed); the fox always gains 2 discs.
"""

from __future__ import annotations

from bisect import insort
from itertools import compress

from engine.errors import IllegalAction
from engine.noah.actions import SIDES, Placement
from engine.noah.cards import (
    DRIVERS,
    IS_ANIMAL,
    KIND_INDEX,
    KINDS,
    PLAYS_ALONE,
    SHY,
    SPECIAL,
    UNDRIVABLE,
    WEIGHT,
)
from engine.noah.events import (
    AnimalDrivenOut,
    CardPlayed,
    CardTaken,
    DiscPaid,
    DiscsGained,
    DiscUnderFigure,
    Event,
    FigurePlaced,
)
from engine.noah.ship import (
    CABIN_SIZE,
    CLASHES,
    MAX_TILT,
    fit_problem,
    shy_blocked,
    shy_problem,
)
from engine.noah.state import State

SIDE_INDEX: dict[str, int] = {name: i for i, name in enumerate(SIDES)}

#: Scoring cards that may get the chimpanzee's disc (provisions may not).
_HALF_KINDS = tuple(k for k in range(len(KINDS)) if KINDS[k] != "provision")
_CHIMP_KIND = KINDS.index("useful")

#: Action discs the fox brings from the supply.
FOX_DISCS = 2


def _half_options(state: State, seat: int) -> list[str]:
    """Where the chimpanzee's disc may go, once the chimpanzee's figure has been placed."""
    plain = state.plain[seat]
    return [KINDS[k] for k in _HALF_KINDS if plain[k] > 0 or k == _CHIMP_KIND]


# Refusals that several checks give (placing a card, explaining why it fits nowhere).


def not_in_hand(card: object) -> IllegalAction:
    return IllegalAction("not_in_hand", card=card)


def no_disc(card: object) -> IllegalAction:
    return IllegalAction("no_disc", card=card)


def endgame_alone(card: int) -> IllegalAction:
    return IllegalAction("endgame_alone", card=card)


def alone_not_second(card: int) -> IllegalAction:
    return IllegalAction("alone_not_second", card=card)


def same_cabin(side: str, row: int) -> IllegalAction:
    return IllegalAction("same_cabin", side=side, row=row)


def no_disc_for_cabin(card: int, endgame: bool) -> IllegalAction:
    if endgame:
        return IllegalAction("no_disc_for_cabin_endgame", card=card)
    return IllegalAction("no_disc_for_cabin", card=card)


def static_problem(
    state: State, side: int, row: int, card: int, victim: int | None
) -> IllegalAction | None:
    """Why ``card`` may not go to ``side``/``row`` (driving out ``victim``), tilt aside.

    Checks the cabin (room, climate, food, shyness) and the driving out; not the tilt, hand,
    discs, face-up card or chimpanzee choice. Returns ``None`` when nothing is wrong.
    """
    rows = state.cabins[side]
    cabin = rows[row] if row < len(rows) else []
    if victim is None:
        if len(cabin) >= CABIN_SIZE:
            return IllegalAction("cabin_full", side=SIDES[side], row=row)
        problem = fit_problem(cabin, card)
        if problem is None and SHY[card]:
            problem = shy_problem(state.cabins, side, row, card)
        return problem
    special = SPECIAL[card]
    if special not in DRIVERS:
        return IllegalAction("not_a_driver", card=card)
    if type(victim) is not int or victim not in cabin:
        return IllegalAction("victim_not_there", victim=victim)
    if not IS_ANIMAL[victim]:
        return IllegalAction("victim_provision", victim=victim)
    if SPECIAL[victim] in UNDRIVABLE:
        return IllegalAction("undrivable", victim=victim)
    if special == "mosquito" and WEIGHT[victim] != 2:
        return IllegalAction("mosquito_weight", card=card, victim=victim)
    if special == "spider" and not SHY[victim]:
        return IllegalAction("spider_shy", card=card, victim=victim)
    return fit_problem([c for c in cabin if c != victim], card)


def tilt_after(state: State, side: int, card: int, victim: int | None) -> int:
    """The tilt once ``card`` is on ``side`` (in place of ``victim`` if it drives one out)."""
    delta = WEIGHT[card] - (0 if victim is None else WEIGHT[victim])
    return state.tilt + delta if side else state.tilt - delta


def tilt_problem(tilt: int, card: int) -> IllegalAction | None:
    """Why a tilt of ``tilt`` after playing ``card`` capsizes the ark, or ``None``."""
    if -MAX_TILT <= tilt <= MAX_TILT:
        return None
    towards = SIDES[1] if tilt > 0 else SIDES[0]
    return IllegalAction("would_tip", card=card, lean=abs(tilt), towards=towards, most=MAX_TILT)


def core_problem(
    state: State, side: int, row: int, card: int, victim: int | None
) -> IllegalAction | None:
    """Why ``card`` may not go to ``side``/``row`` (driving out ``victim``), or ``None``:
    :func:`static_problem` and then the tilt."""
    problem = static_problem(state, side, row, card, victim)
    if problem is not None:
        return problem
    return tilt_problem(tilt_after(state, side, card, victim), card)


def placement_problem(
    state: State, seat: int, p: object, endgame: bool, used: set[tuple[int, int]]
) -> IllegalAction | None:
    """Why the placement ``p`` is illegal for ``seat`` now, or ``None`` if it is legal.

    ``used`` holds the cabins already played into this turn; ``endgame`` makes the play cost
    a disc and forbids slow animals and provisions.
    """
    if not isinstance(p, Placement):
        return IllegalAction("malformed")
    card = p.card
    if type(card) is not int or card not in state.hands[seat]:
        return not_in_hand(card)
    if endgame and state.discs[seat] < 1:
        # Every endgame play pays a disc to the supply first, whatever cabin it goes to.
        return no_disc(card)
    side = SIDE_INDEX.get(p.side) if isinstance(p.side, str) else None
    if side is None:
        return IllegalAction("bad_side", side=p.side)
    row = p.row
    rows = state.cabins[side]
    if type(row) is not int or not 0 <= row <= len(rows):
        return IllegalAction(
            "no_such_cabin", side=p.side, row=row, last=len(rows) - 1, new=len(rows)
        )
    if (side, row) in used:
        return same_cabin(SIDES[side], row)
    if endgame and PLAYS_ALONE[card]:
        return endgame_alone(card)
    new = row == len(rows)
    discs = state.discs[seat] - (1 if endgame else 0)
    if new:
        if discs < 1:
            return no_disc_for_cabin(card, endgame)
        if p.drive_out is not None:
            return IllegalAction("drive_out_new_cabin", victim=p.drive_out)
        if state.face_up:
            if p.take not in state.face_up or type(p.take) is not int:
                return IllegalAction("take_needed", take=p.take, face_up=tuple(state.face_up))
        elif p.take is not None:
            return IllegalAction("nothing_to_take", take=p.take)
    elif p.take is not None:
        return IllegalAction("take_only_new", take=p.take)
    problem = core_problem(state, side, row, card, p.drive_out)
    if problem is not None:
        return problem
    victim = p.drive_out
    if SPECIAL[card] == "chimpanzee" or (victim is not None and SPECIAL[victim] == "chimpanzee"):
        options = _half_options(state, seat)
        if not isinstance(p.half, str) or p.half not in options:
            return IllegalAction("half_needed", half=p.half, options=tuple(options))
    elif p.half is not None:
        return IllegalAction("half_only_chimpanzee", card=card, half=p.half)
    return None


def _figure(state: State, seat: int, card: int, events: list[Event] | None) -> None:
    kind = KIND_INDEX[card]
    if kind < 0:
        return
    half = SPECIAL[card] == "bronto"
    if half:
        state.on_disc[seat][kind] += 1
    else:
        state.plain[seat][kind] += 1
    if events is not None:
        events.append(FigurePlaced(seat, KINDS[kind], half))


def place(state: State, seat: int, p: Placement, endgame: bool, events: list[Event] | None) -> None:
    """Carry out a placement already found legal, appending what happened to ``events``
    (``None`` when only trying it out: then no event is made)."""
    card = p.card
    side = SIDE_INDEX[p.side]
    row = p.row
    rows = state.cabins[side]
    state.hands[seat].remove(card)
    if endgame:
        state.discs[seat] -= 1
        if events is not None:
            events.append(DiscPaid(seat, None))
    new = row == len(rows)
    victim = p.drive_out
    if new:
        right = (seat - 1) % state.players
        state.discs[seat] -= 1
        state.discs[right] += 1
        if events is not None:
            events.append(DiscPaid(seat, right))
        rows.append([card])
        delta = WEIGHT[card]
    elif victim is not None:
        cabin = rows[row]
        cabin[cabin.index(victim)] = card
        state.box.append(victim)
        delta = WEIGHT[card] - WEIGHT[victim]
    else:
        rows[row].append(card)
        delta = WEIGHT[card]
    state.tilt += delta if side else -delta
    if events is not None:
        events.append(CardPlayed(seat, card, p.side, row, new, state.tilt))
    _figure(state, seat, card, events)
    if victim is not None:
        if events is not None:
            events.append(AnimalDrivenOut(seat, victim, card, p.side, row))
        _figure(state, seat, victim, events)
    if p.half is not None:
        kind = KINDS.index(p.half)
        state.plain[seat][kind] -= 1
        state.on_disc[seat][kind] += 1
        if events is not None:
            events.append(DiscUnderFigure(seat, p.half))
    if SPECIAL[card] == "fox":
        state.discs[seat] += FOX_DISCS
        if events is not None:
            events.append(DiscsGained(seat, FOX_DISCS))
    if new and p.take is not None:
        state.face_up.remove(p.take)
        insort(state.hands[seat], p.take)
        if events is not None:
            events.append(CardTaken(seat, p.take))


#: Memo of :func:`_fit_ways`. Its result depends only on its arguments (the deck is fixed), so
#: sharing it between games changes nothing but speed; it is emptied when it grows large.
_FIT_MEMO: dict[tuple[int, tuple[int, ...]], tuple[tuple[int | None, int], ...]] = {}
_FIT_MEMO_LIMIT = 200_000


def _fit_ways(card: int, cabin: tuple[int, ...]) -> tuple[tuple[int | None, int], ...]:
    """The ways ``card`` may go into an existing cabin holding ``cabin``, shyness and tilt
    aside: ``(None, weight)`` to join it, ``(victim, weight change)`` to drive one out."""
    key = (card, cabin)
    ways = _FIT_MEMO.get(key)
    if ways is not None:
        return ways
    found: list[tuple[int | None, int]] = []
    weight = WEIGHT[card]
    if len(cabin) < CABIN_SIZE and fit_problem(cabin, card) is None:
        found.append((None, weight))
    special = SPECIAL[card]
    if special in DRIVERS:
        for victim in cabin:
            if (
                IS_ANIMAL[victim]
                and SPECIAL[victim] not in UNDRIVABLE
                and (special != "mosquito" or WEIGHT[victim] == 2)
                and (special != "spider" or SHY[victim])
                and fit_problem([c for c in cabin if c != victim], card) is None
            ):
                found.append((victim, weight - WEIGHT[victim]))
    if len(_FIT_MEMO) >= _FIT_MEMO_LIMIT:
        _FIT_MEMO.clear()
    ways = _FIT_MEMO[key] = tuple(found)
    return ways


#: Statically legal ways to enter existing cabins: (side, row, victim or None, weight change).
Entries = list[tuple[int, int, int | None, int]]


def _entries(state: State, card: int, used: set[tuple[int, int]], tilted: bool = False) -> Entries:
    """Where ``card`` may go among the existing cabins, tilt aside (shyness included); with
    ``tilted``, a card that drives nobody out skips the side it would capsize the ark on."""
    result: Entries = []
    cabins = state.cabins
    shy = SHY[card]
    if SPECIAL[card] in DRIVERS:
        memo = _FIT_MEMO
        for side in (0, 1):
            for row, cabin in enumerate(cabins[side]):
                if (side, row) in used:
                    continue
                key = (card, tuple(cabin))
                ways = memo.get(key)
                if ways is None:
                    ways = _fit_ways(*key)
                if ways and shy and shy_blocked(cabins, side, row, card):
                    continue
                for victim, delta in ways:
                    result.append((side, row, victim, delta))
        return result
    # Without driving out, a card joins a cabin with room and no card it clashes with.
    clashes = CLASHES[card]
    weight = WEIGHT[card]
    tilt = state.tilt
    for side in (0, 1):
        if tilted and not -MAX_TILT <= (tilt + weight if side else tilt - weight) <= MAX_TILT:
            continue
        for row, cabin in enumerate(cabins[side]):
            if (
                len(cabin) < CABIN_SIZE
                and clashes.isdisjoint(cabin)
                and (side, row) not in used
                and not (shy and shy_blocked(cabins, side, row, card))
            ):
                result.append((side, row, None, weight))
    return result


def _new_cabin_sides(state: State, card: int) -> list[int]:
    """The sides where ``card`` may open a new cabin, discs aside: where the ark takes its
    weight and no carnivore next door scares it (an empty cabin takes any card)."""
    tilt = state.tilt
    weight = WEIGHT[card]
    cabins = state.cabins
    shy = SHY[card]
    return [
        side
        for side in (0, 1)
        if -MAX_TILT <= (tilt + weight if side else tilt - weight) <= MAX_TILT
        and not (shy and shy_blocked(cabins, side, len(cabins[side]), card))
    ]


def legal_placements(
    state: State,
    seat: int,
    endgame: bool,
    used: set[tuple[int, int]],
    first: bool,
    known: dict[int, Entries] | None = None,
    fresh_shy: bool = False,
    only: int | None = None,
) -> list[Placement]:
    """Every legal placement for ``seat`` now (of the card ``only`` if given), in a fixed order.

    ``used`` holds the cabins already played into this turn; ``first`` is False for the
    second card of a turn (no slow animal or provision then). ``known`` speeds up listing
    second cards: the first listing fills it with each card's legal existing cabins (tilt
    aside), later ones read it, because a first card changes nothing else a second card
    minds, except that shy cards must look again (``fresh_shy``) when it brought or drove
    out a carnivore; the tilt, discs, face-up cards and new cabins are checked every time.
    """
    discs = state.discs[seat] - (1 if endgame else 0)
    if discs < 0:
        return []
    alone_ok = first and not endgame
    result: list[Placement] = []
    append = result.append
    takes: list[int | None] = list(state.face_up) if state.face_up else [None]
    tilt = state.tilt
    # Only a chimpanzee, played or driven out, needs these: found when first needed.
    halves: list[str] | None = None
    half: str | None  # a chimpanzee's scoring card (None for any other card)
    cabins = state.cabins
    fill = known is not None and first
    hand = state.hands[seat]
    for card in hand if only is None else [only] if only in hand else []:
        if PLAYS_ALONE[card] and not alone_ok:
            continue
        chimp = SPECIAL[card] == "chimpanzee"
        entries = None if known is None or fill or (SHY[card] and fresh_shy) else known.get(card)
        if entries is None:
            # Entries kept in ``known`` are read again at other tilts: only others skip sides.
            entries = _entries(state, card, used, known is None)
            if fill and known is not None:  # fill implies known; the check tells the types
                known[card] = entries
        for side, row, victim, delta in entries:
            if (side, row) in used:
                continue
            if not -MAX_TILT <= (tilt + delta if side else tilt - delta) <= MAX_TILT:
                continue
            if chimp or (victim is not None and SPECIAL[victim] == "chimpanzee"):
                if halves is None:
                    halves = _half_options(state, seat)
                for half in halves:
                    append(Placement(card, SIDES[side], row, None, victim, half))
            else:
                append(Placement(card, SIDES[side], row, None, victim))
        if discs < 1:
            continue
        for side in _new_cabin_sides(state, card):
            row = len(cabins[side])
            if chimp and halves is None:
                halves = _half_options(state, seat)
            for take in takes:
                for half in halves if chimp and halves is not None else (None,):
                    append(Placement(card, SIDES[side], row, take, None, half))
    return result


#: Neither a driver nor the chimpanzee: the placements of these cards are their cabins and
#: nothing more, so they are counted without being made.
PLAIN: tuple[bool, ...] = tuple(
    SPECIAL[card] != "chimpanzee" and SPECIAL[card] not in DRIVERS for card in range(len(SPECIAL))
)


def has_placement(
    state: State, seat: int, endgame: bool, used: set[tuple[int, int]], first: bool
) -> bool:
    """Whether :func:`legal_placements` would list anything, found card by card."""
    discs = state.discs[seat] - (1 if endgame else 0)
    if discs < 0:
        return False
    alone_ok = first and not endgame
    for card in state.hands[seat]:
        if PLAYS_ALONE[card] and not alone_ok:
            continue
        if not PLAIN[card]:
            if legal_placements(state, seat, endgame, used, first, only=card):
                return True
        elif (discs >= 1 and _new_cabin_sides(state, card)) or _entries(state, card, used, True):
            return True
    return False


def _special_count(state: State, seat: int, card: int, used: set[tuple[int, int]], new: int) -> int:
    """How many placements :func:`legal_placements` lists for a driver or the chimpanzee:
    each way into a cabin the ark takes, and ``new`` ways into each new cabin it takes,
    times the chimpanzee's scoring cards wherever one is played or driven out."""
    chimp = SPECIAL[card] == "chimpanzee"
    tilt = state.tilt
    plain = with_half = 0  # ways without and with the chimpanzee's choice of scoring card
    for side, _, victim, delta in _entries(state, card, used, True):
        if -MAX_TILT <= (tilt + delta if side else tilt - delta) <= MAX_TILT:
            if chimp or (victim is not None and SPECIAL[victim] == "chimpanzee"):
                with_half += 1
            else:
                plain += 1
    if new:
        opened = len(_new_cabin_sides(state, card)) * new
        if chimp:
            with_half += opened
        else:
            plain += opened
    return plain + (with_half * len(_half_options(state, seat)) if with_half else 0)


def placement_counts(
    state: State, seat: int, endgame: bool, used: set[tuple[int, int]], first: bool
) -> list[tuple[int, int]]:
    """How many placements :func:`legal_placements` lists for each card of the hand that has
    any, as ``(card, count)`` in its order, without making them; :func:`nth_placement`
    then makes the one drawn (for playouts).

    A plain card counts the cabins with room on each side the ark lets it go to, whose cards
    it clashes with none of (one set test per cabin, run by ``map``; a shy card then asks
    :func:`shy_blocked` of those), then its new cabins times the face-up cards to take.
    Drivers and the chimpanzee count their ways one by one (:func:`_special_count`).
    """
    discs = state.discs[seat] - (1 if endgame else 0)
    if discs < 0:
        return []
    alone_ok = first and not endgame
    tilt = state.tilt
    cabins = state.cabins
    port, starboard = cabins
    # The cabins with room not played into this turn, per side.
    if used:
        open_port = [c for r, c in enumerate(port) if len(c) < CABIN_SIZE and (0, r) not in used]
        open_starboard = [
            c for r, c in enumerate(starboard) if len(c) < CABIN_SIZE and (1, r) not in used
        ]
    else:
        open_port = [c for c in port if len(c) < CABIN_SIZE]
        open_starboard = [c for c in starboard if len(c) < CABIN_SIZE]
    # The ways to open a new cabin on a side the ark lets a card go to: a face-up card each.
    new = (len(state.face_up) or 1) if discs >= 1 else 0
    found: list[tuple[int, int]] = []
    for card in state.hands[seat]:
        if PLAYS_ALONE[card] and not alone_ok:
            continue
        if not PLAIN[card]:
            count = _special_count(state, seat, card, used, new)
        elif SHY[card]:
            count = _shy_count(state, card, used, new)
        else:
            weight = WEIGHT[card]
            fit = CLASHES[card].isdisjoint
            count = 0
            if tilt - weight >= -MAX_TILT:
                count += sum(map(fit, open_port)) + new
            if tilt + weight <= MAX_TILT:
                count += sum(map(fit, open_starboard)) + new
        if count:
            found.append((card, count))
    return found


def _shy_count(state: State, card: int, used: set[tuple[int, int]], new: int) -> int:
    """:func:`placement_counts` for a plain shy card: fear is asked only of the cabins with
    room its mates let it into, and of the new cabins (``new`` ways each)."""
    cabins = state.cabins
    tilt = state.tilt
    weight = WEIGHT[card]
    fit = CLASHES[card].isdisjoint
    count = 0
    for side in (0, 1):
        if not -MAX_TILT <= (tilt + weight if side else tilt - weight) <= MAX_TILT:
            continue
        rows = cabins[side]
        for row in compress(range(len(rows)), map(fit, rows)):
            count += (
                len(rows[row]) < CABIN_SIZE
                and (side, row) not in used
                and not shy_blocked(cabins, side, row, card)
            )
        if new and not shy_blocked(cabins, side, len(rows), card):
            count += new
    return count


def nth_placement(
    state: State,
    seat: int,
    endgame: bool,
    used: set[tuple[int, int]],
    first: bool,
    counts: list[tuple[int, int]],
    index: int,
) -> Placement:
    """``legal_placements(state, seat, endgame, used, first)[index]``, made from the
    ``counts`` that :func:`placement_counts` gave for the same arguments."""
    for counted in counts:
        if index < counted[1]:
            break
        index -= counted[1]
    else:
        raise IndexError("placement index out of range")
    card = counted[0]
    if not PLAIN[card]:
        return legal_placements(state, seat, endgame, used, first, only=card)[index]
    entries = _entries(state, card, used, True)
    if index < len(entries):
        side, row, _, _ = entries[index]
        return Placement(card, SIDES[side], row)
    takes: list[int | None] = list(state.face_up) if state.face_up else [None]
    which, take = divmod(index - len(entries), len(takes))
    side = _new_cabin_sides(state, card)[which]
    return Placement(card, SIDES[side], len(state.cabins[side]), takes[take])
