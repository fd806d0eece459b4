"""A game in a week (issue 27): the "week" pace, whose clock sleeps through the server's
quiet hours; when a lobby's game should end; and a reminder rhythm that never pings at
night nor more than twice a day, on a fake clock."""

from __future__ import annotations

from collections import defaultdict
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from bot.service import FakeClock, GameService
from bot.service.clock import to_ms
from bot.service.pace import (
    DAY_MS,
    HOUR_MS,
    PACES,
    Pace,
    QuietHours,
    after_move,
    counted,
    finish_estimate,
    new_clock,
    night_of,
    schedule,
    when_counted,
)
from tests.service.conftest import ALICE, BOB, CAROL, CHANNEL, GUILD, MOD, NAMES

AMSTERDAM = ZoneInfo("Europe/Amsterdam")
NIGHT = QuietHours("Europe/Amsterdam", 22, 8)
WEEK = PACES["week"]
assert WEEK is not None


def at(day: int, hour: int, minute: int = 0) -> int:
    """A moment of December 2024 in Amsterdam, in ms (Monday 2 December, 18:00 starts)."""
    return to_ms(datetime(2024, 12, day, hour, minute, tzinfo=AMSTERDAM))


@pytest.fixture
def clock() -> FakeClock:
    """Monday 2 December 2024, 18:00 in Amsterdam."""
    return FakeClock(datetime(2024, 12, 2, 17, 0, tzinfo=UTC))


def local(ms: int) -> str:
    return datetime.fromtimestamp(ms / 1000, AMSTERDAM).strftime("%a %d %b %H:%M")


# ---------------------------------------------------------------- the pace, as arithmetic


def test_the_week_pace_and_a_clock_that_sleeps_at_night() -> None:
    assert Pace("week", 6 * HOUR_MS, 90 * 60_000, 9 * HOUR_MS, True, 2) == WEEK
    # Two hours of clock from 21:00: one before the night, one after it.
    assert local(when_counted(at(2, 21), 2 * HOUR_MS, None, NIGHT)) == "Tue 03 Dec 09:00"
    assert counted(at(2, 21), at(3, 9), None, NIGHT) == 2 * HOUR_MS
    # Time that runs out as the night begins falls due as it ends, never at night.
    assert local(when_counted(at(2, 20), 2 * HOUR_MS, None, NIGHT)) == "Tue 03 Dec 08:00"
    # A move made at 08:30 on a turn begun at 21:30 used one hour of the bank.
    assert after_move(WEEK, 6 * HOUR_MS, at(2, 21, 30), at(3, 8, 30), None, NIGHT) == (
        6 * HOUR_MS - HOUR_MS + 90 * 60_000
    )
    # A turn begun at 19:00 with a full bank: reminded at 22:00's edge, so at 08:00; the
    # last call an hour before the end, the time-out at 11:00.
    assert {k: local(v) for k, v in schedule(6 * HOUR_MS, at(2, 19), 0, None, NIGHT).items()} == {
        "reminder": "Tue 03 Dec 08:00",
        "final": "Tue 03 Dec 10:00",
        "timeout": "Tue 03 Dec 11:00",
    }


def test_a_game_keeps_the_night_of_its_server_when_its_pace_sleeps() -> None:
    clock = new_clock(WEEK, 3, NIGHT)
    assert clock == {
        "pace": "week",
        "banks": [6 * HOUR_MS] * 3,
        "night": ["Europe/Amsterdam", 22, 8],
    }
    assert night_of(clock) == NIGHT
    # No quiet hours, no night to sleep through; other paces never sleep.
    assert "night" not in new_clock(WEEK, 3, QuietHours("Europe/Amsterdam", 0, 0))
    normal = PACES["normal"]
    assert normal is not None and "night" not in new_clock(normal, 3, NIGHT)
    assert night_of({"pace": "week", "banks": [], "night": ["x", 25, 8]}) is None  # damaged


def test_when_a_game_should_finish_by_pace_seats_length_and_start() -> None:
    start = at(2, 18)  # Monday 2 December 2024, 18:00 in Amsterdam
    # 35 turns (36 tiles) of 1.5 waking hours: 52.5 hours of day.
    assert local(finish_estimate(WEEK, 35, 3, 3, start, NIGHT) or 0) == "Fri 06 Dec 14:30"
    # 53 turns (54 tiles): 79.5 hours of day, with three players or four.
    assert local(finish_estimate(WEEK, 53, 3, 3, start, NIGHT) or 0) == "Sun 08 Dec 13:30"
    assert local(finish_estimate(WEEK, 53, 4, 4, start, NIGHT) or 0) == "Sun 08 Dec 13:30"
    # A computer moves at once: two people of three take 36 of the 53 turns.
    assert local(finish_estimate(WEEK, 53, 2, 3, start, NIGHT) or 0) == "Fri 06 Dec 16:00"
    # The full game (71 turns) takes longer than a week at this pace.
    assert local(finish_estimate(WEEK, 71, 3, 3, start, NIGHT) or 0) == "Tue 10 Dec 12:30"
    # Without quiet hours the clock never sleeps: 52.5 hours straight.
    none = QuietHours("Europe/Amsterdam", 0, 0)
    assert local(finish_estimate(WEEK, 35, 3, 3, start, none) or 0) == "Wed 04 Dec 22:30"
    # The normal pace never sleeps: 71 moves of 12 hours.
    normal = PACES["normal"]
    assert normal is not None
    assert local(finish_estimate(normal, 71, 3, 3, start, NIGHT) or 0) == "Tue 07 Jan 06:00"
    # A pace that gives no time back says nothing.
    assert (
        finish_estimate(Pace("custom:1,0,1", HOUR_MS, 0, HOUR_MS), 35, 3, 3, start, NIGHT) is None
    )


