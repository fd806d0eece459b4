"""The table as a whole: its parts, made once and handed to each other, and where each click
goes.

Each part is an object of its own (:class:`Lobby`, :class:`Turns`, :class:`Posts`, ...)
holding the shared :class:`Common`; the cogs call the part they need
(``table.lobby.act(...)``, ``table.browsing.status(...)``), and every button and menu comes
in through :meth:`Table.on_component`.
"""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot import scheme
from bot.errors import report
from bot.host import Host
from bot.panels import Refusal
from bot.table.browsing import Browsing
from bot.table.common import Common
from bot.table.compose import PRACTISE, REAL_TABLE
from bot.table.learning import PUZZLE, Tutor
from bot.table.lobby import Seating
from bot.table.lobby_message import ADD_COMPUTER
from bot.table.moderation import Moderating
from bot.table.players import Players
from bot.table.posts import Announcer
from bot.table.rounds import Rounds
from bot.table.seasons import Seasons
from bot.table.turns import Turns


class Table:
    """The bot's behaviour, shared by slash commands and components, for every game."""

    def __init__(self, host: Host) -> None:
        self.common = Common(host)
        self.posts = Announcer(self.common)
        self.lobby = Seating(self.common, self.posts)
        self.learning = Tutor(self.common, self.posts, self.lobby)
        self.turns = Turns(self.common, self.posts, self.lobby, self.learning)
        self.browsing = Browsing(self.common, self.posts)
        self.players = Players(self.common, self.posts)
        self.moderation = Moderating(self.common, self.posts)
        self.seasons = Seasons(self.common, self.posts, self.lobby)
        self.rounds = Rounds(self.common, self.posts, self.seasons)

    @property
    def host(self) -> Host:
        """The bot this table runs in."""
        return self.common.host

    async def on_component(
        self, interaction: discord.Interaction, custom_id: str, values: Sequence[str]
    ) -> None:
        """A button or menu of ours was used (every click comes here)."""
        try:
            await self._component(interaction, custom_id, values)
        except Exception as error:
            await report(interaction, error)

    async def stale(self, interaction: discord.Interaction) -> None:
        """A control none of ours takes (see :func:`bot.discord_ui.taken`): said to be no
        longer valid, privately, and nothing else is done."""
        await report(interaction, Refusal("table.error.unknown_control"))

    async def _component(
        self, interaction: discord.Interaction, custom_id: str, values: Sequence[str]
    ) -> None:
        try:
            cid = scheme.parse(custom_id)
        except scheme.BadId:
            raise Refusal("table.error.unknown_control") from None
        if cid.kind == "lb":
            await self.lobby.act(interaction, cid.control, cid.game_id)
            return
        if cid.kind == "zb":
            await self.seasons.act(interaction, cid.control, cid.game_id)
            return
        if cid.kind == "lm" and cid.control == ADD_COMPUTER:
            await self.lobby.act(interaction, "bot", cid.game_id, values)
            return
        if cid.kind == "lm":
            await self.lobby.set_option(interaction, cid.game_id, cid.control, values)
            return
        if cid.kind == "sb" and cid.control == "table_rematch":
            await self.lobby.rematch(interaction, cid.game_id)
            return
        if cid.kind == "sb" and cid.control == REAL_TABLE:
            await self.learning.real_table(interaction, cid.game_id)
            return
        if cid.kind == "sb" and cid.control == PUZZLE and len(cid.args) == 2:
            await self.learning.answer(interaction, cid.game_id, *cid.args)
            return
        if cid.kind == "sb" and cid.control == PRACTISE and len(cid.args) == 1:
            await self.learning.again(interaction, cid.game_id, cid.args[0])
            return
        if cid.kind == "sb" and cid.control == "table_hist" and cid.args and cid.args[0].isdigit():
            await self.browsing.history(interaction, int(cid.args[0]), cid.game_id)
            return
        if cid.kind == "ob":
            await self.turns.open_turn(interaction, cid.game_id, cid.version)
            return
        await self.turns.on_control(interaction, cid, values)
