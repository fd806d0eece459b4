"""Playing through the service: whole games, refusals, stale clicks, history, stats."""

from __future__ import annotations

import pytest

from bot.service import GameService, ServiceError
from engine.common import Rng
from engine.covenant import Game, Pass, PlaceTile, action_from_dict
from engine.errors import IllegalAction, Refusal
from tests.service.conftest import (
    ALICE,
    BOB,
    CAROL,
    CHANNEL,
    DAVE,
    GUILD,
    SCRIPTED_DECK,
    play_one,
    play_to_end,
    started_game,
)


async def test_whole_scripted_game_from_lobby_to_final_scores(service: GameService) -> None:
    game = await started_game(service, deck=SCRIPTED_DECK)
    final = await play_to_end(service, game.id)
    assert final.game_over and final.next_seat is None
    assert final.scores == (1, 4, 4)
    assert final.events[-1].type == "game_over"
    record = await service.play.get_game(game.id)
    assert record.status == "finished" and record.version == 16
    assert record.scores == (1, 4, 4) and record.winners == (1, 2)
    assert await service.play.game_in(CHANNEL) is None
    history = await service.history.actions(game.id)
    assert [a.seq for a in history] == list(range(1, 17))
    assert {a.user_id for a in history} == {ALICE, BOB, CAROL}
    assert history[0].action == {"type": "place_tile", "x": -1, "y": 0, "rotation": 0}
    stats = await service.history.stats(GUILD)
    assert stats.games_played == 1 and stats.wins == {BOB: 1, CAROL: 1}
    assert stats.names[BOB] == "Bob"


async def test_whole_shuffled_game_matches_the_engine(service: GameService) -> None:
    """A full 72-tile game: the service's outcome is the engine's, action for action."""
    game = await started_game(service, (ALICE, BOB, CAROL, DAVE), seed=21, shuffle=True)
    final = await play_to_end(service, game.id, policy="sensible")
    history = await service.history.actions(game.id)
    engine = Game.new(players=4, seed=21)
    for entry in history:
        assert entry.seat == engine.current_player
        engine.apply(action_from_dict(entry.action))
    assert engine.phase == "over" and final.scores == engine.scores
    assert (await service.play.get_game(game.id)).winners == engine.winners


async def test_turn_result_names_the_next_player(service: GameService) -> None:
    game = await started_game(service, deck=SCRIPTED_DECK)
    placed = await service.play.act(game.id, ALICE, {"type": "place_tile", "x": -1, "y": 0})
    assert placed.next_seat is not None and placed.next_seat.user_id == ALICE  # deploy next
    assert [e.type for e in placed.events] == ["tile_placed"]
    passed = await service.play.act(game.id, ALICE, Pass(), expected_version=1)
    assert passed.next_seat is not None and passed.next_seat.user_id == BOB
    assert [e.type for e in passed.events] == ["passed", "turn_started"]
    assert passed.record.version == 2 and passed.record.current_seat == 1
    assert [a.seq for a in passed.actions] == [2]
    assert game.id == passed.record.id


async def test_refusals_change_nothing(service: GameService) -> None:
    game = await started_game(service, deck=SCRIPTED_DECK)
    before = await service.play.get_game(game.id)

    async def refused(
        user: int, action: object, code: str, version: int | None = None
    ) -> dict[str, object]:
        with pytest.raises(Refusal) as error:
            await service.play.act(game.id, user, action, version)
        assert error.value.code == code
        # The service's own refusals, and the engine's passed on as they are, with the game.
        assert isinstance(error.value, ServiceError) or error.value.game == "covenant"
        after = await service.play.get_game(game.id)
        assert after.version == before.version and await service.history.actions(game.id) == []
        return error.value.params

    # Bob is told whose turn it is: Alice's (seat 0), not his own.
    assert await refused(BOB, PlaceTile(-1, 0), "not_your_turn") == {
        "current": 0,
        "player": "Alice",
    }
    await refused(DAVE, PlaceTile(-1, 0), "not_a_player")
    # The engine's refusal is passed on: its game, its code and its values.
    assert await refused(ALICE, PlaceTile(5, 5), "not_adjacent") == {"x": 5, "y": 5}
    assert await refused(ALICE, Pass(), "wrong_phase") == {
        "phase": "place_tile",
        "attempted": "pass",
    }
    await refused(ALICE, {"type": "fly"}, "bad_action")
    await refused(ALICE, {"type": "place_tile", "x": "a"}, "bad_action")
    # The refused actions did not disturb the cached game either.
    result = await service.play.act(game.id, ALICE, PlaceTile(-1, 0))
    assert result.record.version == 1


