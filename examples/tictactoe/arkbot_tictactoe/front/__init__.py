"""Tic-tac-toe as a game of the bot: its rules for the service and its front for the table
(the registry names it after its entry point, ``tictactoe``)."""

from arkbot_tictactoe.front.front import TicTacToeFront
from arkbot_tictactoe.front.rules import TicTacToeRules
from bot.games.base import Plugin

PLUGIN = Plugin(TicTacToeRules(), TicTacToeFront())
