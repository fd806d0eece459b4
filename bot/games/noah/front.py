"""Ark at the table: not playable in Discord yet, so no lobby offers it."""

from __future__ import annotations

from bot.games.base import Front
from bot.panels import Text


class NoahFront(Front):
    name = "noah"
    command_group = "noah"
    #: The lobby offers only games whose front is ready.
    ready = False

    def title(self) -> Text:
        return Text("noah.title")
