"""Ark's typed commands (``/ark take``, ``/ark play``, ...) and their suggestions while a
player types. A card is typed by its name or number; a hand is only ever offered, or
checked, for its own player on their turn (never whether someone else holds a card)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot.games.base import Seen
from bot.games.noah.hand import hand_panel, pet_panel
from bot.games.noah.plan import cabin_token
from bot.games.noah.turn import panel
from bot.games.noah.words import cabin_text, card_text, features, refusal
from bot.games.noah.words import noah_text as _t
from bot.panels import Choice, CommandOption, CommandSpec, Panel, Play, Refusal
from engine.noah import CARDS, Game, Pass, TakeCards
from engine.noah.queries import cabin_choices, card_choices, pet_choices

COMMANDS: tuple[CommandSpec, ...] = (
    CommandSpec("turn", _t("command.turn")),
    CommandSpec("hand", _t("command.hand"), who="seat"),
    CommandSpec(
        "take",
        _t("command.take"),
        (CommandOption("card", _t("command.take_card"), autocomplete=True),),
    ),
    CommandSpec(
        "play",
        _t("command.play"),
        (
            CommandOption("card", _t("command.play_card"), autocomplete=True),
            CommandOption("cabin", _t("command.play_cabin"), required=False, autocomplete=True),
        ),
    ),
    CommandSpec(
        "pet",
        _t("command.pet"),
        (CommandOption("card", _t("command.pet_card"), autocomplete=True),),
    ),
    CommandSpec("pass", _t("command.pass")),
)


def typed_cabin(side: str, row: int) -> str:
    """A cabin as a player types it: the side's letter and the number the picture shows
    (``p1`` is port cabin 1, the first row from the bow). The controls carry the row itself
    (:func:`~bot.games.noah.plan.cabin_token`, from 0); a typed number is one more."""
    return f"{side[0]}{row + 1}"


def _card_id(value: Any) -> int:
    """A card id from a control or a typed command: its number, or its English name."""
    text = str(value).strip()
    if text.isdigit() and int(text) < len(CARDS):
        return int(text)
    wanted = text.lower()
    for card in CARDS:
        if card.name.lower() == wanted and not card.is_rain:
            return card.id
    raise Refusal("noah.turn.no_such_card", card=text[:30])


def on_command(seen: Seen, command: str, options: Mapping[str, Any]) -> Panel | Play:
    game: Game = seen.game
    if command == "hand":
        return hand_panel(seen)
    if command == "turn":
        return panel(seen)
    if command == "take":
        if game.phase != "play":
            raise Refusal("noah.turn.no_take_now")
        card = _card_id(options.get("card", ""))
        same = [c for c in game.face_up if CARDS[c].name == CARDS[card].name]
        if not same:
            raise Refusal("noah.turn.not_face_up", card=card_text(card))
        return Play(TakeCards(card if card in same else same[0]))
    if command == "play":
        if game.phase not in ("play", "endgame"):
            raise Refusal("noah.turn.no_play_now")
        card = _own_card(game, options.get("card", ""))
        why = game.why_not(card)
        if why is not None:
            raise refusal(why)
        plan: tuple[str, ...] = (str(card),)
        cabin = "".join(str(options.get("cabin") or "").split()).lower()
        if cabin:
            typed = {typed_cabin(c.side, c.row): c for c in cabin_choices(game, card)}
            if cabin not in typed:
                raise Refusal("noah.turn.no_such_cabin", card=card_text(card))
            chosen = typed[cabin]
            plan = (f"{card}.{cabin_token(chosen.side, chosen.row)}",)
        return panel(seen, plan=plan)
    if command == "pet":
        if game.phase != "pet":
            raise Refusal("noah.illegal.not_pet_time")
        card = _own_card(game, options.get("card", ""))
        return pet_panel(seen, card)
    if command == "pass":
        if game.phase == "play":
            raise Refusal("noah.illegal.no_pass")
        return Play(Pass())
    raise Refusal("table.error.unknown_control")


def _own_card(game: Game, typed: Any) -> int:
    card = _card_id(typed)
    hand = game.hand(game.current_player or 0)
    same = [c for c in hand if CARDS[c].name == CARDS[card].name]
    if not same:
        # Never say whether someone else holds it: only that this hand does not.
        raise Refusal("noah.turn.not_in_your_hand")
    return card if card in same else same[0]


def autocomplete(
    seen: Seen, command: str, option: str, current: str, typed: Mapping[str, Any]
) -> Sequence[Choice]:
    game: Game = seen.game
    if command == "take" and option == "card":
        return [Choice(card_text(c), str(c)) for c in game.face_up]
    if seen.seat is None or seen.seat != game.current_player:
        # Someone else's turn: a hand is offered only to its own player, on their turn.
        return ()
    if command == "play" and option == "card":
        return [
            Choice(_t("turn.card_choice", card=card_text(c), features=features(c)), str(c))
            for c, why in card_choices(game).items()
            if why is None
        ]
    if command == "play" and option == "cabin":
        try:
            card = _own_card(game, typed.get("card", ""))
        except Refusal:
            return ()
        return [
            Choice(
                _t(
                    "turn.cabin_choice",
                    cabin=cabin_text(c.side, c.row, c.new),
                    cost=c.cost,
                ),
                typed_cabin(c.side, c.row),
            )
            for c in cabin_choices(game, card)
        ]
    if command == "pet" and option == "card":
        return [
            Choice(_t("turn.pet_option", card=card_text(c), scores="yes" if s else "no"), str(c))
            for c, s in pet_choices(game)
        ]
    return ()
