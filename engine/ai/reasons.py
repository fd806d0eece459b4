"""Why a move is suggested: a message key and its parameters, never a sentence.

The bot translates a :class:`Hint`'s ``reason`` with the game's catalogues (English, Dutch,
Spanish); each game's :class:`~engine.ai.computer.Computer` lists every key it gives, with
the parameters it takes (``Computer.reasons``), so those catalogues can be checked against
it. Parameters are numbers, words the catalogues know (a feature's or a card's kind), card
ids and square coordinates ``x``/``y``, never pre-formatted text.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True)
class Hint:
    """A suggested action and why: ``reason`` is ``(key, params)``, a key of the game's
    ``Computer.reasons``; ``value`` is how much better the position looks after it (the
    evaluation's units: about points), for ordering several hints."""

    action: Any
    reason: tuple[str, dict[str, Any]]
    value: float = 0.0
    alternatives: tuple[Any, ...] = field(default=())

    def check(self, reasons: Mapping[str, tuple[str, ...]]) -> Hint:
        """This hint, if its reason is one of ``reasons`` with exactly its parameters;
        ``ValueError`` otherwise (a model that says what no catalogue can)."""
        key, params = self.reason
        if key not in reasons or set(params) != set(reasons[key]):
            raise ValueError(f"unknown reason {key!r} with {sorted(params)}")
        return self
