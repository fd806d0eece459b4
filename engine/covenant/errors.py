"""The one error a player can cause (shared by every engine: :mod:`engine.errors`)."""

from engine.errors import IllegalAction

__all__ = ["IllegalAction"]
