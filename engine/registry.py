"""Every game of arkbot, found the same way in every process: ``registry.game("covenant")``.

A game is a package in each layer, and its name is its folder's:

- ``engine/<name>/``: its rules, a ``Game`` class (:class:`engine.protocol.Game`) and
  ``RULES``, what the game service needs to run it (:class:`engine.rules.Rules`);
- ``engine/<name>/ai/``: its computer players, a ``COMPUTER``
  (:class:`engine.ai.computer.Computer`), if it has any;
- ``render/<name>/``: its pictures, if it has any;
- ``bot/games/<name>/``: its front for the bot, a ``PLUGIN`` (:class:`bot.games.base.Plugin`);
- ``data/<name>/i18n/<language>.toml``: its words (beside the rest of its data).

The built-in games are the packages of ``engine/`` (all but the shared ``engine.ai`` and
``engine.common``). A game outside the tree is a distribution that names a package in the
entry-point group ``arkbot.games`` (``tictactoe = "arkbot_tictactoe"``), with the same layers
as subpackages of it (``engine``, ``engine.ai``, ``render``, ``front``) and its words in
``texts/``. See ``examples/tictactoe``.

Finding the games reads folders and installed metadata only: it imports no game, so the bot,
its picture workers and its thinking workers all find the same games the same way, and
each layer imports only its own part of a game (the table its front; the game service and a
thinking worker the engine and its computer players, never a front). The module paths of
the upper layers are held here as names, never imported from this floor.
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
import logging
from dataclasses import dataclass, replace
from functools import cache
from importlib import import_module
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from engine.ai.computer import Computer
    from engine.rules import Rules

log = logging.getLogger("arkbot.games")

#: The entry-point group through which an installed distribution adds a game.
ENTRY_POINTS = "arkbot.games"
#: Packages of ``engine/`` shared by every game, not games themselves.
SHARED = frozenset({"ai", "common"})
_ROOT = Path(__file__).resolve().parents[1]


@dataclass(frozen=True, slots=True)
class Descriptor:
    """One game, as every layer finds it: the modules of its layers (``None`` where it has no
    such part) and the folder of its catalogues."""

    name: str
    #: The module holding the ``Game`` class.
    engine: str
    #: The module holding ``COMPUTER``, the game's computer players (None: it has none).
    computers: str | None
    #: The package of its pictures (None: none of its own).
    pictures: str | None
    #: The module holding ``PLUGIN``, its front for the bot (None: not playable in the bot).
    front: str | None
    #: The folder of its catalogues, ``<language>.toml`` each.
    texts: Path

    def game_class(self) -> type[Any]:
        """The engine's ``Game`` class (imports the engine)."""
        found: type[Any] = import_module(self.engine).Game
        return found

    def rules(self) -> Rules[Any, Any]:
        """The engine's :class:`~engine.rules.Rules` (its ``RULES``), named after the game
        (imports the engine)."""
        return _rules(self.engine, self.name)

    def computer(self) -> Computer:
        """The game's :class:`engine.ai.computer.Computer`; ``LookupError`` if it has none."""
        if self.computers is None:
            raise LookupError(f"{self.name} has no computer players")
        found: Computer = import_module(self.computers).COMPUTER
        return found

    @property
    def built_in(self) -> bool:
        """Whether it is one of the packages of ``engine/`` (not installed from outside)."""
        return self.engine == f"engine.{self.name}"

    @property
    def has_computers(self) -> bool:
        return self.computers is not None

    @property
    def hidden_information(self) -> bool:
        """Whether players hold what others may not see (hands, pets, a face-down deck
        order counts for every game and is not meant here): the engine's
        ``Game.hidden_information``."""
        return bool(getattr(self.game_class(), "hidden_information", False))

    @property
    def languages(self) -> tuple[str, ...]:
        """The languages its catalogues are written in (``en`` first)."""
        found = sorted(path.stem for path in self.texts.glob("*.toml"))
        return tuple(sorted(found, key=lambda language: language != "en"))


def _exists(module: str) -> bool:
    """Whether ``module`` can be imported, without importing it or its parents."""
    top, *rest = module.split(".")
    spec = importlib.util.find_spec(top)
    if spec is None:
        return False
    places = list(spec.submodule_search_locations or [])
    for number, part in enumerate(rest):
        found = [Path(place) / part for place in places if (Path(place) / part).is_dir()]
        if found:
            places = [str(path) for path in found if (path / "__init__.py").is_file()]
            if places:
                continue
        last = number == len(rest) - 1
        return last and any((Path(place) / f"{part}.py").is_file() for place in places)
    return True


