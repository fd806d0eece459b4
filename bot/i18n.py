"""Translations for the Discord layer: the catalogues of :mod:`render.i18n` (shared with the
pictures), which language a reader gets, and the slash commands in every language.

- A private answer speaks the clicking user's Discord language (``interaction.locale``).
- A public post speaks the server's language: the one its moderators set, else the server's
  preferred locale (see :meth:`bot.table.common.Common.public_language`).
- A language the bot does not speak falls back to English (``es-419`` first to ``es``).
"""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord import app_commands

from render.i18n import DEFAULT_LANGUAGE, Day, ListOf, Text, catalogue, say, t

__all__ = [
    "DEFAULT_LANGUAGE",
    "LANGUAGES",
    "CatalogueTranslator",
    "Day",
    "ListOf",
    "Text",
    "amount",
    "catalogue",
    "command_text",
    "language_for",
    "language_of",
    "say",
    "t",
]

log = logging.getLogger("arkbot.i18n")

#: The languages arkbot speaks, by our code (Discord's locale code where they differ: es-ES).
LANGUAGES: tuple[str, ...] = ("en", "nl", "es", "es-419")
_FROM_DISCORD = {"es-ES": "es", "en-US": "en", "en-GB": "en"}


def amount(value: float) -> int | float:
    """A whole number without its ".0" (24 hours, not 24.0), else one decimal."""
    rounded = round(value, 1)
    return int(rounded) if rounded == int(rounded) else rounded


def language_for(locale: Any) -> str:
    """Our language for a Discord locale (``"es-ES"`` -> ``"es"``); English for the rest."""
    code = str(locale or "")
    code = _FROM_DISCORD.get(code, code)
    if code in LANGUAGES:
        return code
    base = code.split("-")[0]
    return base if base in LANGUAGES else DEFAULT_LANGUAGE


def language_of(interaction: Any) -> str:
    """The language to answer ``interaction``'s user in, privately."""
    return language_for(getattr(interaction, "locale", None))


def command_text(key: str) -> app_commands.locale_str:
    """A command's name, description, option or choice: the catalogue message ``key`` in
    English, and in every other language through :class:`CatalogueTranslator`."""
    return app_commands.locale_str(t(key, DEFAULT_LANGUAGE), key=key)


def _own(key: str, language: str) -> str | None:
    """``key``'s template in ``language`` itself (or its base language), never English."""
    domain = key.split(".", 1)[0]
    for code in dict.fromkeys((language, language.split("-")[0])):
        if code != DEFAULT_LANGUAGE and key in catalogue(domain, code):
            return catalogue(domain, code)[key]
    return None


class CatalogueTranslator(app_commands.Translator):
    """Slash commands in every language of the catalogues (Discord shows each user theirs).

    Every string given as :func:`command_text` carries its message id; a language without
    that message keeps the English one. Names are checked against Discord's rules (lower
    case, no spaces, at most 32 characters), since Discord refuses the whole sync otherwise.
    """

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        key = string.extras.get("key")
        language = language_for(locale)
        if key is None or language == DEFAULT_LANGUAGE:
            return None
        if _own(key, language) is None:
            return None
        text = t(key, language)
        naming = context.location in (
            app_commands.TranslationContextLocation.command_name,
            app_commands.TranslationContextLocation.group_name,
            app_commands.TranslationContextLocation.parameter_name,
        )
        if naming and not valid_name(text):
            log.error("the %s name %r of %s is not a valid command name", language, text, key)
            return None
        limit = 100 if not naming else 32
        return text[:limit]


def valid_name(text: str) -> bool:
    """Discord's rule for command and option names."""
    return (
        0 < len(text) <= 32 and text == text.lower() and all(c.isalnum() or c in "-_" for c in text)
    )
