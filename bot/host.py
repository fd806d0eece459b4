"""The bot as the table and the cogs see it: what they use of it, and nothing more.

The client (:mod:`bot.client`) builds the table and the cogs and hands itself to them; they
know it only through this protocol, so none of them imports the client and the client is
the one module on top (it imports them, never the reverse). The controls find the table on
their interaction through their own protocol (:class:`bot.discord_ui.ControlHost`).
"""

from __future__ import annotations

from typing import Any, Protocol

from bot.pictures import Pictures
from bot.service import GameService
from bot.settings import Settings


class Host(Protocol):
    """What the table needs of the bot: its settings, the game service, the painter, and
    Discord's channels, users and servers."""

    settings: Settings
    service: GameService
    pictures: Pictures

    @property
    def user(self) -> Any:
        """The bot's own user (None before it logged in)."""

    def get_channel(self, id: int, /) -> Any: ...

    async def fetch_channel(self, channel_id: int, /) -> Any: ...

    def get_user(self, id: int, /) -> Any: ...

    async def fetch_user(self, user_id: int, /) -> Any: ...

    def get_guild(self, id: int, /) -> Any: ...

    async def wait_until_ready(self) -> None: ...

    def is_closed(self) -> bool: ...
