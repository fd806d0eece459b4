"""A game in a week (issue 27): the "week" pace, whose clock sleeps through the server's
quiet hours; when a lobby's game should end; and a reminder rhythm that never pings at
night nor more than twice a day, on a fake clock."""

from __future__ import annotations

from collections import defaultdict
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from bot.games import plugins
from bot.service import FakeClock, GameRecord, GameService, GuildSettings, Seat
from bot.service.clock import to_ms
from bot.service.pace import (
    DAY_MS,
    HOUR_MS,
    PACES,
    Pace,
    QuietHours,
    after_move,
    counted,
    new_clock,
    night_of,
    schedule,
    when_counted,
)
from bot.service.turn_times import SIMULATED, TurnTimes, turn_times
from tests.service.conftest import (
    ALICE,
    BOB,
    CAROL,
    CHANNEL,
    GUILD,
    MOD,
    NAMES,
    SCRIPTED_DECK,
    play_one,
    started_game,
)

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
    school = new_clock(WEEK, 3, QuietHours("Europe/Amsterdam", 22, 8, 8, 15))
    assert school["busy"] == [8, 15]
    assert night_of(school) == QuietHours("Europe/Amsterdam", 22, 8, 8, 15)
    # No quiet hours, no night to sleep through; other paces never sleep.
    assert "night" not in new_clock(WEEK, 3, QuietHours("Europe/Amsterdam", 0, 0))
    normal = PACES["normal"]
    assert normal is not None and "night" not in new_clock(normal, 3, NIGHT)
    assert night_of({"pace": "week", "banks": [], "night": ["x", 25, 8]}) is None  # damaged


SCHOOL = QuietHours("Europe/Amsterdam", 22, 8, 8, 15)


def test_a_school_day_does_not_count_on_the_week_clock_nor_pings() -> None:
    """Issue 40: a turn that reached a teen after their look before school ran out before
    their look after it. Busy hours on weekdays stop a sleeping clock as the night does."""
    # Tuesday 07:45 (still night), a full bank of six hours: the night and the school day
    # touch, so it counts from 15:00. Its post notified nobody, so it is reminded as its
    # clock starts, at 15:00; the last call at 20:00, out of time at 21:00, after the
    # evening look (without school hours: 14:00, in class).
    times = schedule(6 * HOUR_MS, at(3, 7, 45), 0, None, SCHOOL)
    assert {k: local(v) for k, v in times.items()} == {
        "reminder": "Tue 03 Dec 15:00",
        "final": "Tue 03 Dec 20:00",
        "timeout": "Tue 03 Dec 21:00",
    }
    assert local(schedule(6 * HOUR_MS, at(3, 7, 45), 0, None, NIGHT)["timeout"]) == (
        "Tue 03 Dec 14:00"
    )
    # Told silently at 23:00 on a Saturday: reminded at 8:00, as the clock starts; told at
    # 18:00, when the post itself notified, at half the bank.
    assert local(schedule(6 * HOUR_MS, at(7, 23), 0, None, SCHOOL)["reminder"]) == (
        "Sun 08 Dec 08:00"
    )
    assert local(schedule(6 * HOUR_MS, at(7, 18), 0, None, SCHOOL)["reminder"]) == (
        "Sat 07 Dec 21:00"
    )
    # From the evening look to the one after school, one and a half hours count (20:30
    # to 22:00); the night and the school day touch, and none of them counts.
    assert counted(at(3, 20, 30), at(4, 15, 10), None, SCHOOL) == 90 * 60_000 + 10 * 60_000
    # Saturday has no school: from 8:00 on, the clock runs.
    assert counted(at(7, 7, 40), at(7, 15, 10), None, SCHOOL) == 7 * HOUR_MS + 10 * 60_000
    assert SCHOOL.quiet(at(3, 10)) and not SCHOOL.quiet(at(7, 10)) and not SCHOOL.quiet(at(3, 15))


def test_the_week_pace_has_school_hours_by_default_and_a_moderator_may_change_them() -> None:
    settings = GuildSettings(GUILD, pace="week", timezone="Europe/Amsterdam")
    assert settings.quiet_hours() == SCHOOL
    assert GuildSettings(GUILD, timezone="Europe/Amsterdam").quiet_hours() == NIGHT  # normal
    chosen = GuildSettings(GUILD, pace="week", timezone="Europe/Amsterdam", busy_start=9,
                           busy_end=14)  # fmt: skip
    assert chosen.busy_hours() == (9, 14)
    off = GuildSettings(GUILD, pace="week", timezone="Europe/Amsterdam", busy_start=0, busy_end=0)
    assert off.quiet_hours() == NIGHT


def turn_record(game_id: int, pace: str, days: float, **kwargs: object) -> GameRecord:
    """A finished short game of three people that took ``days``, at ``pace``."""
    start = datetime(2024, 11, 1, tzinfo=UTC) + timedelta(days=game_id)
    seats = tuple(Seat(i, 11 + i, f"P{i}") for i in range(3))
    fields: dict[str, object] = dict(
        id=game_id, guild_id=GUILD, channel_id=CHANNEL, game_name="covenant", seed=1,
        options={"length": "short"}, shuffle_seats=False, creator_id=11, status="finished",
        version=40, seats=seats, created_at=start, updated_at=start, started_at=start,
        finished_at=start + timedelta(days=days), clock={"pace": pace, "banks": [0, 0, 0]},
    )  # fmt: skip
    fields.update(kwargs)
    return GameRecord(**fields)  # type: ignore[arg-type]


