"""What a practice game of Ark teaches (``/table learn``): the rule book's ideas one at a
time, each when the learner first meets it on their own turn.

Every lesson is said to the learner alone, but still names only cards they may see: their own
hand, the face-up row and the ark. Its picture is the public table (``game.view(None)``) with
rings around what the lesson is about; where a ring follows a card of the learner's hand, it
rings the cabins that card fits, never the card.

Decisions:

- The lessons come in :data:`SITUATIONS` order (the rule book's), each after the one before
  it, whatever the hint likes: "taking" and "cabins" first, then the scoring cards (a played
  card puts a figure on one, so the points are said from the first card on, as "if it stays
  this way until the end"), then the rules of playing; after the rain and the pets the "!"
  animals and the final scoring (the rule book, too, tells the "!" animals last). Those need
  no situation on the board: a deal that does not show them still teaches them, one or two
  a turn. Rain, pets and the endgame wait for their moment; the moments of the pets and the
  endgame may be a single turn, so their lesson is taught then even if one before it waits.
- :data:`RULES` lists every such rule with the lesson that teaches it.
- After a move, a better one is mentioned only when it would have given at least
  :data:`CLEARLY_BETTER` points more on the scoreboard right away: points now are what the
  learner can check; a better take is a matter of taste and is not judged.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from types import MappingProxyType
from typing import Any

from bot.games.base import Seen
from bot.games.noah import hints
from bot.games.noah.pictures import RENDER
from bot.games.noah.words import cabin_text, card_text, scoring_text, side_text, tilt_text
from bot.games.noah.words import noah_text as _t
from bot.games.teaching import MOST_WORDS, Lesson, Puzzle, Teacher
from bot.panels import Picture, Text
from engine.noah import (
    CARDS,
    SIDES,
    Action,
    AnimalDrivenOut,
    CardPlayed,
    CardTaken,
    ChoosePet,
    DiscPaid,
    DiscsGained,
    DiscUnderFigure,
    Event,
    FigurePlaced,
    Game,
    IllegalAction,
    Pass,
    Passed,
    PetChosen,
    PetDeclined,
    Placement,
    PlayCards,
    RainFell,
    TakeCards,
    action_from_dict,
    card_id,
)
from engine.noah.ai.hints import reason_for
from engine.noah.state import ENDGAME, OVER, PET, PLAY

#: Points on the scoreboard by which the computer's move must beat the learner's to be told.
CLEARLY_BETTER = 2

#: The largest lean of the ark (the bow's scale).
MOST_TILT = 2


# --------------------------------------------------------------------- what the board shows


def _playable(game: Game, seat: int) -> list[int]:
    """The cards of ``seat``'s hand that fit somewhere now, in hand order."""
    return [card for card, ways in game.cabin_options(seat).items() if ways]


def _cabins_for(game: Game, card: int) -> list[str]:
    """The cabins (as the picture's focus names them) where ``card`` may go now."""
    found: list[str] = []
    for placement in game.placements(card):
        name = f"{placement.side}:{placement.row}"
        if name not in found:
            found.append(name)
    return found


def _tipping(game: Game, seat: int) -> tuple[int, list[str]] | None:
    """A card of ``seat``'s hand that the lean keeps off a side (it would capsize the ark
    there), and the sides it is kept off; None when the lean stops no card."""
    for card in game.hand(seat):
        weight = CARDS[card].weight
        sides = [
            side
            for side, sign in (("port", -1), ("starboard", 1))
            if abs(game.tilt + sign * weight) > MOST_TILT
        ]
        if sides:
            return card, sides
    return None


def _predator(game: Game, seat: int) -> tuple[int, str | None] | None:
    """A carnivore or omnivore the learner meets now: one of their hand that fits somewhere
    (with None), else the first one on the ark (with its cabin's focus name)."""
    for card in _playable(game, seat):
        if CARDS[card].is_predator:
            return card, None
    for side, cabins in zip(SIDES, game.cabins, strict=True):
        for row, cabin in enumerate(cabins):
            for card in cabin:
                if CARDS[card].is_predator:
                    return card, f"{side}:{row}"
    return None


