"""Moderators: ending games, removing players, handing seats over; all of it logged."""

from __future__ import annotations

import asyncio

import pytest

from bot.service import GameService, GuildSettings, ServiceError
from engine.covenant import PlaceTile
from tests.service.conftest import (
    ALICE,
    BOB,
    CAROL,
    CHANNEL,
    DAVE,
    GUILD,
    MOD,
    SCRIPTED_DECK,
    play_one,
    play_to_end,
    started_game,
)


async def test_end_game_needs_a_moderator_and_is_logged(service: GameService) -> None:
    game = await started_game(service, deck=SCRIPTED_DECK)
    with pytest.raises(ServiceError) as error:
        await service.moderation.end_game(CHANNEL, ALICE, moderator=False)
    assert error.value.code == "not_allowed"
    ended = await service.moderation.end_game(CHANNEL, MOD, moderator=True, reason="bedtime")
    assert ended.status == "ended" and ended.current_seat is None
    (entry,) = await service.moderation.log(GUILD)
    assert (entry.moderator_id, entry.act, entry.game_id) == (MOD, "end_game", game.id)
    assert entry.detail["reason"] == "bedtime"
    with pytest.raises(ServiceError) as error:
        await service.play.act(game.id, ALICE, PlaceTile(-1, 0))
    assert error.value.code == "game_over"
    assert (await service.history.stats(GUILD)).games_played == 0  # ended games have no result


async def test_creator_may_cancel_own_lobby(service: GameService) -> None:
    await service.lobby.create_game(GUILD, CHANNEL, ALICE, "Alice", "covenant")
    await service.lobby.join(CHANNEL, BOB, "Bob")
    with pytest.raises(ServiceError):
        await service.moderation.end_game(CHANNEL, BOB, moderator=False)
    assert (await service.moderation.end_game(CHANNEL, ALICE, moderator=False)).status == "ended"


async def test_removed_player_is_replaced_by_a_computer(service: GameService) -> None:
    game = await started_game(service, deck=SCRIPTED_DECK)
    with pytest.raises(ServiceError) as error:
        await service.moderation.remove_player(CHANNEL, ALICE, BOB, moderator=False)
    assert error.value.code == "not_allowed"
    result = await service.moderation.remove_player(CHANNEL, MOD, BOB, moderator=True)
    bob_seat = result.record.seats[1]
    assert bob_seat.is_bot and bob_seat.user_id is None and bob_seat.name == "Bob"
    assert result.actions == ()  # not Bob's turn: nothing to play yet
    await play_one(service, game.id)  # Alice places
    after_alice = await play_one(service, game.id)  # Alice deploys; the computer plays Bob's turn
    assert [(a.seat, a.source) for a in after_alice.actions] == [(0, "player")]
    assert after_alice.next_seat is not None and after_alice.next_seat.is_bot
    await (
        service.computers.settle()
    )  # the computer thinks in the background, then its turn is stored
    log = await service.history.actions(game.id)
    assert [(a.seat, a.source, a.user_id) for a in log[-3:]] == [
        (0, "player", ALICE), (1, "bot", None), (1, "bot", None),
    ]  # fmt: skip
    assert (await service.play.get_game(game.id)).current.user_id == CAROL  # type: ignore[union-attr]
    with pytest.raises(ServiceError) as error:
        await service.play.act(game.id, BOB, PlaceTile(0, 0))
    assert error.value.code == "not_a_player"
    final = await play_to_end(service, game.id)
    assert final.game_over
    (entry,) = await service.moderation.log(GUILD)
    assert (entry.act, entry.moderator_id, entry.target_user_id) == ("remove_player", MOD, BOB)


async def test_removing_the_current_player_lets_the_computer_move_at_once(
    service: GameService,
) -> None:
    game = await started_game(service, deck=SCRIPTED_DECK)
    await play_one(service, game.id)  # Alice placed her tile and must now deploy
    result = await service.moderation.remove_player(CHANNEL, MOD, ALICE, moderator=True)
    assert result.actions == () and result.record.current.is_bot  # type: ignore[union-attr]
    await service.computers.settle()  # the computer finished Alice's turn at once: it deployed
    record = await service.play.get_game(game.id)
    assert record.current is not None and record.current.user_id == BOB
    assert record.version == 2
    assert [a.source for a in await service.history.actions(game.id)] == ["player", "bot"]


