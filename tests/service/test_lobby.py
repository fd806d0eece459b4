"""Lobbies: create, join, leave, start; one open game per channel."""

from __future__ import annotations

import pytest

from bot.service import NO_LIMITS, GameService, ServiceError
from tests.service.conftest import (
    ALICE,
    BOB,
    CAROL,
    CHANNEL,
    DAVE,
    GUILD,
    MOD,
    NAMES,
    Opener,
    started_game,
)
from tests.support.databases import RawDb


async def test_create_join_leave_start(service: GameService) -> None:
    lobby = await service.lobby.create_game(GUILD, CHANNEL, ALICE, "Alice", "covenant", seed=3)
    assert lobby.status == "lobby" and [s.user_id for s in lobby.seats] == [ALICE]
    await service.lobby.join(CHANNEL, BOB, "Bob")
    await service.lobby.join(CHANNEL, CAROL, "Carol")
    after = await service.lobby.leave(CHANNEL, BOB)
    assert [(s.index, s.user_id) for s in after.seats] == [(0, ALICE), (1, CAROL)]
    game = await service.lobby.start(CHANNEL, ALICE)
    assert game.status == "active" and game.version == 0
    assert game.current is not None and game.current.index == 0
    assert await service.play.game_in(CHANNEL) == game


async def test_one_open_game_per_channel(service: GameService) -> None:
    await service.lobby.create_game(GUILD, CHANNEL, ALICE, "Alice", "covenant")
    with pytest.raises(ServiceError) as error:
        await service.lobby.create_game(GUILD, CHANNEL, BOB, "Bob", "covenant")
    assert error.value.code == "channel_busy"
    # Another channel is free.
    other = await service.lobby.create_game(GUILD, CHANNEL + 1, BOB, "Bob", "covenant")
    assert other.channel_id == CHANNEL + 1


async def test_schema_itself_refuses_a_second_open_game(service: GameService, raw: RawDb) -> None:
    """The partial unique index holds even for a writer that skips the service's check."""
    await service.lobby.create_game(GUILD, CHANNEL, ALICE, "Alice", "covenant")
    insert = (
        "INSERT INTO games (guild_id, channel_id, kind, seed, creator_id, status, "
        "created_at, updated_at) VALUES (1, ?, 'covenant', 0, 1, ?, 0, 0)"
    )
    with pytest.raises(raw.integrity_errors):
        await raw.execute(insert, CHANNEL, "active")
    # A finished game does not hold the channel.
    await raw.execute(insert, CHANNEL, "finished")
    assert await raw.scalar("SELECT COUNT(*) FROM games WHERE channel_id = ?", CHANNEL) == 2


async def test_lobby_limits(service: GameService) -> None:
    await service.lobby.create_game(GUILD, CHANNEL, ALICE, "Alice", "covenant")
    with pytest.raises(ServiceError) as error:
        await service.lobby.start(CHANNEL, ALICE)
    assert error.value.code == "too_few_players"
    with pytest.raises(ServiceError) as error:
        await service.lobby.join(CHANNEL, ALICE, "Alice")
    assert error.value.code == "already_joined"
    for user in range(100, 104):
        await service.lobby.join(CHANNEL, user, f"P{user}")
    with pytest.raises(ServiceError) as error:
        await service.lobby.join(CHANNEL, 200, "Late")
    assert error.value.code == "lobby_full"
    with pytest.raises(ServiceError) as error:
        await service.lobby.leave(CHANNEL, 200)
    assert error.value.code == "not_joined"


async def test_only_creator_or_moderator_starts(service: GameService) -> None:
    await service.lobby.create_game(GUILD, CHANNEL, ALICE, "Alice", "covenant")
    await service.lobby.join(CHANNEL, BOB, "Bob")
    with pytest.raises(ServiceError) as error:
        await service.lobby.start(CHANNEL, BOB)
    assert error.value.code == "not_creator"
    game = await service.lobby.start(CHANNEL, MOD, moderator=True)
    assert game.status == "active"
    with pytest.raises(ServiceError) as error:
        await service.lobby.join(CHANNEL, CAROL, "Carol")
    assert error.value.code == "already_started"


