"""The real bot on a real SQLite file, driven through the in-process harness: its settings,
the people at the table, and the fixtures ``db_path`` and ``harness`` (which the conftest.py
of each folder that uses them imports, so every game's folder gets the same ones)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import timedelta
from pathlib import Path

import pytest

from bot.client import TableBot
from bot.service import Clock, GameService
from bot.settings import Settings
from tests.support.harness import Harness

CHANNEL = 500
#: The Discord user ids of the people in the scripted games (names given by each test).
RUTH, BOAZ, STRANGER, LEADER = 11, 12, 13, 14


def make_settings(path: Path, take_back: timedelta = timedelta(0)) -> Settings:
    # poll_seconds=0: no background reminder loop; tests call run_once themselves.
    # render_workers=0: pictures in threads here; the end-to-end tests use worker processes.
    # take_back=0: every turn is posted at once (the tests of taking a turn back set it).
    return Settings(
        db_path=path,
        poll_seconds=0,
        render_workers=0,
        think_workers=0,
        think_iterations=16,
        take_back=take_back,
    )


async def make_bot(
    path: Path, clock: Clock | None = None, *, take_back: timedelta = timedelta(0)
) -> TableBot:
    settings = make_settings(path, take_back)
    service = await GameService.open(path, settings=settings, clock=clock)
    return TableBot(settings, service=service)


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "arkbot.sqlite3"


@pytest.fixture
async def harness(db_path: Path) -> AsyncIterator[Harness]:
    async with Harness(await make_bot(db_path), channel_id=CHANNEL) as h:
        yield h
