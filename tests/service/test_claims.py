"""Claims of background work and the processes that hold them (issue 31, item 4), on every
backend: a process that takes the place of one that stopped (a crash loop at start-up)
takes on its claims at once, not after their leases; a live process's claims are never
taken, nor is the computer's turn it is thinking about, and it keeps them when its
PostgreSQL session is cut.

A process is a :class:`GameService` here (several open on one database, as several bot
processes would be); one that is closed without doing the work it claimed is one that died.
"""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import AsyncIterator
from datetime import timedelta

import asyncpg
import pytest

from bot.service import FakeClock, GameService
from bot.service.models import DueTurn
from bot.service.storage.postgres import PostgresStorage
from bot.service.thinking import Thinker
from tests.service.conftest import (
    ALICE,
    CHANNEL,
    QUICK_THINKING,
    SCRIPTED_DECK,
    Opener,
    started_game,
)
from tests.service.test_computers import Held, computer_to_play
from tests.service.test_lost_connection import terminate
from tests.support.databases import RawDb, fresh_schema

#: Leases far longer than any test: whatever is taken on was taken on before they ran out.
LONG = dataclasses.replace(QUICK_THINKING, claim_lease=timedelta(hours=1))
#: The channel of the game of people (the computers' game is in CHANNEL).
PEOPLE = CHANNEL + 1
NO_GRACE = timedelta(0)


async def _claims(
    service: GameService, clock: FakeClock, thinker: Held
) -> tuple[int, int, DueTurn]:
    """``service`` claims one of each kind of work: the missed first boards of two games, the
    reminder of the people's game, and the computer's turn of the other (which it thinks
    about, without end). Returns (the people's game, the computers' game, the reminder)."""
    people = (await started_game(service, channel=PEOPLE, deck=SCRIPTED_DECK)).id
    clock.advance(seconds=21)  # past the cool-down between tables
    clock.advance(hours=36)  # half of the people's first turn: a reminder is due
    computers = await computer_to_play(service)
    await asyncio.wait_for(thinker.began.wait(), 10)  # the computer's turn: thought about
    assert {r.id for r in await service.posts.claim_missed(NO_GRACE)} == {people, computers}
    reminder = await _reminder(service)
    assert await service.notices.claim(reminder)
    return people, computers, reminder


async def _reminder(service: GameService) -> DueTurn:
    (due,) = await service.notices.due()
    assert due.kind == "reminder" and due.seat.user_id == ALICE
    return due


async def test_a_process_in_the_place_of_one_that_died_takes_on_its_claims_at_once(
    open_service: Opener, clock: FakeClock
) -> None:
    thinker = Held()
    died = await open_service(settings=LONG, thinker=thinker)
    people, computers, _ = await _claims(died, clock, thinker)
    await died.close()  # killed: what it claimed is neither done nor given back
    restarted = await open_service(settings=LONG)
    # Its place is the one that died: the claims made there are its to take, while an
    # hour's leases still hold.
    assert {r.id for r in await restarted.posts.claim_missed(NO_GRACE)} == {people, computers}
    assert await restarted.notices.claim(await _reminder(restarted))
    assert await restarted.computers.wake_computers(NO_GRACE) == 1
    await restarted.computers.settle()
    record = await restarted.play.get_game(computers)
    assert record.current is not None and record.current.user_id == ALICE  # the computer played


async def test_no_live_process_takes_another_s_claims(
    open_service: Opener, clock: FakeClock, raw: RawDb
) -> None:
    thinker = Held()
    live = await open_service(settings=LONG, thinker=thinker)
    other = await open_service(settings=LONG)
    people, computers, reminder = await _claims(live, clock, thinker)
    later = await open_service(settings=LONG)  # starts while the first lives
    for process in (other, later):
        assert await process.posts.claim_missed(NO_GRACE) == []
        assert await process.notices.due() == []  # claimed: not offered
        assert not await process.notices.claim(reminder)
        assert await process.computers.wake_computers(NO_GRACE) == 0
    # The computers' game's board is shown: its post's claim ends, not the thinking.
    live.posts.posted(computers, (await live.play.get_game(computers)).version)
    await live.posts.flush_posted()
    assert await other.computers.wake_computers(NO_GRACE) == 0
    assert await later.computers.wake_computers(NO_GRACE) == 0
    holder = await raw.scalar("SELECT think_holder FROM games WHERE id = ?", computers)
    assert holder == await live.core.claimant()
    assert await raw.scalar("SELECT lease_holder FROM games WHERE id = ?", people) == holder


async def test_two_processes_thinking_for_one_computer_never_both_think(
    open_service: Opener,
) -> None:
    """A process that wakes a computer whose turn another live process is thinking about
    (both woke it: one after its move, one in its start-up round) leaves it to that one."""
    thinker, other_thinker = Held(), Held()
    first = await open_service(thinker=thinker)
    second = await open_service(thinker=other_thinker)
    game = await computer_to_play(first)
    await asyncio.wait_for(thinker.began.wait(), 10)
    second.computers.wake(await second.play.get_game(game))
    # It looked, and left the turn to the first (thinking, it would never settle).
    await asyncio.wait_for(second.computers.settle(), 10)
    assert not other_thinker.began.is_set()


@pytest.fixture
async def postgres_url() -> AsyncIterator[str]:
    async with fresh_schema("arkbot_claims") as url:
        yield url


async def test_a_process_whose_session_is_cut_keeps_its_place_and_claims(
    postgres_url: str,
) -> None:
    """On PostgreSQL a place is a session's lock, which the server ends with the session
    (an administrator, a restart): the live process takes its place again before its next
    claim, its claims stay its own, and a process starting after it gets a place of its own."""
    clock, thinker = FakeClock(), Held()
    opened: list[GameService] = []

    async def open_one(thinker: Thinker | None = None) -> GameService:
        service = await GameService.open(postgres_url, settings=LONG, clock=clock, thinker=thinker)
        opened.append(service)
        return service

    try:
        live = await open_one(thinker)
        people, computers, reminder = await _claims(live, clock, thinker)
        holder = await live.core.claimant()
        storage = live.storage
        assert isinstance(storage, PostgresStorage)
        session = storage._place._connection
        assert isinstance(session, asyncpg.Connection)
        await terminate(postgres_url, session.get_server_pid())
        assert await live.core.claimant() == holder  # the same place, taken again
        later = await open_one()
        assert await later.posts.claim_missed(NO_GRACE) == []
        assert not await later.notices.claim(reminder)
        assert await later.computers.wake_computers(NO_GRACE) == 0
        assert (await later.core.claimant()).startswith("1/")
        raw = RawDb(postgres_url)
        for game, lease in ((people, "lease"), (computers, "think")):
            sql = f"SELECT {lease}_holder FROM games WHERE id = ?"
            assert await raw.scalar(sql, game) == holder
    finally:
        for service in opened:
            await service.close()
