"""No server without quiet hours unless a moderator turns them off (issue 40): until a
moderator sets a time zone, the likeliest for the server's language, with quiet hours from
22 to 8; the week pace asks for a time zone; settings stored by an older bot, whose
defaults were UTC and no quiet hours, are read as chosen by nobody."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from bot.service import FakeClock, GameService, GuildSettings, ServiceError
from bot.service.pace import QuietHours
from bot.service.zones import better_locale, likely_zone, matching_zones, server_locale
from tests.service.conftest import GUILD, MOD, SCRIPTED_DECK, started_game


def test_the_likeliest_zone_for_a_locale() -> None:
    assert [likely_zone(x) for x in ("nl", "es-ES", "es-419", "en-GB", "en-US", None)] == [
        "Europe/Amsterdam",
        "Europe/Madrid",
        "America/Mexico_City",
        "Europe/London",
        "America/New_York",
        "America/New_York",
    ]
    assert likely_zone("es-AR") == "Europe/Madrid"  # the language's, when the country is unknown
    # Every server has Discord's default locale until someone changes it: a member's says more.
    assert server_locale("en-US", "es-ES") == "es-ES"
    assert server_locale("nl", "es-ES") == "nl"
    assert server_locale(None, None) is None
    # What is kept does not flip with each member who acts: the server's own locale when it
    # chose one, else the first member's that said more than Discord's default.
    assert better_locale(None, "en-US", "es-ES") == "es-ES"
    assert better_locale("es-ES", "en-US", "es-419") == "es-ES"
    assert better_locale("en-US", "en-US", "nl") == "nl"
    assert better_locale("es-ES", "nl", "es-419") == "nl"
    assert better_locale(None, None, None) == "en-US"
    # The autocomplete: the likeliest first, then what holds the typed letters.
    assert matching_zones("", "Europe/Madrid")[0] == "Europe/Madrid"
    assert matching_zones("mexico", "Europe/Madrid") == ["America/Mexico_City"]
    assert matching_zones("new york", "Europe/Madrid") == ["America/New_York"]


def test_a_server_nobody_set_up_has_quiet_hours_in_its_languages_zone() -> None:
    fresh = GuildSettings(GUILD)
    assert fresh.quiet_hours() == QuietHours("America/New_York", 22, 8)
    spanish = GuildSettings(GUILD, locale="es-ES")
    assert spanish.quiet_hours() == QuietHours("Europe/Madrid", 22, 8)
    # The public language a moderator chose says more than the locale of another language,
    # less than a locale of the same one unless it names a region.
    assert GuildSettings(GUILD, locale="es-ES", language="nl").zone() == "Europe/Amsterdam"
    assert GuildSettings(GUILD, locale="en-US", language="en").zone() == "America/New_York"
    assert GuildSettings(GUILD, locale="en-GB", language="en").zone() == "Europe/London"
    assert GuildSettings(GUILD, locale="es-ES", language="es-419").zone() == "America/Mexico_City"
    assert GuildSettings(GUILD, language="en").zone() == "Europe/London"
    assert GuildSettings(GUILD, locale="es-ES", timezone="Asia/Tokyo").zone() == "Asia/Tokyo"


def test_settings_an_older_bot_stored_are_read_as_chosen_by_nobody() -> None:
    # An older bot stored its defaults with every change: UTC and no quiet hours.
    old = {"pace": "fast", "timezone": "UTC", "quiet_start": 0, "quiet_end": 0}
    read = GuildSettings(GUILD).with_extra(old)
    assert (read.pace, read.timezone, read.quiet_start, read.quiet_end) == ("fast", None, 22, 8)
    # A zone and quiet hours it stored that a moderator chose stay.
    chosen = {"timezone": "Europe/Madrid", "quiet_start": 21, "quiet_end": 7}
    read = GuildSettings(GUILD).with_extra(chosen)
    assert (read.timezone, read.quiet_start, read.quiet_end) == ("Europe/Madrid", 21, 7)
    # This bot's own: quiet hours turned off stay off.
    off = GuildSettings(GUILD, quiet_start=0, quiet_end=0)
    assert GuildSettings(GUILD).with_extra(off.extra()).quiet_hours() == QuietHours(
        "America/New_York", 0, 0
    )


async def test_no_reminder_at_night_on_a_server_that_set_nothing(
    service: GameService, clock: FakeClock
) -> None:
    """The issue's server: nothing set, its locale Spanish. 2024-01-01 12:00 UTC is 13:00
    in Madrid; half the bank comes 36 hours later, at 01:00: it waits for 8:00."""
    await service.note_locale(GUILD, "en-US", "es-ES")
    await started_game(service, deck=SCRIPTED_DECK)
    clock.advance(hours=36)
    assert await service.notices.due() == []
    clock.advance(hours=6, minutes=59)
    assert await service.notices.due() == []
    clock.advance(minutes=1)
    assert [d.kind for d in await service.notices.due()] == ["reminder"]


async def test_quiet_hours_off_only_on_purpose(service: GameService, clock: FakeClock) -> None:
    await service.note_locale(GUILD, "nl", "en-US")
    settings = await service.set_guild_settings(
        GUILD, MOD, moderator=True, quiet_start=0, quiet_end=0
    )
    assert settings.quiet_hours() == QuietHours("Europe/Amsterdam", 0, 0)
    assert (await service.guild_settings(GUILD)).quiet_hours() == QuietHours(
        "Europe/Amsterdam", 0, 0
    )
    # The locale is Discord's to say, not a setting.
    with pytest.raises(ServiceError) as error:
        await service.set_guild_settings(GUILD, MOD, moderator=True, locale="ja")
    assert error.value.code == "unknown_setting"


async def test_the_week_pace_asks_for_a_time_zone(service: GameService) -> None:
    await service.note_locale(GUILD, "en-US", "es-ES")
    before = await service.guild_settings(GUILD)
    with pytest.raises(ServiceError) as error:
        await service.set_guild_settings(GUILD, MOD, moderator=True, pace="week")
    assert (error.value.code, error.value.params) == (
        "pace_needs_timezone",
        {"zone": "Europe/Madrid"},
    )
    assert await service.guild_settings(GUILD) == before  # nothing changed
    chosen = await service.set_guild_settings(
        GUILD, MOD, moderator=True, pace="week", timezone="Europe/Madrid"
    )
    # School hours come with it: no pings, no clock, on weekdays from 8 to 15.
    assert chosen.quiet_hours() == QuietHours("Europe/Madrid", 22, 8, 8, 15)
    monday_ten = int(datetime(2024, 1, 1, 9, 0, tzinfo=UTC).timestamp() * 1000)
    assert chosen.quiet_hours().quiet(monday_ten)
    # Once a zone is set, the pace alone is fine.
    await service.set_guild_settings(GUILD, MOD, moderator=True, pace="normal")
    await service.set_guild_settings(GUILD, MOD, moderator=True, pace="week")
