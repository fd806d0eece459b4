"""Looking, not playing: how the game stands, the rules, the turns one by one, the replay,
what a player missed, and the server's ratings. Every answer is private.
"""

from __future__ import annotations

import discord

from bot.discord_ui import files, lines_of, message_text, split_message
from bot.games import default_game, plugins
from bot.i18n import Text, language_of
from bot.panels import Button, Panel, Picture, Refusal
from bot.pictures import Priority
from bot.table.common import Common, names_of
from bot.table.compose import story
from bot.table.lobby_message import lobby_text
from bot.table.posts import Announcer


class Browsing:
    """The table's private looks at a game and its past."""

    def __init__(self, common: Common, posts: Announcer) -> None:
        self.common = common
        self.posts = posts

    async def status(self, interaction: discord.Interaction) -> None:
        common = self.common
        await interaction.response.defer(ephemeral=True, thinking=True)
        language = language_of(interaction)
        record = await common.service.play.game_in(interaction.channel_id or 0)
        if record is None:
            last = await common.service.play.last_game(interaction.channel_id or 0)
            if last is not None and last.status in ("finished", "ended"):
                raise Refusal(f"table.status.last_{last.status}")
            raise Refusal("table.turn.no_game")
        if record.status == "lobby":
            content, _ = await lobby_text(common, record, language)
            await interaction.followup.send(
                content, ephemeral=True, allowed_mentions=discord.AllowedMentions.none()
            )
            return
        if record.status == "error":
            raise Refusal("table.error.game_damaged")
        common.not_before_posted(record)
        record, game = await common.service.play.state(record.id)
        seat = record.seat_of(interaction.user.id)
        front = common.plugin(record).front
        panel = front.status(
            game.view(None), names_of(record), None if seat is None else seat.index
        )
        await common.show(interaction, panel, record, edit=False, priority=Priority.ASKED)

    async def rules(self, interaction: discord.Interaction, game: str | None) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        record = await self.common.service.play.game_in(interaction.channel_id or 0)
        if game is None:
            game = record.game_name if record is not None else default_game()
        chosen = plugins().get(game)
        if chosen is None:
            raise Refusal("table.lobby.no_such_game")
        language = language_of(interaction)
        options = record.options if record is not None and record.game_name == game else {}
        panel = chosen.front.rules_help(options)
        drawn = await self.common.host.pictures.draw_all(
            panel.pictures, language, priority=Priority.ASKED
        )
        # Some games' rules are longer than one message: split between lines, the pictures
        # with the first part (the rules text speaks of them).
        for number, text in enumerate(split_message(lines_of(panel, language))):
            pictures = files(drawn) if number == 0 else []
            await interaction.followup.send(text, files=pictures, ephemeral=True)

    async def history(
        self, interaction: discord.Interaction, turn: int | None = None, game_id: int | None = None
    ) -> None:
        """A private browser of the game's turns: the board as each turn began, its story,
        and buttons back and forth."""
        common = self.common
        if game_id is None:
            await interaction.response.defer(ephemeral=True, thinking=True)
            found = await common.service.play.game_in(interaction.channel_id or 0)
            found = found or await common.service.play.last_game(interaction.channel_id or 0)
            if found is None or found.status == "lobby":
                raise Refusal("table.turn.no_game")
            game_id = found.id
        else:
            await interaction.response.defer()
        record, turns, _ = await common.service.history.replay_turns(game_id)
        common.not_before_posted(record)
        if not turns:
            raise Refusal("table.history.nothing_yet")
        complete = [t for t in turns if t[1].complete] or turns
        number = len(complete) if turn is None else min(max(turn, 1), len(complete))
        view, told = complete[number - 1]
        chosen = common.plugin(record)
        names = names_of(record)
        board = chosen.front.board_post(view, names)
        lines = (
            Text("table.history.turn", number=number, count=len(complete), player=names[told.seat]),
            *story(chosen, record, [told]),
        )
        buttons = tuple(
            Button(
                "table_hist", (str(n),), Text(key), disabled=not 1 <= n <= len(complete), who="seat"
            )
            for key, n in (("common.previous", number - 1), ("common.next", number + 1))
        )
        panel = Panel(lines, board.pictures, buttons)
        edit = turn is not None and game_id is not None
        await common.show(interaction, panel, record, edit=edit, priority=Priority.ASKED)

    async def replay(self, interaction: discord.Interaction) -> None:
        """``/table replay``: the last game of this channel (or its thread) as an animation."""
        service = self.common.service
        await interaction.response.defer(ephemeral=True, thinking=True)
        record = await service.play.game_in(interaction.channel_id or 0)
        if record is None or record.status == "lobby":
            record = await service.play.last_game(interaction.channel_id or 0)
        if record is None or record.status == "lobby":
            raise Refusal("table.turn.no_game")
        self.common.not_before_posted(record)
        drawn = await self.posts.draw_replay(record, language_of(interaction))
        if drawn is None:
            # Not this game's fault: its kind of game has no animation to draw.
            raise Refusal("table.replay.none", game=self.common.plugin(record).front.title())
        await interaction.followup.send(
            message_text(Text("table.replay.caption"), language_of(interaction)),
            files=files([drawn]),
            ephemeral=True,
        )

    async def missed(self, interaction: discord.Interaction) -> None:
        """What happened since the player's last turn, privately."""
        common = self.common
        await interaction.response.defer(ephemeral=True, thinking=True)
        record, _, seat = await common.my_turn(interaction, need_turn=False)
        record, turns, _ = await common.service.history.replay_turns(record.id)
        common.not_before_posted(record)
        mine = [i for i, (_, t) in enumerate(turns) if t.seat == seat.index and t.complete]
        since = mine[-1] + 1 if mine else 0
        told = [t for _, t in turns[since:]]
        language = language_of(interaction)
        lines = [Text("table.missed.intro", count=len([t for t in told if t.complete]))]
        lines += story(common.plugin(record), record, told) or [Text("table.missed.nothing")]
        for text in split_message(message_text(line, language) for line in lines):
            await interaction.followup.send(
                text, ephemeral=True, allowed_mentions=discord.AllowedMentions.none()
            )

    async def leaderboard(self, interaction: discord.Interaction, game: str) -> None:
        """``/table stats``: the server's ratings in a game, as a picture and in words."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        language = language_of(interaction)
        chosen = plugins().get(game)
        if chosen is None:
            raise Refusal("table.lobby.no_such_game")
        ratings = (await self.common.service.history.ratings(interaction.guild_id or 0, game))[:15]
        if not ratings:
            raise Refusal("table.stats.nobody_yet", game=chosen.front.title())
        title = message_text(chosen.front.title(), language)
        rows = [[r.name, r.rating, r.games, r.wins] for r in ratings]
        picture = Picture("render.leaderboard:leaderboard", (title, rows), "leaderboard.png")
        drawn = await self.common.host.pictures.draw_all(
            [picture], language, priority=Priority.ASKED
        )
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
            split_message(message_text(line, language) for line in lines)[0],
            files=files(drawn),
            ephemeral=True,
            allowed_mentions=discord.AllowedMentions.none(),
        )