@cache
def _rules(engine: str, name: str) -> Rules[Any, Any]:
    found: Rules[Any, Any] = import_module(engine).RULES
    # The name is the folder's (its message domain too): a game cannot call itself otherwise.
    return replace(found, name=name)


def _optional(module: str) -> str | None:
    return module if _exists(module) else None


def _built_in() -> dict[str, Descriptor]:
    from engine.common.data import DATA_DIR

    found: dict[str, Descriptor] = {}
    for folder in sorted((_ROOT / "engine").iterdir()):
        name = folder.name
        if name in SHARED or name.startswith("_") or not (folder / "__init__.py").is_file():
            continue
        found[name] = Descriptor(
            name=name,
            engine=f"engine.{name}",
            computers=_optional(f"engine.{name}.ai"),
            pictures=_optional(f"render.{name}"),
            front=_optional(f"bot.games.{name}"),
            texts=DATA_DIR / name / "i18n",
        )
    return found


def _installed() -> dict[str, Descriptor]:
    found: dict[str, Descriptor] = {}
    for point in importlib.metadata.entry_points(group=ENTRY_POINTS):
        package = point.value.strip()
        spec = importlib.util.find_spec(package)
        if spec is None or not spec.submodule_search_locations:
            continue  # a broken install: nothing of it can be played
        folder = Path(next(iter(spec.submodule_search_locations)))
        found[point.name] = Descriptor(
            name=point.name,
            engine=f"{package}.engine",
            computers=_optional(f"{package}.engine.ai"),
            pictures=_optional(f"{package}.render"),
            front=_optional(f"{package}.front"),
            texts=folder / "texts",
        )
    return found


#: How often the games were looked for again (see :func:`refresh`): what a layer remembers
#: of the games (their loaded parts) holds while this stays the same.
_generation = 0


@cache
def games() -> dict[str, Descriptor]:
    """Every game by name: the built-in ones first (a built-in name cannot be taken)."""
    found = _built_in()
    for name, descriptor in _installed().items():
        found.setdefault(name, descriptor)
    return found


def refresh() -> None:
    """Look for games again (after a distribution was installed while running: tests)."""
    global _generation
    _generation += 1
    games.cache_clear()
    _rules.cache_clear()
    playable.cache_clear()
    importlib.invalidate_caches()


def generation() -> int:
    """Changes exactly when the games are looked for again (:func:`refresh`)."""
    return _generation


def game(name: str) -> Descriptor:
    """The game called ``name``; ``KeyError`` if there is none."""
    return games()[name]


def game_class(name: str) -> type[Any]:
    """The ``Game`` class of the game called ``name``; ``KeyError`` if there is none."""
    return game(name).game_class()


def rules(name: str) -> Rules[Any, Any]:
    """The :class:`~engine.rules.Rules` of the game called ``name``; ``KeyError`` if there is
    none."""
    return game(name).rules()


def left_out(name: str, error: BaseException) -> None:
    """Say once why the game called ``name`` cannot be played (a layer of it failed to import,
    an installed package broken): the other games play on without it."""
    log.error("game %s left out: %s: %s", name, type(error).__name__, error)


@cache
def playable() -> dict[str, Rules[Any, Any]]:
    """The rules of every game whose engine loads, by name in :func:`games` order. A game
    whose engine fails to import is left out (and said once, by :func:`left_out`)."""
    found: dict[str, Rules[Any, Any]] = {}
    for name, descriptor in games().items():
        try:
            found[name] = descriptor.rules()
        except Exception as error:
            left_out(name, error)
    return found


def name_of(game_object: Any) -> str:
    """The name of the game ``game_object`` is a position of."""
    module = type(game_object).__module__
    for name, descriptor in games().items():
        if module == descriptor.engine or module.startswith(descriptor.engine + "."):
            return name
    raise KeyError(type(game_object).__name__)


def descriptor_of(game_object: Any) -> Descriptor:
    """The descriptor of the game ``game_object`` is a position of."""
    return game(name_of(game_object))
