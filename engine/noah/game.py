"""A game of Ark: set-up, turns, rain, pets, endgame and final scoring.

:class:`Game` is the only public way to change a game. It is deterministic: the seed decides
the shuffles (through :class:`engine.common.Rng`), after which the game is a pure function of
the actions applied. Every action is tried on a private copy of the state, so an illegal one
raises :class:`IllegalAction` and leaves the game exactly as it was.

Seats are numbered clockwise from the start player (seat 0), so the next player is the left
neighbour ``seat + 1`` and the right-hand neighbour, who receives the disc for a new cabin,
is ``seat - 1``.

Decisions where the rules leave room:

- Set-up: the opening cards are laid out in the order drawn as A (port, row 0), B
  (starboard, row 0), C (starboard, row 1), D (port, row 1). Rejected cards go under the
  deck, which is reshuffled anyway before the hands are dealt. The kind-less special animals
  (fox, skunk, mosquito, spider) count as one more kind for "at most two of a kind".
- The supply is split with the smaller half on top (``n // 2`` cards); four rain cards are
  shuffled into the bottom half and the fifth laid on it, so the first rain card falls just
  after the top half.
- A rain card drawn in the middle of a turn is set aside and the drawing goes on; the pet
  choice (second rain card) and the endgame (fifth) begin when that turn is over. The fifth
  rain card ends the turn at once: no further card is drawn or turned face up.
- Pet choice: each player answers in turn order, starting with the next player, by
  :class:`ChoosePet` or :class:`Pass`. Any card of the hand may be put face down (nobody can
  check a face-down card), but at the end only an animal of weight 0-2 without "!" scores.
- Endgame: play is one card for one disc to the supply; a player with no disc, or no card
  that can legally go anywhere, can only pass. Passed players are skipped.
- An empty supply before the fifth rain card (only possible in arranged games) counts as the
  fifth rain card.
- A practice deal (``Game.new(practice=True)``, the option ``{"deal": "practice"}``, for
  ``/table learn``) is the same deal with the four rain cards of the bottom half spread out
  (:data:`PRACTICE_RAIN_GAPS`) instead of shuffled in: the pets never come right after the
  first rain card, so a learner has met the rules of play before they choose a pet.
- ``scores`` before the end are the points the visible figures and discs would give now
  (pets not counted); after the end, the final scores.
"""

from __future__ import annotations

import json
from bisect import insort
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from engine.common import Rng
from engine.noah.actions import (
    SIDES,
    Action,
    ChoosePet,
    IllegalAction,
    Pass,
    Placement,
    PlayCards,
    TakeCards,
)
from engine.noah.cards import (
    CARDS,
    CARNIVORE,
    IS_ANIMAL,
    IS_RAIN,
    KIND,
    KIND_INDEX,
    KINDS,
    PLAYING_CARDS,
    PLAYS_ALONE,
    RAIN_CARDS,
    WEIGHT,
    card_id,
)
from engine.noah.events import (
    CardDrawn,
    CardTaken,
    EndgameStarted,
    Event,
    FaceUpRefilled,
    GameOver,
    Passed,
    PetChoiceStarted,
    PetChosen,
    PetDeclined,
    PetRevealed,
    RainFell,
    SupplyExhausted,
)
from engine.noah.placing import (
    Entries,
    alone_not_second,
    has_placement,
    legal_placements,
    nth_placement,
    place,
    placement_counts,
    placement_problem,
)
from engine.noah.reasons import why_nowhere
from engine.noah.scoring import total_scores, winners
from engine.noah.state import ENDGAME, OVER, PET, PLAY, State

#: Players allowed at one table.
MIN_PLAYERS, MAX_PLAYERS = 3, 5

#: Opening cards, their weights, and how many of one kind may be among them.
OPENING_CARDS = 4
OPENING_WEIGHTS = (1, 2)
OPENING_PER_KIND = 2

#: Where the opening cards A, B, C, D go: (side, row).
OPENING_LAYOUT: tuple[tuple[int, int], ...] = ((0, 0), (1, 0), (1, 1), (0, 1))

HAND_SIZE = 2
FACE_UP = 3
#: A practice deal's cards drawn after the first rain card before the second, third and
#: fourth (the fifth is the bottom card): about two rounds of three players between them.
PRACTICE_RAIN_GAPS = (8, 5, 5)


def _spread_rain(bottom: list[int]) -> list[int]:
    """The bottom half (drawn from its end) with its rain cards at the practice deal's
    places, the other cards in their shuffled order."""
    draws = [card for card in reversed(bottom) if not IS_RAIN[card]]
    rains = [card for card in reversed(bottom) if IS_RAIN[card]]
    at = 0
    for gap, rain in zip(PRACTICE_RAIN_GAPS, rains, strict=False):
        at = min(at + gap, len(draws))
        draws.insert(at, rain)
        at += 1
    draws += rains[len(PRACTICE_RAIN_GAPS) :]  # the last one at the bottom
    return list(reversed(draws))


