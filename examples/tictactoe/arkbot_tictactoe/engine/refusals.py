"""The game's refusals, made in one place: a code and its values, said by the catalogues
(``tictactoe.illegal.<code>``). :data:`REFUSALS` declares every code with the values its
text may name (the game's :data:`~arkbot_tictactoe.engine.rules.RULES` says them to the
bot, and the tests check each raise and each language against it)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.errors import IllegalAction

REFUSALS: Mapping[str, tuple[str, ...]] = {
    "game_over": (),
    "not_your_turn": ("seat", "current"),
    "not_a_square": (),
    "taken": ("square",),
}


def refusal(code: str, **params: Any) -> IllegalAction:
    """The refusal ``code`` with ``params``: the catalogues say it, in every language."""
    return IllegalAction(code, **params)
