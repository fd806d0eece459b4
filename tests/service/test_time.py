"""A fair clock over days (issue 15), on an injected clock: time banks, reminders at half the
bank and near its end, time-outs, quiet hours, time away, stalled games, settings, DMs."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from bot.service import FakeClock, GameService, ServiceError
from bot.service.clock import to_ms
from bot.service.pace import (
    DAY_MS,
    HOUR_MS,
    PACES,
    Away,
    QuietHours,
    after_move,
    counted,
    deadline,
    pace_of,
    schedule,
    when_counted,
)
from engine.covenant import Pass, PlaceTile
from tests.service.conftest import (
    ALICE,
    BOB,
    CHANNEL,
    GUILD,
    MOD,
    SCRIPTED_DECK,
    Opener,
    play_one,
    started_game,
)
from tests.support.databases import _connect

NORMAL = PACES["normal"]
assert NORMAL is not None


# ---------------------------------------------------------------- the bank, as arithmetic


def test_a_bank_loses_the_time_used_gains_the_increment_and_holds_its_cap() -> None:
    start = 10 * DAY_MS
    # Three days at the start; a move after five hours leaves 3 d - 5 h + 12 h.
    assert (
        after_move(NORMAL, 3 * DAY_MS, start, start + 5 * HOUR_MS, None) == 3 * DAY_MS + 7 * HOUR_MS
    )
    # Quick moves save time, but never beyond five days.
    assert after_move(NORMAL, 5 * DAY_MS - HOUR_MS, start, start + 60_000, None) == 5 * DAY_MS
    # A slow move can use the whole bank, not more.
    assert after_move(NORMAL, 2 * HOUR_MS, start, start + 9 * DAY_MS, None) == 12 * HOUR_MS
    # Time away does not count.
    away = Away(start + HOUR_MS, start + 25 * HOUR_MS)
    assert (
        after_move(NORMAL, 3 * DAY_MS, start, start + 30 * HOUR_MS, away)
        == 3 * DAY_MS + 6 * HOUR_MS
    )
    assert deadline(3 * DAY_MS, start, start, away) == start + 3 * DAY_MS + 24 * HOUR_MS


def test_a_custom_pace_and_a_bank_too_small_for_a_last_call() -> None:
    camp = pace_of("custom:48,6,60")
    assert camp is not None
    assert (camp.start_ms, camp.increment_ms, camp.cap_ms) == (
        48 * HOUR_MS,
        6 * HOUR_MS,
        60 * HOUR_MS,
    )
    assert pace_of("none") is None and pace_of("fast") == PACES["fast"]
    for bad in ("custom:48,6", "custom:0,1,1", "custom:5,1,2", "slow"):
        with pytest.raises(ValueError):
            pace_of(bad)
    # Three days: reminded at 36 h, the last call 7.2 h before the end (a tenth of the bank).
    assert schedule(72 * HOUR_MS, 0, 0, None) == {
        "reminder": 36 * HOUR_MS,
        "final": 72 * HOUR_MS - 72 * HOUR_MS // 10,
        "timeout": 72 * HOUR_MS,
    }
    # Ninety minutes: the last call would be an hour before the end, before the reminder at
    # 45 minutes is even due; there is none (it falls on the time-out).
    assert schedule(90 * 60_000, 0, 0, None) == {
        "reminder": 45 * 60_000,
        "final": 90 * 60_000,
        "timeout": 90 * 60_000,
    }


def test_quiet_hours_are_the_servers_night_in_its_time_zone() -> None:
    night = QuietHours("Europe/Amsterdam", 22, 8)
    winter_23h = int(datetime(2026, 12, 1, 22, 30, tzinfo=UTC).timestamp() * 1000)  # 23:30
    winter_21h = int(datetime(2026, 12, 1, 20, 30, tzinfo=UTC).timestamp() * 1000)  # 21:30
    assert night.quiet(winter_23h) and not night.quiet(winter_21h)
    morning = int(datetime(2026, 12, 2, 7, 0, tzinfo=UTC).timestamp() * 1000)  # 8:00 there
    # The night that holds at 23:30 ends at 8:00 (the clock counts nothing before).
    assert when_counted(winter_23h, 0, None, night) == morning
    assert not QuietHours("UTC", 0, 0).quiet(winter_23h)  # none


def test_quiet_hours_across_the_night_the_clocks_go_forward() -> None:
    """Sunday 29 March 2026, 2:00 becomes 3:00 in Amsterdam: a night from 22 to 8 is 9
    hours long, and one from 9 to 8 (23 hours of wall clock) 22; each still ends at 8:00.
    (``QuietHours.ends_after``, which no one called, went: it could say a moment of such a
    night ended before it began.)"""
    amsterdam = ZoneInfo("Europe/Amsterdam")

    def ms(day: int, hour: int, minute: int = 0) -> int:
        return int(datetime(2026, 3, day, hour, minute, tzinfo=amsterdam).timestamp() * 1000)

    for night, begins in ((QuietHours("Europe/Amsterdam", 22, 8), 22), (QuietHours(
        "Europe/Amsterdam", 9, 8), 9)):  # fmt: skip
        length = (ms(29, 8) - ms(28, begins)) // HOUR_MS
        assert length == (9 if begins == 22 else 22)
        for moment in (ms(28, 23, 30), ms(29, 1, 30), ms(29, 3, 30), ms(29, 7, 59)):
            assert night.quiet(moment)
            assert when_counted(moment, 0, None, night) == ms(29, 8)
        assert counted(ms(28, begins), ms(29, 8), None, night) == 0
        assert not night.quiet(ms(29, 8))


# ---------------------------------------------------------------- the service


async def test_reminder_at_half_the_bank_the_last_one_near_its_end_then_the_time_out(
    service: GameService, clock: FakeClock
) -> None:
    # Quiet hours turned off on purpose: the bank's rhythm alone (the last call would wait
    # for the morning otherwise; see the quiet hours' tests).
    await service.set_guild_settings(GUILD, MOD, moderator=True, quiet_start=0, quiet_end=0)
    await started_game(service, deck=SCRIPTED_DECK)
    record = await service.play.game_in(CHANNEL)
    assert (
        record is not None
        and record.deadline_ms() == int(clock.now().timestamp() * 1000) + 3 * DAY_MS
    )
    clock.advance(hours=35, minutes=59)
    assert await service.notices.due() == []
    clock.advance(minutes=1)  # half of three days
    (due,) = await service.notices.due()
    assert (due.kind, due.seat.user_id, due.version) == ("reminder", ALICE, 0)
    assert due.timeout_action == "computer" and not due.dm
    assert due.deadline_ms == record.deadline_ms()
    assert await service.notices.claim(due)
    assert not await service.notices.claim(due)  # a second sender (or process) backs off
    await service.notices.mark_sent(due)
    assert await service.notices.due() == []  # sent once, not again
    clock.advance(hours=28, minutes=48)  # 72 h - 7.2 h: a tenth of the bank before its end
    (last,) = await service.notices.due()
    assert last.kind == "final"
    await service.notices.claim(last)
    await service.notices.mark_sent(last)
    clock.advance(hours=7, minutes=12)
    (due,) = await service.notices.due()
    assert due.kind == "timeout"
    result = await service.play.time_out(due)  # a computer plays Alice's turn
    assert [a.source for a in result.actions] == ["timeout"] * len(result.actions)
    assert result.next_seat is not None and result.next_seat.user_id == BOB
    assert await service.notices.due() == []  # Bob's clock starts now, with his own bank
    bob = await service.play.get_game(result.record.id)
    assert bob.clock is not None and bob.clock["banks"][0] == 12 * HOUR_MS  # all used, +12 h
    clock.advance(hours=36)
    assert [d.seat.user_id for d in await service.notices.due()] == [BOB]


async def test_a_reminder_marked_sent_beside_another_write_of_the_game_does_not_deadlock(
    service: GameService, clock: FakeClock, db_target: str | Path
) -> None:
    if not isinstance(db_target, str):
        pytest.skip("row locks between connections: PostgreSQL's (SQLite has one writer)")
    record = await started_game(service, deck=SCRIPTED_DECK)
    clock.advance(hours=36)
    (due,) = await service.notices.due()
    assert await service.notices.claim(due)
    # Another process's write of the same game, as a claim of the same notice makes it:
    # it locks the game's row, then writes the notice. When mark_sent wrote the notice
    # before the game's row was locked, it waited for this one, which waited for it, until
    # PostgreSQL broke the deadlock (three processes hit it).
    other = await _connect(db_target)
    try:
        writing = other.transaction()
        await writing.start()
        await other.execute("SELECT 1 FROM games WHERE id = $1 FOR UPDATE", record.id)
        marking = asyncio.create_task(service.notices.mark_sent(due))
        await asyncio.sleep(0.5)  # mark_sent is waiting for the row now
        assert not marking.done()
        await other.execute(
            "UPDATE notices SET claimed_at = claimed_at WHERE game_id = $1 AND user_id = $2",
            record.id,
            due.seat.user_id,
        )
        await writing.commit()
    finally:
        await other.close()
    await asyncio.wait_for(marking, 10)
    assert await service.notices.due() == []  # sent once, not again


async def test_a_quick_player_saves_time_for_a_busy_week(
    service: GameService, clock: FakeClock
) -> None:
    game = await started_game(service, deck=SCRIPTED_DECK)
    clock.advance(hours=1)
    await service.play.act(game.id, ALICE, PlaceTile(-1, 0))
    clock.advance(hours=1)  # steps within a turn do not restart it
    await service.play.act(game.id, ALICE, Pass())
    record = await service.play.get_game(game.id)
    assert record.clock is not None
    assert record.clock["banks"][0] == 3 * DAY_MS - 2 * HOUR_MS + 12 * HOUR_MS
    assert record.clock["banks"][1] == 3 * DAY_MS  # Bob's turn has just begun


async def test_after_downtime_nobody_times_out_without_a_reminder(
    service: GameService, clock: FakeClock
) -> None:
    game = await started_game(service, deck=SCRIPTED_DECK)
    clock.advance(hours=80)  # the bot was down past every stage of the 72-hour bank
    (due,) = await service.notices.due()
    # One reminder, standing for both, with a last stretch: a tenth of the bank, 7.2 hours.
    assert (due.kind, due.late) == ("reminder", True)
    assert due.deadline_ms == to_ms(clock.now()) + 72 * HOUR_MS // 10
    assert await service.notices.claim(due)
    await service.notices.mark_sent(due)
    assert await service.notices.due() == []
    clock.advance(hours=7.1)
    assert await service.notices.due() == []  # no second reminder, no time-out yet
    clock.advance(hours=0.2)
    (timeout,) = await service.notices.due()
    assert (timeout.kind, timeout.late, timeout.deadline_ms) == ("timeout", False, due.deadline_ms)
    await service.play.act(game.id, ALICE, PlaceTile(-1, 0))
    with pytest.raises(ServiceError) as error:
        await service.play.time_out(timeout)  # the player moved meanwhile
    assert error.value.code == "stale"
    assert not await service.notices.claim(timeout)


async def test_no_reminder_at_night_in_the_servers_time_zone(
    service: GameService, clock: FakeClock
) -> None:
    # 2024-01-01 12:00 UTC is 13:00 in Amsterdam; half the bank comes 36 h later, at 01:00.
    await service.set_guild_settings(
        GUILD, MOD, moderator=True, timezone="Europe/Amsterdam", quiet_start=22, quiet_end=8
    )
    await started_game(service, deck=SCRIPTED_DECK)
    clock.advance(hours=36)
    assert await service.notices.due() == []  # the middle of the night there
    clock.advance(hours=6, minutes=59)  # 07:59
    assert await service.notices.due() == []
    clock.advance(minutes=1)  # 08:00: the morning's reminder
    assert [d.kind for d in await service.notices.due()] == ["reminder"]


async def test_time_away_stops_a_players_clocks(service: GameService, clock: FakeClock) -> None:
    await started_game(service, deck=SCRIPTED_DECK)
    clock.advance(hours=10)
    games = await service.notices.set_away(ALICE, clock.now() + timedelta(days=2))
    assert [g.channel_id for g in games] == [CHANNEL]
    clock.advance(hours=70)  # past the deadline she would have had
    assert await service.notices.due() == []  # away: no reminder, no time-out
    record = await service.play.game_in(CHANNEL)
    assert record is not None and record.current is not None and record.current.away is not None
    # Back early: the time away so far still does not count.
    await service.notices.set_away(ALICE, None)
    clock.advance(hours=25, minutes=59)  # 10 h before, 26 h after: 36 h of her bank used
    assert await service.notices.due() == []
    clock.advance(minutes=1)
    assert [d.kind for d in await service.notices.due()] == ["reminder"]


async def test_a_server_without_a_clock_never_reminds(
    service: GameService, clock: FakeClock
) -> None:
    await service.set_guild_settings(GUILD, MOD, moderator=True, pace="none")
    await started_game(service, deck=SCRIPTED_DECK)
    clock.advance(days=30)
    assert await service.notices.due() == []


async def test_notices_survive_a_restart(open_service: Opener, clock: FakeClock) -> None:
    service = await open_service()
    await started_game(service, deck=SCRIPTED_DECK)
    clock.advance(hours=37)
    (due,) = await service.notices.due()
    assert await service.notices.claim(due)
    await service.close()
    # Claimed but never confirmed (the process died while sending): hidden for the lease,
    # then offered again, so it is not lost.
    service = await open_service()
    assert await service.notices.due() == []
    clock.advance(minutes=11)
    (again,) = await service.notices.due()
    assert again.kind == "reminder" and await service.notices.claim(again)
    await service.notices.mark_sent(again)
    await service.close()
    service = await open_service()
    clock.advance(hours=1)
    assert await service.notices.due() == []


async def test_notify_timeout_is_offered_once(service: GameService, clock: FakeClock) -> None:
    await started_game(service, deck=SCRIPTED_DECK)
    await service.set_guild_settings(
        GUILD, MOD, moderator=True, timeout_action="notify", moderator_role_id=555,
        quiet_start=0, quiet_end=0,
    )  # fmt: skip
    clock.advance(hours=73)
    (late,) = await service.notices.due()  # the player was never reminded: that comes first
    assert (late.kind, late.late) == ("reminder", True)
    assert await service.notices.claim(late)
    await service.notices.mark_sent(late)
    clock.advance(hours=7.3)
    (due,) = await service.notices.due()
    assert (due.kind, due.timeout_action, due.moderator_role_id) == ("timeout", "notify", 555)
    assert await service.notices.claim(due)
    await service.notices.mark_sent(due)
    clock.advance(hours=100)
    assert await service.notices.due() == []
    assert (await service.play.get_game(due.record.id)).version == 0  # nothing was played


async def test_guild_settings_are_per_guild_and_checked(
    service: GameService, clock: FakeClock
) -> None:
    defaults = await service.guild_settings(GUILD)
    assert (defaults.pace, defaults.timeout_action, defaults.threads) == (
        "normal",
        "computer",
        True,
    )
    with pytest.raises(ServiceError):
        await service.set_guild_settings(GUILD, ALICE, moderator=False, timeout_action="notify")
    for bad, code in (({"pace": "glacial"}, "bad_pace"),
                      ({"timezone": "Mars/Olympus"}, "bad_timezone"),
                      ({"quiet_start": 25}, "bad_quiet_hour"),
                      ({"stall_after": timedelta(hours=3)}, "bad_stall_days")):  # fmt: skip
        with pytest.raises(ServiceError) as error:
            await service.set_guild_settings(GUILD, MOD, moderator=True, **bad)
        assert error.value.code == code
    with pytest.raises(ServiceError) as error:
        await service.set_guild_settings(GUILD, MOD, moderator=True, colour="red")
    assert error.value.code == "unknown_setting"
    changed = await service.set_guild_settings(GUILD, MOD, moderator=True, pace="fast")
    assert changed == await service.guild_settings(GUILD)
    assert (await service.guild_settings(GUILD + 1)).pace == "normal"
    (entry,) = await service.moderation.log(GUILD)
    assert entry.act == "settings" and entry.detail == {"pace": "fast"}
    await started_game(service, channel=1, deck=SCRIPTED_DECK)
    await service.lobby.create_game(GUILD + 1, 2, ALICE, "Alice", "covenant", seed=1)
    await service.lobby.join(2, BOB, "Bob")
    await service.lobby.start(2, ALICE)
    clock.advance(hours=12)  # half of the fast pace's one day
    assert [d.record.guild_id for d in await service.notices.due()] == [GUILD]


async def test_each_player_says_where_to_be_told(service: GameService, clock: FakeClock) -> None:
    assert await service.notices.ping(ALICE) == "channel"
    await service.notices.set_ping(ALICE, "both")
    assert await service.notices.ping(ALICE) == "both"
    with pytest.raises(ServiceError):
        await service.notices.set_ping(ALICE, "carrier pigeon")
    await started_game(service, deck=SCRIPTED_DECK)
    clock.advance(hours=36)
    (due,) = await service.notices.due()
    assert due.dm and due.seat.ping == "both"
    await service.notices.set_ping(ALICE, "channel")
    assert not (await service.notices.due())[0].dm


async def test_handing_the_waiting_seat_restarts_its_clock(
    service: GameService, clock: FakeClock
) -> None:
    await started_game(service, deck=SCRIPTED_DECK)
    clock.advance(hours=37)
    assert len(await service.notices.due()) == 1
    await service.moderation.hand_seat(
        CHANNEL, MOD, 77, "Newcomer", moderator=True, from_user_id=ALICE
    )
    assert await service.notices.due() == []
    clock.advance(hours=36)
    assert [d.seat.user_id for d in await service.notices.due()] == [77]


# ---------------------------------------------------------------- games that never stall


async def test_a_game_nobody_moves_in_is_warned_then_ended(
    service: GameService, clock: FakeClock
) -> None:
    await service.set_guild_settings(GUILD, MOD, moderator=True, pace="none")
    game = await started_game(service, deck=SCRIPTED_DECK)
    await play_one(service, game.id)
    clock.advance(days=11)
    assert await service.notices.stalled() == ([], [])
    clock.advance(days=1)  # twelve of the fourteen days
    warn, end = await service.notices.stalled()
    assert [g.id for g in warn] == [game.id] and end == []
    await service.notices.warned_stall(warn[0])
    assert await service.notices.stalled() == ([], [])  # warned once
    clock.advance(days=2)
    warn, end = await service.notices.stalled()
    assert warn == [] and [g.id for g in end] == [game.id]
    ended = await service.notices.end_stalled(end[0])
    assert ended.status == "ended" and ended.version == 1


async def test_nobody_has_more_games_going_than_they_finish(
    service: GameService, clock: FakeClock
) -> None:
    for channel in (1, 2, 3):
        await service.lobby.create_game(GUILD, channel, BOB, "Bob", "covenant")
        await service.lobby.join(channel, ALICE, "Alice")
        await service.lobby.start(channel, BOB)
    # Three games going and none finished: a fourth waits until one is done.
    await service.lobby.create_game(GUILD, 4, BOB + 1, "Carol", "covenant")
    with pytest.raises(ServiceError) as error:
        await service.lobby.join(4, ALICE, "Alice")
    assert error.value.code == "too_many_games" and error.value.params["count"] == 3
    clock.advance(seconds=30)
    with pytest.raises(ServiceError):
        await service.lobby.create_game(GUILD, 5, ALICE, "Alice", "covenant")
