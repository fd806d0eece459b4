"""Ark, the card game, as a game of the bot.

The game service runs it fully (computer players make random legal moves); its front, which
lets people play it in Discord, is not written yet, so no table offers it (``ready``).
"""

from bot.games.base import Plugin
from bot.games.noah.front import NoahFront
from bot.games.noah.rules import NoahRules

PLUGIN = Plugin(NoahRules(), NoahFront())
