"""Fixtures of the service tests: a real database per test, of each backend, and a clock
that stands still.

Every test that uses the database runs twice, on SQLite (a file) and on PostgreSQL (a fresh
schema; see :mod:`tests.support.databases`), through the one parametrised fixture
``backend``. A test that can only mean SQLite (a PRAGMA, a file on disk) says so with
``@pytest.mark.sqlite_only("why")`` and runs once.
"""

from __future__ import annotations

import dataclasses
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from bot.service import FakeClock, GameRecord, GameService, TurnResult
from bot.settings import Settings
from engine.common import Rng
from engine.covenant.players import sensible_action
from tests.support.databases import RawDb, database

BACKENDS = ("sqlite", "postgres")

GUILD = 1000
CHANNEL = 2000
ALICE, BOB, CAROL, DAVE = 11, 12, 13, 14
NAMES = {ALICE: "Alice", BOB: "Bob", CAROL: "Carol", DAVE: "Dave"}
MOD = 99
#: Eight tiles; with "first legal action" play and three seats in join order the game ends
#: after 16 actions with scores (1, 4, 4) (worked out with the engine alone).
SCRIPTED_DECK = ["T39", "T12", "T37", "T20", "T30", "T44", "T05", "T08"]

Opener = Callable[..., Awaitable[GameService]]

#: Computers think in a thread, for a few search iterations: quick, and the same every run.
QUICK_THINKING = Settings(think_workers=0, think_iterations=16)


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """Every test that uses ``backend`` (directly or through the database fixtures) runs on
    each backend; one marked ``sqlite_only`` on SQLite alone."""
    if "backend" in metafunc.fixturenames:
        only = metafunc.definition.get_closest_marker("sqlite_only")
        metafunc.parametrize("backend", ("sqlite",) if only else BACKENDS, indirect=True)


@pytest.fixture
def backend(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
async def db_target(backend: str, tmp_path: Path) -> AsyncIterator[str | Path]:
    """The test's database: a SQLite file, or the URL of a fresh PostgreSQL schema."""
    async with database(backend, tmp_path) as target:
        yield target


@pytest.fixture
def raw(db_target: str | Path) -> RawDb:
    """SQL on the test's database behind the service's back."""
    return RawDb(db_target)


@pytest.fixture
async def open_service(db_target: str | Path, clock: FakeClock) -> AsyncIterator[Opener]:
    """Opens services on the test's database (several may be open at once, as several bot
    processes would be); closes them all."""
    opened: list[GameService] = []

    async def opener(*, settings: Settings | None = None, **kwargs: Any) -> GameService:
        service = await GameService.open(
            db_target, settings=settings or QUICK_THINKING, clock=clock, **kwargs
        )
        opened.append(service)
        return service

    yield opener
    for service in opened:
        await service.close()  # closing twice is harmless


@pytest.fixture
async def service(open_service: Opener) -> GameService:
    return await open_service()


async def started_game(
    service: GameService,
    players: tuple[int, ...] = (ALICE, BOB, CAROL),
    *,
    channel: int = CHANNEL,
    seed: int = 5,
    deck: list[str] | None = None,
    shuffle: bool = False,
) -> GameRecord:
    """A game in ``channel`` created by the first player, joined by the rest, started."""
    options = {"deck": deck} if deck is not None else {}
    first, *rest = players
    await service.lobby.create_game(
        GUILD,
        channel,
        first,
        NAMES[first],
        "covenant",
        options=options,
        shuffle_seats=shuffle,
        seed=seed,
    )
    for user in rest:
        await service.lobby.join(channel, user, NAMES[user])
    return await service.lobby.start(channel, first)


async def play_one(
    service: GameService, game_id: int, *, policy: str = "first", rng: Rng | None = None
) -> TurnResult:
    """Play one action for whoever's turn it is: the first legal one, or a sensible one
    (after the computer players, who move in the background, have played theirs)."""
    await service.computers.settle()
    record, game = await service.play.state(game_id)
    seat = record.current
    assert seat is not None and seat.user_id is not None
    if policy == "first":
        action = game.legal_actions()[0]
    else:
        action = sensible_action(game, rng or Rng(record.version))  # type: ignore[arg-type]
    return await service.play.act(record.id, seat.user_id, action, record.version)


async def play_to_end(service: GameService, game_id: int, **kwargs: Any) -> TurnResult:
    while True:
        result = await play_one(service, game_id, **kwargs)
        if result.game_over:
            return result
        await service.computers.settle()
        record = await service.play.get_game(game_id)
        if record.status != "active":  # a computer made the last move
            over = record.status == "finished"
            return dataclasses.replace(
                result, record=record, game_over=over, scores=record.scores or result.scores
            )
