"""The one error a player can cause."""

from __future__ import annotations

from typing import Any


class IllegalAction(ValueError):
    """An action that the rules do not allow now; the game is left unchanged.

    ``str(error)`` is a sentence a player can read. ``code`` names the reason for callers
    that translate it, and ``params`` holds the values the sentence mentions.
    """

    def __init__(self, message: str, code: str = "illegal", **params: Any) -> None:
        super().__init__(message)
        self.code = code
        self.params = params
