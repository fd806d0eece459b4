"""Which games the channel has not seen in their latest version."""

from __future__ import annotations

from datetime import timedelta

from bot.service import FakeClock, GameService
from engine.covenant import Pass, PlaceTile
from tests.service.conftest import ALICE, CHANNEL, GUILD, SCRIPTED_DECK, started_game


async def test_unannounced_games_after_the_grace(service: GameService, clock: FakeClock) -> None:
    game = await started_game(service, deck=SCRIPTED_DECK)
    grace = timedelta(minutes=2)
    assert await service.posts.unannounced(grace) == []  # just started: still within the grace
    clock.advance(minutes=3)
    assert [g.id for g in await service.posts.unannounced(grace)] == [game.id]  # start not shown
    await service.posts.mark_announced(game.id, 0)
    assert await service.posts.unannounced(grace) == []
    record = await service.play.game_in(CHANNEL)
    assert record is not None
    seat = record.seats[record.current_seat]
    _, engine_game = await service.play.state(game.id)
    spot = next(iter(engine_game.placements().items()))
    await service.play.act(game.id, seat.user_id, PlaceTile(*spot[0], spot[1][0]))
    await service.play.act(game.id, seat.user_id, Pass())
    clock.advance(minutes=3)
    (late,) = await service.posts.unannounced(grace)
    assert late.version == 2
    # Marking an older version never moves the mark back.
    await service.posts.mark_announced(game.id, 2)
    await service.posts.mark_announced(game.id, 1)
    assert await service.posts.unannounced(grace) == []


async def test_a_lobby_whose_message_never_went_out_is_missed(
    service: GameService, clock: FakeClock
) -> None:
    # The bot stopped between opening the lobby and posting its message.
    lobby = await service.lobby.create_game(GUILD, CHANNEL, ALICE, "Alice", "covenant")
    grace = timedelta(minutes=2)
    assert await service.posts.claim_missed(grace) == []  # just opened: still within the grace
    clock.advance(minutes=3)
    assert [g.id for g in await service.posts.claim_missed(grace)] == [lobby.id]
    # Posted by this process, not written yet: not missed.
    service.posts.posted(lobby.id, lobby_message_id=4242)
    assert await service.posts.unannounced(grace) == []
    await service.posts.flush_posted()
    assert (await service.play.get_game(lobby.id)).lobby_message_id == 4242
    assert await service.posts.unannounced(grace) == []
