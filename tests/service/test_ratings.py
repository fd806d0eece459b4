"""Ratings (issue 15): Elo over every pair at the table, people only, leavers last."""

from __future__ import annotations

from bot.service import GameService
from bot.service.models import Rating
from bot.service.ratings import Finish, places, rated
from tests.service.conftest import (
    ALICE,
    BOB,
    CAROL,
    CHANNEL,
    GUILD,
    MOD,
    SCRIPTED_DECK,
    play_to_end,
    started_game,
)


def test_two_players_are_plain_elo_and_bigger_tables_move_as_much() -> None:
    duel = rated({}, [Finish(1, "a", 1, True), Finish(2, "b", 2, False)])
    assert [(r.user_id, r.rating, r.games, r.wins) for r in duel] == [
        (1, 1016.0, 1, 1),
        (2, 984.0, 1, 0),
    ]
    table = rated({}, [Finish(1, "a", 1, True), Finish(2, "b", 2, False), Finish(3, "c", 3, False)])
    assert [r.rating for r in table] == [1016.0, 1000.0, 984.0]
    # The favourite gains little by winning, the outsider much.
    before = {1: Rating(1, "a", 1200.0, 5, 4), 2: Rating(2, "b", 1000.0, 5, 1)}
    upset = rated(before, [Finish(1, "a", 2, False), Finish(2, "b", 1, True)])
    assert [r.rating for r in upset] == [1175.69, 1024.31]
    assert rated({}, [Finish(1, "a", 1, True)]) == []  # alone: nothing to rate
    assert places([1, 4, 4, 0]) == [3, 1, 1, 4]


async def test_a_finished_game_rates_its_people(service: GameService) -> None:
    game = await started_game(service, deck=SCRIPTED_DECK)
    await play_to_end(service, game.id)  # scores (1, 4, 4): Bob and Carol share the win
    ratings = {r.user_id: r for r in await service.history.ratings(GUILD, "covenant")}
    assert {u: (r.rating, r.games, r.wins) for u, r in ratings.items()} == {
        ALICE: (984.0, 1, 0),
        BOB: (1008.0, 1, 1),
        CAROL: (1008.0, 1, 1),
    }


async def test_who_leaves_finishes_last_and_computers_do_not_count(
    service: GameService,
) -> None:
    game = await started_game(service, deck=SCRIPTED_DECK)
    await service.moderation.leave_game(CHANNEL, CAROL)  # a computer plays her seat from now on
    await play_to_end(service, game.id)
    ratings = {r.user_id: r for r in await service.history.ratings(GUILD, "covenant")}
    assert set(ratings) == {ALICE, BOB, CAROL}
    assert ratings[CAROL].rating == min(r.rating for r in ratings.values())
    assert ratings[CAROL].wins == 0


async def test_games_ended_early_are_not_rated(service: GameService) -> None:
    await started_game(service, deck=SCRIPTED_DECK)
    await service.moderation.end_game(CHANNEL, MOD, moderator=True)
    assert await service.history.ratings(GUILD, "covenant") == []