def _new_cabin(game: Game, seat: int) -> int | None:
    """A card of the hand that can open a new cabin now (the learner has a disc), or None."""
    if game.discs[seat] == 0:
        return None
    for card in _playable(game, seat):
        if any(_opens_cabin(game, p) for p in game.placements(card)):
            return card
    return None


def _opens_cabin(game: Game, placement: Placement) -> bool:
    """Whether ``placement`` opens a new cabin (for an action disc): a row past the cabins
    its side has."""
    return placement.row >= len(game.cabins[SIDES.index(placement.side)])


def _has_figures(game: Game, seat: int) -> bool:
    return any(game.figures(seat).values())


def _playing(game: Game, seat: int, taught: frozenset[str]) -> bool:
    """Any turn of play once playing a card was taught in an earlier turn."""
    return "cabins" in taught and game.phase in (PLAY, ENDGAME)


#: When each lesson may be taught to the learner ``seat`` (on their turn), given what has been
#: taught, in the rule book's order: a lesson is due only once every one before it is taught.
SITUATIONS: Mapping[str, Callable[[Game, int, frozenset[str]], bool]] = {
    "taking": lambda g, s, t: g.phase == PLAY and bool(g.face_up),
    "cabins": lambda g, s, t: g.phase == PLAY and bool(_playable(g, s)),
    # The scoring cards with the first card played: the points said after it mean something.
    "majorities": _playing,
    # The rain cards are told before they fall (a computer may turn up the first two), as
    # the rule book tells them with taking cards.
    "rain": _playing,
    "alone": _playing,
    "balance": _playing,
    "carnivores": _playing,
    "discs": _playing,
    "pets": lambda g, s, t: g.phase == PET,
    # The "!" animals and the final scoring fill the turns between the pets and the endgame
    # (the rule book, too, tells the "!" animals last).
    "drive_out": _playing,
    "orange": _playing,
    "fox": _playing,
    "tough": _playing,
    "endgame": lambda g, s, t: g.phase == ENDGAME,
    "final": lambda g, s, t: g.phase == ENDGAME,
}

#: Every rule of the rule book that decides a move or a point, with the lesson that teaches
#: it (tests/games/noah/test_lessons.py checks each is taught once in a whole practice game).
RULES: Mapping[str, str] = {
    "take_or_play": "taking",
    "take_face_up_and_pile": "taking",
    "one_or_two_cards_other_cabins": "cabins",
    "three_a_cabin": "cabins",
    "hot_and_cold_apart": "cabins",
    "figure_on_scoring_card": "majorities",
    "majorities_10_6_2": "majorities",
    "slow_and_provisions_alone": "alone",
    "herbivores_not_with_provisions": "alone",
    "port_starboard_bow": "balance",
    "lean_at_most_2": "balance",
    "carnivore_lightest": "carnivores",
    "shy_away_from_carnivores": "carnivores",
    "new_cabin_costs_a_disc": "discs",
    "player_on_your_right": "discs",
    "new_cabin_takes_a_face_up_card": "discs",
    "fox_discs": "fox",
    "skunk_drives_out": "drive_out",
    "mosquito_drives_out": "drive_out",
    "spider_drives_out": "drive_out",
    "driven_out_scores": "drive_out",
    "bronto_orange_disc": "orange",
    "chimpanzee_orange_disc": "orange",
    "turtle_fears_nothing": "tough",
    "hedgehog_fears_nothing": "tough",
    "rain_brings_pets_and_endgame": "rain",
    "pets_score": "pets",
    "endgame_a_disc_a_card": "endgame",
    "endgame_no_slow_or_provisions": "endgame",
    "disc_a_point": "final",
    "ties_share": "final",
    "tie_fewest_animals": "final",
}

#: The card of each "!" animal, by its ability (the lessons name them in the reader's words).
SPECIAL_CARD: Mapping[str, int] = {card.special: n for n, card in enumerate(CARDS) if card.special}


# --------------------------------------------------------------------- the puzzles


def _cards(**names: str) -> dict[str, Text]:
    return {param: card_text(card_id(name)) for param, name in names.items()}


