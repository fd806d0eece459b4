"""Ark, the card game, as a game of the bot: its rules for the service, its front, its
lessons for a practice game."""

from bot.games.base import Plugin
from bot.games.noah.front import NoahFront
from bot.games.noah.lessons import NoahTeacher
from bot.games.noah.rules import NoahRules

PLUGIN = Plugin(NoahRules(), NoahFront(), teacher=NoahTeacher())
