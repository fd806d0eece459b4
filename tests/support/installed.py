"""A distribution of a game made visible as if pip had installed it, for one test's while.

``with installed(Path("examples/tictactoe")):`` puts the distribution's packages on
``sys.path`` and writes a minimal ``<name>-<version>.dist-info`` (its ``METADATA`` and
``entry_points.txt``, from its ``pyproject.toml``) into a temporary folder on ``sys.path``
too, so that :mod:`importlib.metadata` finds its ``arkbot.games`` entry point the way it
finds an installed one. Both folders go into ``PYTHONPATH`` as well: worker processes
(spawned: they get this process's ``sys.path``) and bot subprocesses (they read the
environment) find the game the same way. The registry and the catalogues forget what they
found before, on the way in and on the way out; everything is undone on exit.
"""

from __future__ import annotations

import os
import re
import sys
import tempfile
import tomllib
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from engine import registry
from render import i18n


def _dist_info(pyproject: Path, into: Path) -> list[str]:
    """Write the ``.dist-info`` of the distribution ``pyproject`` describes into ``into``;
    the names of the top-level packages its entry points name."""
    project = tomllib.loads(pyproject.read_text(encoding="utf-8"))["project"]
    name, version = project["name"], project["version"]
    folder = into / f"{re.sub(r'[-_.]+', '_', name).lower()}-{version}.dist-info"
    folder.mkdir()
    (folder / "METADATA").write_text(
        f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n", encoding="utf-8"
    )
    groups = project.get("entry-points", {})
    lines = []
    packages = []
    for group, points in groups.items():
        lines.append(f"[{group}]")
        for point, value in points.items():
            lines.append(f"{point} = {value}")
            packages.append(value.split(":")[0].split(".")[0].strip())
        lines.append("")
    (folder / "entry_points.txt").write_text("\n".join(lines), encoding="utf-8")
    return packages


def _forget() -> None:
    registry.refresh()
    i18n.catalogue.cache_clear()
    i18n.grammar_catalogue.cache_clear()


@contextmanager
def installed(root: Path | str) -> Iterator[Path]:
    """The distribution whose ``pyproject.toml`` is in ``root`` (its packages beside it),
    visible as if installed, in this process and in the processes it starts, while inside;
    yields ``root``."""
    root = Path(root).resolve()
    with tempfile.TemporaryDirectory(prefix="installed-") as temporary:
        packages = _dist_info(root / "pyproject.toml", Path(temporary))
        places = [str(root), temporary]
        before = os.environ.get("PYTHONPATH")
        sys.path[:0] = places
        os.environ["PYTHONPATH"] = os.pathsep.join([*places, *([before] if before else [])])
        _forget()
        try:
            yield root
        finally:
            for place in places:
                while place in sys.path:
                    sys.path.remove(place)
            if before is None:
                os.environ.pop("PYTHONPATH", None)
            else:
                os.environ["PYTHONPATH"] = before
            for module in list(sys.modules):
                if module.split(".")[0] in packages:
                    del sys.modules[module]
            _forget()
