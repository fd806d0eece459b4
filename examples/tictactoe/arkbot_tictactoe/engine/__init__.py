"""The rules of tic-tac-toe, a pure engine the registry finds as this game's ``engine``."""

from arkbot_tictactoe.engine.actions import Drawn, Event, Mark, Marked, Won, action_from_dict
from arkbot_tictactoe.engine.board import CENTRE, CORNERS, LINES, SQUARES
from arkbot_tictactoe.engine.game import Game
from arkbot_tictactoe.engine.rules import RULES

__all__ = [
    "CENTRE",
    "CORNERS",
    "LINES",
    "RULES",
    "SQUARES",
    "Drawn",
    "Event",
    "Game",
    "Mark",
    "Marked",
    "Won",
    "action_from_dict",
]