_YES_NO = (("yes", _t("puzzle.yes")), ("no", _t("puzzle.no")))

#: "Try it": a question on the lesson of the turn, asked under the learner's move; each is a
#: rule that decides a move, on animals named (none needs the board).
PUZZLES: Mapping[str, Puzzle] = MappingProxyType(
    {
        "cabins": Puzzle(
            _t("puzzle.cabins", **_cards(bear="Polar Bear", camel="Camel")),
            _YES_NO,
            "no",
            _t("puzzle.cabins_why"),
        ),
        "alone": Puzzle(
            _t("puzzle.alone", **_cards(turtle="Turtle", goat="Goat")),
            _YES_NO,
            "no",
            _t("puzzle.alone_why"),
        ),
        "balance": Puzzle(
            _t("puzzle.balance", **_cards(goat="Goat")), _YES_NO, "no", _t("puzzle.balance_why")
        ),
        "carnivores": Puzzle(
            _t("puzzle.carnivores", **_cards(bear="Polar Bear", cow="Cow")),
            _YES_NO,
            "yes",
            _t("puzzle.carnivores_why"),
        ),
        "discs": Puzzle(
            _t("puzzle.discs"),
            (("before", _t("puzzle.discs_before")), ("after", _t("puzzle.discs_after"))),
            "before",
            _t("puzzle.discs_why"),
        ),
        "pets": Puzzle(
            _t("puzzle.pets", **_cards(elephant="Elephant")), _YES_NO, "no", _t("puzzle.pets_why")
        ),
        "drive_out": Puzzle(
            _t("puzzle.drive_out", **_cards(mosquito="Mosquito", elephant="Elephant")),
            _YES_NO,
            "no",
            _t("puzzle.drive_out_why", **_cards(mosquito="Mosquito")),
        ),
    }
)


# --------------------------------------------------------------------- the teacher


