"""Computer players in the service, on every backend: added in a lobby at a level, thinking
in the background after the move that hands them the turn, one turn landing however many
processes think it, and a computer's turn that a crash interrupted played after a restart.
"""

from __future__ import annotations

import asyncio
import logging
from datetime import timedelta
from typing import Any

import pytest

import engine.ai
from bot.service import GameService, ServiceError
from bot.service.thinking import Budget, Thinker
from tests.service.conftest import (
    ALICE,
    BOB,
    CHANNEL,
    GUILD,
    QUICK_THINKING,
    Opener,
    play_one,
)


async def table_with_computers(service: GameService, *levels: str) -> int:
    record = await service.lobby.create_game(
        GUILD, CHANNEL, ALICE, "Alice", "covenant", shuffle_seats=False, seed=9
    )
    for level in levels:
        await service.lobby.add_computer(CHANNEL, ALICE, level)
    return record.id


async def computer_to_play(service: GameService) -> int:
    """Alice and a normal computer at a started table, Alice's first turn played: it is the
    computer's turn, which it thinks about in the background. Returns the game's id."""
    game_id = await table_with_computers(service, "normal")
    await service.lobby.start(CHANNEL, ALICE)
    result = await play_one(service, game_id)
    while not result.turn_over:
        result = await play_one(service, game_id)
    return game_id


class Held(Thinker):
    """A computer whose thinking goes on until the test lets it answer (with what a quick
    computer plays), or for ever (a process that dies while it thinks); says when it began."""

    def __init__(self) -> None:
        super().__init__(0, Budget(iterations=QUICK_THINKING.think_iterations))
        self.began, self.answer = asyncio.Event(), asyncio.Event()

    async def turn(self, *args: Any, **kwargs: Any) -> list[dict[str, Any]]:
        self.began.set()
        await self.answer.wait()
        return await super().turn(*args, **kwargs)


async def test_the_creator_adds_and_removes_computers_in_the_lobby(service: GameService) -> None:
    await table_with_computers(service, "easy", "strong")
    await service.lobby.join(CHANNEL, BOB, "Bob")
    with pytest.raises(ServiceError) as refused:
        await service.lobby.add_computer(CHANNEL, BOB, "normal")
    assert refused.value.code == "not_creator"
    with pytest.raises(ServiceError) as refused:
        await service.lobby.add_computer(CHANNEL, ALICE, "genius")
    assert refused.value.code == "bad_level"
    record = await service.play.game_in(CHANNEL)
    assert record is not None
    seats = [(s.name, s.user_id, s.is_bot, s.level) for s in record.seats]
    assert seats == [
        ("Alice", ALICE, False, None),
        ("Miriam", None, True, "easy"),
        ("Jonah", None, True, "strong"),
        ("Bob", BOB, False, None),
    ]
    record = await service.lobby.remove_computer(CHANNEL, ALICE)  # the last computer goes
    assert [s.name for s in record.seats] == ["Alice", "Miriam", "Bob"]
    assert [s.index for s in record.seats] == [0, 1, 2]
    # Computers alone do not keep a table: when the people leave, it closes.
    await service.lobby.leave(CHANNEL, BOB)
    closed = await service.lobby.leave(CHANNEL, ALICE)
    assert closed.status == "ended"


async def test_a_full_table_takes_no_computer(service: GameService) -> None:
    await table_with_computers(service, "easy", "easy", "easy", "easy")
    with pytest.raises(ServiceError) as refused:
        await service.lobby.add_computer(CHANNEL, ALICE, "easy")
    assert (refused.value.code, refused.value.params) == ("lobby_full", {"max": 5})


