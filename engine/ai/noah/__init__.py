"""Computer players for Ark, the card game (see :mod:`engine.ai`)."""

from engine.ai.noah.model import NoahModel

__all__ = ["NoahModel"]