class NoahTeacher(Teacher):
    """Ark's lessons, in the rule book's order."""

    lessons = tuple(SITUATIONS)
    in_order = True
    # Up to three short ones (the Fox and the Turtle) in a turn, within the words.
    at_once = 3
    most_words = MOST_WORDS
    puzzles = PUZZLES

    def practice_options(self, seed: int) -> dict[str, Any]:
        # The practice deal spreads the rain cards out: the pets come a few rounds after the
        # first rain card, once the rules of play are taught (engine/noah/game.py).
        return {"deal": "practice"}

    def due(self, seen: Seen, taught: frozenset[str]) -> list[str]:
        game: Game = seen.game
        seat = seen.seat
        if seat is None or game.current_player != seat:
            return []
        if game.phase == PET and "pets" not in taught:
            return ["pets"]  # the pets' one turn
        due: list[str] = []
        if game.phase == ENDGAME and "endgame" not in taught:
            # The endgame may be a single turn (a pass ends it): its lesson first.
            due.append("endgame")
        for key in self.lessons:
            if key in taught or key in due or (key == "pets" and game.rain_fallen >= 2):
                continue  # taught, or the pets' moment passed (the learner was not asked)
            if not SITUATIONS[key](game, seat, taught):
                break  # in order: none after one not yet due
            due.append(key)
        return due

    def uses(self, seen: Seen, actions: Sequence[Any]) -> frozenset[str]:
        game: Game = seen.game
        used: set[str] = set()
        for action in actions:
            if isinstance(action, TakeCards):
                used.add("taking")
            elif isinstance(action, PlayCards):
                used.add("cabins")
                if any(_opens_cabin(game, p) for p in action.placements):
                    used.add("discs")
            elif isinstance(action, ChoosePet):
                used.add("pets")
        return frozenset(used)

    def shown_by(self, before: Seen, after: Seen, actions: Sequence[Any]) -> frozenset[str]:
        game: Game = before.game
        seat = before.seat if before.seat is not None else game.current_player
        played = _replay(game, actions)
        if seat is None or played is None:
            return frozenset()
        shown: set[str] = set()
        for event in played[1]:
            if getattr(event, "seat", None) != seat:
                continue
            match event:
                case FigurePlaced(half=True) | DiscUnderFigure():
                    shown |= {"majorities", "orange"}
                case FigurePlaced():
                    shown.add("majorities")
                case DiscPaid(to=to) if to is not None:
                    shown.add("discs")
                case AnimalDrivenOut():
                    shown.add("drive_out")
                case DiscsGained():
                    shown.add("fox")
                case Passed():
                    shown.add("final")  # a pass for good: the final scoring is next
        return frozenset(shown)

    def lesson(self, key: str, seen: Seen, hint: Sequence[Any] | None) -> Lesson:
        game: Game = seen.game
        seat = seen.seat if seen.seat is not None else game.current_player
        assert seat is not None, "a lesson is for a player at a game in play"
        if key == "discs":
            lines, focus = _discs(game, seat, seen.names)
        else:
            lines, focus = _LESSONS[key](game, seat)
        picture = None
        if focus:
            picture = Picture(
                f"{RENDER}:board",
                (game.view(None), list(seen.names), list(focus), seat),
                f"lesson-{key}.png",
                _t("lesson.picture_alt"),
            )
        return Lesson(key, tuple(lines), picture, suggestion(seen, _followable(game, seat, hint)))

    def after_move(
        self,
        before: Seen,
        after: Seen,
        actions: Sequence[Any],
        better: Sequence[Any] | None,
    ) -> list[Text]:
        game: Game = before.game
        seat = before.seat if before.seat is not None else game.current_player
        if seat is None:
            return []
        played = _replay(game, actions)
        if played is None:
            return []
        now, events = played
        names = before.names
        taking = any(isinstance(_action(a), TakeCards) for a in actions)
        # The learner's discs as each event leaves them: two new cabins in one turn say
        # "(4 left)" and then "(3 left)", not the turn's end twice.
        discs = game.discs[seat]
        lines: list[Text] = []
        for event in events:
            if isinstance(event, DiscPaid) and event.seat == seat:
                discs -= 1
            elif isinstance(event, DiscsGained) and event.seat == seat:
                discs += event.count
            if (line := _told(event, seat, names, now, taking, discs)) is not None:
                lines.append(line)
        if now.phase == OVER:
            # The final scoring (pets, everyone's majorities) is the final post's to tell.
            return lines
        gain = now.scores[seat] - game.scores[seat]
        if gain > 0:
            lines.append(_t("learned.points_up", gain=gain, points=now.scores[seat]))
        elif gain < 0:
            lines.append(_t("learned.points_down", loss=-gain, points=now.scores[seat]))
        if better and list(map(_action, better)) != list(map(_action, actions)):
            lines += _better(before, seat, better, gain)
        return lines

    def summary(self, taught: frozenset[str], options: Mapping[str, Any]) -> list[Text]:
        return [_t(f"lesson_summary.{key}") for key in self.lessons if key in taught]


# --------------------------------------------------------------------- each lesson's words

Said = tuple[list[Text], list[int | str]]


def _taking(game: Game, seat: int) -> Said:
    return [_t("lesson.taking"), _t("lesson.taking_how")], ["face_up"]


def _cabins(game: Game, seat: int) -> Said:
    lines = [_t("lesson.cabins")]
    playable = _playable(game, seat)
    if not playable:
        return lines, []
    card = playable[0]
    where = _cabins_for(game, card)
    lines.append(_t("lesson.cabins_now", card=card_text(card), count=len(where)))
    return lines, list(where)


def _balance(game: Game, seat: int) -> Said:
    lines = [_t("lesson.balance")]
    tipping = _tipping(game, seat)
    if tipping is None:
        return lines, ["bow"]
    card, sides = tipping
    weight = CARDS[card].weight
    said = {"tilt": tilt_text(game.tilt), "card": card_text(card), "weight": weight}
    if len(sides) == 1:
        lines.append(_t("lesson.balance_now", **said, side=side_text(sides[0])))
        return lines, ["bow"]
    # Too heavy for both sides: say how much heavier one side must first get (the nearer
    # way) for the card to fit on the other.
    to_starboard = game.tilt + weight - MOST_TILT  # port must gain this much
    to_port = weight - MOST_TILT - game.tilt  # starboard must gain this much
    heavier, side, need = (
        ("port", "starboard", to_starboard)
        if to_starboard <= to_port
        else ("starboard", "port", to_port)
    )
    lines.append(
        _t(
            "lesson.balance_neither",
            **said,
            heavier=side_text(heavier),
            need=need,
            side=side_text(side),
        )
    )
    return lines, ["bow"]


