"""One translation function for every sentence a user sees.

Messages live in ``data/i18n/<language>.toml`` keyed by section and name; ``t("story.passed",
player="Ruth")`` looks one up and fills it in. A missing key is a bug, so it raises.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from engine.common.data import load_toml

DEFAULT_LANGUAGE = "en"


@cache
def catalogue(language: str = DEFAULT_LANGUAGE) -> dict[str, str]:
    """The flat ``{"section.name": text}`` catalogue of ``language``."""
    flat: dict[str, str] = {}

    def walk(prefix: str, node: dict[str, Any]) -> None:
        for key, value in node.items():
            name = f"{prefix}{key}"
            if isinstance(value, dict):
                walk(name + ".", value)
            else:
                flat[name] = str(value)

    walk("", load_toml(f"i18n/{language}.toml"))
    return flat


def t(key: str, language: str = DEFAULT_LANGUAGE, /, **params: Any) -> str:
    """The message ``key`` in ``language`` with ``params`` filled in."""
    return catalogue(language)[key].format(**params)
