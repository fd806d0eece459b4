"""The time zone a server most likely lives in, from its language, until a moderator says.

Discord tells the bot a server's preferred locale and each user's. A locale names a
language (and for some a country); the zone below is where most of its speakers on Discord
live, or the capital's where a country is named. Quiet hours in the most likely zone beat
none at all: a guess a few hours off still keeps the middle of the night quiet, and the
settings reply and the lobby say which zone it is and how to change it.
"""

from __future__ import annotations

from functools import cache
from zoneinfo import available_timezones

#: Discord's locales (and the bot's public languages) -> the most likely time zone.
LIKELY_ZONES: dict[str, str] = {
    "en-US": "America/New_York",
    "en-GB": "Europe/London",
    "en": "Europe/London",
    "nl": "Europe/Amsterdam",
    "es-ES": "Europe/Madrid",
    "es": "Europe/Madrid",
    "es-419": "America/Mexico_City",
    "pt-BR": "America/Sao_Paulo",
    "fr": "Europe/Paris",
    "de": "Europe/Berlin",
    "it": "Europe/Rome",
    "da": "Europe/Copenhagen",
    "no": "Europe/Oslo",
    "sv-SE": "Europe/Stockholm",
    "fi": "Europe/Helsinki",
    "pl": "Europe/Warsaw",
    "cs": "Europe/Prague",
    "hu": "Europe/Budapest",
    "ro": "Europe/Bucharest",
    "bg": "Europe/Sofia",
    "el": "Europe/Athens",
    "hr": "Europe/Zagreb",
    "lt": "Europe/Vilnius",
    "uk": "Europe/Kyiv",
    "ru": "Europe/Moscow",
    "tr": "Europe/Istanbul",
    "hi": "Asia/Kolkata",
    "th": "Asia/Bangkok",
    "vi": "Asia/Ho_Chi_Minh",
    "id": "Asia/Jakarta",
    "zh-CN": "Asia/Shanghai",
    "zh-TW": "Asia/Taipei",
    "ja": "Asia/Tokyo",
    "ko": "Asia/Seoul",
}
#: Discord's own default locale: every server has it until someone changes it, so it says
#: little, and a member's own locale says more.
DISCORD_DEFAULT = "en-US"
FALLBACK_ZONE = LIKELY_ZONES[DISCORD_DEFAULT]


def server_locale(guild_locale: str | None, user_locale: str | None) -> str | None:
    """The locale that best says where a server is: its own, unless that is Discord's
    default and the member who is acting uses another."""
    if guild_locale in (None, DISCORD_DEFAULT) and user_locale:
        return user_locale
    return guild_locale


def better_locale(known: str | None, guild_locale: str | None, user_locale: str | None) -> str:
    """The server's locale to keep, having seen a member act in it: the server's own when it
    chose one (not Discord's default); else what was known, which a member's says better only
    when nothing, or the default alone, was (so the guess does not flip with each member)."""
    if guild_locale not in (None, DISCORD_DEFAULT):
        return guild_locale
    if known not in (None, DISCORD_DEFAULT):
        return known
    return server_locale(guild_locale, user_locale) or DISCORD_DEFAULT


def likely_zone(locale: str | None) -> str:
    """The most likely time zone for ``locale`` (a language alone when its country is not
    known: "es-AR" -> "es"); Discord's default's when nothing is known."""
    if locale is None:
        return FALLBACK_ZONE
    return LIKELY_ZONES.get(locale) or LIKELY_ZONES.get(locale.split("-")[0], FALLBACK_ZONE)


#: The regions of the zones offered: the old aliases ("US/Eastern", "Mexico/General") are
#: valid too, but offering them twice over only crowds the list.
REGIONS = ("Africa", "America", "Antarctica", "Asia", "Atlantic", "Australia", "Europe",
           "Indian", "Pacific")  # fmt: skip


def likely_zone_of(language: str | None, locale: str | None) -> str:
    """The most likely time zone of a server that posts in ``language`` (the moderators'
    choice, None: its own) with the Discord ``locale``: a bare language ("en") says less
    than a locale of it ("en-US"), one with a region ("es-419") more."""
    if language is None or ("-" not in language and (locale or "").split("-")[0] == language):
        return likely_zone(locale)
    return likely_zone(language)


@cache
def _zones() -> tuple[str, ...]:
    return tuple(sorted(z for z in available_timezones() if z.split("/")[0] in REGIONS))


def matching_zones(typed: str, first: str, limit: int = 25) -> list[str]:
    """Time zones for an autocomplete: ``first`` (the likely one) when it matches, then the
    others whose name holds what was typed (spaces as underscores), at most ``limit``."""
    needle = typed.strip().replace(" ", "_").casefold()
    found = [z for z in _zones() if needle in z.casefold()]
    if first in found:
        found.remove(first)
        found.insert(0, first)
    return found[:limit]