#: The rain card that brings the pets, and the one that ends the game.
PET_RAIN, LAST_RAIN = 2, 5


def starting_discs(players: int, seat: int) -> int:
    """Action discs at the start: 3, or 4 for positions 4 and 5, or 4 each with 3 players."""
    return 4 if players == 3 or seat >= 3 else 3


class Game:
    """One game of Ark. Create it with :meth:`new` (or :meth:`arranged` for a set position)."""

    #: Players hold cards and a pet the others may not see (see :mod:`engine.protocol`).
    hidden_information = True

    __slots__ = ("_legal", "_preview", "_state")

    def __init__(self, state: State) -> None:
        self._state = state
        self._legal: list[Action] | None = None
        # A preview (see :meth:`preview`) is a picture of a turn half played: not for play.
        self._preview = False

    # ----------------------------------------------------------------- creation

    @classmethod
    def new(cls, players: int = 4, seed: int = 0, practice: bool = False) -> Game:
        """A new game for ``players`` (3 to 5), set up with the shuffles of ``seed``;
        ``practice``: the practice deal (the rain cards spread out)."""
        if type(players) is not int or not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise ValueError(f"Ark is played by {MIN_PLAYERS} to {MAX_PLAYERS} players.")
        if type(seed) is not int:
            raise ValueError("The seed must be a whole number.")
        state = State(players, seed)
        rng = Rng(seed)
        cards = list(PLAYING_CARDS)
        rng.shuffle(cards)
        opening: list[int] = []
        per_kind: dict[str, int] = {}
        while len(opening) < OPENING_CARDS:
            card = cards.pop()
            kind = KIND[card]
            if WEIGHT[card] in OPENING_WEIGHTS and per_kind.get(kind, 0) < OPENING_PER_KIND:
                opening.append(card)
                per_kind[kind] = per_kind.get(kind, 0) + 1
            else:
                cards.insert(0, card)  # face down under the deck
        state.cabins = [[[], []], [[], []]]
        for card, (side, row) in zip(opening, OPENING_LAYOUT, strict=True):
            state.cabins[side][row].append(card)
        state.tilt = _tilt_of(state.cabins)
        rng.shuffle(cards)
        for seat in range(players):
            state.hands[seat] = sorted(cards.pop() for _ in range(HAND_SIZE))
        state.face_up = [cards.pop() for _ in range(FACE_UP)]
        top = cards[len(cards) - len(cards) // 2 :]
        bottom = cards[: len(cards) - len(cards) // 2] + list(RAIN_CARDS[:-1])
        rng.shuffle(bottom)
        if practice:
            bottom = _spread_rain(bottom)
        state.deck = [*bottom, RAIN_CARDS[-1], *top]
        state.discs = [starting_discs(players, seat) for seat in range(players)]
        state.rng = rng.state
        return cls(state)

    @classmethod
    def arranged(
        cls,
        players: int = 4,
        *,
        port: Sequence[Sequence[int | str]] = (),
        starboard: Sequence[Sequence[int | str]] = (),
        hands: Sequence[Sequence[int | str]] = (),
        face_up: Sequence[int | str] = (),
        deck: Sequence[int | str] | None = None,
        discs: Sequence[int] | None = None,
        rain: int = 0,
        current: int = 0,
        phase: str = PLAY,
        passed: Sequence[bool] | None = None,
        pets: Sequence[int | str | None] | None = None,
        figures: Mapping[int, Mapping[str, int]] | None = None,
        half_figures: Mapping[int, Mapping[str, int]] | None = None,
    ) -> Game:
        """A game in a given position, for tests and puzzles. Cards are ids or names.

        A name takes the first copy not used yet. ``port`` and ``starboard`` list the cabins
        from the bow; the tilt follows from their weights. ``deck`` lists the supply from the
        top; rain cards not fallen (``rain`` have) and not listed go under it. Cards not
        mentioned go under the supply when ``deck`` is None, else to the box (out of play).
        ``phase`` is ``"play"`` or ``"endgame"`` (the pet choice then counts as done when
        ``rain >= 2``); ``figures`` / ``half_figures`` give ``{seat: {kind: count}}`` of
        plain figures and figures on orange discs already on the scoring cards.
        """
        if phase not in (PLAY, ENDGAME):
            raise ValueError('An arranged game starts in the "play" or "endgame" phase.')
        state = State(players)
        free = {c: True for c in range(len(CARDS))}

        def take(item: int | str) -> int:
            if isinstance(item, int):
                if not free.get(item):
                    raise ValueError(f"Card {item} is used twice.")
                free[item] = False
                return item
            copy = 1
            while True:
                card = card_id(item, copy)
                if free[card]:
                    free[card] = False
                    return card
                copy += 1

        rain_pile = [take("Rain") for _ in range(rain)]
        state.cabins = [
            [[take(c) for c in cabin] for cabin in port],
            [[take(c) for c in cabin] for cabin in starboard],
        ]
        state.tilt = _tilt_of(state.cabins)
        for seat, hand in enumerate(hands):
            state.hands[seat] = sorted(take(c) for c in hand)
        state.face_up = [take(c) for c in face_up]
        if pets is not None:
            state.pets = [None if p is None else take(p) for p in pets]
        listed = [take(c) for c in deck] if deck is not None else []
        rest = [c for c in range(len(CARDS)) if free[c]]
        rains_left = [c for c in rest if IS_RAIN[c]]
        others = [c for c in rest if not IS_RAIN[c]]
        if deck is None:
            listed = others
        else:
            state.box = others
        state.deck = list(reversed(listed + rains_left))
        state.rain = rain_pile
        state.discs = (
            list(discs)
            if discs is not None
            else [starting_discs(players, seat) for seat in range(players)]
        )
        for source, target in ((figures, state.plain), (half_figures, state.on_disc)):
            for seat, counts in (source or {}).items():
                for kind, count in counts.items():
                    target[seat][KINDS.index(kind)] = count
        state.current = current
        state.phase = phase
        if phase == ENDGAME:
            state.endgame_due = True
            state.passed = list(passed) if passed is not None else [False] * players
        return cls(state)

    # ----------------------------------------------------------------- reading

    @property
    def players(self) -> int:
        """Number of players."""
        return self._state.players

    @property
    def phase(self) -> str:
        """``"play"`` (take or play), ``"pet"`` (pet choice), ``"endgame"`` or ``"over"``."""
        return self._state.phase

    @property
    def current_player(self) -> int | None:
        """The seat to act now, or ``None`` when the game is over."""
        return None if self._state.phase == OVER else self._state.current

    @property
    def tilt(self) -> int:
        """The yellow disc: starboard weight minus port weight, between -2 and 2."""
        return self._state.tilt

    @property
    def cabins(self) -> tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]]:
        """The ark: ``cabins[side][row]`` is the cards of a cabin (side 0 port, 1 starboard)."""
        port, starboard = self._state.cabins
        return tuple(tuple(c) for c in port), tuple(tuple(c) for c in starboard)

    @property
    def face_up(self) -> tuple[int, ...]:
        """The face-up cards to take from."""
        return tuple(self._state.face_up)

    @property
    def supply_size(self) -> int:
        """Cards left in the supply (rain cards included)."""
        return len(self._state.deck)

    @property
    def rain_fallen(self) -> int:
        """How many rain cards have been drawn (0 to 5)."""
        return len(self._state.rain)

    @property
    def discs(self) -> tuple[int, ...]:
        """Action discs per seat."""
        return tuple(self._state.discs)

    @property
    def box(self) -> tuple[int, ...]:
        """Animals driven out of the game."""
        return tuple(self._state.box)

    def hand(self, seat: int) -> tuple[int, ...]:
        """The cards in ``seat``'s hand. Private: show it to that player only."""
        return tuple(self._state.hands[seat])

    def pet(self, seat: int) -> int | None:
        """``seat``'s pet. Private until the game is over: show it to that player only."""
        return self._state.pets[seat]

    def figures(self, seat: int) -> dict[str, float]:
        """Figures of ``seat`` on each scoring card (1.5 for one on an orange disc)."""
        state = self._state
        return {
            kind: state.plain[seat][k] + 1.5 * state.on_disc[seat][k]
            for k, kind in enumerate(KINDS)
        }

    def halves(self) -> list[list[int]]:
        """Figures per scoring card and seat, counted in halves (one on an orange disc is
        3): ``halves()[k][seat]`` for scoring card ``KINDS[k]``; pets not yet counted."""
        return [list(column) for column in zip(*self._halves(), strict=True)]

    def _halves(self) -> list[list[int]]:
        state = self._state
        return [
            [2 * p + 3 * d for p, d in zip(state.plain[seat], state.on_disc[seat], strict=True)]
            for seat in range(state.players)
        ]

    @property
    def scores(self) -> tuple[int, ...]:
        """Points per seat: final once the game is over, else what the board gives now."""
        state = self._state
        if state.final is not None:
            return tuple(state.final)
        return tuple(total_scores(self._halves(), state.discs))

    @property
    def winners(self) -> tuple[int, ...]:
        """The winning seats once the game is over (several if still tied), else ``()``."""
        return tuple(self._state.winners or ())

    def public_view(self) -> dict[str, Any]:
        """Everything every player may see, as JSON-ready data: no hand, pet or supply card."""
        state = self._state
        over = state.phase == OVER
        return {
            "players": state.players,
            "phase": state.phase,
            "current_player": self.current_player,
            "tilt": state.tilt,
            "ship": {SIDES[side]: [list(cabin) for cabin in state.cabins[side]] for side in (0, 1)},
            "face_up": list(state.face_up),
            "supply": len(state.deck),
            "rain_fallen": len(state.rain),
            "hand_sizes": [len(h) for h in state.hands],
            "discs": list(state.discs),
            "figures": [self.figures(seat) for seat in range(state.players)],
            "pets": [(p if over else True) if p is not None else None for p in state.pets],
            "passed": list(state.passed) if state.phase in (ENDGAME, OVER) else None,
            "box": list(state.box),
            "last_played": list(state.last),
            "scores": list(self.scores),
            "winners": list(self.winners),
        }

    @property
    def turn(self) -> int:
        """The number of the current turn, from 1: every action is a whole turn in Ark (taking,
        playing, a pet choice, an endgame play or pass)."""
        return self._state.moves + 1

    def copy(self) -> Game:
        """An independent game in the same state."""
        return Game(self._state.copy())

    def view_at_end(self) -> dict[str, Any]:
        """What everyone sees once play has stopped: the public view with every pet turned up,
        as the rules turn them up at the end (then it equals ``view(None)``). For a game
        stopped before its end (a moderator ended it), whose pets the rules never turned up;
        only for a game that is over, since it shows what ``view(None)`` hides in play."""
        data = self.public_view()
        data["pets"] = list(self._state.pets)
        return data

    def view(self, seat: int | None = None) -> dict[str, Any]:
        """What ``seat`` may see: the public view plus their own hand and pet. With ``None``,
        the public view (:meth:`public_view`)."""
        data = self.public_view()
        if seat is None:
            return data
        data["seat"] = seat
        data["hand"] = list(self._state.hands[seat])
        data["pet"] = self._state.pets[seat]
        return data

    # ----------------------------------------------------------------- JSON

    def to_json(self) -> str:
        """The whole game, RNG state included, as compact JSON text."""
        return json.dumps(self._state.to_dict(), separators=(",", ":"), sort_keys=True)

    @classmethod
    def from_json(cls, text: str) -> Game:
        """The game saved by :meth:`to_json`, exactly."""
        try:
            data = json.loads(text)
        except (TypeError, json.JSONDecodeError) as error:
            raise ValueError("This is not a saved game of Ark.") from error
        return cls(State.from_dict(data))

    # ----------------------------------------------------------------- legal actions

    def legal_actions(self) -> list[Action]:
        """Every legal action of the player to act, in a fixed order (empty once over).

        To build a play step by step, see :meth:`placements`, :meth:`second_placements`,
        :meth:`why_not` and :meth:`preview`."""
        if self._preview:
            return []
        if self._legal is None:
            self._legal = self._compute_legal()
        return list(self._legal)

    def _compute_legal(self) -> list[Action]:
        state = self._state
        seat = state.current
        if state.phase == PLAY:
            actions: list[Action] = [TakeCards(c) for c in state.face_up]
            known: dict[int, Entries] = {}
            for first in legal_placements(state, seat, False, set(), True, known):
                actions.append(PlayCards((first,)))
                if PLAYS_ALONE[first.card]:
                    continue
                used = {(SIDES.index(first.side), first.row)}
                victim = first.drive_out
                fresh_shy = CARNIVORE[first.card] or (victim is not None and CARNIVORE[victim])
                saved = _save(state, seat, first)
                place(state, seat, first, False, None)
                for second in legal_placements(state, seat, False, used, False, known, fresh_shy):
                    actions.append(PlayCards((first, second)))
                _restore(state, seat, first, saved)
            return actions
        if state.phase == PET:
            return [*(ChoosePet(c) for c in state.hands[seat]), Pass()]
        if state.phase == ENDGAME:
            plays: list[Action] = [
                PlayCards((p,)) for p in legal_placements(state, seat, True, set(), True)
            ]
            return [*plays, Pass()]
        return []

    # ----------------------------------------------------------------- building a play
    # What the Discord turn needs step by step (choose a card, its cabin and what it needs,
    # maybe a second card, preview, confirm) without filtering the flat legal_actions()
    # list, which may hold thousands of pairs. All read-only, and they agree with it exactly:
    # the PlayCards of legal_actions() are the placements(card) alone and each one followed
    # by its second_placements().

    def placements(self, card: int) -> list[Placement]:
        """Every legal placement of ``card`` as the first (in the endgame: the only) card of
        the current player's play now, with all its options: the cabin (open ones, then the
        new cabin of each side), the face-up card taken for a new cabin, the animal driven
        out, the chimpanzee's scoring card. Empty if the card cannot be played now (see
        :meth:`why_not`), outside the play and endgame phases, or in a preview."""
        state = self._state
        if self._preview or state.phase not in (PLAY, ENDGAME):
            return []
        endgame = state.phase == ENDGAME
        return legal_placements(state, state.current, endgame, set(), True, only=card)

    def second_placements(self, first: Placement) -> list[Placement]:
        """Every legal second card after ``first``, with all its options, in the order of
        :meth:`legal_actions`; empty if ``first`` plays alone (a slow animal or a provision)
        or in the endgame. Raises :class:`IllegalAction` if ``first`` is not legal now."""
        state = self._state
        trial = self._after_first(first)
        if trial is None:
            return []
        used = {(SIDES.index(first.side), first.row)}
        return legal_placements(trial, state.current, False, used, False)

    def why_not(self, card: int, after: Placement | None = None) -> IllegalAction | None:
        """``None`` if ``card`` can be played now (as the second card after ``after``, if
        given); else the refusal that explains best why no cabin takes it (code and params
        as for :meth:`apply`; the order of reasons is in :mod:`engine.noah.reasons`): too
        heavy wherever it goes, a cabin mate it cannot share with, no disc for a new cabin,
        a full cabin... Raises :class:`IllegalAction` if ``after`` is not legal now."""
        state = self._state
        seat = state.current
        if self._preview:
            return _preview_only()
        if state.phase == OVER:
            return _game_over()
        if state.phase == PET:
            return _pet_first()
        endgame = state.phase == ENDGAME
        if after is None:
            return why_nowhere(state, seat, card, endgame, set(), True)
        if endgame:
            return _one_card_in_endgame(2)
        trial = self._after_first(after)
        if trial is None:
            return _played_alone(after.card)
        used = {(SIDES.index(after.side), after.row)}
        return why_nowhere(trial, seat, card, False, used, False)

    def preview(self, placements: Sequence[Placement]) -> Game:
        """The game as it would look once ``placements`` are played, for a picture of the ark
        and its tilt before the player confirms; this game is not changed. The turn is not
        ended in it: no face-up card is refilled and nothing is drawn, so it shows nothing
        hidden. A preview cannot be played on (its ``legal_actions()`` is empty). Raises
        :class:`IllegalAction`, as :meth:`apply` would, if the play is not legal."""
        state = self._state
        if state.phase == OVER:
            raise _game_over()
        if self._preview:
            raise _preview_only()
        work = state.copy()
        self._place_cards(work, tuple(placements), [])
        shown = Game(work)
        shown._preview = True
        return shown

    def _after_first(self, first: Placement) -> State | None:
        """A copy of the state once ``first`` is played as a first card of the main game;
        None when no second card may follow it. Raises if ``first`` is not legal."""
        state = self._state
        if self._preview or state.phase != PLAY:
            return None
        problem = placement_problem(state, state.current, first, False, set())
        if problem is not None:
            raise problem
        if PLAYS_ALONE[first.card]:
            return None
        trial = state.copy()
        place(trial, state.current, first, False, None)
        return trial

    # ----------------------------------------------------------------- applying

    def apply(self, action: Action, seat: int | None = None) -> tuple[Event, ...]:
        """Carry out ``action`` for the player to act and return what happened.

        With ``seat``, the action is refused unless it is that seat's turn. An illegal action
        raises :class:`IllegalAction` and changes nothing.
        """
        state = self._state
        if state.phase == OVER:
            raise _game_over()
        if self._preview:
            raise _preview_only()
        if seat is not None and seat != state.current:
            raise IllegalAction("not_your_turn", seat=seat, current=state.current)
        work = state.copy()
        events: list[Event] = []
        if isinstance(action, TakeCards):
            self._take(work, action, events)
        elif isinstance(action, PlayCards):
            self._play(work, action, events)
        elif isinstance(action, ChoosePet):
            self._choose_pet(work, action, events)
        elif isinstance(action, Pass):
            self._pass(work, events)
        else:
            raise IllegalAction("malformed")
        work.moves += 1
        self._state = work
        self._legal = None
        return tuple(events)

    def _take(self, state: State, action: TakeCards, events: list[Event]) -> None:
        if state.phase == PET:
            raise _pet_first()
        if state.phase == ENDGAME:
            raise IllegalAction("no_take_in_endgame")
        if type(action.card) is not int or action.card not in state.face_up:
            raise IllegalAction("not_face_up", card=action.card)
        seat = state.current
        state.face_up.remove(action.card)
        insort(state.hands[seat], action.card)
        events.append(CardTaken(seat, action.card))
        drawn = self._draw(state, events)
        if drawn is not None:
            insort(state.hands[seat], drawn)
            events.append(CardDrawn(seat, drawn))
        self._end_turn(state, events)

    def _play(
        self, state: State, action: PlayCards, events: list[Event], trusted: bool = False
    ) -> None:
        if trusted:
            # Known legal (apply_trusted): no checks, and no events for the placements.
            seat = state.current
            endgame = state.phase == ENDGAME
            state.last = []
            for p in action.placements:
                place(state, seat, p, endgame, None)
                state.last.append(p.card)
        else:
            self._place_cards(state, action.placements, events)
        if state.phase == ENDGAME:
            self._next_in_endgame(state, state.current, events)
        else:
            self._end_turn(state, events)

    @staticmethod
    def _place_cards(state: State, placements: object, events: list[Event]) -> None:
        """Check and carry out the placements of a play, not yet ending the turn."""
        seat = state.current
        endgame = state.phase == ENDGAME
        if state.phase == PET:
            raise _pet_first()
        if not isinstance(placements, tuple) or not placements:
            raise IllegalAction("nothing_played")
        if endgame and len(placements) > 1:
            raise _one_card_in_endgame(len(placements))
        if len(placements) > 2:
            raise IllegalAction("too_many_cards", count=len(placements))
        used: set[tuple[int, int]] = set()
        state.last = []
        for index, p in enumerate(placements):
            if index == 1:
                alone = placements[0].card
                if PLAYS_ALONE[alone]:
                    raise _played_alone(alone)
                if (
                    isinstance(p, Placement)
                    and p.card in state.hands[seat]
                    and (PLAYS_ALONE[p.card])
                ):
                    raise alone_not_second(p.card)
            problem = placement_problem(state, seat, p, endgame, used)
            if problem is not None:
                raise problem
            place(state, seat, p, endgame, events)
            used.add((SIDES.index(p.side), p.row))
            state.last.append(p.card)

    def _choose_pet(self, state: State, action: ChoosePet, events: list[Event]) -> None:
        if state.phase != PET:
            raise IllegalAction("not_pet_time")
        seat = state.current
        if type(action.card) is not int or action.card not in state.hands[seat]:
            raise IllegalAction("pet_not_in_hand", card=action.card)
        state.hands[seat].remove(action.card)
        state.pets[seat] = action.card
        events.append(PetChosen(seat))
        self._next_pet(state, events)

    def _pass(self, state: State, events: list[Event]) -> None:
        seat = state.current
        if state.phase == PET:
            events.append(PetDeclined(seat))
            self._next_pet(state, events)
        elif state.phase == ENDGAME:
            state.passed[seat] = True
            events.append(Passed(seat))
            self._next_in_endgame(state, seat, events)
        else:
            raise IllegalAction("no_pass")

    # ----------------------------------------------------------------- turn flow

    @staticmethod
    def _draw(state: State, events: list[Event]) -> int | None:
        """The next non-rain card of the supply, setting rain aside; None once it is over."""
        deck = state.deck
        while not state.endgame_due:
            if not deck:
                state.endgame_due = True
                events.append(SupplyExhausted())
                return None
            card = deck.pop()
            if not IS_RAIN[card]:
                return card
            state.rain.append(card)
            fallen = len(state.rain)
            events.append(RainFell(fallen))
            if fallen == PET_RAIN:
                state.pet_due = True
            elif fallen >= LAST_RAIN:
                state.endgame_due = True
        return None

    def _end_turn(self, state: State, events: list[Event]) -> None:
        """Refill the face-up cards, then hand over to the pet choice, the endgame or the
        next player."""
        while len(state.face_up) < FACE_UP:
            card = self._draw(state, events)
            if card is None:
                break
            state.face_up.append(card)
            events.append(FaceUpRefilled(card))
        following = (state.current + 1) % state.players
        if state.pet_due:
            state.pet_due = False
            state.phase = PET
            state.pet_queue = [(following + i) % state.players for i in range(state.players)]
            state.resume_phase = ENDGAME if state.endgame_due else PLAY
            state.resume_seat = following
            state.current = following
            events.append(PetChoiceStarted(following))
        elif state.endgame_due:
            self._start_endgame(state, following, events)
        else:
            state.current = following

    @staticmethod
    def _start_endgame(state: State, first: int, events: list[Event]) -> None:
        state.phase = ENDGAME
        state.passed = [False] * state.players
        state.current = first
        events.append(EndgameStarted(first))

    def _next_pet(self, state: State, events: list[Event]) -> None:
        state.pet_queue.pop(0)
        if state.pet_queue:
            state.current = state.pet_queue[0]
        elif state.resume_phase == ENDGAME:
            self._start_endgame(state, state.resume_seat, events)
        else:
            state.phase = PLAY
            state.current = state.resume_seat

    def _next_in_endgame(self, state: State, seat: int, events: list[Event]) -> None:
        for step in range(1, state.players + 1):
            other = (seat + step) % state.players
            if not state.passed[other]:
                state.current = other
                return
        self._finish(state, events)

    def _finish(self, state: State, events: list[Event]) -> None:
        """Reveal the pets, score, and end the game."""
        for seat, pet in enumerate(state.pets):
            if pet is None:
                continue
            scored = CARDS[pet].can_be_pet
            events.append(PetRevealed(seat, pet, scored))
            if scored:
                state.plain[seat][KIND_INDEX[pet]] += 1
        state.phase = OVER
        state.current = -1
        self._state_final(state)
        events.append(GameOver(tuple(state.final or ()), tuple(state.winners or ())))

    @staticmethod
    def _state_final(state: State) -> None:
        halves = [
            [2 * p + 3 * d for p, d in zip(state.plain[seat], state.on_disc[seat], strict=True)]
            for seat in range(state.players)
        ]
        state.final = total_scores(halves, state.discs)
        animals = [sum(1 for c in hand if IS_ANIMAL[c]) for hand in state.hands]
        state.winners = list(winners(state.final, animals))

    # ----------------------------------------------------------------- search support
    # Fast paths and hidden-information handling for the computer players (engine.ai). They
    # call the same rules as legal_actions() and apply(); none of them changes the game.

    def sample_action(self, rng: Rng) -> Action:
        """One legal action, drawn without listing every two-card play (for playouts).

        Not uniform: in the main game a take or a play is chosen first, then a card, its
        placement and maybe a second card; every legal action can be drawn. The placements
        are counted, not listed (:func:`placement_counts`), and the second card's are counted
        on the state itself, the first card placed and then undone as in
        :meth:`legal_actions`: the draws are those of picking from the full lists.
        """
        state = self._state
        seat = state.current
        if state.phase == PLAY:
            none: set[tuple[int, int]] = set()
            if state.face_up and (
                not has_placement(state, seat, False, none, True) or rng.below(5) < 2
            ):
                return TakeCards(rng.choice(state.face_up))
            first = _draw_placement(state, seat, False, none, True, rng)
            if first is None:
                raise ValueError("Nothing can be taken or played.")
            if PLAYS_ALONE[first.card] or rng.below(2):
                return PlayCards((first,))
            saved = _save(state, seat, first)
            place(state, seat, first, False, None)
            try:
                used = {(SIDES.index(first.side), first.row)}
                second = _draw_placement(state, seat, False, used, False, rng)
            finally:
                _restore(state, seat, first, saved)
            return PlayCards((first,) if second is None else (first, second))
        if state.phase == PET:
            options = state.hands[seat]
            return ChoosePet(rng.choice(options)) if options and rng.below(4) else Pass()
        if state.phase == ENDGAME:
            counts = placement_counts(state, seat, True, set(), True)
            if not counts or not rng.below(8):
                return Pass()
            total = sum(count for _, count in counts)
            return PlayCards(
                (nth_placement(state, seat, True, set(), True, counts, rng.below(total)),)
            )
        raise IllegalAction("game_over")

    def apply_trusted(self, action: Action) -> None:
        """Play an action known to be legal (from :meth:`legal_actions` or
        :meth:`sample_action` of this very state), without the safety copy that lets
        :meth:`apply` refuse cleanly and without checking the placements again; for search.
        The events are not kept. An illegal action leaves the game in a state of no use."""
        state = self._state
        events: list[Event] = []
        if isinstance(action, TakeCards):
            self._take(state, action, events)
        elif isinstance(action, PlayCards):
            self._play(state, action, events, trusted=True)
        elif isinstance(action, ChoosePet):
            self._choose_pet(state, action, events)
        else:
            self._pass(state, events)
        state.moves += 1
        self._legal = None

    def has_passed(self, seat: int) -> bool:
        """Whether ``seat`` has passed for good in the endgame (public)."""
        state = self._state
        return state.phase in (ENDGAME, OVER) and bool(state.passed[seat])

    def cabin_options(self, seat: int, cards: Iterable[int] | None = None) -> dict[int, int]:
        """For each card (default: ``seat``'s hand), how many ways it could be played now as
        the first card of ``seat``'s turn (or in the endgame, its endgame play), whatever
        ``seat`` holds; cards that cannot go anywhere now are 0. Read-only."""
        state = self._state
        hand = sorted(state.hands[seat] if cards is None else cards)
        endgame = state.phase == ENDGAME
        counts = dict.fromkeys(hand, 0)
        saved = state.hands[seat]
        state.hands[seat] = hand
        try:
            # Counted, not listed (the evaluation asks this of every position it scores).
            counts.update(placement_counts(state, seat, endgame, set(), not endgame))
        finally:
            state.hands[seat] = saved
        return counts

    def determinise(self, seat: int, rng: Rng) -> Game:
        """A copy in which everything ``seat`` cannot see is dealt anew at random, consistent
        with what it does see: the other hands (same sizes), the other pets (who has one),
        and the order of the supply. The rain cards keep what is known of their places: the
        one laid on the bottom half stays where it is (its depth is public: the top half's
        size is), and the others fall anywhere below it. The seed is dropped.

        ``seat``'s own hand and pet, the ark, the face-up cards, discs, figures and the box
        are kept as they are, so ``view(seat)`` of the copy equals ``view(seat)`` of the game.
        """
        state = self._state.copy()
        others = [s for s in range(state.players) if s != seat]
        pool = [c for c in state.deck if not IS_RAIN[c]]
        for other in others:
            pool.extend(state.hands[other])
            pet = state.pets[other]
            if pet is not None:
                pool.append(pet)
        # Sorted first, so that the deal depends on nothing ``seat`` cannot see.
        pool.sort()
        rng.shuffle(pool)
        for other in others:
            size = len(state.hands[other])
            state.hands[other] = sorted(pool[len(pool) - size :])
            del pool[len(pool) - size :]
            if state.pets[other] is not None:
                state.pets[other] = pool.pop()
        deck = state.deck
        marker = RAIN_CARDS[-1]
        below = deck.index(marker) if marker in deck else len(deck)
        # Rain cards below the marker may lie at any depth below it; the rest hold cards.
        rains = [c for c in deck[:below] if IS_RAIN[c]]
        slots = list(range(below))
        rng.shuffle(slots)
        rain_at = set(slots[: len(rains)])
        cards = iter(pool)
        rain_cards = iter(rains)
        for index in range(len(deck)):
            if index < below:
                deck[index] = next(rain_cards) if index in rain_at else next(cards)
            elif not IS_RAIN[deck[index]]:
                deck[index] = next(cards)
        state.seed = 0
        state.rng = 0
        return Game(state)

    # ----------------------------------------------------------------- misc

    def cards_everywhere(self) -> list[int]:
        """Every card id wherever it is (supply, face up, hands, pets, ark, rain, box).

        For checks: each of the 60 ids appears exactly once in a consistent game.
        """
        state = self._state
        found = [*state.deck, *state.face_up, *state.rain, *state.box]
        for hand in state.hands:
            found.extend(hand)
        found.extend(p for p in state.pets if p is not None)
        for side in state.cabins:
            for cabin in side:
                found.extend(cabin)
        return found

    def __repr__(self) -> str:
        return (
            f"<Game of Ark: {self.players} players, {self.phase}, seat {self.current_player} "
            f"to act, tilt {self.tilt}>"
        )