async def test_the_computer_plays_its_level_after_the_person_in_the_background(
    service: GameService,
) -> None:
    game_id = await table_with_computers(service, "strong")
    await service.lobby.start(CHANNEL, ALICE)
    _, before = await service.play.state(game_id)
    # Alice plays her whole turn; the answer comes back before the computer has moved.
    result = await play_one(service, game_id)
    while not result.turn_over:
        result = await play_one(service, game_id)
    assert result.next_seat is not None and result.next_seat.is_bot
    assert all(a.source == "player" for a in result.actions)
    _, at_handover = await service.play.state(game_id)
    await service.computers.settle()
    record, after = await service.play.state(game_id)
    assert record.current is not None and record.current.user_id == ALICE
    # Exactly the moves the strong computer chooses with the service's seeds and budget.
    log = await service.history.actions(game_id)
    theirs = [a for a in log if a.seat == 1]
    assert {(a.source, a.user_id) for a in theirs} == {("bot", None)}
    replay = at_handover.copy()
    version = record.version - len(theirs)
    for i, stored in enumerate(theirs):
        seed = (9 * 0x9E3779B97F4A7C15 + version + 1) & 0x7FFFFFFF
        chosen = engine.ai.choose(
            replay, "strong", seed=seed + i, iterations=QUICK_THINKING.think_iterations
        )
        assert chosen.to_dict() == stored.action
        replay.apply(chosen, seat=1)
    assert replay.to_json() == after.to_json()
    assert before.to_json() != after.to_json()


async def test_a_computer_turn_lands_once_when_two_processes_think_it(
    open_service: Opener,
) -> None:
    first = await open_service()
    second = await open_service()
    game_id = await computer_to_play(first)
    # Both processes think for the same turn at once (say, one after a restart).
    second.computers.wake(await second.play.get_game(game_id))
    await asyncio.gather(first.computers.settle(), second.computers.settle())
    log = await first.history.actions(game_id)
    turn_of_the_computer = [a for a in log if a.seat == 1]
    _, game = await first.play.state(game_id)
    assert game.current_player == 0
    # One turn of the computer: its actions were stored once, not twice.
    seqs = [a.seq for a in log]
    assert seqs == list(range(1, len(log) + 1))
    assert len(turn_of_the_computer) == len({a.seq for a in turn_of_the_computer})
    record = await first.play.get_game(game_id)
    assert record.version == len(log)


async def test_a_computer_turn_cut_off_by_a_crash_is_played_after_the_restart(
    open_service: Opener,
) -> None:
    crashed = await open_service(thinker=Held())  # never answers
    game_id = await computer_to_play(crashed)
    await asyncio.sleep(0)
    assert game_id in crashed.computers._thinking  # stuck thinking, as a killed process would be
    await crashed.close()
    restarted = await open_service()
    # Within the grace the turn may still be on its way elsewhere: it is left alone.
    assert await restarted.computers.wake_computers(grace=timedelta(minutes=2)) == 0
    assert await restarted.computers.wake_computers(grace=timedelta(0)) == 1
    # A second process asking meanwhile finds it claimed.
    other = await open_service()
    assert await other.computers.wake_computers(grace=timedelta(0)) == 0
    await restarted.computers.settle()
    record = await restarted.play.get_game(game_id)
    assert record.current is not None and record.current.user_id == ALICE
    assert {a.source for a in await restarted.history.actions(game_id) if a.seat == 1} == {"bot"}


async def test_a_game_ended_while_its_computer_thinks_is_no_error(
    open_service: Opener, caplog: pytest.LogCaptureFixture
) -> None:
    """A moderator ends the game while the computer thinks: its move comes too late, which
    is the race it is (a line of information), not an error with a traceback."""
    thinker = Held()
    service = await open_service(thinker=thinker)
    game_id = await computer_to_play(service)
    await asyncio.wait_for(thinker.began.wait(), 10)
    await service.moderation.end_game(CHANNEL, 99, moderator=True)
    with caplog.at_level(logging.INFO, logger="arkbot"):
        thinker.answer.set()
        await asyncio.wait_for(service.computers.settle(), 10)
    ours = [r for r in caplog.records if r.name.startswith("arkbot")]
    assert [r.getMessage() for r in ours if r.levelno >= logging.WARNING] == []
    (told,) = [r for r in ours if f"game {game_id}" in r.getMessage()]
    assert told.levelno == logging.INFO and told.exc_info is None
    assert "ended" in told.getMessage()
    assert (await service.play.get_game(game_id)).status == "ended"
