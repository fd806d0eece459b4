"""The table: what the bot does for every game, for each command and click.

It knows no game. It opens lobbies, checks who may do what (the one turn check, in
:meth:`Table.my_turn`), asks the game's front (:mod:`bot.games`) for panels, hands moves to
the game service, and posts what happened. Slash commands (the cogs) and buttons and menus
(:mod:`bot.discord_ui`) both end up here, so a player who types gets exactly what a player
who taps gets.

Steps that are still undecided are private to the player (ephemeral); what is confirmed is
posted in the channel for everyone: one post per finished turn, telling the whole turn.
Every interaction is deferred before any slow work, and pictures are drawn by the painter
(:mod:`bot.pictures`), so Discord's three-second deadline is met.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Mapping, Sequence
from datetime import timedelta
from typing import TYPE_CHECKING, Any

import discord

from bot import scheme
from bot.discord_ui import (
    Mention,
    Verbatim,
    clip,
    files,
    lines_of,
    lobby_menu,
    plain,
    say,
    split_message,
    table_view,
    view_of,
    with_controls,
)
from bot.errors import report
from bot.games import Plugin, Seen, TurnRecord, plugin, plugins
from bot.i18n import DEFAULT_LANGUAGE, ListOf, Text, language_for, language_of
from bot.panels import Button, CommandSpec, Option, Panel, Picture, Play, Refusal, TableOption
from bot.service import GameRecord, GameService, Seat, TurnResult
from bot.service.thinking import LEVELS

if TYPE_CHECKING:
    from bot.client import TableBot

log = logging.getLogger("arkbot.table")

AUTOCOMPLETE_LIMIT = 25


def is_moderator(member: Any, moderator_role_id: int | None) -> bool:
    """Manage Channels in the guild, or the guild's moderator role."""
    if not isinstance(member, discord.Member):
        return False
    if member.guild_permissions.manage_channels:
        return True
    return moderator_role_id is not None and any(r.id == moderator_role_id for r in member.roles)


#: The permissions the bot needs in a game's channel, as discord.py names them.
NEEDED = ("view_channel", "send_messages", "attach_files", "read_message_history")


def missing_permissions(channel: Any) -> tuple[Text, ...]:
    """The permissions the bot lacks in ``channel``, as far as it can tell."""
    guild = getattr(channel, "guild", None)
    me = getattr(guild, "me", None)
    if me is None or not hasattr(channel, "permissions_for"):
        return ()
    have = channel.permissions_for(me)
    return tuple(Text(f"table.permission.{name}") for name in NEEDED if not getattr(have, name))


def may_make_threads(channel: Any) -> bool:
    """Whether the bot may open a thread in ``channel`` and write there (when it can tell)."""
    guild = getattr(channel, "guild", None)
    me = getattr(guild, "me", None)
    if me is None or not hasattr(channel, "permissions_for"):
        return False
    have = channel.permissions_for(me)
    return bool(have.create_public_threads and have.send_messages_in_threads)


#: The lobby's menu that adds a computer player (a control name no game's option has).
ADD_COMPUTER = "add_computer"


def computer_menu() -> TableOption:
    """The lobby menu: "Add a computer player", one entry per level."""
    return TableOption(
        ADD_COMPUTER,
        Text("table.computer.add"),
        tuple(
            Option(Text(f"table.computer.{level}"), level, Text(f"table.computer.{level}_about"))
            for level in LEVELS
        ),
    )


def names_of(record: GameRecord) -> tuple[str, ...]:
    """Every seat's name as players see it; a computer's seat is marked as one."""
    return tuple(f"🤖 {seat.name}" if seat.is_bot else seat.name for seat in record.seats)


