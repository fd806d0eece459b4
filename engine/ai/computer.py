"""What a game gives the computer players: one :class:`Computer`, its ``COMPUTER``.

A game with computer players has a package ``<engine>.ai`` whose ``COMPUTER`` says how to
make its :class:`~engine.ai.model.Model` for a level, the search's settings for the strong
level, and every reason its hints may give. The levels (:mod:`engine.ai.levels`) are
written once on top of it and name no game; :mod:`engine.registry` finds a game's
``COMPUTER`` by the game's name, in whichever process asks.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from engine.ai.model import Model
from engine.ai.search import SearchSettings


@dataclass(frozen=True, slots=True)
class Lookahead:
    """The strong level's lookahead instead of the playouts (see
    :func:`engine.ai.search.lookahead_search`): ``width`` candidates looked at, the weight
    in samples of their (refined) value, and the rounds at most (None: while time is left)."""

    width: int
    prior: float
    rounds: int | None = None


@dataclass(frozen=True, slots=True)
class Computer:
    """A game's computer players.

    ``model(game, level)`` is the game's model bound to the position ``game`` for ``level``
    (``"easy"``, ``"normal"`` or ``"strong"``: a game may weigh things differently for the
    strong level). ``reasons`` maps every hint reason key the model gives to the names of its
    parameters, so that the bot's catalogues can be checked against it. The strong level
    searches with ``search``, or looks ahead with ``lookahead`` where that is given.
    """

    model: Callable[[Any, str], Model]
    reasons: Mapping[str, tuple[str, ...]]
    search: SearchSettings = field(default_factory=SearchSettings)
    lookahead: Lookahead | None = None
