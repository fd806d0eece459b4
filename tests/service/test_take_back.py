"""Taking back a turn just played (issue 40.5): within its time and before anyone saw it,
the game goes back to where that turn began; the turn stays on record, marked taken back;
nobody plays on, and it is not posted, before the time is over; a restart loses nothing."""

from __future__ import annotations

from datetime import timedelta

import pytest

from bot.service import FakeClock, GameService, ServiceError
from engine.covenant import Pass, PlaceTile
from tests.service.conftest import ALICE, BOB, CHANNEL, GUILD, SCRIPTED_DECK, Opener, started_game

GRACE = timedelta(seconds=30)
MISSED = timedelta(minutes=2)


async def _place(service: GameService, game_id: int, choice: int = 0) -> PlaceTile:
    """The ``choice``-th placement of the tile in hand."""
    _, game = await service.play.state(game_id)
    (x, y), rotations = list(game.placements().items())[choice]
    return PlaceTile(x, y, rotations[0])


async def _turn(service: GameService, game_id: int, user: int, choice: int = 0) -> int:
    """``user`` plays a whole turn (a tile, no follower) from their panel; the version."""
    record = await service.play.get_game(game_id)
    place = await _place(service, game_id, choice)
    await service.play.act(game_id, user, place, record.version, take_back=True)
    result = await service.play.act(game_id, user, Pass(), record.version + 1, take_back=True)
    return result.record.version


async def test_a_turn_taken_back_within_its_time(service: GameService, clock: FakeClock) -> None:
    game = await started_game(service, (ALICE, BOB), deck=SCRIPTED_DECK)
    await service.posts.mark_announced(game.id, 0)
    before = await service.play.get_game(game.id)
    first = await _place(service, game.id, 0)
    assert await _turn(service, game.id, ALICE, 0) == 2
    played = await service.play.get_game(game.id)
    start = int(clock.now().timestamp() * 1000)
    assert played.take_back_until_ms == start + 30_000
    assert played.take_back is not None and played.take_back["to"] == 0
    assert played.take_back_by == ALICE and played.current_seat == 1
    # Nobody plays on, and nothing is posted, while it may be taken back.
    with pytest.raises(ServiceError) as refused:
        await service.play.act(game.id, BOB, Pass(), 2)
    assert refused.value.code == "just_moved"
    assert await service.posts.unannounced(timedelta(0)) == []
    # Only its player takes it back, only at the version they saw.
    for user, version in ((BOB, 2), (ALICE, 1)):
        with pytest.raises(ServiceError) as refused:
            await service.play.take_back(game.id, user, version)
        assert refused.value.code == "take_back_over"
    clock.advance(seconds=10)
    back = await service.play.take_back(game.id, ALICE, 2)
    assert (back.version, back.current_seat, back.take_back) == (0, 0, None)
    stored = await service.play.get_game(game.id)
    assert (stored.version, stored.current_seat, stored.announced) == (0, 0, 0)
    # Alice's clock is as it was before the turn: her ten seconds are not charged twice.
    assert stored.clock == before.clock and stored.waiting_since == before.waiting_since
    assert await service.history.actions(game.id) == []
    taken = await service.play.taken_back(game.id)
    assert [(at, a.seq, a.seat, a.user_id) for at, a in taken] == [
        (start + 10_000, 1, 0, ALICE),
        (start + 10_000, 2, 0, ALICE),
    ]
    assert taken[0][1].action == {
        "type": "place_tile",
        "x": first.x,
        "y": first.y,
        "rotation": first.rotation,
    }
    # A double tap changes nothing.
    with pytest.raises(ServiceError) as refused:
        await service.play.take_back(game.id, ALICE, 2)
    assert refused.value.code == "take_back_over"
    assert (await service.play.get_game(game.id)).version == 0
    # Played again, elsewhere; once its time is over it cannot be taken back, it is posted
    # at once (not after the usual two minutes of a missed post), and Bob plays.
    assert await _turn(service, game.id, ALICE, 1) == 2
    assert [a.seq for a in await service.history.actions(game.id)] == [1, 2]
    clock.advance(GRACE)
    with pytest.raises(ServiceError) as refused:
        await service.play.take_back(game.id, ALICE, 2)
    assert refused.value.code == "take_back_over"
    assert [g.id for g in await service.posts.unannounced(MISSED)] == [game.id]
    await _turn(service, game.id, BOB)
    assert len(await service.play.taken_back(game.id)) == 2


