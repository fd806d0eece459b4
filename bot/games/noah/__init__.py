"""Ark, the card game, as a game of the bot: its front for the table, its
lessons for a practice game."""

from bot.games.base import Plugin
from bot.games.noah.front import NoahFront
from bot.games.noah.lessons import NoahTeacher

PLUGIN = Plugin(NoahFront(), teacher=NoahTeacher())