def test_a_turn_takes_what_the_simulation_says_until_the_server_has_finished_games() -> None:
    rules = {name: plugin.rules for name, plugin in plugins().items()}
    assert turn_times(rules, [], "week") == TurnTimes(*SIMULATED)
    # Short games (35 turns) that took 3.5, 4.2 and 5 days at this pace: 2.4 to 3.43 hours
    # a turn; a game at another pace, or of a game no longer installed, says nothing.
    finished = [turn_record(1, "week", 3.5), turn_record(2, "week", 4.2),
                turn_record(3, "week", 5), turn_record(4, "normal", 20),
                turn_record(5, "week", 1, game_name="chess")]  # fmt: skip
    times = turn_times(rules, finished, "week")
    assert times.games == 3
    assert (round(times.fast_ms / HOUR_MS, 2), round(times.slow_ms / HOUR_MS, 2)) == (2.4, 3.43)
    # One game alone: its time, 15 % either way.
    times = turn_times(rules, finished[1:2], "week")
    assert (round(times.fast_ms / HOUR_MS, 2), round(times.slow_ms / HOUR_MS, 2)) == (2.45, 3.31)


# ---------------------------------------------------------------- the service


async def test_the_lobby_says_when_the_game_should_end_as_a_range_from_practice(
    service: GameService, clock: FakeClock
) -> None:
    """Issue 40: the lobby assumed everyone always used the whole bank. It reckons with
    the time a turn takes in practice: the simulation's before the server has finished
    games, then its own."""
    await service.set_guild_settings(
        GUILD, MOD, moderator=True, pace="week", timezone="Europe/Amsterdam",
    )  # fmt: skip
    record = await service.lobby.create_game(
        GUILD, CHANNEL, ALICE, "Alice", "covenant", options={"length": "short"}, seed=5
    )
    for user in (BOB, CAROL):
        record = await service.lobby.join(CHANNEL, user, NAMES[user])
    estimate = await service.lobby.estimate(record)
    # 35 turns of 2.75 to 4 hours from Monday 18:00.
    assert estimate is not None and estimate.from_history == 0
    assert (local(estimate.early_ms), local(estimate.finish_ms)) == (
        "Fri 06 Dec 18:15",
        "Sun 08 Dec 14:00",
    )
    assert estimate.timezone == "Europe/Amsterdam" and not estimate.guessed_zone
    record = await service.lobby.set_options(CHANNEL, ALICE, {"length": "medium"})
    estimate = await service.lobby.estimate(record)
    assert estimate is not None and local(estimate.finish_ms) == "Wed 11 Dec 14:00"
    # A computer moves at once: two people of three take 24 of the 35 turns.
    record = await service.lobby.set_options(CHANNEL, ALICE, {"length": "short"})
    await service.lobby.leave(CHANNEL, CAROL)
    record = await service.lobby.add_computer(CHANNEL, ALICE, "easy")
    estimate = await service.lobby.estimate(record)
    assert estimate is not None and local(estimate.finish_ms) == "Fri 06 Dec 18:00"
    await service.set_guild_settings(GUILD, MOD, moderator=True, pace="none")
    assert await service.lobby.estimate(record) is None  # no clock, no date


async def test_the_estimate_learns_from_the_servers_finished_games(
    service: GameService, clock: FakeClock
) -> None:
    await service.set_guild_settings(
        GUILD, MOD, moderator=True, pace="week", timezone="Europe/Amsterdam",
    )  # fmt: skip
    # A game of eight tiles whose sixteen moves come an hour apart: two hours a turn.
    record = await started_game(service, deck=SCRIPTED_DECK)
    while record.status == "active":
        clock.advance(hours=1)
        await play_one(service, record.id)
        record = await service.play.get_game(record.id)
    assert record.status == "finished"
    lobby = await service.lobby.create_game(
        GUILD, CHANNEL + 1, ALICE, "Alice", "covenant", options={"length": "short"}, seed=5
    )
    for user in (BOB, CAROL):
        lobby = await service.lobby.join(CHANNEL + 1, user, NAMES[user])
    estimate = await service.lobby.estimate(lobby)
    assert estimate is not None and estimate.from_history == 1
    # 35 turns of 1.7 to 2.3 hours (two, 15 % either way) from Tuesday 10:00.
    start = to_ms(clock.now())
    assert local(start) == "Tue 03 Dec 10:00"
    assert estimate.early_ms - start == 35 * int(1.7 * HOUR_MS)
    assert estimate.finish_ms - start == 35 * int(2.3 * HOUR_MS)


async def test_a_week_long_game_nobody_moves_in_pings_nobody_at_night_nor_thrice_a_day(
    service: GameService, clock: FakeClock
) -> None:
    """The hardest case for the rhythm: three players who never move, so every turn brings
    its reminders and then a time-out. Nobody is reminded in the quiet hours or more than
    twice within a day, nobody times out at night, and the short game still ends within
    the week."""
    await service.set_guild_settings(
        GUILD, MOD, moderator=True, pace="week", timezone="Europe/Amsterdam",
        quiet_start=22, quiet_end=8, timeout_action="skip", busy_start=0, busy_end=0,
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
