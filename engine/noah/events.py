"""What happened, as immutable values returned by :meth:`engine.noah.Game.apply`.

Most events are public. :class:`CardDrawn` names a card only its drawer may see and
:class:`PetChosen` never names the pet; call :meth:`redacted` on any event before showing it
to the other players (it returns the event itself when nothing in it is secret).
"""

from __future__ import annotations

from dataclasses import dataclass, replace


@dataclass(frozen=True, slots=True)
class Event:
    """Base of all events."""

    def redacted(self) -> Event:
        """The event as the other players may see it."""
        return self


@dataclass(frozen=True, slots=True)
class CardTaken(Event):
    """``seat`` took the face-up card ``card`` into the hand."""

    seat: int
    card: int


@dataclass(frozen=True, slots=True)
class CardDrawn(Event):
    """``seat`` drew ``card`` from the supply (secret: ``None`` once redacted)."""

    seat: int
    card: int | None

    def redacted(self) -> Event:
        return replace(self, card=None)


@dataclass(frozen=True, slots=True)
class FaceUpRefilled(Event):
    """``card`` was turned face up from the supply."""

    card: int


@dataclass(frozen=True, slots=True)
class RainFell(Event):
    """The ``number``-th rain card (1 to 5) was drawn and set aside."""

    number: int


@dataclass(frozen=True, slots=True)
class SupplyExhausted(Event):
    """The supply ran out (only in arranged games): it counts as the fifth rain card."""


@dataclass(frozen=True, slots=True)
class DiscPaid(Event):
    """``seat`` gave an action disc to ``to`` (a seat), or to the supply when ``to`` is None."""

    seat: int
    to: int | None


@dataclass(frozen=True, slots=True)
class CardPlayed(Event):
    """``seat`` put ``card`` in the cabin ``side``/``row``; ``tilt`` is the tilt after it."""

    seat: int
    card: int
    side: str
    row: int
    new_cabin: bool
    tilt: int


@dataclass(frozen=True, slots=True)
class AnimalDrivenOut(Event):
    """``card`` was driven out of ``side``/``row`` by ``by`` (played by ``seat``) and boxed."""

    seat: int
    card: int
    by: int
    side: str
    row: int


@dataclass(frozen=True, slots=True)
class FigurePlaced(Event):
    """``seat`` put a figure on the ``kind`` scoring card (on an orange disc if ``half``)."""

    seat: int
    kind: str
    half: bool = False


@dataclass(frozen=True, slots=True)
class DiscUnderFigure(Event):
    """Chimpanzee: ``seat`` slid an orange disc under a figure on ``kind`` (now 1.5)."""

    seat: int
    kind: str


@dataclass(frozen=True, slots=True)
class DiscsGained(Event):
    """Fox: ``seat`` took ``count`` action discs from the supply."""

    seat: int
    count: int


@dataclass(frozen=True, slots=True)
class PetChoiceStarted(Event):
    """The second rain card fell: each player, from ``first`` clockwise, may choose a pet."""

    first: int


@dataclass(frozen=True, slots=True)
class PetChosen(Event):
    """``seat`` put a card face down as a pet (which one stays secret)."""

    seat: int


@dataclass(frozen=True, slots=True)
class PetDeclined(Event):
    """``seat`` chose no pet."""

    seat: int


@dataclass(frozen=True, slots=True)
class EndgameStarted(Event):
    """The fifth rain card fell: the endgame begins with ``first``."""

    first: int


@dataclass(frozen=True, slots=True)
class Passed(Event):
    """``seat`` passed in the endgame and plays no more."""

    seat: int


@dataclass(frozen=True, slots=True)
class PetRevealed(Event):
    """At the end ``seat`` showed the pet ``card``; ``scored`` is False for an illegal pet."""

    seat: int
    card: int
    scored: bool


@dataclass(frozen=True, slots=True)
class GameOver(Event):
    """Final ``scores`` per seat; ``winners`` after the tie break (several if still tied)."""

    scores: tuple[int, ...]
    winners: tuple[int, ...]
