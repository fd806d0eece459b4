"""The layering of design.md, checked on the source: imports point down only."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

#: For each folder, the top-level packages its modules must never import.
FORBIDDEN = {
    "engine": {"discord", "aiosqlite", "PIL", "render", "bot", "aiohttp"},
    "render": {"discord", "aiosqlite", "bot", "aiohttp"},
    "bot/service": {"discord", "render", "PIL"},
}


def imported_packages(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(), filename=str(path))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module.split(".")[0])
    return found


@pytest.mark.parametrize("folder", sorted(FORBIDDEN))
def test_imports_point_down_only(folder: str) -> None:
    files = sorted((ROOT / folder).rglob("*.py"))
    assert files
    offenders = {
        str(path.relative_to(ROOT)): sorted(imported_packages(path) & FORBIDDEN[folder])
        for path in files
        if imported_packages(path) & FORBIDDEN[folder]
    }
    assert offenders == {}