async def test_a_posted_turn_cannot_be_taken_back(service: GameService, clock: FakeClock) -> None:
    game = await started_game(service, (ALICE, BOB), deck=SCRIPTED_DECK)
    await _turn(service, game.id, ALICE)
    # The mover confirmed (or another process posted it): the channel saw it.
    service.posts.posted(game.id, 2)
    with pytest.raises(ServiceError) as refused:
        await service.play.take_back(game.id, ALICE, 2)
    assert refused.value.code == "take_back_over"
    assert (await service.play.get_game(game.id)).version == 2


async def test_a_turn_played_without_asking_is_posted_at_once(service: GameService) -> None:
    game = await started_game(service, (ALICE, BOB), deck=SCRIPTED_DECK)
    record = await service.play.get_game(game.id)
    await service.play.act(game.id, ALICE, await _place(service, game.id), record.version)
    result = await service.play.act(game.id, ALICE, Pass(), record.version + 1)
    assert result.record.take_back is None
    assert (await service.play.get_game(game.id)).take_back_until_ms is None


async def test_a_restart_within_the_time_loses_nothing_and_posts_once(
    open_service: Opener, clock: FakeClock
) -> None:
    first = await open_service()
    game = await started_game(first, (ALICE, BOB), deck=SCRIPTED_DECK)
    await first.posts.mark_announced(game.id, 0)
    await _turn(first, game.id, ALICE)
    await first.close()  # the bot restarts before the time is over
    clock.advance(seconds=5)
    second = await open_service()
    record = await second.play.get_game(game.id)
    assert record.version == 2 and record.take_back_by == ALICE
    assert await second.posts.claim_missed(timedelta(0)) == []  # not posted yet
    # The player can still take it back, and play it again.
    await second.play.take_back(game.id, ALICE, 2)
    assert await _turn(second, game.id, ALICE, 1) == 2
    clock.advance(GRACE)
    third = await open_service()  # another process looking at the same database
    claimed = await second.posts.claim_missed(MISSED)
    assert [g.id for g in claimed] == [game.id]
    assert await third.posts.claim_missed(MISSED) == []  # claimed: posted once
    await second.posts.mark_announced(game.id, 2)
    clock.advance(minutes=30)
    assert await second.posts.claim_missed(MISSED) == []
    assert [a.seq for a in await second.history.actions(game.id)] == [1, 2]
    assert len(await second.play.taken_back(game.id)) == 2


async def test_posting_now_ends_the_time_to_take_back(
    service: GameService, clock: FakeClock
) -> None:
    game = await started_game(service, (ALICE, BOB), deck=SCRIPTED_DECK)
    await service.posts.mark_announced(game.id, 0)
    await _turn(service, game.id, ALICE)
    now = int(clock.now().timestamp() * 1000)
    # Only its player ends it, at the version they saw.
    for user, version in ((BOB, 2), (ALICE, 1)):
        record = await service.play.post_now(game.id, user, version)
        assert record.taking_back(now)
    assert await service.posts.unannounced(MISSED) == []
    record = await service.play.post_now(game.id, ALICE, 2)
    assert not record.taking_back(now)
    assert [g.id for g in await service.posts.unannounced(MISSED)] == [game.id]
    with pytest.raises(ServiceError) as refused:
        await service.play.take_back(game.id, ALICE, 2)
    assert refused.value.code == "take_back_over"
    await _turn(service, game.id, BOB)  # Bob need not wait


async def test_a_practice_turn_is_not_held_back(service: GameService) -> None:
    """A learner plays computers alone: their turn goes on at once, to the computer next,
    with no time to take it back (nobody to hide the next tile from)."""
    game = await service.learning.open(
        GUILD, CHANNEL, ALICE, "Alice", "covenant", {}, language="en", seed=7
    )
    assert await _turn(service, game.id, ALICE) == 2
    played = await service.play.get_game(game.id)
    assert played.take_back is None and played.take_back_until_ms is None
    assert played.current_seat == 1 and played.current is not None and played.current.is_bot