def _carnivores(game: Game, seat: int) -> Said:
    lines = [_t("lesson.carnivores")]
    found = _predator(game, seat)
    if found is None:
        return lines, []
    card, cabin = found
    if cabin is None:
        where = _cabins_for(game, card)
        lines.append(_t("lesson.carnivores_hand", card=card_text(card), count=len(where)))
        return lines, list(where)
    side, row = cabin.split(":")
    lines.append(
        _t("lesson.carnivores_ship", card=card_text(card), cabin=cabin_text(side, int(row)))
    )
    return lines, [card]


def _discs(game: Game, seat: int, names: Sequence[str]) -> Said:
    # The player on your right plays just before you (play goes to the left).
    right = names[(seat - 1) % game.players]
    return [_t("lesson.discs", right=right)], ["new_cabin"]


def _specials(key: str, *abilities: str) -> Callable[[Game, int], Said]:
    def said(game: Game, seat: int) -> Said:
        cards = {ability: card_text(SPECIAL_CARD[ability]) for ability in abilities}
        return [_t(f"lesson.{key}", **cards)], []

    return said


def _alone(game: Game, seat: int) -> Said:
    return [_t("lesson.alone")], []


def _final(game: Game, seat: int) -> Said:
    return [_t("lesson.final")], ["players"]


def _rain(game: Game, seat: int) -> Said:
    return [_t("lesson.rain", number=game.rain_fallen)], ["rain"]


def _pets(game: Game, seat: int) -> Said:
    scoring = sum(CARDS[c].can_be_pet for c in game.hand(seat))
    # The turn's panel shows the hand with the cards that would score marked: no picture.
    return [_t("lesson.pets"), _t("lesson.pets_now", count=scoring)], []


def _endgame(game: Game, seat: int) -> Said:
    return [_t("lesson.endgame"), _t("lesson.endgame_now", discs=game.discs[seat])], ["players"]


def _majorities(game: Game, seat: int) -> Said:
    return [_t("lesson.majorities")], ["scoring"]


_LESSONS: Mapping[str, Callable[[Game, int], Said]] = {
    "taking": _taking,
    "cabins": _cabins,
    "majorities": _majorities,
    "alone": _alone,
    "balance": _balance,
    "carnivores": _carnivores,
    "drive_out": _specials("drive_out", "skunk", "mosquito", "spider"),
    "orange": _specials("orange", "bronto", "chimpanzee"),
    "fox": _specials("fox", "fox"),
    "tough": _specials("tough", "turtle", "hedgehog"),
    "rain": _rain,
    "pets": _pets,
    "endgame": _endgame,
    "final": _final,
}


# --------------------------------------------------------------------- the hint in words


def _action(value: Any) -> Action:
    """An engine action, from itself or its log form."""
    return action_from_dict(value) if isinstance(value, Mapping) else value


def hint_lines(seen: Seen, actions: Sequence[Any] | None) -> list[Text]:
    """The hint's move in words, as ``/table hint`` says it (:mod:`bot.games.noah.hints`):
    the reason, then where each card goes. Empty when there is no hint or it is not legal
    here any more."""
    game: Game = seen.game
    if not actions or game.current_player is None:
        return []
    action = _action(actions[0])
    after = game.copy()
    try:
        after.apply(action)
    except IllegalAction:
        return []
    key, params = reason_for(game, after, game.current_player, action)
    return hints.hint_text(seen, action.to_dict(), key, params) or []


def _followable(game: Game, seat: int, actions: Sequence[Any] | None) -> Sequence[Any] | None:
    """The hint's move as a learner can follow it: a pet that would not score (the computer
    may hide a card so) becomes the first one of the hand that would, else no pet; a pet
    suggested and then called useless by the pet's own question confuses."""
    if not actions:
        return actions
    first = _action(actions[0])
    if isinstance(first, ChoosePet) and not CARDS[first.card].can_be_pet:
        scoring = [card for card in game.hand(seat) if CARDS[card].can_be_pet]
        return [ChoosePet(scoring[0])] if scoring else [Pass()]
    return actions


