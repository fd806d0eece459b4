"""Practice games (``/table learn``): a learner plays a game against computer players in a
thread of its own, and the game teaches as it goes.

- On each of the learner's turns, the first lesson the board calls for (the game's
  :class:`~bot.games.teaching.Teacher` says which) stands above the turn's panel, with its
  picture and the hint's move as a suggestion; a lesson is given once.
- After each of the learner's turns, what it did and why, privately.
- Above the lessons, how far along the learner is ("Lesson 3 of 12", from the teacher's
  lessons).
- At the end, what the learner now knows, a button that opens a real table of the same
  length and edition in the channel the thread belongs to, and buttons to practise this game
  again or another one.

Only the table knows Discord; the lessons are the game's, the bookkeeping the service's
(:mod:`bot.service.learning`).
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import discord

from bot.discord_ui import Verbatim, clip, message_text
from bot.games import Plugin, plugins
from bot.games.teaching import Teacher, after_turn_lesson, turn_lessons, turn_puzzle
from bot.i18n import Text, language_of
from bot.panels import Button, Panel, Refusal
from bot.service import GameRecord, Seat, ServiceError, TurnResult
from bot.table.common import Common
from bot.table.lobby import Seating, may_make_private_threads, may_make_threads, saying
from bot.table.posts import Announcer

log = logging.getLogger("arkbot.table")

#: The buttons of a puzzle (``sb:<game>:<version>:table_quiz:<lesson>:<answer>``).
PUZZLE = "table_quiz"


@dataclass(frozen=True, slots=True)
class TurnStart:
    """The learner's turn as it began (kept to say afterwards what the move did)."""

    version: int
    game: Any
    #: The hint's move for the turn (the engine's actions), if one was found.
    hint: tuple[Any, ...] | None


def teacher_of(chosen: Plugin) -> Teacher:
    if chosen.teacher is None:
        raise Refusal("table.learn.cannot_teach", game=chosen.front.title())
    return chosen.teacher


