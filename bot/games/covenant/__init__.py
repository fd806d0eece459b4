"""The Ark of the Covenant as a game of the bot: its front for the table,
its lessons for a practice game."""

from bot.games.base import Plugin
from bot.games.covenant.front import CovenantFront
from bot.games.covenant.lessons import CovenantTeacher

PLUGIN = Plugin(CovenantFront(), teacher=CovenantTeacher())