async def test_creator_leaving_hands_over_and_last_one_closes(service: GameService) -> None:
    await service.lobby.create_game(GUILD, CHANNEL, ALICE, "Alice", "covenant")
    await service.lobby.join(CHANNEL, BOB, "Bob")
    lobby = await service.lobby.leave(CHANNEL, ALICE)
    assert lobby.creator_id == BOB
    closed = await service.lobby.leave(CHANNEL, BOB)
    assert closed.status == "ended"
    assert await service.play.game_in(CHANNEL) is None


async def test_seat_order_shuffled_from_seed_or_kept(open_service: Opener) -> None:
    service = await open_service(limits=NO_LIMITS)  # six tables of the same four players
    players = (ALICE, BOB, CAROL, DAVE)
    kept = await started_game(service, players, channel=1, seed=8, shuffle=False)
    assert [s.user_id for s in kept.seats] == list(players)
    orders = set()
    for channel, seed in ((2, 8), (3, 8), (4, 9), (5, 10), (6, 11)):
        game = await started_game(service, players, channel=channel, seed=seed, shuffle=True)
        assert sorted(s.user_id for s in game.seats) == sorted(players)
        assert [s.index for s in game.seats] == [0, 1, 2, 3]
        orders.add((seed, tuple(s.user_id for s in game.seats)))
    same_seed = [order for seed, order in orders if seed == 8]
    assert len(same_seed) == 1  # the same seed seats the same table the same way
    assert len({order for _, order in orders}) > 1  # and other seeds seat it otherwise


async def test_bad_kind_and_options(service: GameService) -> None:
    with pytest.raises(ServiceError) as error:
        await service.lobby.create_game(GUILD, CHANNEL, ALICE, "Alice", game_name="chess")
    assert error.value.code == "unknown_game"
    with pytest.raises(ServiceError) as error:
        await service.lobby.create_game(
            GUILD, CHANNEL, ALICE, "Alice", "covenant", options={"deck": ["T27"]}
        )
    assert error.value.code == "bad_options"
    with pytest.raises(ServiceError) as error:
        await service.lobby.create_game(
            GUILD, CHANNEL, ALICE, "Alice", "covenant", options={"speed": 3}
        )
    assert error.value.code == "bad_options"
    assert await service.play.game_in(CHANNEL) is None


async def test_a_rematch_seats_who_asked_and_invites_the_others_until_they_join(
    service: GameService,
) -> None:
    """Issue 40: a rematch seated everyone of the last game without asking them. It seats
    the one who asked (its creator) and the lobby's computers, and invites the other
    people: each is seated when they join, and nobody else can start it."""
    await service.lobby.create_game(
        GUILD, CHANNEL, ALICE, "Alice", "covenant", shuffle_seats=False, seed=3
    )
    for user in (BOB, CAROL):
        await service.lobby.join(CHANNEL, user, NAMES[user])
    await service.lobby.add_computer(CHANNEL, ALICE, "strong")
    await service.lobby.start(CHANNEL, ALICE)
    await service.moderation.leave_game(CHANNEL, CAROL)  # a computer takes her seat over
    old = await service.moderation.end_game(CHANNEL, MOD, moderator=True)
    with pytest.raises(ServiceError) as error:
        await service.lobby.rematch(old.id, CAROL)  # she left: it is not hers to call
    assert error.value.code == "not_a_player"
    again = await service.lobby.rematch(old.id, BOB)
    # Nobody's clock runs: Bob (who asked) is seated, with the computer of the lobby at its
    # level; Alice is invited, not seated; Carol, who left, neither.
    assert again.status == "lobby" and again.started_at is None and again.rematch_of == old.id
    assert again.creator_id == BOB
    seated = [(s.index, s.user_id, s.is_bot, s.level) for s in again.seats]
    assert seated == [(0, BOB, False, None), (1, None, True, "strong")]
    assert [s.user_id for s in await service.lobby.invited(again)] == [ALICE]
    with pytest.raises(ServiceError) as error:
        await service.lobby.start(CHANNEL, ALICE)
    assert error.value.code == "not_creator"
    again = await service.lobby.join(CHANNEL, ALICE, "Alice")
    assert [s.user_id for s in again.seats] == [BOB, None, ALICE]
    assert await service.lobby.invited(again) == []
    started = await service.lobby.start(CHANNEL, BOB)
    assert started.status == "active" and len(started.seats) == 3
