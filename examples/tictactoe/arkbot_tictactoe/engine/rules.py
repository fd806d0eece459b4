"""How the game service runs tic-tac-toe: the engine's record of its rules (two seats, its
actions read back from the log, its refusal codes); the rest is every game's default."""

from __future__ import annotations

from arkbot_tictactoe.engine.actions import Mark, action_from_dict
from arkbot_tictactoe.engine.game import Game
from arkbot_tictactoe.engine.refusals import REFUSALS
from engine.rules import Rules

RULES: Rules[Game, Mark] = Rules(
    Game, read_action=action_from_dict, refusals=REFUSALS, min_players=2, max_players=2
)
