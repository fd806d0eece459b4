"""The one refusal: every layer's "no, and nothing was changed" is a :class:`Refusal`.

A refusal carries a ``code`` (why) and ``params`` (the values by name) and no sentence: the
words live only in the catalogues, so every reader hears it in their own language. Which
catalogue key says it follows from its kind:

- :class:`IllegalAction` (an engine's): ``<game>.illegal.<code>``, with ``code`` one the
  game declares (its ``RULES.refusals``, :mod:`engine.rules`);
- the game service's ``ServiceError`` (``bot/service/refusals.py``): ``table.error.<code>``;
- a :class:`Refusal` itself (the bot's table and fronts raise it): ``code`` is the whole
  key (``"table.turn.not_yours"``).

``str()`` and ``repr()`` name the code and the params, for logs.
"""

from __future__ import annotations

from typing import Any


class Refusal(Exception):
    """A request turned down; nothing was changed.

    ``code`` names the reason and ``params`` holds the values its catalogue text names.
    """

    def __init__(self, code: str, /, **params: Any) -> None:
        super().__init__(code)
        self.code = code
        self.params = params

    def __str__(self) -> str:
        values = ", ".join(f"{name}={value!r}" for name, value in self.params.items())
        return f"{self.code}({values})" if values else self.code

    def __repr__(self) -> str:
        values = "".join(f", {name}={value!r}" for name, value in self.params.items())
        return f"{type(self).__name__}({self.code!r}{values})"


class IllegalAction(Refusal, ValueError):
    """An action that the rules do not allow now; the game is left unchanged.

    Every engine raises it with a code its rules declare (``RULES.refusals``; the game's
    catalogue says it as ``<game>.illegal.<code>``). It stays a :class:`ValueError` for
    callers that catch bad input of any kind.
    """

    #: The game's name, which an engine does not know: the game service, which does, sets it
    #: on the refusal as it passes it on (None: raised outside a game of the service).
    game: str | None = None
