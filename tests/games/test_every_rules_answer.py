"""``/table rules`` for every registered game, every choice of its table options (the
Covenant's editions) and every language, through the harness that refuses what Discord
refuses: the whole rules arrive, in as many private messages as Discord takes, with the
pictures, and nothing goes wrong on the way."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest

from bot.client import TableBot
from bot.discord_ui import lines_of
from bot.games import plugin
from bot.i18n import LANGUAGES
from engine import registry
from tests.support.bot import CHANNEL, RUTH, make_bot
from tests.support.discord_limits import CONTENT
from tests.support.harness import Harness
from tests.support.installed import installed

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "tictactoe"
#: The Discord locale a player of each of our languages has set.
LOCALES = {"en": "en-US", "nl": "nl", "es": "es-ES", "es-419": "es-419"}


def _tables() -> list[tuple[str, dict[str, Any]]]:
    """Every game with every choice of each of its table options (or none, if it has none)."""
    tables: list[tuple[str, dict[str, Any]]] = []
    with installed(EXAMPLE):
        for name in sorted(registry.games()):
            table_options = plugin(name).front.table_options
            tables += [
                (name, {option.name: choice.value})
                for option in table_options
                for choice in option.choices
            ] or [(name, {})]
    return tables


@pytest.fixture(autouse=True, scope="module")
def _example_installed() -> Iterator[None]:
    with installed(EXAMPLE):
        yield


@pytest.fixture
async def table(tmp_path: Path) -> AsyncIterator[Harness]:
    async with Harness(await make_bot(tmp_path / "db.sqlite3"), channel_id=CHANNEL) as h:
        yield h


def test_every_language_has_a_discord_locale() -> None:
    assert set(LOCALES) == set(LANGUAGES)


@pytest.mark.parametrize(("name", "options"), _tables())
async def test_the_rules_arrive_whole_in_every_language(
    name: str, options: Mapping[str, Any], table: Harness
) -> None:
    h = table
    bot: TableBot = h.bot  # type: ignore[assignment]
    h.user(RUTH, "Ruth")
    await bot.service.lobby.create_game(
        h.guild_id, CHANNEL, RUTH, "Ruth", name, options=dict(options), shuffle_seats=False
    )
    panel = plugin(name).front.rules_help(options)
    for language, locale in LOCALES.items():
        h.user(100 + len(h.locales), f"reader {language}", locale=locale)
        reader = max(h.locales)
        reply = await h.slash(reader, "table rules", game=name)
        assert reply.errors == [], (language, [r.getMessage() for r in reply.errors])
        answers = [s for s in reply.messages if s.content]
        assert answers and all(s.ephemeral for s in answers)
        assert all(len(s.content or "") <= CONTENT for s in answers)
        said = "\n".join(s.content or "" for s in answers)
        assert said == "\n".join(lines_of(panel, language)), language
        assert sum(len(s.images) for s in answers) == len(panel.pictures)
