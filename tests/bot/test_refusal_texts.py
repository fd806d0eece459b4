"""Every refusal can be said: each code of every game's engine and of the game service has its
catalogue text in every language, naming only values the refusal carries.

The codes come from where they are declared (each game's ``RULES.refusals``, found through
the registry, and :data:`bot.service.refusals.REFUSALS`), and a raise of the service is held
to its list here, as an engine's is in tests/games/test_every_game.py.
"""

from __future__ import annotations

import ast
from collections.abc import Mapping
from pathlib import Path

import pytest

from bot.errors import error_text
from bot.service.refusals import REFUSALS as SERVICE_REFUSALS
from bot.service.refusals import ServiceError
from engine import registry
from engine.errors import IllegalAction, Refusal
from render.i18n import catalogue, placeholders, t

ROOT = Path(__file__).resolve().parents[2]
#: The languages a refusal is said in; a regional one (es-419) may leave a text to its base.
LANGUAGES = ("en", "nl", "es", "es-419")


def engine_refusals() -> dict[str, Mapping[str, tuple[str, ...]]]:
    """Every built-in game's refusal codes with their params, as its rules declare them (a
    game installed from outside is held to its own languages by test_every_game.py)."""
    return {
        name: registry.rules(name).refusals
        for name, game in registry.games().items()
        if game.built_in
    }


def said_in(key: str, language: str) -> str | None:
    """The text of ``key`` in ``language``'s own catalogue (a regional one: or its base's)."""
    domain = key.split(".", 1)[0]
    for lang in dict.fromkeys((language, language.split("-")[0])):
        text = catalogue(domain, lang).get(key)
        if text is not None:
            return text
    return None


def every_refusal() -> list[tuple[str, tuple[str, ...]]]:
    """(catalogue key, the params its refusal carries) for every code of every kind."""
    keys = [
        (f"{game}.illegal.{code}", params)
        for game, refusals in engine_refusals().items()
        for code, params in refusals.items()
    ]
    keys += [(f"table.error.{code}", params) for code, params in SERVICE_REFUSALS.items()]
    return keys


def test_the_games_with_refusals_are_found() -> None:
    assert {"covenant", "noah"} <= engine_refusals().keys()


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_refusal_code_has_its_text_in_every_language_with_the_same_values(
    language: str,
) -> None:
    missing, asks_more, differs = [], [], []
    for key, params in every_refusal():
        english, text = said_in(key, "en"), said_in(key, language)
        if text is None or english is None:
            missing.append(key)
            continue
        if not placeholders(text) <= set(params):
            asks_more.append(key)
        if placeholders(text) != placeholders(english):
            differs.append(key)
    assert (missing, asks_more, differs) == ([], [], [])


def service_raises() -> list[tuple[str, int, str | None, set[str | None]]]:
    """(file, line, code, keyword names) of every ``ServiceError(...)`` in ``bot/service``."""
    found = []
    for path in sorted((ROOT / "bot" / "service").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "ServiceError":
                first = node.args[0] if node.args else None
                code = first.value if isinstance(first, ast.Constant) else None
                found.append((path.name, node.lineno, code, {k.arg for k in node.keywords}))
    return found


def test_every_service_raise_gives_a_listed_code_and_the_values_its_text_names() -> None:
    raises = service_raises()
    assert len(raises) > 40
    wrong = [
        (name, line, code)
        for name, line, code, given in raises
        if code not in SERVICE_REFUSALS or not set(SERVICE_REFUSALS[code]) <= given
    ]
    assert wrong == []


def test_one_root_with_a_code_and_values_and_no_sentence() -> None:
    refused = ServiceError("lobby_full", max=5)
    assert isinstance(refused, Refusal) and isinstance(IllegalAction("occupied"), Refusal)
    assert (refused.code, refused.params, refused.args) == (
        "lobby_full",
        {"max": 5},
        ("lobby_full",),
    )
    assert (str(refused), repr(refused)) == (
        "lobby_full(max=5)",
        "ServiceError('lobby_full', max=5)",
    )
    assert (
        error_text(refused)
        == t("table.error.lobby_full", "en", max=5)
        == "This game is full (5 players)."
    )
    assert error_text(ServiceError("lobby_full")) == t("table.error.unexpected")


def test_an_engine_refusal_is_said_with_its_values_as_its_sentence_was() -> None:
    mismatch = IllegalAction("edge_mismatch", side="N", mine="C", theirs="F")
    mismatch.game = "covenant"
    assert error_text(mismatch).startswith(
        "That does not fit: it would put a city against a field on the north side."
    )
    taken = IllegalAction("taken", feature="road")
    taken.game = "covenant"
    assert error_text(taken, "nl") == t("covenant.illegal.taken", "nl", feature="road")
