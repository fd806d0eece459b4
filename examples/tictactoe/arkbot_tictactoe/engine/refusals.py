"""The game's refusals, made in one place: a code and its values, said by the catalogues
(``tictactoe.illegal.<code>``)."""

from __future__ import annotations

from typing import Any

from engine.errors import IllegalAction


def refusal(code: str, **params: Any) -> IllegalAction:
    """The refusal ``code`` with ``params``: the catalogues say it, in every language."""
    return IllegalAction(code, **params)