async def test_illegal_action_keeps_engine_code(service: GameService) -> None:
    game = await started_game(service, deck=SCRIPTED_DECK)
    with pytest.raises(IllegalAction) as error:
        await service.play.act(game.id, ALICE, Pass())
    assert (error.value.game, error.value.code) == ("covenant", "wrong_phase")


async def test_a_move_of_several_actions_is_stored_whole_or_not_at_all(
    service: GameService,
) -> None:
    """A tile placed with what follows it in one tap: both actions in one write, or, if the
    second cannot be played, neither."""
    game = await started_game(service, deck=SCRIPTED_DECK)
    with pytest.raises(IllegalAction) as error:
        await service.play.act(game.id, ALICE, PlaceTile(-1, 0), then=(PlaceTile(1, 0),))
    assert error.value.code == "wrong_phase"
    assert (await service.play.get_game(game.id)).version == 0
    assert await service.history.actions(game.id) == []
    result = await service.play.act(game.id, ALICE, PlaceTile(-1, 0), then=(Pass(),))
    assert result.record.version == 2 and result.turn_over
    logged = [a.action["type"] for a in await service.history.actions(game.id)]
    assert logged == ["place_tile", "pass"]


async def test_finished_game_refuses_actions(service: GameService) -> None:
    game = await started_game(service, deck=SCRIPTED_DECK)
    await play_to_end(service, game.id)
    with pytest.raises(ServiceError) as error:
        await service.play.act(game.id, ALICE, Pass())
    assert error.value.code == "game_over"
    with pytest.raises(ServiceError) as error:
        await service.play.act(game.id + 5, ALICE, Pass())
    assert error.value.code == "no_game"


async def test_lobby_refuses_actions(service: GameService) -> None:
    game = await service.lobby.create_game(GUILD, CHANNEL, ALICE, "Alice", "covenant")
    with pytest.raises(ServiceError) as error:
        await service.play.act(game.id, ALICE, Pass())
    assert error.value.code == "not_started"


async def test_stale_version_is_refused(service: GameService) -> None:
    game = await started_game(service, deck=SCRIPTED_DECK)
    await service.play.act(game.id, ALICE, PlaceTile(-1, 0), expected_version=0)
    with pytest.raises(ServiceError) as error:
        await service.play.act(game.id, ALICE, PlaceTile(-1, 0), expected_version=0)
    assert (error.value.code, error.value.params) == ("stale", {})


async def test_state_is_a_private_copy(service: GameService) -> None:
    game = await started_game(service, deck=SCRIPTED_DECK)
    _, engine = await service.play.state(game.id)
    engine.apply(engine.legal_actions()[0])
    record, fresh = await service.play.state(game.id)
    assert record.version == 0 and fresh.phase == "place_tile"


async def test_games_in_several_channels_are_independent(service: GameService) -> None:
    one = await started_game(service, channel=1, deck=SCRIPTED_DECK)
    two = await started_game(service, channel=2, seed=9)
    rng = Rng(1)
    for _ in range(6):
        await play_one(service, one.id)
        await play_one(service, two.id, policy="sensible", rng=rng)
    assert (await service.play.get_game(one.id)).version == 6
    assert (await service.play.get_game(two.id)).version == 6
    assert len(await service.moderation.games(GUILD)) == 2


async def test_whole_card_game_through_the_service(service: GameService) -> None:
    """Ark (engine.noah) through the same service: lobby, play, restart-free replay."""
    await service.lobby.create_game(GUILD, CHANNEL, ALICE, "Alice", game_name="noah", seed=4)
    await service.lobby.join(CHANNEL, BOB, "Bob")
    await service.lobby.join(CHANNEL, CAROL, "Carol")
    game = await service.lobby.start(CHANNEL, ALICE)
    final = await play_to_end(service, game.id)
    assert final.record.status == "finished" and final.scores == final.record.scores
    service.forget()
    _, replayed = await service.play.state(game.id)
    assert replayed.phase == "over" and replayed.scores == final.scores
