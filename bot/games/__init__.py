"""Every game the bot can host, found by name: ``plugin("covenant")``.

A game is one folder here (``bot/games/<game>/``, whose ``__init__`` defines ``PLUGIN``, a
:class:`~bot.games.base.Plugin`) and one line in :data:`BUILT_IN`. Nothing else in ``bot/``
names a game. Tests register games of their own with :func:`register`.
"""

from __future__ import annotations

from importlib import import_module

from bot.games.base import Front, GameRules, Plugin, Seen, TurnRecord
from render.i18n import register_domain

__all__ = [
    "BUILT_IN",
    "Front",
    "GameRules",
    "Plugin",
    "Seen",
    "TurnRecord",
    "plugin",
    "plugins",
    "register",
    "unregister",
]

#: The games of the project, by plugin name: one line per game.
BUILT_IN: tuple[str, ...] = (
    "covenant",
    "noah",
)
_PLUGINS: dict[str, Plugin] = {}


def _load() -> None:
    for name in BUILT_IN:
        if name not in _PLUGINS:
            _PLUGINS[name] = import_module(f"bot.games.{name}").PLUGIN


def register(game: Plugin) -> None:
    """Make ``game`` known to every table and service created afterwards."""
    _load()
    _PLUGINS[game.name] = game
    if game.texts is not None:
        register_domain(game.name, game.texts)


def unregister(name: str) -> None:
    _PLUGINS.pop(name, None)


def plugins() -> dict[str, Plugin]:
    """Every known game by name, the built-in ones first."""
    _load()
    return dict(_PLUGINS)


def plugin(name: str) -> Plugin:
    """The game called ``name``; ``KeyError`` if there is none."""
    return plugins()[name]
