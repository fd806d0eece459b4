"""Every game the bot can host, found by name: ``plugin("covenant")``.

A game's front is its package ``bot/games/<game>/`` (or the ``front`` package of a game
installed through the ``arkbot.games`` entry points), whose ``PLUGIN`` is a
:class:`~bot.games.base.Plugin`. :mod:`engine.registry` finds them, the same way in the bot
and in every worker process; nothing else in ``bot/`` names a game. Each game is loaded on its
own: one whose engine or front fails to import is said once in the log ("game X left out")
and left out, and the others play on.
"""

from __future__ import annotations

from dataclasses import replace
from importlib import import_module

from bot.games.base import Front, Plugin, Seen, TurnRecord
from engine import registry

__all__ = [
    "Front",
    "Plugin",
    "Seen",
    "TurnRecord",
    "default_game",
    "plugin",
    "plugins",
    "ready_plugins",
]


#: The plugins loaded, and the registry's generation they were loaded in: a game installed
#: or taken away while running (tests) leaves no stale plugin behind.
_loaded: dict[str, Plugin] = {}
_loaded_in = -1


def _load(name: str, module: str) -> Plugin:
    found: Plugin = import_module(module).PLUGIN
    # The name is the folder's (its message domain too): a game cannot call itself otherwise.
    found.front.name = name
    return replace(found, descriptor=registry.game(name))


def _current() -> dict[str, Plugin]:
    global _loaded_in
    if _loaded_in != registry.generation():
        _loaded.clear()
        engines = registry.playable()  # a game whose engine fails is said there, once
        for name, descriptor in registry.games().items():
            if descriptor.front is None or name not in engines:
                continue
            try:
                _loaded[name] = _load(name, descriptor.front)
            except Exception as error:
                registry.left_out(name, error)
        _loaded_in = registry.generation()
    return _loaded


def plugins() -> dict[str, Plugin]:
    """Every game the bot can host, by name, the built-in ones first."""
    return dict(_current())


def ready_plugins() -> dict[str, Plugin]:
    """The games a table may be opened for (their front is ready), in the same order."""
    return {name: found for name, found in _current().items() if found.front.ready}


def default_game() -> str:
    """The game meant when nobody names one: the registry's first whose front is ready (the
    built-in games come first, in their folders' order)."""
    return next(iter(ready_plugins()))


def plugin(name: str) -> Plugin:
    """The game called ``name``; ``KeyError`` if there is none (or it has no front)."""
    return _current()[name]
