"""Turns: a player opens their private panel, presses its controls or types the game's
commands, and the move is played and told. Also the computer's hint for the player whose
turn it is, and the suggestions while a command is typed.

Buttons and typed commands meet here, so a player who types gets exactly what a player who
taps gets: the same turn check (:meth:`bot.table.common.Common.my_turn`), the same answers.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import discord

from bot import scheme
from bot.discord_ui import Verbatim, clip, message_text, plain
from bot.i18n import Text, language_of
from bot.panels import Button, CommandSpec, Panel, Play, Refusal
from bot.service import GameRecord, Seat, TurnResult
from bot.table.common import Common
from bot.table.learning import Tutor
from bot.table.lobby import Seating
from bot.table.posts import Announcer

AUTOCOMPLETE_LIMIT = 25
#: The table's Leave button, which any seated player may use on a started game.
LEAVE = "table_leave"
#: The buttons on a player's "Done!" message: take back the turn they just played, or post
#: it now (the next player need not wait for the take-back time to end).
TAKE_BACK = "table_take_back"
POST_NOW = "table_post_now"


class Turns:
    """A player's turn, from the panel to the post."""

    def __init__(self, common: Common, posts: Announcer, lobby: Seating, learning: Tutor) -> None:
        self.common = common
        self.posts = posts
        self.lobby = lobby
        self.learning = learning

    async def open_turn(
        self, interaction: discord.Interaction, game_id: int | None = None, turn: int | None = None
    ) -> None:
        common = self.common
        await interaction.response.defer(ephemeral=True, thinking=True)
        record, game, seat = await common.my_turn(interaction, game_id, turn=turn)
        panel = common.plugin(record).front.panel(common.seen(record, game, seat))
        # A practice game: the lesson the board calls for now stands above the panel.
        panel, lesson = await self.learning.lesson_panel(record, game, seat, panel)
        await common.show(interaction, panel, record, edit=False)
        await self.learning.taught(record, game.turn, lesson)

    async def on_control(
        self, interaction: discord.Interaction, cid: scheme.ControlId, values: Sequence[str]
    ) -> None:
        """A game's control (or Leave on a started game) was used."""
        common = self.common
        # A private panel is edited in place; a control on a public post answers privately.
        private = bool(interaction.message and interaction.message.flags.ephemeral)
        if private:
            await interaction.response.defer()
        else:
            await interaction.response.defer(ephemeral=True, thinking=True)
        # Who may use the control is decided here from its name (the table's own, or the
        # front's declaration), never from the id's kind letter: a client may send any id.
        record, game, seat = await common.my_turn(interaction, cid.game_id, need_turn=False)
        if cid.control == LEAVE:
            await self.lobby.leave_game(interaction, record)
            return
        if cid.control == TAKE_BACK:
            await self.take_back(interaction, record.id, seat, cid.version, edit=private)
            return
        if cid.control == POST_NOW:
            await self.post_now(interaction, record.id, cid.version, edit=private)
            return
        # Nothing of the game is shown while a turn may be taken back, its player's own hand
        # neither: a card drawn and seen, then taken back, would be known before its time.
        common.not_before_posted(record)
        front = common.plugin(record).front
        if cid.control not in front.seat_controls:
            common.may_act(record, interaction.user.id, need_turn=True, version=cid.version)
        outcome = front.on_control(common.seen(record, game, seat), cid.control, cid.args, values)
        await self.answer(interaction, record, seat, outcome, edit=private)

    async def on_command(
        self,
        interaction: discord.Interaction,
        game: str,
        spec: CommandSpec,
        options: Mapping[str, Any],
    ) -> None:
        """A game's typed command: the same checks and answers as its buttons."""
        common = self.common
        await interaction.response.defer(ephemeral=True, thinking=True)
        record, state, seat = await common.my_turn(interaction, need_turn=spec.who == "turn")
        if record.game_name != game:
            raise Refusal("table.turn.other_game", game=common.plugin(record).front.title())
        common.not_before_posted(record)  # as for a control (see on_control)
        front = common.plugin(record).front
        seen = common.seen(record, state, seat, language_of(interaction))
        outcome = front.on_command(seen, spec.name, options)
        await self.answer(interaction, record, seat, outcome, edit=False)

    async def on_autocomplete(
        self,
        interaction: discord.Interaction,
        game: str,
        command: str,
        option: str,
        current: str,
        typed: Mapping[str, Any],
    ) -> list[tuple[str, str | int]]:
        """Suggestions while a user types a game's command: (name, value) pairs."""
        common = self.common
        record = await common.service.play.game_in(interaction.channel_id or 0)
        if record is None or record.status != "active" or record.game_name != game:
            return []
        if record.taking_back(common.now_ms()):
            return []  # the next turn is nobody's to see before the last one is posted
        record, state = await common.service.play.state(record.id)
        seat = record.seat_of(interaction.user.id)
        front = common.plugin(record).front
        language = language_of(interaction)
        choices = front.autocomplete(
            common.seen(record, state, seat, language), command, option, current, typed
        )
        # What the user typed so far picks among them: a part of the name they read (in their
        # language) or the start of the value.
        wanted = current.strip().lower()
        named = [(clip(plain(c.label, language), 100), c.value) for c in choices]
        return [
            (name, value)
            for name, value in named
            if not wanted or wanted in name.lower() or str(value).lower().startswith(wanted)
        ][:AUTOCOMPLETE_LIMIT]

    async def hint(self, interaction: discord.Interaction) -> None:
        """A computer's suggestion for the player whose turn it is, privately, in words."""
        common = self.common
        await interaction.response.defer(ephemeral=True, thinking=True)
        record, game, seat = await common.my_turn(interaction)
        chosen = common.plugin(record)
        if not chosen.has_computers:
            raise Refusal("table.computer.no_hints", game=chosen.front.title())
        _, found = await common.service.computers.hint(record.id, interaction.user.id)
        front = chosen.front
        seen = common.seen(record, game, seat)
        lines = front.hint_text(seen, found.action, found.key, found.params, rest=found.rest)
        language = language_of(interaction)
        text = "\n".join(
            message_text(line, language) for line in [Text("table.computer.hint"), *lines]
        )
        await interaction.followup.send(text, ephemeral=True)

    async def answer(
        self,
        interaction: discord.Interaction,
        record: GameRecord,
        seat: Seat,
        outcome: Panel | Play,
        *,
        edit: bool,
    ) -> None:
        """Show the next panel, or play the move and tell what it did."""
        if isinstance(outcome, Panel):
            await self.common.show(interaction, outcome, record, edit=edit)
            return
        result = await self.common.service.play.act(
            record.id,
            interaction.user.id,
            outcome.action,
            expected_version=record.version,
            then=outcome.then,
            take_back=True,
        )
        # From here on the move counts, whatever fails: the error funnel says so.
        interaction.extras["stored"] = True
        await self.after_move(interaction, result, seat, edit=edit)

    async def after_move(
        self, interaction: discord.Interaction, result: TurnResult, seat: Seat, *, edit: bool
    ) -> None:
        """The move is stored: the next private step, or the turn told in public."""
        common = self.common
        record, game = result.record, result.state
        front = common.plugin(record).front
        if not result.turn_over:
            # Mid-turn: the player's private panel shows it; nothing to post in public.
            panel = front.panel(common.seen(record, game, seat))
            await common.show(interaction, panel, record, edit=edit)
            return
        mine = result.turns[0]
        points = mine.gained(result.scores)[seat.index] if mine.start_scores else 0
        scored = scored_text(points)
        nxt = result.next_seat
        home = record.home
        until = record.take_back_until_ms
        if record.take_back is not None and until is not None:
            # Posted when the player can no longer take it back (a round posts it then).
            common.round_at(until)
            when = Verbatim(f"<t:{-(-until // 1000)}:R>")
            where = Verbatim(f"<#{home}>")
            done = Text("table.turn.done_take_back", scored=scored, where=where, when=when)
            buttons = (
                Button(TAKE_BACK, label=Text("table.turn.take_back"), emoji="↩️", who="seat"),
                Button(POST_NOW, label=Text("table.turn.post_now"), emoji="📣", who="seat"),
            )
            told, puzzle = await self.learning.told(result, seat)
            panel = Panel((*told, done), controls=(*buttons, *puzzle))
            await common.show(interaction, panel, record, edit=edit)
            return
        if nxt is not None and nxt.is_bot and not result.game_over:
            # A computer plays next: one post tells both turns, once it has played (see
            # Announcer.computer_played), rather than a board that is old a second later.
            key = "table.computer.done_next"
        else:
            posted = await self.posts.announce_result(interaction.channel, result)
            key = "table.turn.done" if posted is not None else "table.turn.done_not_posted"
            # Where the board is: the game's thread, or its channel (if it left its thread).
            home = posted.id if posted is not None else home
        where = Verbatim(f"<#{home}>")
        done = Text(key, scored=scored, where=where)
        # A practice game: what the learner's move did and why, to them alone.
        # ... and a puzzle on what it just taught, to try.
        told, puzzle = await self.learning.told(result, seat)
        await common.show(interaction, Panel((*told, done), controls=puzzle), record, edit=edit)

    async def post_now(
        self, interaction: discord.Interaction, game_id: int, version: int, *, edit: bool
    ) -> None:
        """The player will not take back the turn they just played: it is posted now (a
        computer next plays now, and its post tells both turns). A tap after the time is
        over, or a second tap, finds the turn posted (or being posted) and says where."""
        common = self.common
        record = await common.service.play.post_now(game_id, interaction.user.id, version)
        home = record.home
        current = record.current
        if current is not None and current.is_bot:
            common.service.computers.wake(record)
        else:
            channel = await self.posts.home_channel(record)
            await self.posts.announce_stored(channel, record)
            home = getattr(channel, "id", home)
        panel = Panel((Text("table.turn.posted_now", where=Verbatim(f"<#{home}>")),))
        await common.show(interaction, panel, record, edit=edit)

    async def take_back(
        self,
        interaction: discord.Interaction,
        game_id: int,
        seat: Seat,
        version: int,
        *,
        edit: bool,
    ) -> None:
        """The player takes back the turn they just played (from their "Done!" message):
        their panel at the start of that turn, to play it again. A double tap, or one after
        the time is over, is told so privately and changes nothing."""
        common = self.common
        await common.service.play.take_back(game_id, interaction.user.id, version)
        record, game = await common.service.play.state(game_id)
        panel = common.plugin(record).front.panel(common.seen(record, game, seat))
        panel = Panel((Text("table.turn.taken_back"), *panel.lines), panel.pictures, panel.controls)
        await common.show(interaction, panel, record, edit=edit)


def scored_text(points: int) -> Text:
    """What a turn did to its player's score, said to them: the points it scored, or (a
    card game's endgame, where a kept disc is worth a point) the points it cost."""
    if points < 0:
        return Text("table.turn.lost", points=-points)
    return Text("table.turn.scored", points=points)