async def test_removing_everyone_ends_the_game(service: GameService) -> None:
    await started_game(service, (ALICE, BOB), deck=SCRIPTED_DECK)
    await service.moderation.remove_player(CHANNEL, MOD, ALICE, moderator=True)
    last = await service.moderation.remove_player(CHANNEL, MOD, BOB, moderator=True)
    assert last.record.status == "ended"


async def test_removing_from_a_lobby_frees_the_seat(service: GameService) -> None:
    await service.lobby.create_game(GUILD, CHANNEL, ALICE, "Alice", "covenant")
    await service.lobby.join(CHANNEL, BOB, "Bob")
    result = await service.moderation.remove_player(CHANNEL, MOD, BOB, moderator=True)
    assert [s.user_id for s in result.record.seats] == [ALICE]


async def test_hand_seat_to_another_user(service: GameService) -> None:
    game = await started_game(service, deck=SCRIPTED_DECK)
    with pytest.raises(ServiceError):
        await service.moderation.hand_seat(
            CHANNEL, BOB, DAVE, "Dave", moderator=False, from_user_id=ALICE
        )
    with pytest.raises(ServiceError) as error:
        await service.moderation.hand_seat(
            CHANNEL, MOD, BOB, "Bob", moderator=True, from_user_id=ALICE
        )
    assert error.value.code == "target_already_joined"
    record = await service.moderation.hand_seat(
        CHANNEL, MOD, DAVE, "Dave", moderator=True, from_user_id=ALICE
    )
    assert record.seats[0].user_id == DAVE and record.seats[0].name == "Dave"
    with pytest.raises(ServiceError) as error:
        await service.play.act(game.id, ALICE, PlaceTile(-1, 0))
    assert error.value.code == "not_a_player"
    result = await service.play.act(game.id, DAVE, PlaceTile(-1, 0))
    assert result.actions[0].user_id == DAVE
    (entry,) = await service.moderation.log(GUILD)
    assert (entry.act, entry.moderator_id, entry.target_user_id) == ("hand_seat", MOD, DAVE)
    assert entry.detail["from_user_id"] == ALICE and entry.detail["seat"] == 0
    assert game.id == record.id


async def test_hand_a_computer_seat_back_to_a_human(service: GameService) -> None:
    await started_game(service, deck=SCRIPTED_DECK)
    await service.moderation.remove_player(CHANNEL, MOD, CAROL, moderator=True)
    record = await service.moderation.hand_seat(
        CHANNEL, MOD, DAVE, "Dave", moderator=True, seat_index=2
    )
    assert not record.seats[2].is_bot and record.seats[2].user_id == DAVE
    log = await service.moderation.log(GUILD)
    assert [e.act for e in log] == ["hand_seat", "remove_player"]


async def test_a_settings_change_applies_at_once_even_while_they_are_being_read(
    service: GameService, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The process that changes the settings uses them at once: a read of the old ones
    that was on its way (a post's language, say) does not keep them for another minute."""
    core, read = service.core, service.core.guild_settings
    fetched, go_on = asyncio.Event(), asyncio.Event()

    async def slow_read(guild_id: int) -> GuildSettings:
        found = await read(guild_id)  # the old settings, read before the change
        fetched.set()
        await go_on.wait()
        return found

    monkeypatch.setattr(core, "guild_settings", slow_read)
    reading = asyncio.create_task(service.recent_guild_settings(GUILD))
    await asyncio.wait_for(fetched.wait(), 10)
    monkeypatch.setattr(core, "guild_settings", read)
    await service.set_guild_settings(GUILD, MOD, moderator=True, language="nl")
    go_on.set()
    assert (await reading).language is None  # what it read, before the change
    assert (await service.recent_guild_settings(GUILD)).language == "nl"
