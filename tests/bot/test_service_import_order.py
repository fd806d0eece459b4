"""The game service's modules import one way: the shared core beneath the parts, the parts
beneath :mod:`bot.service.service`, which composes them, and nothing beneath it imports it
back, not even for a type or from inside a function. Checked on the source, as
:mod:`tests.bot.test_import_order` checks the client and the cogs."""

from __future__ import annotations

import ast

from tests.bot.test_import_order import ROOT, imported, late_or_typing_only, module_of

SERVICE = ROOT / "bot" / "service"

#: What once imported each other in a circle (the parts typed and called the service that
#: composes them), and what now lies beneath them.
SPLIT = sorted(
    SERVICE / f"{name}.py"
    for name in (
        "service",
        "core",
        "common",
        "gamelog",
        "lobby",
        "play",
        "computers",
        "moderation",
        "notices",
        "posts",
        "history",
    )
)


def service_graph() -> dict[str, set[str]]:
    """Each module of bot/service (a package by its ``__init__``) -> the modules of
    bot/service it imports anywhere in it."""
    graph = {module_of(path): imported(path) for path in sorted(SERVICE.rglob("*.py"))}
    return {module: {n for n in names if n in graph} for module, names in graph.items()}


def circles(graph: dict[str, set[str]]) -> list[tuple[str, ...]]:
    """One circle through each part of ``graph`` that has any, as the modules along it.

    A package importing its own modules counts: ``bot.service`` imports the service, so a
    part importing the package would import the service too."""
    seen: dict[str, str] = {}  # "open" while its imports are being followed, then "done"
    found: list[tuple[str, ...]] = []

    def follow(module: str, path: tuple[str, ...]) -> None:
        seen[module] = "open"
        for other in sorted(graph.get(module, ())):
            if seen.get(other) == "open":
                found.append((*path, module, other))
            elif other not in seen:
                follow(other, (*path, module))
        seen[module] = "done"

    for module in sorted(graph):
        if module not in seen:
            follow(module, ())
    return found


def test_the_circle_finder_finds_a_circle() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert circles(graph) == [("a", "b", "c", "a")]
    assert circles({"a": {"b"}, "b": set(), "c": {"a", "b"}}) == []


def test_the_service_modules_import_each_other_without_a_circle() -> None:
    graph = service_graph()
    assert {"bot.service.service", "bot.service.play"} <= graph.keys()  # the walk saw them
    assert circles(graph) == []


def test_only_the_package_imports_the_composed_service() -> None:
    importers = sorted(
        module
        for module, names in service_graph().items()
        if "bot.service.service" in names and module != "bot.service"
    )
    assert importers == []


def test_the_parts_are_given_the_core_and_import_it() -> None:
    parts = [path for path in SPLIT if path.stem not in ("service", "core", "common", "gamelog")]
    assert len(parts) == 7
    for path in parts:
        assert "bot.service.core" in imported(path), path.name
        tree = ast.parse(path.read_text(), filename=str(path))
        # The part is the module's first class with an ``__init__`` (a record of its own,
        # such as posts' ``Shown``, may come before it).
        inits = [
            node
            for cls in tree.body
            if isinstance(cls, ast.ClassDef)
            for node in cls.body
            if isinstance(node, ast.FunctionDef) and node.name == "__init__"
        ]
        assert inits, path.name
        init = inits[0]
        first = init.args.args[1]
        assert first.annotation is not None
        assert ast.unparse(first.annotation) == "Core", path.name


def test_no_import_of_the_split_service_is_put_off_or_for_types_only() -> None:
    offenders = {
        str(path.relative_to(ROOT)): late_or_typing_only(path)
        for path in SPLIT
        if path.is_file() and late_or_typing_only(path)
    }
    assert offenders == {}


def test_every_module_named_here_exists() -> None:
    missing = [str(path.relative_to(ROOT)) for path in SPLIT if not path.is_file()]
    assert missing == []
