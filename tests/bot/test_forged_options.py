"""A moderator (or a player) whose option is refused reads why, in the words of that one
refusal, even for a value Discord's declared ranges and choices would not have let through."""

from __future__ import annotations

from bot.client import TableBot
from tests.support.bot import LEADER, RUTH
from tests.support.harness import Harness


def bot_of(h: Harness) -> TableBot:
    return h.bot  # type: ignore[return-value]


async def test_a_moderator_reads_what_is_wrong_with_a_setting(harness: Harness) -> None:
    h = harness
    h.user(LEADER, "Leader", moderator=True)
    before = await bot_of(h).service.guild_settings(h.guild_id)
    said = {
        "'Mars/Olympus' is not a time zone (try Europe/Amsterdam).": {"timezone": "Mars/Olympus"},
        "A waiting table can stay open for 1 to 720 hours, not 1e+308.": {"lobby_hours": 1e308},
        "A silent game can wait 1 to 365 days before it is ended, not 1e+308.": {
            "stall_days": 1e308
        },
        "Threads are either on or off, not 'maybe'.": {"threads": "maybe"},
        "arkbot does not speak 'xx': choose one of en, nl, es, es-419.": {"language": "xx"},
    }
    for text, options in said.items():
        refused = await h.slash(LEADER, "moderate settings", **options)
        assert refused.last.content == text
    assert await bot_of(h).service.guild_settings(h.guild_id) == before
    assert await bot_of(h).service.moderation.log(h.guild_id) == []


async def test_a_player_reads_how_long_they_may_be_away(harness: Harness) -> None:
    harness.user(RUTH, "Ruth")
    refused = await harness.slash(RUTH, "table away", days=1e308)
    assert refused.last.content == "You can be away for 0 to 30 days, not 1e+308."
