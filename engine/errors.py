"""The one refusal every engine raises."""

from __future__ import annotations

from typing import Any


class IllegalAction(ValueError):
    """An action that the rules do not allow now; the game is left unchanged.

    ``str(error)`` is an English sentence a player can read. ``code`` names the reason so that
    callers can translate it (``"illegal.<code>"`` in the catalogues), and ``params`` holds the
    values the sentence mentions, by name.
    """

    def __init__(self, message: str, code: str = "illegal", **params: Any) -> None:
        super().__init__(message)
        self.code = code
        self.params = params

    def __repr__(self) -> str:
        return f"IllegalAction({str(self)!r}, {self.code!r})"