class Tutor:
    """``/table learn`` and what a practice game says that other games do not."""

    def __init__(self, common: Common, posts: Announcer, lobby: Seating) -> None:
        self.common = common
        self.posts = posts
        self.lobby = lobby
        #: Practice game id -> how the learner's current turn began (in this process; after a
        #: restart the turn's start is read from the log, and the move is told without the
        #: better move, which was not asked then).
        self._starts: dict[int, TurnStart] = {}

    async def learn(self, interaction: discord.Interaction, game: str) -> None:
        """Open a practice game of ``game`` for the user, in a new thread of this channel."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        channel = interaction.channel
        if isinstance(channel, discord.Thread):
            raise Refusal("table.learn.in_thread")
        await self._open(interaction, game, channel)

    async def again(self, interaction: discord.Interaction, game_id: int, game: str) -> None:
        """A button under a finished practice game: practise ``game`` (the same one, or
        another) in a new thread of the channel the finished one's thread belongs to."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        old = await self.common.service.play.get_game(game_id)
        parent = getattr(interaction.channel, "parent", None)
        if old.practice is None or old.channel_id != interaction.channel_id or parent is None:
            raise Refusal("table.error.unknown_control")
        if old.seat_of(interaction.user.id) is None:
            raise Refusal("table.error.not_a_player")
        await self._open(interaction, game, parent)

    async def _open(self, interaction: discord.Interaction, game: str, channel: Any) -> None:
        common = self.common
        chosen = plugins().get(game)
        if chosen is None or not chosen.front.ready:
            raise Refusal("table.lobby.no_such_game")
        teacher = teacher_of(chosen)
        user = interaction.user
        going = await common.service.learning.going(user.id)
        if going is not None:
            raise Refusal("table.learn.going", where=Verbatim(f"<#{going.channel_id}>"))
        # Threads belong to a text channel (not to a voice channel's chat).
        if not isinstance(channel, discord.TextChannel):
            raise Refusal("table.learn.no_threads")
        language = language_of(interaction)
        title = chosen.front.title()
        name = message_text(Text("table.learn.thread", game=title), language)
        name = clip(f"{name}: {user.display_name}", 100)
        settings = await common.service.recent_guild_settings(interaction.guild_id or 0)
        public = settings.threads and may_make_threads(channel)
        if not public and not may_make_private_threads(channel):
            raise Refusal("table.learn.no_threads")
        # Decided before a thread is made: one at a time, and not again within the cool-down
        # of opening a table (learn and leave, over and over, would fill the channel).
        await common.service.learning.begin(user.id)
        try:
            if public:
                thread = await self._public_thread(channel, name, user, title)
            else:
                # The server plays in its channels: the practice game is played privately.
                thread = await channel.create_thread(
                    name=name,
                    type=discord.ChannelType.private_thread,
                    invitable=False,
                    auto_archive_duration=10080,
                )
                await thread.add_user(user)
        except discord.HTTPException:
            log.info("could not open a practice thread in channel %s", interaction.channel_id)
            raise Refusal("table.learn.no_threads") from None
        common.host.pictures.expect()  # the lesson's pictures come next
        seed = secrets.randbits(62)
        record = await common.service.learning.open(
            interaction.guild_id or 0,
            thread.id,
            user.id,
            user.display_name,
            game,
            teacher.practice_options(seed),
            language=language,
            seed=seed,
        )
        await self.lobby.begin(thread, record)
        said = Text("table.learn.started", game=title, where=Verbatim(f"<#{thread.id}>"))
        await interaction.followup.send(message_text(said, language), ephemeral=True)

    async def _public_thread(
        self, channel: discord.TextChannel, name: str, user: Any, title: Text
    ) -> discord.Thread:
        """A public thread on a line in the channel: others see where the learner plays,
        and may look on."""
        opening = await channel.send(
            message_text(
                Text("table.learn.opening", player=user.display_name, game=title),
                await self.common.public_language(channel.guild.id),
            ),
            allowed_mentions=discord.AllowedMentions.none(),
        )
        return await opening.create_thread(name=name, auto_archive_duration=10080)

    # ------------------------------------------------------------------ the learner's turn

    async def lesson_panel(
        self, record: GameRecord, game: Any, seat: Seat, panel: Panel
    ) -> tuple[Panel, tuple[str, ...]]:
        """The turn's first panel with the lessons due now above it (and the turn's start
        kept for :meth:`told`); their keys, to be marked taught once they are shown.

        At most the teacher's ``at_once`` lessons a turn, the first due first: one idea at a
        time, but a game may have fewer turns than lessons, and a lesson left for later may
        never come again (the Prophet, once it is used). Above them, how far along the
        learner is: "Lesson 3 of 12", the number of the last one shown."""
        practice = record.practice
        chosen = self.common.plugin(record)
        if practice is None or chosen.teacher is None or seat.is_bot:
            return panel, ()
        # In the learner's language: a turn's words are counted in it.
        seen = self.common.seen(record, game, seat, practice.language)
        hint = await self._hint(record, seat)
        # The panel opened again in the same turn (after a restart too) shows the lessons it
        # showed, again, and no new ones.
        shown = practice.shown if practice.turn == game.turn else None
        said = turn_lessons(chosen.teacher, seen, practice.taught, hint, shown)
        # The turn's start, with the move as it is suggested (for what :meth:`told` says).
        self._starts[record.id] = TurnStart(record.version, game.copy(), said.hint)
        if not said.keys:
            return panel, ()
        lines = list(said.lines)
        picture = said.picture
        # The lesson's picture in place of the panel's own when it draws the same (the
        # numbered squares, with rings).
        pictures = panel.pictures
        if picture is not None:
            same = bool(pictures) and pictures[0].function == picture.function
            pictures = (picture, *(pictures[1:] if same else pictures))
        lines.append(Text("table.learn.divider"))
        taught = Panel((*lines, *panel.lines), pictures, panel.controls)
        return taught, said.keys

    async def _hint(self, record: GameRecord, seat: Seat) -> tuple[Any, ...] | None:
        """The hint's move for the learner's turn, as engine actions (None if none)."""
        if seat.user_id is None:
            return None
        rules = self.common.plugin(record).rules
        try:
            _, found = await self.common.service.computers.hint(record.id, seat.user_id)
            return tuple(rules.parse_action(a) for a in (found.action, *found.rest))
        except (ServiceError, ValueError, KeyError, TypeError):
            return None

    async def taught(self, record: GameRecord, turn: int, keys: Sequence[str]) -> None:
        if keys:
            await self.common.service.learning.taught(record.id, turn, keys)

    async def told(self, result: TurnResult, seat: Seat) -> tuple[list[Text], tuple[Button, ...]]:
        """What the learner's turn that just ended did and why (nothing if it is not a
        practice game), and the buttons of the puzzle it asks, if any."""
        record = result.record
        chosen = self.common.plugin(record)
        start = self._starts.pop(record.id, None)
        if record.practice is None or chosen.teacher is None:
            return [], ()
        if start is None or start.version != result.turn_began:
            # This process did not see the turn begin (it restarted meanwhile).
            game = await self.common.service.learning.state_at(record.id, result.turn_began)
            start = TurnStart(result.turn_began, game, None)
        rules = chosen.rules
        # The learner's turn: the actions stored since it began, up to the first of another
        # seat's (the computers' replies stored with it).
        played: list[Any] = []
        for stored in await self.common.service.history.actions(record.id, start.version):
            if stored.seat != seat.index:
                break
            played.append(rules.parse_action(stored.action))
        if not played:
            return [], ()
        after = start.game.copy()
        for action in played:
            after.apply(action)
        language = record.practice.language
        before_seen = self.common.seen(record, start.game, seat, language)
        after_seen = self.common.seen(record, after, seat, language)
        better = start.hint if start.hint and tuple(played) != start.hint else None
        lines = chosen.teacher.after_move(before_seen, after_seen, played, better)
        # The next lesson, where the move has just shown it at work (the scoring cards with
        # the first figure placed), taught under what the move did.
        practice = record.practice
        then = after_turn_lesson(chosen.teacher, before_seen, after_seen, played, practice.taught)
        # The lessons shown above this turn (not known after a restart mid-turn).
        shown = practice.shown if practice.turn == start.game.turn else ()
        if then.keys:
            await self.common.service.learning.taught(record.id, start.game.turn, then.keys)
            lines += [Text("table.learn.divider"), *then.lines]
        key = turn_puzzle(chosen.teacher, shown, then, record.options)
        if key is None:
            return lines, ()
        puzzle = chosen.teacher.puzzle(key, record.options)
        if puzzle is None:
            return lines, ()
        lines += [Text("table.learn.divider"), Text("table.learn.try_it", question=puzzle.question)]
        buttons = tuple(
            Button(PUZZLE, (key, value), label, "primary", who="seat")
            for value, label in puzzle.choices
        )
        return lines, buttons

    async def answer(
        self, interaction: discord.Interaction, game_id: int, key: str, value: str
    ) -> None:
        """The learner tapped an answer to a puzzle: right or not, with the reason, to them
        alone; the puzzle's buttons stay, so a wrong answer can be tried again."""
        old = await self.common.service.play.get_game(game_id)
        teacher = self.common.plugin(old).teacher
        # Only a puzzle the game has asked: one of a lesson it has taught.
        taught = old.practice is not None and key in old.practice.taught
        puzzle = teacher.puzzle(key, old.options) if teacher is not None and taught else None
        if puzzle is None or value not in dict(puzzle.choices):
            raise Refusal("table.error.unknown_control")
        if old.seat_of(interaction.user.id) is None:
            raise Refusal("table.error.not_a_player")
        if value == puzzle.right:
            said = Text("table.learn.right", why=puzzle.why)
        else:
            said = Text("table.learn.not_quite", why=puzzle.clue or puzzle.why)
        text = message_text(said, language_of(interaction))
        await interaction.response.send_message(text, ephemeral=True)

    # ------------------------------------------------------------------------- the end

    async def real_table(self, interaction: discord.Interaction, game_id: int) -> None:
        """The learner pressed the button under their finished practice game: a table of
        the same game, open for friends, in the channel the practice thread belongs to."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        common = self.common
        old = await common.service.play.get_game(game_id)
        channel = interaction.channel
        parent = getattr(channel, "parent", None)
        if old.practice is None or old.channel_id != interaction.channel_id or parent is None:
            raise Refusal("table.error.unknown_control")
        if old.seat_of(interaction.user.id) is None:
            raise Refusal("table.error.not_a_player")
        # The button stands under a finished practice game only (one sent by another client).
        if old.status == "active":
            raise Refusal("table.error.not_over")
        if old.status != "finished":
            raise Refusal("table.error.unknown_control")
        user = interaction.user
        # The practice game's length and edition, which the learner now knows; not what
        # only a practice game has (an arranged deck).
        chosen = common.plugin(old)
        kept = {o.name for o in chosen.front.table_options}
        options = {k: v for k, v in old.options.items() if k in kept}
        record = await common.service.lobby.create_game(
            old.guild_id, parent.id, user.id, user.display_name, old.game_name, options
        )
        problem = await self.posts.post_lobby(parent, record)
        done = Text("table.learn.real_table", channel=Verbatim(f"<#{parent.id}>"))
        said = saying((done,) + ((problem,) if problem else ()), language_of(interaction))
        await interaction.followup.send(said, ephemeral=True)
