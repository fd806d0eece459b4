"""Every engine by name: ``engine.registry.game_class("covenant")``.

A new game is one package ``engine.<name>`` with a ``Game`` class (see
:class:`engine.protocol.Game`) and one line in :data:`ENGINES`; tests may :func:`register`
their own.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

#: Engine name -> the module that holds its ``Game`` class (imported on first use).
ENGINES: dict[str, str] = {
    "covenant": "engine.covenant",
    "noah": "engine.noah",
}
_LOADED: dict[str, type[Any]] = {}


def register(name: str, game_class: type[Any]) -> None:
    """Make ``game_class`` known as ``name`` (for games defined outside ``engine/``)."""
    _LOADED[name] = game_class


def game_class(name: str) -> type[Any]:
    """The ``Game`` class of the engine called ``name``; ``KeyError`` if there is none."""
    if name not in _LOADED:
        if name not in ENGINES:
            raise KeyError(name)
        _LOADED[name] = import_module(ENGINES[name]).Game
    return _LOADED[name]


def name_of(game: Any) -> str:
    """The registered name of ``game``'s engine."""
    for name in ENGINES.keys() | _LOADED.keys():
        if isinstance(game, game_class(name)):
            return name
    raise KeyError(type(game).__name__)