# Refusals given in more than one place.


def _game_over() -> IllegalAction:
    return IllegalAction("game_over")


def _preview_only() -> IllegalAction:
    return IllegalAction("preview_only")


def _pet_first() -> IllegalAction:
    return IllegalAction("pet_first")


def _one_card_in_endgame(count: int) -> IllegalAction:
    return IllegalAction("one_card_in_endgame", count=count)


def _played_alone(card: int) -> IllegalAction:
    return IllegalAction("played_alone", card=card)


def _save(state: State, seat: int, placement: Placement) -> tuple[Any, ...]:
    """What :func:`place` may change, so that :func:`_restore` can undo a trial placement.

    Listing second cards needs the ark as the first card leaves it; undoing the few things a
    placement touches is several times cheaper than copying the whole state for each one.
    """
    rows = state.cabins[SIDES.index(placement.side)]
    row = placement.row
    return (
        state.hands[seat].copy(),
        state.discs.copy(),
        state.face_up.copy(),
        len(rows),
        rows[row].copy() if row < len(rows) else None,
        state.tilt,
        state.plain[seat].copy(),
        state.on_disc[seat].copy(),
        len(state.box),
    )


def _restore(state: State, seat: int, placement: Placement, saved: tuple[Any, ...]) -> None:
    """Undo a trial placement recorded by :func:`_save`."""
    hand, discs, face_up, count, cabin, tilt, plain, on_disc, boxed = saved
    rows = state.cabins[SIDES.index(placement.side)]
    state.hands[seat] = hand
    state.discs = discs
    state.face_up = face_up
    del rows[count:]
    if cabin is not None:
        rows[placement.row][:] = cabin
    state.tilt = tilt
    state.plain[seat] = plain
    state.on_disc[seat] = on_disc
    del state.box[boxed:]


def _draw_placement(
    state: State, seat: int, endgame: bool, used: set[tuple[int, int]], first: bool, rng: Rng
) -> Placement | None:
    """A placement drawn uniformly from those :func:`legal_placements` lists, or None."""
    counts = placement_counts(state, seat, endgame, used, first)
    if not counts:
        return None
    index = rng.below(sum(count for _, count in counts))
    return nth_placement(state, seat, endgame, used, first, counts, index)


def _tilt_of(cabins: Iterable[Iterable[Iterable[int]]]) -> int:
    port, starboard = ([sum(WEIGHT[c] for c in cabin) for cabin in side] for side in cabins)
    return sum(starboard) - sum(port)