def suggestion(seen: Seen, actions: Sequence[Any] | None) -> Text | None:
    """The hint's move as one sentence or two for a lesson (None without a hint)."""
    lines = hint_lines(seen, actions)
    if not lines:
        return None
    if len(lines) == 1:
        return _t("lesson.try", hint=lines[0])
    if len(lines) == 2:
        return _t("lesson.try_one", hint=lines[0], first=lines[1])
    return _t("lesson.try_two", hint=lines[0], first=lines[1], second=lines[2])


# --------------------------------------------------------------------- after a move


def _replay(game: Game, actions: Sequence[Any]) -> tuple[Game, list[Event]] | None:
    """The learner's turn again on a copy of the game before it (the engine is a pure
    function of its state): the game after and every event, or None if it is not legal."""
    work = game.copy()
    events: list[Event] = []
    try:
        for action in actions:
            events += work.apply(_action(action))
    except IllegalAction:
        return None
    return work, events


def _told(
    event: Event, seat: int, names: Sequence[str], now: Game, taking: bool, discs: int
) -> Text | None:
    """One event of the learner's turn said to them ("you"); None for what is not theirs or
    not worth a line. ``taking``: the turn took cards (else a face-up card taken came with a
    new cabin); ``discs``: the learner's action discs just after the event. The card drawn
    from the pile is never named (it may be read aloud)."""
    match event:
        case CardTaken(seat=who, card=card) if who == seat:
            if not taking:
                return _t("learned.took_for_cabin", card=card_text(card))
            return _t("learned.took", card=card_text(card), count=len(now.hand(seat)))
        case RainFell(number=number):
            return _t("learned.rain", number=number)
        case DiscPaid(seat=who, to=to) if who == seat:
            if to is None:
                return _t("learned.paid_supply", discs=discs)
            return _t("learned.paid", to=names[to], discs=discs)
        case CardPlayed(seat=who) if who == seat:
            return _t(
                "learned.played",
                card=card_text(event.card),
                cabin=cabin_text(event.side, event.row, event.new_cabin),
                tilt=tilt_text(event.tilt),
            )
        case AnimalDrivenOut(seat=who) if who == seat:
            return _t("learned.drove_out", by=card_text(event.by), card=card_text(event.card))
        case FigurePlaced(seat=who) if who == seat:
            if event.half:  # the bronto's figure stands on an orange disc
                return _t("learned.figure_half", kind=scoring_text(event.kind))
            return _t("learned.figure", kind=scoring_text(event.kind))
        case DiscUnderFigure(seat=who) if who == seat:
            return _t("learned.disc_under", kind=scoring_text(event.kind))
        case DiscsGained(seat=who, count=count) if who == seat:
            return _t("learned.gained", count=count)
        case Passed(seat=who) if who == seat:
            return _t("learned.passed", discs=now.discs[seat])
        case PetDeclined(seat=who) if who == seat:
            return _t("learned.no_pet")
        case PetChosen(seat=who) if who == seat and (pet := now.pet(seat)) is not None:
            # The learner's own pet, told to them alone.
            return _pet_line(pet)
    return None


def _pet_line(pet: int) -> Text:
    found = CARDS[pet]
    if found.can_be_pet:
        return _t("learned.pet", card=card_text(pet), kind=scoring_text(found.kind))
    return _t("learned.pet_no_score", card=card_text(pet))


def _better(before: Seen, seat: int, better: Sequence[Any], gain: int) -> list[Text]:
    """The computer's move, kindly, when it would have given clearly more points now."""
    game: Game = before.game
    played = _replay(game, better)
    if played is None or played[0].phase == OVER:  # final scores are not points "now"
        return []
    more = played[0].scores[seat] - game.scores[seat] - gain
    if more < CLEARLY_BETTER:
        return []
    return [_t("learned.better", points=more), *hint_lines(before, better)]
