"""A play of Ark built one tap at a time, carried in the controls' arguments.

A play is one or two cards; each card is chosen in steps: the card, its cabin, then only
what this card in this cabin still leaves open (the animal driven out, the face-up card
taken for a new cabin, the chimpanzee's scoring card). A step with a single possible answer
is not asked. The choices made so far travel in the custom ids of the next controls, one
argument per card (``"16.p2.40"``: card 16, port row 2 counted from 0, which the picture
and the players call port cabin 3, face-up card 40 taken), so a panel can be drawn again
after any restart and a "back" drops the last choice.

Everything is worked out from the engine's queries (:mod:`engine.noah.queries`), never from
the flat list of legal actions, so what is offered is exactly what is legal.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from bot.panels import Refusal
from engine.noah import KINDS, SIDES, Game, Placement
from engine.noah.queries import CabinChoice, cabin_choices

#: What is asked about a card after its cabin, in this order.
NEEDS: tuple[str, ...] = ("drive_out", "take", "half")
NONE = "n"


def cabin_token(side: str, row: int) -> str:
    return f"{side[0]}{row}"


def _value(field_name: str, token: str) -> int | str | None:
    if token == NONE:
        return None
    if field_name == "half":
        if token not in KINDS:
            raise ValueError(token)
        return token
    return int(token)


def token_of(value: int | str | None) -> str:
    return NONE if value is None else str(value)


@dataclass(frozen=True, slots=True)
class Step:
    """Where the building of one card stands: the choices so far and what comes next.

    ``ask`` is ``"card"``, ``"cabin"``, one of :data:`NEEDS`, or ``""`` once the card's
    placement is complete (``placement``)."""

    card: int | None
    cabin: CabinChoice | None
    ask: str
    #: The legal placements still open (for ``ask`` in NEEDS: the values offered).
    ways: tuple[Placement, ...] = ()
    placement: Placement | None = None
    #: The needs answered by the player (not those with a single answer).
    asked: tuple[str, ...] = field(default=())

    def options(self) -> list[int | str | None]:
        """The values offered for ``ask`` (one of NEEDS), in the engine's order."""
        seen: list[int | str | None] = []
        for way in self.ways:
            value = getattr(way, self.ask)
            if value not in seen:
                seen.append(value)
        return seen


def step(game: Game, tokens: Sequence[str], after: Placement | None) -> Step:
    """The building of one card from its tokens (raises ``ValueError`` for tokens that are
    no legal choice, e.g. a stale or made-up control)."""
    if not tokens:
        return Step(None, None, "card")
    card = int(tokens[0])
    cabins = cabin_choices(game, card, after)
    if not cabins:
        raise ValueError(f"card {card} fits nowhere")
    if len(tokens) == 1:
        return Step(card, None, "cabin")
    cabin = next((c for c in cabins if cabin_token(c.side, c.row) == tokens[1]), None)
    if cabin is None:
        raise ValueError(f"no cabin {tokens[1]}")
    ways = list(cabin.ways)
    rest = list(tokens[2:])
    asked: list[str] = []
    for need in NEEDS:
        values: list[int | str | None] = []
        for way in ways:
            if getattr(way, need) not in values:
                values.append(getattr(way, need))
        if len(values) == 1:
            continue
        if not rest:
            return Step(card, cabin, need, tuple(ways), asked=tuple(asked))
        chosen = _value(need, rest.pop(0))
        if chosen not in values:
            raise ValueError(f"{need} {chosen} is not offered")
        ways = [w for w in ways if getattr(w, need) == chosen]
        asked.append(need)
    if rest or len(ways) != 1:
        raise ValueError("too many choices")
    return Step(card, cabin, "", (), ways[0], tuple(asked))


@dataclass(frozen=True, slots=True)
class Plan:
    """The whole play so far: the complete placements, then the card being built."""

    tokens: tuple[tuple[str, ...], ...]
    done: tuple[Placement, ...]
    current: Step | None

    @property
    def args(self) -> tuple[str, ...]:
        return tuple(".".join(t) for t in self.tokens)

    @property
    def complete(self) -> bool:
        return self.current is None and bool(self.done)

    def plus(self, token: str) -> tuple[str, ...]:
        """The args of this plan with one more choice."""
        tokens = [list(t) for t in self.tokens]
        if self.current is None or not tokens:
            tokens.append([token])
        else:
            tokens[-1].append(token)
        return tuple(".".join(t) for t in tokens)

    def back(self) -> tuple[str, ...]:
        """The args of this plan with its last choice taken back."""
        tokens = [list(t) for t in self.tokens]
        if tokens:
            tokens[-1].pop()
            if not tokens[-1]:
                tokens.pop()
        return tuple(".".join(t) for t in tokens)


def parse(game: Game, args: Sequence[str]) -> Plan:
    """The plan carried by ``args``; a :class:`Refusal` if it is no longer (or never was) a
    legal way to play."""
    if len(args) > 2 or game.phase not in ("play", "endgame"):
        raise Refusal("noah.turn.stale_plan")
    tokens = tuple(tuple(a.split(".")) if a else () for a in args)
    done: list[Placement] = []
    current: Step | None = None if tokens else Step(None, None, "card")
    try:
        for index, part in enumerate(tokens):
            if index == 1 and (game.phase == "endgame" or not done):
                raise ValueError("no second card")
            built = step(game, part, done[0] if done else None)
            if built.placement is None:
                if index != len(tokens) - 1:
                    raise ValueError("an unfinished card before another")
                current = built
            else:
                done.append(built.placement)
    except (ValueError, IndexError):
        raise Refusal("noah.turn.stale_plan") from None
    return Plan(tokens, tuple(done), current)


def side_index(side: str) -> int:
    return SIDES.index(side)
