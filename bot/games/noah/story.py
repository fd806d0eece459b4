"""Events to sentences: the story of a turn of Ark, the same for every reader but in their
language. It is told from redacted events (the table redacts them first): a card drawn from
the supply and a pet are never named, only that they were drawn or chosen."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from bot.games.base import TurnRecord
from bot.games.noah.words import cabin_text, card_text, scoring_text, tilt_text
from bot.panels import Text
from engine.noah import (
    AnimalDrivenOut,
    CardDrawn,
    CardPlayed,
    CardTaken,
    DiscPaid,
    DiscsGained,
    DiscUnderFigure,
    EndgameStarted,
    Event,
    FaceUpRefilled,
    FigurePlaced,
    GameOver,
    Passed,
    PetChoiceStarted,
    PetChosen,
    PetDeclined,
    PetRevealed,
    RainFell,
    SupplyExhausted,
)


def _s(name: str, **params: object) -> Text:
    return Text(f"noah.story.{name}", **params)


def describe(event: Event, names: Sequence[str]) -> Text | None:
    """One sentence for ``event`` (None for events told by another one)."""
    match event:
        case CardTaken():
            return _s("took", player=names[event.seat], card=card_text(event.card))
        case CardDrawn():
            # Redacted: never which card. (Unredacted it is still not told: this is public.)
            return _s("drew", player=names[event.seat])
        case FaceUpRefilled():
            return _s("refilled", card=card_text(event.card))
        case RainFell():
            return _s("rain", number=event.number)
        case SupplyExhausted():
            return _s("supply_out")
        case DiscPaid():
            if event.to is None:
                return _s("paid_supply", player=names[event.seat])
            return _s("paid", player=names[event.seat], to=names[event.to])
        case CardPlayed():
            return _s(
                "played",
                player=names[event.seat],
                card=card_text(event.card),
                cabin=cabin_text(event.side, event.row, event.new_cabin),
                tilt=tilt_text(event.tilt),
            )
        case AnimalDrivenOut():
            return _s("drove_out", by=card_text(event.by), card=card_text(event.card))
        case FigurePlaced():
            key = "figure_half" if event.half else "figure"
            return _s(key, player=names[event.seat], kind=scoring_text(event.kind))
        case DiscUnderFigure():
            return _s("disc_under", player=names[event.seat], kind=scoring_text(event.kind))
        case DiscsGained():
            return _s("gained", player=names[event.seat], count=event.count)
        case PetChoiceStarted():
            return _s("pet_time", player=names[event.first])
        case PetChosen():
            return _s("pet_chosen", player=names[event.seat])
        case PetDeclined():
            return _s("pet_declined", player=names[event.seat])
        case EndgameStarted():
            return _s("endgame", player=names[event.first])
        case Passed():
            return _s("passed", player=names[event.seat])
        case PetRevealed():
            key = "pet_revealed" if event.scored else "pet_revealed_no_score"
            return _s(key, player=names[event.seat], card=card_text(event.card))
        case GameOver():
            return _s("over")
    return None


def tell(events: Iterable[Event], names: Sequence[str]) -> list[Text]:
    return [line for e in events if (line := describe(e, names)) is not None]


def story(turns: Sequence[TurnRecord], names: Sequence[str]) -> list[Text]:
    """Every turn in ``turns``, told in order."""
    return [line for turn in turns for line in tell(turn.events, names)]
