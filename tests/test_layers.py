"""The layering of design.md, checked on the source: imports point down only, and a game is
a plugin (its engine, pictures and front are the only code that names it)."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

from engine import registry

ROOT = Path(__file__).resolve().parents[1]
#: The built-in games: the packages of engine/ but the shared ones (engine.registry's rule);
#: a game installed from outside the tree keeps its own layers in its own package.
GAMES = sorted(name for name, game in registry.games().items() if game.built_in)

#: For each folder, the top-level packages its modules must never import.
FORBIDDEN = {
    "engine": {"discord", "aiosqlite", "asyncpg", "PIL", "render", "bot", "aiohttp", "babel"},
    "render": {"discord", "aiosqlite", "asyncpg", "bot", "aiohttp"},
    "bot/service": {"discord", "render", "PIL"},
    "bot/games": {"discord", "aiosqlite", "asyncpg", "aiohttp"},
}


def imports(path: Path) -> set[str]:
    """Every module ``path`` imports, by its full dotted name."""
    tree = ast.parse(path.read_text(), filename=str(path))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
    return found


def top_level(path: Path) -> set[str]:
    return {name.split(".")[0] for name in imports(path)}


@pytest.mark.parametrize("folder", sorted(FORBIDDEN))
def test_imports_point_down_only(folder: str) -> None:
    files = sorted((ROOT / folder).rglob("*.py"))
    assert files
    offenders = {
        str(path.relative_to(ROOT)): sorted(top_level(path) & FORBIDDEN[folder])
        for path in files
        if top_level(path) & FORBIDDEN[folder]
    }
    assert offenders == {}


def test_the_games_are_the_plugins() -> None:
    assert {"covenant", "noah"} <= set(GAMES)
    fronts = {p.name for p in (ROOT / "bot" / "games").iterdir() if (p / "__init__.py").exists()}
    assert fronts == set(GAMES)
    for game in GAMES:
        described = registry.game(game)
        assert (described.engine, described.front) == (f"engine.{game}", f"bot.games.{game}")
        assert (ROOT / "engine" / game / "__init__.py").exists(), game


def test_the_shared_engine_names_no_game() -> None:
    """engine/ai and engine/common are written once for every game: no import of a game's
    package, and no game's name in their code (a game's computer players live in its own
    folder, engine/<game>/ai, and are found through the registry)."""
    offenders = {}
    for shared in sorted(registry.SHARED):
        for path in sorted((ROOT / "engine" / shared).rglob("*.py")):
            named = {n for n in imports(path) for g in GAMES if n.split(".")[:2] == ["engine", g]}
            source = path.read_text()
            said = {g for g in GAMES if f'"{g}"' in source or f"'{g}'" in source}
            if named or said:
                offenders[str(path.relative_to(ROOT))] = sorted(named | said)
    assert offenders == {}


@pytest.mark.parametrize("layer", ["bot", "render", "engine"])
def test_only_a_games_own_folder_names_it(layer: str) -> None:
    """No module of bot/ outside bot/games/<game>/ imports engine.<game> or render.<game>;
    no module of render/ or engine/ outside its <game>/ imports another game's package."""
    offenders = {}
    for path in sorted((ROOT / layer).rglob("*.py")):
        relative = path.relative_to(ROOT).parts
        own = relative[2] if layer == "bot" and relative[1] == "games" else None
        if layer in ("render", "engine") and len(relative) > 2:
            own = relative[1]
        named = {
            name
            for name in imports(path)
            for game in GAMES
            if game != own and name.split(".")[:2] in (["engine", game], ["render", game])
        }
        if named:
            offenders[str(path.relative_to(ROOT))] = sorted(named)
    assert offenders == {}


def test_the_service_imports_no_front() -> None:
    """The game service runs the engines through their RULES (engine/rules.py) alone: no
    module of bot/service/ imports the bot's fronts (bot.games), nor the table or the client."""
    offenders = {
        str(path.relative_to(ROOT)): sorted(
            n for n in imports(path) if n.split(".")[:2] in (["bot", "games"], ["bot", "table"])
        )
        for path in sorted((ROOT / "bot" / "service").rglob("*.py"))
    }
    assert {path: named for path, named in offenders.items() if named} == {}


def test_no_front_imports_the_service() -> None:
    offenders = {
        str(path.relative_to(ROOT)): sorted(n for n in imports(path) if n.startswith("bot.service"))
        for path in sorted((ROOT / "bot" / "games").rglob("*.py"))
        if any(n.startswith("bot.service") for n in imports(path))
    }
    assert offenders == {}


def test_the_fronts_load_without_discord_py() -> None:
    """A game's front is data for the table: loading every front (and the engines' rules)
    imports no discord.py, so pictures, tests and tools can use the fronts without it."""
    probe = (
        "import sys; from bot.games import plugins; "
        "print(sorted(p.rules.name for p in plugins().values())); "
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'discord'))"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, check=True
    )
    loaded, discord_modules = done.stdout.splitlines()
    assert set(GAMES) <= set(ast.literal_eval(loaded))
    assert discord_modules == "[]"
