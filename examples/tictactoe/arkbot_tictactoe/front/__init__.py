"""Tic-tac-toe as a game of the bot: its front for the table (the registry names it after
its entry point, ``tictactoe``; the service runs its engine's ``RULES``)."""

from arkbot_tictactoe.front.front import TicTacToeFront
from bot.games.base import Plugin

PLUGIN = Plugin(TicTacToeFront())
