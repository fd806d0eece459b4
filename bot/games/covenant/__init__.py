"""The Ark of the Covenant as a game of the bot: its rules for the service, its front,
its lessons for a practice game."""

from bot.games.base import Plugin
from bot.games.covenant.front import CovenantFront
from bot.games.covenant.lessons import CovenantTeacher
from bot.games.covenant.rules import CovenantRules

PLUGIN = Plugin(CovenantRules(), CovenantFront(), teacher=CovenantTeacher())