def test_a_short_or_medium_game_of_three_or_four_fits_a_week_whenever_it_starts() -> None:
    for hour in range(24 * 7):
        start = at(2, 0) + hour * HOUR_MS
        for turns in (35, 53):
            for seats in (3, 4):
                finish = finish_estimate(WEEK, turns, seats, seats, start, NIGHT)
                assert finish is not None and finish - start < 7 * DAY_MS, (local(start), turns)


# ---------------------------------------------------------------- the service


async def test_the_lobby_says_when_the_game_should_end(
    service: GameService, clock: FakeClock
) -> None:
    await service.set_guild_settings(
        GUILD, MOD, moderator=True, pace="week", timezone="Europe/Amsterdam",
        quiet_start=22, quiet_end=8,
    )  # fmt: skip
    record = await service.lobby.create_game(
        GUILD, CHANNEL, ALICE, "Alice", "covenant", options={"length": "short"}, seed=5
    )
    for user in (BOB, CAROL):
        record = await service.lobby.join(CHANNEL, user, NAMES[user])
    estimate = await service.lobby.estimate(record)
    assert estimate is not None
    assert (local(estimate.finish_ms), estimate.per_move_ms, estimate.sleeps) == (
        "Fri 06 Dec 14:30",
        90 * 60_000,
        True,
    )
    assert estimate.timezone == "Europe/Amsterdam"
    record = await service.lobby.set_options(CHANNEL, ALICE, {"length": "medium"})
    estimate = await service.lobby.estimate(record)
    assert estimate is not None and local(estimate.finish_ms) == "Sun 08 Dec 13:30"
    await service.set_guild_settings(GUILD, MOD, moderator=True, pace="none")
    assert await service.lobby.estimate(record) is None  # no clock, no date


async def test_a_week_long_game_nobody_moves_in_pings_nobody_at_night_nor_thrice_a_day(
    service: GameService, clock: FakeClock
) -> None:
    """The hardest case for the rhythm: three players who never move, so every turn brings
    its reminders and then a time-out. Nobody is reminded in the quiet hours or more than
    twice within a day, nobody times out at night, and the short game still ends within
    the week."""
    await service.set_guild_settings(
        GUILD, MOD, moderator=True, pace="week", timezone="Europe/Amsterdam",
        quiet_start=22, quiet_end=8, timeout_action="skip",
    )  # fmt: skip
    await service.lobby.create_game(
        GUILD, CHANNEL, ALICE, "Alice", "covenant", options={"length": "short"},
        shuffle_seats=False, seed=5,
    )  # fmt: skip
    for user in (BOB, CAROL):
        await service.lobby.join(CHANNEL, user, NAMES[user])
    record = await service.lobby.start(CHANNEL, ALICE)
    assert night_of(record.clock) == NIGHT
    reminded: dict[int, list[int]] = defaultdict(list)
    timeouts: list[int] = []
    while record.status == "active" and to_ms(clock.now()) < at(20, 0):
        for due in await service.notices.due():
            now = to_ms(clock.now())
            if due.kind == "timeout":
                await service.play.time_out(due)
                timeouts.append(now)
            else:
                assert await service.notices.claim(due)
                await service.notices.mark_sent(due)
                reminded[due.seat.user_id or 0].append(now)
        record = await service.play.get_game(record.id)
        # On to the next notice; one held back (at night, or a third in a day) is looked
        # for again ten minutes on, as the bot's poll would.
        now = to_ms(clock.now())
        due_ms = record.next_due_ms if record.next_due_ms is not None else now
        clock.advance(timedelta(milliseconds=due_ms - now if due_ms > now else 10 * 60_000))
    assert record.status == "finished" and len(timeouts) == 35
    # The last time-out ended the game, within a week of its start (Monday 18:00).
    assert local(timeouts[-1]) == "Mon 09 Dec 14:00" and timeouts[-1] - at(2, 18) < 7 * DAY_MS
    for user, times in reminded.items():
        assert not any(NIGHT.quiet(t) for t in times), (user, [local(t) for t in times])
        # Never three reminders within 24 hours.
        assert all(b - a >= DAY_MS for a, b in zip(times, times[2:], strict=False)), user
    assert sorted(len(times) for times in reminded.values()) == [12, 13, 13]
    assert not any(NIGHT.quiet(t) for t in timeouts)
