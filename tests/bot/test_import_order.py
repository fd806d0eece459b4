"""The client sits on top: it imports the cogs, the table and the controls, and none of them
imports it back, not even for a type or from inside a function. Checked on the source."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BOT = ROOT / "bot"

#: The files that once imported each other in a circle (held apart by type-only and late
#: imports), and what now lies beneath them.
UPPER = sorted(
    [
        BOT / "client.py",
        BOT / "discord_ui.py",
        BOT / "errors.py",
        BOT / "host.py",
        *(BOT / "cogs").glob("*.py"),
        *(BOT / "table").glob("*.py"),
    ]
)


def module_of(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_of(path): path for path in BOT.rglob("*.py")}


def imported(path: Path) -> set[str]:
    """The modules of bot/ that ``path`` imports anywhere in it (a name imported from a
    package counts as its module when it is one)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
            found |= {f"{node.module}.{alias.name}" for alias in node.names}
    return found & MODULES.keys()


def late_or_typing_only(path: Path) -> list[str]:
    """Imports inside a function or under ``if TYPE_CHECKING:``, as "line: what"."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            found += [
                f"{inner.lineno}: import in {node.name}"
                for inner in ast.walk(node)
                if isinstance(inner, ast.Import | ast.ImportFrom)
            ]
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            found.append(f"{node.lineno}: if TYPE_CHECKING")
    return found


def test_nothing_but_the_entry_point_imports_the_client() -> None:
    importers = [
        module_of(path)
        for path in BOT.rglob("*.py")
        if "bot.client" in imported(path) and path.name != "__main__.py"
    ]
    assert importers == []


def test_no_import_is_put_off_or_for_types_only() -> None:
    offenders = {
        str(path.relative_to(ROOT)): late_or_typing_only(path)
        for path in UPPER
        if late_or_typing_only(path)
    }
    assert offenders == {}


def test_the_upper_modules_import_each_other_without_a_circle() -> None:
    graph = {module_of(path): imported(path) for path in UPPER}
    seen: dict[str, str] = {}  # "open" while its imports are being followed, then "done"

    def circle_from(module: str, path: tuple[str, ...]) -> tuple[str, ...] | None:
        seen[module] = "open"
        for other in sorted(graph.get(module, ())):
            if other == module or other.startswith(module + "."):
                continue  # a package importing its own modules is no circle
            if seen.get(other) == "open":
                return (*path, module, other)
            if other not in seen:
                found = circle_from(other, (*path, module))
                if found:
                    return found
        seen[module] = "done"
        return None

    circles = [circle_from(module, ()) for module in sorted(graph) if module not in seen]
    assert [c for c in circles if c] == []


def test_the_cogs_reach_the_game_service_only_through_the_table() -> None:
    offenders = {
        path.name: sorted(n for n in imported(path) if n.startswith("bot.service"))
        for path in sorted((BOT / "cogs").glob("*.py"))
        if any(n.startswith("bot.service") for n in imported(path))
    }
    assert offenders == {}
    for path in sorted((BOT / "cogs").glob("*.py")):
        assert ".service" not in path.read_text(), path.name
