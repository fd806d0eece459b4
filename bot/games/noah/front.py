"""Ark, the card game, at the table: the front the plugin holds, made of the modules beside it.

A turn in taps: the player opens their panel from the board post and sees their hand (only
they see it: the panel is private). They **take cards** (one button per face-up card; the
top card of the supply comes with it) or **play cards**, built step by step (see
:mod:`bot.games.noah.plan`): a card, its cabin (each with its cost in discs), what the card
still needs, perhaps a second card the same way, then a preview of the ark with its new
tilt and a button to confirm. Back is always one tap away until then. Cards that fit nowhere
are listed with the reason. After the second rain card each player chooses a pet (the cards
that would score are marked); in the endgame a player plays one more animal for a disc, or
passes for good.

Hidden information: hands and pets are only ever in private panels (this seat's own); the
public posts are drawn from the public view, and the story from redacted events.

Where each part is: the turn's panels in :mod:`~bot.games.noah.turn`, the hand and the pet
in :mod:`~bot.games.noah.hand`, taps in :mod:`~bot.games.noah.controls`, typed commands and
their suggestions in :mod:`~bot.games.noah.commands`, a computer's suggestion in
:mod:`~bot.games.noah.hints`, the public posts in :mod:`~bot.games.noah.posts`, the story in
:mod:`~bot.games.noah.story`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot.games.base import Front, Seen, TurnRecord
from bot.games.noah import commands as typed_commands
from bot.games.noah import controls, hand, hints, posts, turn
from bot.games.noah import story as telling
from bot.games.noah.pictures import RENDER
from bot.games.noah.words import noah_text as _t
from bot.panels import Choice, Panel, Play, Text
from engine.noah import Game


class NoahFront(Front[Game, dict[str, Any]]):
    command_group = "ark"
    warm_up = (f"{RENDER}:warm_up",)
    commands = typed_commands.COMMANDS
    seat_controls = frozenset({"hand"})

    def title(self) -> Text:
        return _t("title")

    # ================================================================ the private panels

    def panel(self, seen: Seen[Game], *, plan: Sequence[str] = ()) -> Panel:
        return turn.panel(seen, plan=plan)

    def hand_panel(self, seen: Seen[Game]) -> Panel:
        """A seated player's own hand and pet, privately, at any time."""
        return hand.hand_panel(seen)

    # ================================================================ taps and typed commands

    def on_control(
        self, seen: Seen[Game], control: str, args: Sequence[str], values: Sequence[str]
    ) -> Panel | Play:
        return controls.on_control(seen, control, args, values)

    def on_command(
        self, seen: Seen[Game], command: str, options: Mapping[str, Any]
    ) -> Panel | Play:
        return typed_commands.on_command(seen, command, options)

    def autocomplete(
        self, seen: Seen[Game], command: str, option: str, current: str, typed: Mapping[str, Any]
    ) -> Sequence[Choice]:
        return typed_commands.autocomplete(seen, command, option, current, typed)

    # ================================================================ hints

    def hint_text(
        self,
        seen: Seen[Game],
        action: Mapping[str, Any],
        key: str,
        params: Mapping[str, Any],
        *,
        rest: Sequence[Mapping[str, Any]] = (),
    ) -> list[Text]:
        lines = hints.hint_text(seen, action, key, params)
        if lines is None:
            return super().hint_text(seen, action, key, params)
        return lines

    # ================================================================ public posts

    def story(self, turns: Sequence[TurnRecord], names: Sequence[str]) -> list[Text]:
        return telling.story(turns, names)

    def board_post(self, view: Mapping[str, Any], names: Sequence[str]) -> Panel:
        return posts.board_post(view, names)

    def final_post(
        self, view: Mapping[str, Any], names: Sequence[str], *, ended_early: bool
    ) -> Panel:
        return posts.final_post(view, names, ended_early=ended_early)

    def status(
        self, view: Mapping[str, Any], names: Sequence[str], seat: int | None = None
    ) -> Panel:
        return posts.status(view, names, seat)

    def rules_help(self, options: Mapping[str, Any]) -> Panel:
        return posts.rules_help(options)