class Table:
    """The bot's behaviour, shared by slash commands and components, for every game."""

    def __init__(self, bot: TableBot) -> None:
        self.bot = bot
        #: Games whose post is being sent right now.
        self._posting: set[int] = set()
        #: Work done after an answer (replays).
        self._tasks: set[asyncio.Task[Any]] = set()

    @property
    def service(self) -> GameService:
        return self.bot.service

    def plugin(self, record: GameRecord) -> Plugin:
        return plugin(record.kind)

    def seen(self, record: GameRecord, game: Any, seat: Seat | None) -> Seen:
        return Seen(
            game,
            None if seat is None else seat.index,
            names_of(record),
            record.version,
            record.options,
        )

    async def public_language(self, guild_id: int | None) -> str:
        """The language of the server's public posts: the one its moderators chose, else
        the server's preferred locale, else English."""
        if not guild_id:
            return DEFAULT_LANGUAGE
        chosen = (await self.service.recent_guild_settings(guild_id)).language
        if chosen:
            return language_for(chosen)
        guild = self.bot.get_guild(guild_id)
        return language_for(guild.preferred_locale if guild is not None else None)

    # ================================================================ lobby

    def lobby_message(
        self, record: GameRecord, language: str
    ) -> tuple[str, discord.ui.View | None]:
        title = self.plugin(record).front.title()
        players = "\n".join(
            say(
                Text(
                    "table.computer.seat",
                    number=i + 1,
                    player=seat.name,
                    level=Text(f"table.computer.{seat.level or 'normal'}"),
                )
                if seat.is_bot
                else Text("table.lobby.seat", number=i + 1, player=seat.name),
                language,
            )
            for i, seat in enumerate(record.seats)
        )
        if record.status != "lobby":
            key = "table.lobby.started" if record.status == "active" else "table.lobby.closed"
            return say(Text(key, players=Verbatim(players)), language), None
        rules = self.plugin(record).rules
        creator = record.seats[0].name if record.seats else "?"
        lines = [
            say(
                Text(
                    "table.lobby.open",
                    creator=creator,
                    game=title,
                    min=rules.min_players,
                    max=rules.max_players,
                ),
                language,
            ),
            say(Text("table.lobby.players", count=len(record.seats)), language),
            players,
        ]
        front = self.plugin(record).front
        chosen = front.options_line(record.options)
        if chosen is not None:
            lines.insert(1, say(chosen, language))
        buttons = [
            (scheme.lobby_id(record.id, "join"), Text("table.button.join"), "success", None),
            (scheme.lobby_id(record.id, "leave"), Text("table.button.leave"), "secondary", None),
            (scheme.lobby_id(record.id, "start"), Text("table.button.start"), "primary", None),
        ]
        if any(seat.is_bot for seat in record.seats):
            remove = scheme.lobby_id(record.id, "unbot")
            buttons.append((remove, Text("table.computer.remove"), "secondary", "🤖"))
        view = table_view(*buttons, language=language)
        row = 0
        for row, option in enumerate(front.table_options, start=1):
            current = str(record.options.get(option.name, option.default))
            view.add_item(
                lobby_menu(
                    scheme.lobby_menu_id(record.id, option.name), option, current, language, row
                )
            )
        if len(record.seats) < rules.max_players:
            menu = scheme.lobby_menu_id(record.id, ADD_COMPUTER)
            view.add_item(lobby_menu(menu, computer_menu(), "", language, row + 1))
        return "\n".join(lines), view

    async def set_option(
        self, interaction: discord.Interaction, game_id: int, option: str, values: Sequence[str]
    ) -> None:
        """The lobby's creator (or a moderator) chose a table option in its menu."""
        await interaction.response.defer()
        current = await self.service.play.game_in(interaction.channel_id or 0)
        if current is None or current.id != game_id or current.status != "lobby":
            raise Refusal("table.lobby.gone")
        settings = await self.service.guild_settings(interaction.guild_id or 0)
        moderator = is_moderator(interaction.user, settings.moderator_role_id)
        if current.creator_id != interaction.user.id and not moderator:
            creator = current.seat_of(current.creator_id)
            raise Refusal(
                "table.lobby.only_creator_options", creator=creator.name if creator else "?"
            )
        if not values:
            raise Refusal("table.error.unknown_control")
        record = await self.service.lobby.set_options(
            current.channel_id, interaction.user.id, {option: values[0]}, moderator=moderator
        )
        content, view = self.lobby_message(record, await self.public_language(record.guild_id))
        await interaction.edit_original_response(
            content=content, view=view, allowed_mentions=discord.AllowedMentions.none()
        )

    async def new_table(
        self, interaction: discord.Interaction, game: str, *, shuffle: bool
    ) -> None:
        # Deferred privately first: the answer comes in time however slow the database is,
        # and a refusal ("there is already a game here") stays private. The lobby itself is
        # a message of its own in the channel.
        await interaction.response.defer(ephemeral=True, thinking=True)
        chosen = plugins().get(game)
        if chosen is None or not chosen.front.ready:
            raise Refusal("table.lobby.no_such_game")
        user = interaction.user
        record = await self.service.lobby.create_game(
            interaction.guild_id or 0,
            interaction.channel_id or 0,
            user.id,
            user.display_name,
            game,
            {},
            shuffle_seats=shuffle,
        )
        await self._post_lobby(interaction.channel, record)
        await interaction.delete_original_response()

    async def _post_lobby(self, channel: Any, record: GameRecord) -> None:
        """Show the lobby as it stands: edit its message, or post it (and remember it)."""
        content, view = self.lobby_message(record, await self.public_language(record.guild_id))
        mentions = discord.AllowedMentions.none()
        lobby_id, _ = self.service.posts.message_ids(record)
        if lobby_id is not None:
            try:
                await channel.get_partial_message(lobby_id).edit(
                    content=content, view=view, allowed_mentions=mentions
                )
                return
            except discord.NotFound:
                pass  # deleted: post it again
        message = await channel.send(content, allowed_mentions=mentions, **_view(view))
        self.service.posts.posted(record.id, lobby_message_id=message.id)

    async def lobby(
        self,
        interaction: discord.Interaction,
        op: str,
        game_id: int | None = None,
        values: Sequence[str] = (),
    ) -> None:
        """Join, leave or start, add or remove a computer player, from a lobby button or
        menu (``game_id`` given) or a command."""
        from_button = game_id is not None
        if from_button:
            # Deferring a button's update keeps later refusals private (as follow-ups).
            await interaction.response.defer()
        else:
            await interaction.response.defer(ephemeral=True, thinking=True)
        channel_id = interaction.channel_id or 0
        current = await self.service.play.game_in(channel_id)
        if from_button and (current is None or current.id != game_id or current.status != "lobby"):
            raise Refusal("table.lobby.gone")
        if op == "leave" and current is not None and current.status == "active":
            await self.confirm_leaving(interaction, current)
            return
        user = interaction.user
        if op == "join":
            record = await self.service.lobby.join(channel_id, user.id, user.display_name)
        elif op == "leave":
            record = await self.service.lobby.leave(channel_id, user.id)
        elif op in ("bot", "unbot"):
            settings = await self.service.guild_settings(interaction.guild_id or 0)
            moderator = is_moderator(user, settings.moderator_role_id)
            if current is not None and current.creator_id != user.id and not moderator:
                creator = current.seat_of(current.creator_id)
                raise Refusal(
                    "table.computer.only_creator", creator=creator.name if creator else "?"
                )
            if op == "unbot":
                record = await self.service.lobby.remove_computer(
                    channel_id, user.id, moderator=moderator
                )
            elif values and values[0] in LEVELS:
                record = await self.service.lobby.add_computer(
                    channel_id, user.id, values[0], moderator=moderator
                )
            else:
                raise Refusal("table.error.unknown_control")
        else:
            settings = await self.service.guild_settings(interaction.guild_id or 0)
            moderator = is_moderator(user, settings.moderator_role_id)
            in_lobby = current is not None and current.status == "lobby"
            if in_lobby and current.creator_id != user.id and not moderator:
                creator = current.seat_of(current.creator_id)
                raise Refusal("table.lobby.only_creator", creator=creator.name if creator else "?")
            record = await self.service.lobby.start(channel_id, user.id, moderator=moderator)
        if from_button:
            content, view = self.lobby_message(record, await self.public_language(record.guild_id))
            await interaction.edit_original_response(
                content=content, view=view, allowed_mentions=discord.AllowedMentions.none()
            )
        else:
            # A typed join updates the lobby's own message; the user hears it privately.
            await self._post_lobby(interaction.channel, record)
            done = Text(f"table.lobby.you_{op}")
            await interaction.followup.send(say(done, language_of(interaction)), ephemeral=True)
        if op == "start":
            await self.begin(interaction.channel, record)

    async def confirm_leaving(self, interaction: discord.Interaction, record: GameRecord) -> None:
        """Leaving a started game is for good: ask first, privately."""
        if record.seat_of(interaction.user.id) is None:
            raise Refusal("table.turn.stranger")
        language = language_of(interaction)
        view = table_view(
            (scheme.control_id(record.id, 0, "table_leave", (), menu=False, who="seat"),
             Text("table.button.leave_game"), "danger", None),
            language=language,
        )  # fmt: skip
        await interaction.followup.send(
            say(Text("table.leave.confirm", game=self.plugin(record).front.title()), language),
            view=view,
            ephemeral=True,
        )

    async def leave_game(self, interaction: discord.Interaction, record: GameRecord) -> None:
        """The player confirmed: a computer takes the seat; everyone is told."""
        result = await self.service.moderation.leave_game(record.channel_id, interaction.user.id)
        language = await self.public_language(record.guild_id)
        await interaction.channel.send(  # type: ignore[union-attr]
            say(Text("table.leave.left", player=interaction.user.display_name), language),
            allowed_mentions=discord.AllowedMentions.none(),
        )
        if result.turns and result.state is not None:
            await self.announce(interaction.channel, result.game, result.state, result.turns)
        await interaction.edit_original_response(
            content=say(Text("table.leave.done"), language_of(interaction)), view=None
        )

    # ================================================================ the turn check

    async def my_turn(
        self,
        interaction: discord.Interaction,
        game_id: int | None = None,
        *,
        version: int | None = None,
        turn: int | None = None,
        need_turn: bool = True,
    ) -> tuple[GameRecord, Any, Seat]:
        """The game ``interaction.user`` acts in, the state and their seat, or a refusal
        saying why not: the one place where "may this user do this now?" is decided."""
        if game_id is None:
            found = await self.service.play.game_in(interaction.channel_id or 0)
            if found is None:
                raise Refusal("table.turn.no_game")
            if found.status == "lobby":
                raise Refusal("table.turn.not_started")
            game_id = found.id
        record, game = await self.service.play.state(game_id)
        if interaction.channel_id not in (record.channel_id, record.thread_id):
            # A control of another channel's game (only a forged click can do this).
            raise Refusal("table.error.unknown_control")
        if record.status != "active":
            raise Refusal("table.turn.game_not_active")
        seat = record.seat_of(interaction.user.id)
        if seat is None:
            raise Refusal("table.turn.stranger")
        if not need_turn:
            return record, game, seat
        # Checked on the state the move will be played on: a double click may have moved
        # the game on since the control was made.
        if version is not None and record.version != version:
            raise Refusal("table.turn.stale")
        if turn is not None and game.turn != turn:
            raise Refusal("table.turn.stale")
        if seat.index != game.current_player:
            current = record.seats[game.current_player]
            raise Refusal("table.turn.not_yours", player=current.name)
        return record, game, seat

    # ================================================================ private panels

    async def show(
        self,
        interaction: discord.Interaction,
        panel: Panel,
        record: GameRecord,
        *,
        edit: bool,
    ) -> None:
        """Put a private panel on screen: edit the clicked message, or send a new one."""
        language = language_of(interaction)
        drawn = await self.bot.pictures.draw_all(panel.pictures, language)
        content = "\n".join(lines_of(panel, language))
        content = split_message([content])[0]
        view = view_of(panel.controls, record.id, record.version, language)
        mentions = discord.AllowedMentions.none()
        if edit:
            await interaction.edit_original_response(
                content=content, attachments=files(drawn), view=view, allowed_mentions=mentions
            )
            return
        await interaction.followup.send(
            content,
            files=files(drawn),
            ephemeral=True,
            allowed_mentions=mentions,
            **_view(view),
        )

    async def open_turn(
        self, interaction: discord.Interaction, game_id: int | None = None, turn: int | None = None
    ) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        record, game, seat = await self.my_turn(interaction, game_id, turn=turn)
        panel = self.plugin(record).front.panel(self.seen(record, game, seat))
        await self.show(interaction, panel, record, edit=False)

    # ================================================================ components

    async def on_component(
        self, interaction: discord.Interaction, custom_id: str, values: Sequence[str]
    ) -> None:
        """A button or menu of ours was used (every click comes here)."""
        try:
            await self._component(interaction, custom_id, values)
        except Exception as error:
            await report(interaction, error)

    async def _component(
        self, interaction: discord.Interaction, custom_id: str, values: Sequence[str]
    ) -> None:
        try:
            cid = scheme.parse(custom_id)
        except scheme.BadId:
            raise Refusal("table.error.unknown_control") from None
        if cid.kind == "lb":
            await self.lobby(interaction, cid.control, cid.game_id)
            return
        if cid.kind == "lm" and cid.control == ADD_COMPUTER:
            await self.lobby(interaction, "bot", cid.game_id, values)
            return
        if cid.kind == "lm":
            await self.set_option(interaction, cid.game_id, cid.control, values)
            return
        if cid.kind == "sb" and cid.control == "table_rematch":
            await self.rematch(interaction, cid.game_id)
            return
        if cid.kind == "sb" and cid.control == "table_hist" and cid.args and cid.args[0].isdigit():
            await self.history(interaction, int(cid.args[0]), cid.game_id)
            return
        if cid.kind == "ob":
            await self.open_turn(interaction, cid.game_id, cid.version)
            return
        # A private panel is edited in place; a control on a public post answers privately.
        private = bool(interaction.message and interaction.message.flags.ephemeral)
        if private:
            await interaction.response.defer()
        else:
            await interaction.response.defer(ephemeral=True, thinking=True)
        record, game, seat = await self.my_turn(
            interaction,
            cid.game_id,
            version=cid.version if cid.for_turn else None,
            need_turn=cid.for_turn,
        )
        if cid.kind == "sb" and cid.control == "table_leave":
            await self.leave_game(interaction, record)
            return
        front = self.plugin(record).front
        outcome = front.on_control(self.seen(record, game, seat), cid.control, cid.args, values)
        await self.answer(interaction, record, seat, outcome, edit=private)

    # ================================================================ typed commands

    async def on_command(
        self,
        interaction: discord.Interaction,
        game: str,
        spec: CommandSpec,
        options: Mapping[str, Any],
    ) -> None:
        """A game's typed command: the same checks and answers as its buttons."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        record, state, seat = await self.my_turn(interaction, need_turn=spec.who == "turn")
        if record.kind != game:
            raise Refusal("table.turn.other_game", game=self.plugin(record).front.title())
        front = self.plugin(record).front
        outcome = front.on_command(self.seen(record, state, seat), spec.name, options)
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
        record = await self.service.play.game_in(interaction.channel_id or 0)
        if record is None or record.status != "active" or record.kind != game:
            return []
        record, state = await self.service.play.state(record.id)
        seat = record.seat_of(interaction.user.id)
        front = self.plugin(record).front
        language = language_of(interaction)
        choices = front.autocomplete(
            self.seen(record, state, seat), command, option, current, typed
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

    # ================================================================ moves

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
            await self.show(interaction, outcome, record, edit=edit)
            return
        result = await self.service.play.act(
            record.id, interaction.user.id, outcome.action, expected_version=record.version
        )
        # From here on the move counts, whatever fails: the error funnel says so.
        interaction.extras["stored"] = True
        await self.after_move(interaction, result, seat, edit=edit)

    async def after_move(
        self, interaction: discord.Interaction, result: TurnResult, seat: Seat, *, edit: bool
    ) -> None:
        """The move is stored: the next private step, or the turn told in public."""
        record, game = result.game, result.state
        front = self.plugin(record).front
        if not result.turn_over:
            # Mid-turn: the player's private panel shows it; nothing to post in public.
            panel = front.panel(self.seen(record, game, seat))
            await self.show(interaction, panel, record, edit=edit)
            return
        mine = result.turns[0]
        points = mine.gained(result.scores)[seat.index] if mine.start_scores else 0
        nxt = result.next_seat
        if nxt is not None and nxt.is_bot and not result.game_over:
            # A computer plays next: one post tells both turns, once it has played (see
            # computer_played), rather than a board that is old a second later.
            key = "table.computer.done_next"
        else:
            posted = await self.announce(interaction.channel, record, game, result.turns)
            key = "table.turn.done" if posted else "table.turn.done_not_posted"
        await self.show(interaction, Panel((Text(key, points=points),)), record, edit=edit)

    # ================================================================ public posts

    def _story(self, record: GameRecord, turns: Sequence[TurnRecord]) -> list[Text]:
        """The turns in words for everyone: events redacted, computer moves marked."""
        chosen = self.plugin(record)
        names = names_of(record)
        lines: list[Text] = []
        for turn in turns:
            public = TurnRecord(
                turn.seat,
                turn.number,
                turn.sources,
                tuple(chosen.rules.redact(e) for e in turn.events),
                turn.complete,
                turn.start_scores,
            )
            told = chosen.front.story([public], names)
            if not told:
                continue
            who = names[turn.seat] if 0 <= turn.seat < len(names) else "?"
            if turn.timed_out:
                lines.append(Text("table.story.timed_out", player=who))
            elif turn.by_computer:
                lines.append(Text("table.story.computer", player=who))
            lines += told
        return lines

    async def announce(
        self,
        channel: Any,
        record: GameRecord,
        game: Any,
        turns: Sequence[TurnRecord],
        *,
        intro: Sequence[Text] = (),
    ) -> bool:
        """Post what happened and how the game stands now: the story of ``turns``, the board,
        and whose turn it is (mentioned, with the button to play), or the final scores.
        Returns whether it was posted (a post that fails is posted again later)."""
        # Always where the game is played, wherever the last move was typed.
        channel = await self.home_channel(record, channel)
        chosen = self.plugin(record)
        names = names_of(record)
        language = await self.public_language(record.guild_id)
        view_state = game.view(None)
        lines = [*intro, *self._story(record, turns)]
        mentions = discord.AllowedMentions.none()
        controls: discord.ui.View | None = None
        over = chosen.rules.is_over(game) or record.status != "active"
        settings = await self.service.recent_guild_settings(record.guild_id)
        now_ms = int(self.service.clock.now().timestamp() * 1000)
        # At night (the server's quiet hours) a post notifies nobody.
        silent = settings.quiet_hours().quiet(now_ms)
        notify: Seat | None = None
        if over:
            panel = chosen.front.final_post(view_state, names, ended_early=record.status == "ended")
            closing = "table.game.ended_early" if record.status == "ended" else "table.game.thanks"
            panel = panel.plus(Text(closing))
            if record.status == "finished":
                controls = table_view(
                    (
                        scheme.control_id(
                            record.id, 0, "table_rematch", (), menu=False, who="seat"
                        ),
                        Text("table.button.rematch"),
                        "success",
                        "🔁",
                    ),
                    language=language,
                )
        else:
            panel = chosen.front.board_post(view_state, names)
            seat = record.seats[game.current_player]
            pinged = seat.user_id is not None and seat.ping in ("channel", "both")
            who: Any = Mention(seat.user_id) if pinged and seat.user_id else seat.name
            deadline = record.deadline_ms()
            if deadline is None:
                panel = panel.plus(Text("table.turn.your_turn", player=who))
            else:
                when = Verbatim(f"<t:{deadline // 1000}:R>")
                panel = panel.plus(Text("table.turn.your_turn_due", player=who, deadline=when))
            if pinged and seat.user_id:
                mentions = discord.AllowedMentions(
                    users=[discord.Object(seat.user_id)], roles=False, everyone=False
                )
            if seat.user_id is not None and seat.ping in ("dm", "both"):
                notify = seat
            controls = table_view(
                (
                    scheme.open_turn_id(record.id, game.turn),
                    Text("table.button.play_turn"),
                    "primary",
                    "🎲",
                ),
                language=language,
            )
        lines += panel.lines
        controls = with_controls(controls, panel.controls, record.id, record.version, language)
        # Posts in flight are not "missed": the dispatcher leaves them alone.
        self._posting.add(record.id)
        try:
            drawn = await self.bot.pictures.draw_all(panel.pictures, language)
            messages = split_message(say(line, language) for line in lines)
            quiet = discord.AllowedMentions.none()
            # The nonce names the post, so sending it again (after a crash, before it was
            # recorded) gives back the same message instead of a second one.
            last = len(messages) - 1
            for part, text in enumerate(messages[:-1]):
                await channel.send(
                    text,
                    allowed_mentions=quiet,
                    nonce=_nonce(record.id, record.version, part),
                    silent=silent,
                )
            posted = await channel.send(
                messages[-1],
                files=files(drawn),
                allowed_mentions=mentions,
                nonce=_nonce(record.id, record.version, last),
                silent=silent,
                **_view(controls),
            )
        except discord.HTTPException as error:
            await self.post_failed(channel, record, error)
            return False
        finally:
            self._posting.discard(record.id)
        _, previous = self.service.posts.message_ids(record)
        self.service.posts.posted(record.id, record.version, board_message_id=posted.id)
        if previous is not None and previous != posted.id:
            await self.retire(channel, previous)
        if notify is not None and notify.user_id is not None and not silent:
            await self.tell_user(
                notify.user_id,
                Text(
                    "table.turn.dm",
                    channel=Verbatim(f"<#{record.home}>"),
                    game=chosen.front.title(),
                ),
                record.guild_id,
            )
        await self.update_standing(record, game, over)
        if over and record.status == "finished":
            self._later(self.post_replay(channel, record))
        return True

    async def home_channel(self, record: GameRecord, given: Any = None) -> Any:
        """Where the game is played: its thread, else its channel (``given`` if it is that one).
        A thread that is gone (a moderator deleted it) sends the game back to its channel."""
        if given is not None and getattr(given, "id", None) == record.home:
            return given
        found = self.bot.get_channel(record.home)
        if found is not None:
            return found
        try:
            return await self.bot.fetch_channel(record.home)
        except discord.NotFound:
            if record.thread_id is None:
                raise
            log.info("the thread of game %s is gone; it goes on in its channel", record.id)
            await self.service.posts.set_thread(record.id, None)
            return self.bot.get_channel(record.channel_id) or await self.bot.fetch_channel(
                record.channel_id
            )

    def _later(self, work: Any) -> None:
        """Run ``work`` after the answer (a replay takes seconds to draw); keep a reference
        so the task is not collected, and log what fails."""
        task = asyncio.create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def update_standing(self, record: GameRecord, game: Any, over: bool) -> None:
        """A game played in a thread keeps one line in its channel up to date: its lobby
        message says whose turn it is (edited, never posted again, so the channel does not
        fill with pings), and at the end who won."""
        if record.thread_id is None:
            return
        lobby, _ = self.service.posts.message_ids(record)
        if lobby is None:
            return
        language = await self.public_language(record.guild_id)
        names = names_of(record)
        title = self.plugin(record).front.title()
        where = Verbatim(f"<#{record.thread_id}>")
        if over:
            winners = tuple(names[s] for s in game.winners) or ("-",)
            text = Text(
                "table.standing.over", game=title, where=where, winners=ListOf(winners, "standard")
            )
        else:
            deadline = record.deadline_ms()
            text = Text(
                "table.standing.turn" if deadline else "table.standing.turn_no_clock",
                game=title,
                where=where,
                player=names[game.current_player],
                deadline=Verbatim(f"<t:{deadline // 1000}:R>" if deadline else ""),
            )
        try:
            parent = self.bot.get_channel(record.channel_id) or await self.bot.fetch_channel(
                record.channel_id
            )
            await parent.get_partial_message(lobby).edit(  # type: ignore[union-attr]
                content=say(text, language),
                view=None,
                allowed_mentions=discord.AllowedMentions.none(),
            )
        except discord.HTTPException:
            log.info("could not update the standing line of game %s", record.id)

    async def retire(self, channel: Any, message_id: int) -> None:
        """Take the controls off a board that a newer post replaced (old buttons would only
        say "already played"; better none at all)."""
        try:
            await channel.get_partial_message(message_id).edit(view=None)
        except discord.HTTPException:
            log.info("could not take the controls off message %s", message_id)

    async def post_failed(self, channel: Any, record: GameRecord, error: Exception) -> None:
        """Discord refused a post: it is tried again later, later each time. A missing
        permission is said plainly, once, to the game's creator, who can ask for it."""
        denied = isinstance(error, discord.Forbidden)
        reason = f"{getattr(error, 'status', '?')} {getattr(error, 'code', '')}".strip()
        failures = await self.service.posts.post_failed(record.id, reason)
        log.warning(
            "post of game %s version %s refused (%s), try %d",
            record.id, record.version, reason, failures,
        )  # fmt: skip
        if denied and failures == 1:
            missing = missing_permissions(channel)
            text = Text(
                "table.post.denied",
                channel=Verbatim(f"<#{record.channel_id}>"),
                permissions=missing or (Text("table.post.some_permission"),),
            )
            await self.tell_user(record.creator_id, text, record.guild_id)

    async def tell_user(self, user_id: int, text: Text, guild_id: int | None) -> bool:
        """A direct message (closed DMs are no error: False)."""
        try:
            user = self.bot.get_user(user_id) or await self.bot.fetch_user(user_id)
            await user.send(say(text, await self.public_language(guild_id)))
            return True
        except discord.HTTPException:
            log.info("could not DM user %s", user_id)
            return False

    async def computer_played(self, result: TurnResult) -> None:
        """A computer's turn was stored in the background: tell it (with the turns before
        it that were waiting for it) where the game is played."""
        channel = await self.home_channel(result.game)
        await self.announce_stored(channel, result.game, recovered=False)

    async def announce_stored(
        self, channel: Any, record: GameRecord, *, recovered: bool = True
    ) -> bool:
        """Tell what was stored but not yet posted in the game's channel (``recovered``: it
        was missed, the bot was down; otherwise a computer just played)."""
        if record.id in self._posting:
            return False  # on its way right now
        record, game, turns = await self.service.history.told_since(record.id, record.announced)
        if record.status == "active" and not any(t.complete for t in turns) and turns:
            # Mid-turn: the player carries on from their panel.
            await self.service.posts.mark_announced(record.id, record.version)
            return False
        intro = (Text("table.turn.recovered"),) if recovered else ()
        return await self.announce(channel, record, game, turns, intro=intro)

    # ================================================================ games over days

    async def post_replay(self, channel: Any, record: GameRecord) -> None:
        """The finished game as an animation, after its result (it takes seconds to draw)."""
        try:
            drawn = await self._replay(record, await self.public_language(record.guild_id))
            if drawn is None:
                return
            language = await self.public_language(record.guild_id)
            await channel.send(
                say(Text("table.replay.caption"), language),
                files=files([drawn]),
                allowed_mentions=discord.AllowedMentions.none(),
                silent=True,
            )
        except Exception:
            log.exception("could not post the replay of game %s", record.id)

    async def _replay(
        self, record: GameRecord, language: str
    ) -> tuple[bytes, str, str | None] | None:
        record, turns, final = await self.service.history.replay_turns(record.id)
        views = [view for view, _ in turns] + [final]
        picture = self.plugin(record).front.replay_picture(views, names_of(record))
        if picture is None:
            return None
        return (await self.bot.pictures.draw_all([picture], language))[0]

    async def replay(self, interaction: discord.Interaction) -> None:
        """``/table replay``: the last game of this channel (or its thread) as an animation."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        record = await self.service.play.game_in(interaction.channel_id or 0)
        if record is None or record.status == "lobby":
            record = await self.service.play.last_game(interaction.channel_id or 0)
        if record is None or record.status == "lobby":
            raise Refusal("table.turn.no_game")
        drawn = await self._replay(record, language_of(interaction))
        if drawn is None:
            raise Refusal("table.replay.none")
        await interaction.followup.send(
            say(Text("table.replay.caption"), language_of(interaction)),
            files=files([drawn]),
            ephemeral=True,
        )

    async def rematch(self, interaction: discord.Interaction, game_id: int) -> None:
        """The result's Rematch button: the same people, a new shuffle, at once."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        old = await self.service.play.get_game(game_id)
        if old.channel_id != interaction.channel_id and old.home != interaction.channel_id:
            raise Refusal("table.error.unknown_control")
        record = await self.service.lobby.rematch(game_id, interaction.user.id)
        parent = self.bot.get_channel(record.channel_id) or await self.bot.fetch_channel(
            record.channel_id
        )
        await self._post_lobby(parent, record)
        if record.status == "active":
            await self.begin(parent, record)
        await interaction.followup.send(
            say(Text("table.rematch.done"), language_of(interaction)), ephemeral=True
        )

    async def begin(self, channel: Any, record: GameRecord) -> None:
        """A game has started: into its thread (when the server plays in threads and the bot
        may make one), and its first board."""
        record = await self.open_thread(channel, record)
        home = await self.home_channel(record, channel)
        record, game = await self.service.play.state(record.id)
        await self.announce(home, record, game, (), intro=(Text("table.lobby.go"),))
        self.service.computers.wake(record)  # a computer in the first seat plays now

    async def open_thread(self, channel: Any, record: GameRecord) -> GameRecord:
        settings = await self.service.recent_guild_settings(record.guild_id)
        lobby, _ = self.service.posts.message_ids(record)
        if not settings.threads or lobby is None or not may_make_threads(channel):
            return record
        title = say(self.plugin(record).front.title(), await self.public_language(record.guild_id))
        names = ", ".join(s.name for s in record.seats)
        try:
            thread = await channel.get_partial_message(lobby).create_thread(
                name=clip(f"{title}: {names}", 100), auto_archive_duration=10080
            )
        except (discord.HTTPException, KeyError, TypeError, ValueError):
            log.info("could not open a thread for game %s; it is played in the channel", record.id)
            return record
        return await self.service.posts.set_thread(record.id, thread.id)

    async def history(
        self, interaction: discord.Interaction, turn: int | None = None, game_id: int | None = None
    ) -> None:
        """A private browser of the game's turns: the board as each turn began, its story,
        and buttons back and forth."""
        if game_id is None:
            await interaction.response.defer(ephemeral=True, thinking=True)
            found = await self.service.play.game_in(interaction.channel_id or 0)
            found = found or await self.service.play.last_game(interaction.channel_id or 0)
            if found is None or found.status == "lobby":
                raise Refusal("table.turn.no_game")
            game_id = found.id
        else:
            await interaction.response.defer()
        record, turns, _ = await self.service.history.replay_turns(game_id)
        if not turns:
            raise Refusal("table.history.nothing_yet")
        complete = [t for t in turns if t[1].complete] or turns
        number = len(complete) if turn is None else min(max(turn, 1), len(complete))
        view, told = complete[number - 1]
        front = self.plugin(record).front
        names = names_of(record)
        board = front.board_post(view, names)
        lines = (
            Text("table.history.turn", number=number, count=len(complete), player=names[told.seat]),
            *self._story(record, [told]),
        )
        buttons = tuple(
            Button(
                "table_hist", (str(n),), Text(key), disabled=not 1 <= n <= len(complete), who="seat"
            )
            for key, n in (("common.previous", number - 1), ("common.next", number + 1))
        )
        panel = Panel(lines, board.pictures, buttons)
        await self.show(interaction, panel, record, edit=turn is not None and game_id is not None)

    async def hint(self, interaction: discord.Interaction) -> None:
        """A computer's suggestion for the player whose turn it is, privately, in words."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        record, game, seat = await self.my_turn(interaction)
        _, found = await self.service.computers.hint(record.id, interaction.user.id)
        front = self.plugin(record).front
        seen = self.seen(record, game, seat)
        lines = front.hint_text(seen, found.action, found.key, found.params)
        language = language_of(interaction)
        text = "\n".join(say(line, language) for line in [Text("table.computer.hint"), *lines])
        await interaction.followup.send(text, ephemeral=True)

    async def missed(self, interaction: discord.Interaction) -> None:
        """What happened since the player's last turn, privately."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        record, _, seat = await self.my_turn(interaction, need_turn=False)
        record, turns, _ = await self.service.history.replay_turns(record.id)
        mine = [i for i, (_, t) in enumerate(turns) if t.seat == seat.index and t.complete]
        since = mine[-1] + 1 if mine else 0
        told = [t for _, t in turns[since:]]
        language = language_of(interaction)
        lines = [Text("table.missed.intro", count=len([t for t in told if t.complete]))]
        lines += self._story(record, told) or [Text("table.missed.nothing")]
        for text in split_message(say(line, language) for line in lines):
            await interaction.followup.send(
                text, ephemeral=True, allowed_mentions=discord.AllowedMentions.none()
            )

    async def away(self, interaction: discord.Interaction, days: float) -> None:
        """The player is away for ``days`` (0: back): their clocks stand still, and each of
        their games is told."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        now = self.service.clock.now()
        until = now + timedelta(days=days) if days > 0 else None
        games = await self.service.notices.set_away(interaction.user.id, until)
        name = interaction.user.display_name
        for record in games:
            language = await self.public_language(record.guild_id)
            if until is None:
                text = Text("table.away.back", player=name)
            else:
                text = Text(
                    "table.away.gone",
                    player=name,
                    until=Verbatim(f"<t:{int(until.timestamp())}:f>"),
                )
            try:
                home = await self.home_channel(record)
                await home.send(
                    say(text, language), allowed_mentions=discord.AllowedMentions.none()
                )  # type: ignore[union-attr]
            except discord.HTTPException:
                log.info("could not tell game %s that a player is away", record.id)
        key = "table.away.done_back" if until is None else "table.away.done"
        when = Verbatim(f"<t:{int(until.timestamp())}:f>") if until else None
        await interaction.followup.send(
            say(Text(key, count=len(games), until=when or ""), language_of(interaction)),
            ephemeral=True,
        )

    async def leaderboard(self, interaction: discord.Interaction, game: str) -> None:
        """``/table stats``: the server's ratings in a game, as a picture and in words."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        language = language_of(interaction)
        chosen = plugins().get(game)
        if chosen is None:
            raise Refusal("table.lobby.no_such_game")
        ratings = (await self.service.history.ratings(interaction.guild_id or 0, game))[:15]
        if not ratings:
            raise Refusal("table.stats.nobody_yet", game=chosen.front.title())
        title = say(chosen.front.title(), language)
        rows = [[r.name, r.rating, r.games, r.wins] for r in ratings]
        picture = Picture("render.leaderboard:leaderboard", (title, rows), "leaderboard.png")
        drawn = await self.bot.pictures.draw_all([picture], language)
        lines = [Text("table.stats.heading", game=chosen.front.title())] + [
            Text(
                "table.stats.line",
                rank=n,
                player=r.name,
                rating=round(r.rating),
                games=r.games,
                wins=r.wins,
            )
            for n, r in enumerate(ratings, start=1)
        ]
        await interaction.followup.send(
            split_message(say(line, language) for line in lines)[0],
            files=files(drawn),
            ephemeral=True,
            allowed_mentions=discord.AllowedMentions.none(),
        )

    # ================================================================ status and rules

    async def status(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        language = language_of(interaction)
        record = await self.service.play.game_in(interaction.channel_id or 0)
        if record is None:
            last = await self.service.play.last_game(interaction.channel_id or 0)
            if last is not None and last.status in ("finished", "ended"):
                raise Refusal(f"table.status.last_{last.status}")
            raise Refusal("table.turn.no_game")
        if record.status == "lobby":
            content, _ = self.lobby_message(record, language)
            await interaction.followup.send(
                content, ephemeral=True, allowed_mentions=discord.AllowedMentions.none()
            )
            return
        if record.status == "error":
            raise Refusal("table.error.game_damaged")
        record, game = await self.service.play.state(record.id)
        panel = self.plugin(record).front.status(game.view(None), names_of(record))
        await self.show(interaction, panel, record, edit=False)

    async def rules(self, interaction: discord.Interaction, game: str | None) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        record = await self.service.play.game_in(interaction.channel_id or 0)
        if game is None:
            game = record.kind if record is not None else "covenant"
        chosen = plugins().get(game)
        if chosen is None:
            raise Refusal("table.lobby.no_such_game")
        language = language_of(interaction)
        options = record.options if record is not None and record.kind == game else {}
        panel = chosen.front.rules(options)
        drawn = await self.bot.pictures.draw_all(panel.pictures, language)
        await interaction.followup.send(
            "\n".join(lines_of(panel, language)), files=files(drawn), ephemeral=True
        )

    # ================================================================ moderation

    async def announce_end(
        self, channel: Any, record: GameRecord, *, stalled: bool = False
    ) -> None:
        """A moderator ended the game (or nobody moved for too long): the standings and the
        board as they were; a lobby's message says it is closed. No control stays live."""
        lobby, board = self.service.posts.message_ids(record)
        if record.started_at is None:
            if lobby is not None:
                await self._post_lobby(channel, record)
            return
        record, game = await self.service.play.state(record.id)
        channel = await self.home_channel(record, channel)
        intro = (Text("table.stall.ended"),) if stalled else ()
        if await self.announce(channel, record, game, (), intro=intro) and board is not None:
            await self.retire(channel, board)


def _nonce(game_id: int, version: int, part: int) -> str:
    """A post's nonce (Discord keeps at most 25 characters)."""
    return f"{game_id}.{version}.{part}"[-25:]


def _view(view: discord.ui.View | None) -> dict[str, Any]:
    return {"view": view} if view is not None else {}
