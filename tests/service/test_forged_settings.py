"""Every setting and every time away is checked by the service, whatever Discord's declared
ranges and choices let through: a forged value is refused with its own reason and the value
that was wrong, and changes nothing (no setting stored, no line in the moderation log)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest

from bot.service import FakeClock, GameService, ServiceError
from tests.service.conftest import ALICE, CHANNEL, GUILD, MOD, SCRIPTED_DECK, started_game

PACES = "relaxed, normal, fast, week, none"
LANGUAGES = "en, nl, es, es-419"

#: A forged change and the refusal it must bring: its code and every value it names.
FORGED: list[tuple[dict[str, Any], str, dict[str, Any]]] = [
    ({"lobby_hours": 1e308}, "bad_lobby_hours", {"hours": "1e+308", "min": 1, "max": 720}),
    ({"lobby_hours": float("nan")}, "bad_lobby_hours", {"hours": "nan", "min": 1, "max": 720}),
    ({"lobby_hours": 0.5}, "bad_lobby_hours", {"hours": "0.5", "min": 1, "max": 720}),
    ({"lobby_expiry": timedelta(days=9999)}, "bad_lobby_hours",
     {"hours": "239976", "min": 1, "max": 720}),
    ({"stall_days": 1e308}, "bad_stall_days", {"days": "1e+308", "min": 1, "max": 365}),
    ({"stall_days": float("inf")}, "bad_stall_days", {"days": "inf", "min": 1, "max": 365}),
    ({"stall_days": 0.25}, "bad_stall_days", {"days": "0.25", "min": 1, "max": 365}),
    ({"pace": "custom:0.0001,0,0.0001"}, "bad_custom_pace", {"pace": "custom:0.0001,0,0.0001"}),
    ({"pace": "custom:1e308,0,1e308"}, "bad_custom_pace", {"pace": "custom:1e308,0,1e308"}),
    ({"pace": "glacial"}, "bad_pace", {"pace": "glacial", "known": PACES}),
    ({"language": "xx"}, "bad_language", {"language": "xx", "known": LANGUAGES}),
    ({"threads": "maybe"}, "bad_threads", {"value": "maybe"}),
    ({"timezone": "Mars/Olympus"}, "bad_timezone", {"zone": "Mars/Olympus"}),
    ({"quiet_end": -1}, "bad_quiet_hour", {"hour": "-1"}),
    ({"timeout_action": "explode"}, "bad_timeout_action",
     {"action": "explode", "known": "computer, skip, notify"}),
    ({"computer_level": "godlike"}, "bad_computer_level",
     {"level": "godlike", "known": "easy, normal, strong"}),
    ({"moderator_role_id": -5}, "bad_role", {}),
]  # fmt: skip


@pytest.mark.parametrize(("change", "code", "params"), FORGED, ids=[f[1] for f in FORGED])
async def test_a_forged_setting_is_refused_with_its_reason_and_changes_nothing(
    service: GameService, change: dict[str, Any], code: str, params: dict[str, Any]
) -> None:
    before = await service.guild_settings(GUILD)
    with pytest.raises(ServiceError) as error:
        await service.set_guild_settings(GUILD, MOD, moderator=True, **change)
    assert (error.value.code, error.value.params) == (code, params)
    assert await service.guild_settings(GUILD) == before
    assert await service.moderation.log(GUILD) == []


async def test_a_forged_change_beside_a_good_one_changes_nothing(service: GameService) -> None:
    before = await service.guild_settings(GUILD)
    with pytest.raises(ServiceError) as error:
        await service.set_guild_settings(GUILD, MOD, moderator=True, pace="fast", threads="maybe")
    assert error.value.code == "bad_threads"
    assert await service.guild_settings(GUILD) == before
    assert await service.moderation.log(GUILD) == []


async def test_the_commands_own_options_are_taken(service: GameService) -> None:
    new = await service.set_guild_settings(
        GUILD, MOD, moderator=True, lobby_hours=720, stall_days=1.5, threads="off", language="nl"
    )
    assert (new.lobby_expiry, new.stall_after) == (timedelta(hours=720), timedelta(days=1.5))
    assert (new.threads, new.language) == (False, "nl")
    (entry,) = await service.moderation.log(GUILD)
    assert entry.detail == {
        "lobby_expiry": 720 * 3600.0,
        "stall_after": 1.5 * 86400,
        "threads": False,
        "language": "nl",
    }


@pytest.mark.parametrize(
    ("days", "shown"), [(1e308, "1e+308"), (float("nan"), "nan"), (-1.0, "-1"), (31.0, "31")]
)
async def test_a_forged_time_away_is_refused_and_stops_no_clock(
    service: GameService, clock: FakeClock, days: float, shown: str
) -> None:
    await started_game(service, deck=SCRIPTED_DECK)
    with pytest.raises(ServiceError) as error:
        service.notices.away_until(days)
    assert (error.value.code, error.value.params) == ("bad_away_days", {"days": shown, "max": 30})
    with pytest.raises(ServiceError) as error:  # a caller that made the moment itself
        await service.notices.set_away(ALICE, clock.now() + timedelta(days=400))
    assert (error.value.code, error.value.params) == ("bad_away_days", {"days": "400", "max": 30})
    record = await service.play.game_in(CHANNEL)
    assert record is not None and [s.away for s in record.seats] == [None] * len(record.seats)


async def test_away_for_up_to_a_month(service: GameService, clock: FakeClock) -> None:
    assert service.notices.away_until(0) is None
    assert service.notices.away_until(30) == clock.now() + timedelta(days=30)
