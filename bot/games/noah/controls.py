"""Taps on Ark's private panels: each control's name and arguments (the plan so far) into
the next panel, or into a play once it is confirmed. A control that no longer fits the game
(a stale panel) is refused, never played."""

from __future__ import annotations

from collections.abc import Sequence

from bot.games.base import Seen
from bot.games.noah.hand import hand_panel, pet_panel
from bot.games.noah.plan import parse
from bot.games.noah.turn import panel
from bot.panels import Panel, Play, Refusal
from engine.noah import Game, Pass, PlayCards, TakeCards
from engine.noah.actions import ChoosePet


def on_control(
    seen: Seen, control: str, args: Sequence[str], values: Sequence[str]
) -> Panel | Play:
    game: Game = seen.game
    try:
        return _control(seen, game, control, list(args), list(values))
    except (ValueError, IndexError, KeyError):
        raise Refusal("table.error.unknown_control") from None


#: How many arguments the controls that carry no plan were made with (see :mod:`.turn` and
#: :mod:`.hand`); a plan's controls (pick, back, play) are checked by :func:`parse`.
_ARGS = {"hand": 0, "restart": 0, "take": 1, "pass": 0, "pet": 0, "petok": 1, "nopet": 0}


def _control(
    seen: Seen, game: Game, control: str, args: list[str], values: list[str]
) -> Panel | Play:
    # Exactly the arguments the control was made with: a legal move followed by junk was
    # never one of our controls, and is not played as if it were.
    if len(args) != _ARGS.get(control, len(args)):
        raise ValueError(f"{control} carries {len(args)} arguments")
    if control == "hand":
        return hand_panel(seen)
    if control == "pick":
        plan = parse(game, args)
        return panel(seen, plan=plan.plus(values[0]))
    if control == "back":
        if game.phase == "pet":
            return pet_panel(seen)
        return panel(seen, plan=parse(game, args).back())
    if control == "restart":
        return panel(seen)
    if control == "play":
        plan = parse(game, args)
        if not plan.complete:
            raise Refusal("noah.turn.stale_plan")
        return Play(PlayCards(plan.done))
    if control == "take":
        card = int(args[0])
        if game.phase != "play" or card not in game.face_up:
            raise Refusal("noah.turn.stale_plan")
        return Play(TakeCards(card))
    if control == "pass":
        return Play(Pass())
    if control == "pet":
        return pet_panel(seen, int(values[0]))
    if control == "petok":
        card = int(args[0])
        if game.phase != "pet" or card not in game.hand(game.current_player or 0):
            raise Refusal("noah.turn.stale_plan")
        return Play(ChoosePet(card))
    if control == "nopet":
        if game.phase != "pet":
            raise Refusal("noah.turn.stale_plan")
        return Play(Pass())
    raise Refusal("table.error.unknown_control")
