"""Fixtures for end-to-end tests: a fake Discord per test, and bot processes against it
(the conftest.py of each folder of end-to-end tests imports them)."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from pathlib import Path

import pytest

from tests.support.fake_discord import BotProcess, FakeDiscord, python_argv
from tests.support.players import arkbot_env, wait_until_up

PROBE = Path(__file__).with_name("probe_bot.py")
REPO = Path(__file__).resolve().parents[2]

StartBot = Callable[..., Awaitable[BotProcess]]

# A worker being started when its bot is SIGKILLed finds the pipe it reads its start data from
# closed, and Python's spawn code prints this before any of ours runs: the tests kill on
# purpose, so it is the test's doing, not a fault of the bot.
_ORPHANED_WORKER = re.compile(
    r"Traceback \(most recent call last\):\n"
    r"(?:  .*\n)*?  File \".*multiprocessing[/\\]spawn\.py\".*\n(?:  .*\n)*"
    r"EOFError: Ran out of input\n?"
)


def tracebacks(output: str) -> list[str]:
    """The tracebacks in a bot's output, less those of workers orphaned by a kill."""
    rest = _ORPHANED_WORKER.sub("", output)
    return [part[:2000] for part in rest.split("Traceback (most recent call last)")[1:]]


@pytest.fixture
async def fake_discord() -> AsyncIterator[FakeDiscord]:
    """A started fake Discord on 127.0.0.1 (ephemeral port), closed after the test."""
    fake = FakeDiscord()
    await fake.start()
    try:
        yield fake
    finally:
        await fake.close()


@pytest.fixture
async def start_bot(
    fake_discord: FakeDiscord, tmp_path: Path, request: pytest.FixtureRequest
) -> AsyncIterator[StartBot]:
    """Factory: ``await start_bot(argv=None, env=None)`` runs a bot process at the fake.

    ``argv`` defaults to the probe bot; the lead's scenarios pass
    ``python_argv("-m", "bot")``. Every process is stopped in teardown, and its output is
    printed when the test failed.
    """
    started: list[BotProcess] = []

    async def start(
        argv: Sequence[str] | None = None, env: dict[str, str] | None = None
    ) -> BotProcess:
        proc = BotProcess(
            argv or python_argv(str(PROBE)),
            {**fake_discord.env(), **(env or {})},
            tmp_path / f"bot{len(started)}.log",
            cwd=REPO,
        )
        started.append(proc)
        return await proc.start()

    try:
        yield start
    finally:
        for proc in started:
            await proc.stop()
        failed = getattr(request.node, "rep_call", None)
        if failed is not None and failed.failed:
            for proc in started:
                print(f"---- output of {proc.argv}:\n{proc.output()}")


@pytest.fixture
async def probe(fake_discord: FakeDiscord, start_bot: StartBot) -> AsyncIterator[BotProcess]:
    """The probe bot, logged in and with its commands synced (global and guild).

    After the test, its output must hold no traceback: discord.py logs handler errors
    and payload parse failures there rather than raising into the test.
    """
    proc = await start_bot(env={"PROBE_GUILD_ID": str(fake_discord.GUILD_ID)})
    try:
        await fake_discord.wait_ready(timeout=15)
        await fake_discord.recorder.wait_until(
            lambda: len(fake_discord.recorder.commands_synced) >= 2, 10, "command sync"
        )
    except TimeoutError as err:
        raise AssertionError(f"probe did not come up:\n{proc.output()}") from err
    yield proc
    assert not tracebacks(proc.output(tail=None)), proc.output()


Arkbot = Callable[[], Awaitable[BotProcess]]


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "arkbot.sqlite3"


@pytest.fixture
async def arkbot(
    fake_discord: FakeDiscord, start_bot: StartBot, db_path: Path
) -> AsyncIterator[Arkbot]:
    """Factory: start ``python -m bot`` at the fake and wait until it has logged in.

    After the test: the fake met no request it does not know, and the bot logged no
    traceback (discord.py logs handler errors instead of raising them).
    """
    procs: list[BotProcess] = []

    async def run() -> BotProcess:
        proc = await start_bot(python_argv("-m", "bot"), arkbot_env(fake_discord, db_path))
        await wait_until_up(fake_discord, proc)
        procs.append(proc)
        return proc

    yield run
    rec = fake_discord.recorder
    assert rec.unknown == [], [f"{r.method} {r.path}" for r in rec.unknown]
    for proc in procs:
        assert not tracebacks(proc.output(tail=None)), proc.output()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo) -> object:
    """Keep the call-phase report on the item, so teardown knows whether to dump logs."""
    outcome = yield
    report = outcome.get_result()  # type: ignore[attr-defined]
    if report.when == "call":
        item.rep_call = report  # type: ignore[attr-defined]
    return None
