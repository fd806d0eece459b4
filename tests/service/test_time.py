"""Reminders and time-outs, on an injected clock; guild settings; DM opt-in."""

from __future__ import annotations

from datetime import timedelta

import pytest

from bot.service import FakeClock, GameService, ServiceError
from engine.covenant import PlaceTile
from tests.service.conftest import (
    ALICE,
    BOB,
    CHANNEL,
    GUILD,
    MOD,
    SCRIPTED_DECK,
    Opener,
    started_game,
)


async def test_reminder_then_timeout_at_the_right_times(
    service: GameService, clock: FakeClock
) -> None:
    await started_game(service, deck=SCRIPTED_DECK)
    clock.advance(hours=11, minutes=59)
    assert await service.due() == []
    clock.advance(minutes=1)
    (due,) = await service.due()
    assert (due.kind, due.seat.user_id, due.version) == ("reminder", ALICE, 0)
    assert due.timeout_action == "skip" and not due.dm
    assert await service.claim(due)
    assert not await service.claim(due)  # a second sender (or process) backs off
    await service.mark_sent(due)
    assert await service.due() == []  # sent once, not again
    clock.advance(hours=60)
    (due,) = await service.due()
    assert due.kind == "timeout"
    result = await service.time_out(due)
    assert [(a.source, a.action["type"]) for a in result.actions] == [
        ("timeout", "place_tile"),
        ("timeout", "pass"),
    ]
    assert result.next_seat is not None and result.next_seat.user_id == BOB
    assert await service.due() == []  # Bob's clock starts now
    clock.advance(hours=12)
    assert [d.seat.user_id for d in await service.due()] == [BOB]


async def test_a_move_resets_the_clock_and_stale_dues_are_refused(
    service: GameService, clock: FakeClock
) -> None:
    game = await started_game(service, deck=SCRIPTED_DECK)
    clock.advance(hours=80)
    (due,) = await service.due()
    assert due.kind == "timeout"  # far past both: only the time-out is offered
    await service.act(game.id, ALICE, PlaceTile(-1, 0))
    assert await service.due() == []
    with pytest.raises(ServiceError) as error:
        await service.time_out(due)
    assert error.value.code == "stale"
    assert not await service.claim(due)


async def test_notices_survive_a_restart(open_service: Opener, clock: FakeClock) -> None:
    service = await open_service()
    await started_game(service, deck=SCRIPTED_DECK)
    clock.advance(hours=13)
    (due,) = await service.due()
    assert await service.claim(due)
    await service.close()
    # Claimed but never confirmed (the process died while sending): hidden for the lease,
    # then offered again, so it is not lost.
    service = await open_service()
    assert await service.due() == []
    clock.advance(minutes=11)
    (again,) = await service.due()
    assert again.kind == "reminder" and await service.claim(again)
    await service.mark_sent(again)
    await service.close()
    service = await open_service()
    clock.advance(hours=1)
    assert await service.due() == []


async def test_notify_timeout_is_offered_once(service: GameService, clock: FakeClock) -> None:
    await started_game(service, deck=SCRIPTED_DECK)
    await service.set_guild_settings(
        GUILD, MOD, moderator=True, timeout_action="notify", moderator_role_id=555
    )
    clock.advance(hours=73)
    (due,) = await service.due()
    assert (due.kind, due.timeout_action, due.moderator_role_id) == ("timeout", "notify", 555)
    assert await service.claim(due)
    await service.mark_sent(due)
    clock.advance(hours=100)
    assert await service.due() == []
    assert (await service.get_game(due.game.id)).version == 0  # nothing was played


async def test_guild_settings_are_per_guild(service: GameService, clock: FakeClock) -> None:
    defaults = await service.guild_settings(GUILD)
    assert defaults.reminder_delay == timedelta(hours=12)
    assert defaults.turn_timeout == timedelta(hours=72)
    with pytest.raises(ServiceError):
        await service.set_guild_settings(GUILD, ALICE, moderator=False, timeout_action="notify")
    with pytest.raises(ServiceError) as error:
        await service.set_guild_settings(
            GUILD, MOD, moderator=True, reminder_delay=timedelta(hours=80)
        )
    assert error.value.code == "bad_setting"
    changed = await service.set_guild_settings(
        GUILD, MOD, moderator=True, reminder_delay=timedelta(hours=1),
        turn_timeout=timedelta(hours=2),
    )  # fmt: skip
    assert changed == await service.guild_settings(GUILD)
    assert (await service.guild_settings(GUILD + 1)).reminder_delay == timedelta(hours=12)
    assert (await service.moderation_log(GUILD))[0].act == "settings"
    await started_game(service, channel=1, deck=SCRIPTED_DECK)
    await service.create_game(GUILD + 1, 2, ALICE, "Alice", seed=1)
    await service.join(2, BOB, "Bob")
    await service.start(2, ALICE)
    clock.advance(hours=1)
    assert [d.game.guild_id for d in await service.due()] == [GUILD]
    clock.advance(hours=1)
    assert [d.kind for d in await service.due()] == ["timeout"]


async def test_dm_reminder_opt_in(service: GameService, clock: FakeClock) -> None:
    assert not await service.dm_reminders(ALICE)
    await service.set_dm_reminders(ALICE, True)
    assert await service.dm_reminders(ALICE)
    await started_game(service, deck=SCRIPTED_DECK)
    clock.advance(hours=12)
    (due,) = await service.due()
    assert due.dm
    await service.set_dm_reminders(ALICE, False)
    assert not (await service.due())[0].dm


async def test_handing_the_waiting_seat_restarts_its_clock(
    service: GameService, clock: FakeClock
) -> None:
    await started_game(service, deck=SCRIPTED_DECK)
    clock.advance(hours=13)
    assert len(await service.due()) == 1
    await service.hand_seat(CHANNEL, MOD, 77, "Newcomer", moderator=True, from_user_id=ALICE)
    assert await service.due() == []
    clock.advance(hours=12)
    assert [d.seat.user_id for d in await service.due()] == [77]
