"""The layering of design.md, checked on the source: imports point down only, and a game is
a plugin (its engine, pictures and front are the only code that names it)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
GAMES = sorted(p.name for p in (ROOT / "bot" / "games").iterdir() if (p / "__init__.py").exists())

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
    for game in GAMES:
        assert (ROOT / "engine" / game / "__init__.py").exists(), game
        assert (ROOT / "bot" / "games" / game / "__init__.py").exists(), game


@pytest.mark.parametrize("layer", ["bot", "render"])
def test_only_a_games_own_folder_names_it(layer: str) -> None:
    """No module of bot/ outside bot/games/<game>/ imports engine.<game> or render.<game>;
    no module of render/ outside render/<game>/ imports another game's engine."""
    offenders = {}
    for path in sorted((ROOT / layer).rglob("*.py")):
        relative = path.relative_to(ROOT).parts
        own = relative[2] if layer == "bot" and relative[1] == "games" else None
        if layer == "render" and len(relative) > 2:
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


def test_no_front_imports_the_service() -> None:
    offenders = {
        str(path.relative_to(ROOT)): sorted(n for n in imports(path) if n.startswith("bot.service"))
        for path in sorted((ROOT / "bot" / "games").rglob("*.py"))
        if any(n.startswith("bot.service") for n in imports(path))
    }
    assert offenders == {}
