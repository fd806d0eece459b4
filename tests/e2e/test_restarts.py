"""A bot process killed right after it claimed work, and started again at once (a crash loop
at start-up; issue 31, item 4): the restart carries on with that work at once, not after the
claim's lease, on SQLite and on PostgreSQL.

The unmodified ``python -m bot`` runs against the fake Discord; the test kills it (SIGKILL)
as soon as the database shows its claim, and starts it again. The leases are long (a
computer's turn two minutes, a missed board an hour here): what the restart does within the
bounded waits below, it did because it took its predecessor's place, not because a lease ran
out. The service tests (``tests/service/test_claims.py``) show that a live process's claims
are never taken.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.service import GameService
from bot.settings import Settings
from tests.e2e.test_bot_e2e import DECK
from tests.service.conftest import play_one
from tests.service.test_computers import Held
from tests.support.databases import RawDb, database
from tests.support.e2e import StartBot, tracebacks
from tests.support.fake_discord import BotProcess, FakeDiscord, FakeMessage, python_argv
from tests.support.players import arkbot_env, open_lobby, wait_until_up

#: How long a restarted process may take to carry on: far less than the leases it breaks.
SOON = 45.0
#: How long a missed board's claim holds (an hour): far longer than the test.
CLAIM_SECONDS = "3600"
#: A strong computer thinks this long a move in the process that is killed: it is killed
#: thinking. The restart thinks a few iterations: quick.
SLOW, QUICK = {"ARKBOT_AI_SECONDS": "60"}, {"ARKBOT_AI_ITERATIONS": "16"}


@pytest.fixture(params=["sqlite", "postgres"])
async def target(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[str | Path]:
    async with database(request.param, tmp_path) as found:
        yield found


async def _bot(start_bot: StartBot, fake: FakeDiscord, target: str | Path) -> BotProcess:
    env = arkbot_env(fake, target, ARKBOT_CLAIM_SECONDS=CLAIM_SECONDS, **SLOW)
    proc = await start_bot(python_argv("-m", "bot"), env)
    await wait_until_up(fake, proc, timeout=60)
    return proc


async def _killed_once_it_claims(proc: BotProcess, target: str | Path, game_id: int) -> None:
    """Kill ``proc`` as soon as the game's row names it as the holder of a claim (the
    claims are named ``...<host>:<pid>:<tag>``)."""
    assert proc.proc is not None
    mark, raw = f":{proc.proc.pid}:", RawDb(target)
    for _ in range(600):
        row = (await raw.rows("SELECT * FROM games WHERE id = ?", game_id))[0]
        if any(mark in str(value) for value in row):
            await proc.kill()
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"the bot never claimed game {game_id}:\n{proc.output()}")


async def _restarted(proc: BotProcess, fake: FakeDiscord, **env: str) -> None:
    proc.env.update(env)
    await proc.start()
    await wait_until_up(fake, proc, timeout=60)


def _boards(fake: FakeDiscord, channel_id: int, game_id: int) -> list[FakeMessage]:
    return [
        m
        for m in fake.recorder.messages_in(channel_id)
        if m.files and str(m.payload.get("nonce") or "").startswith(f"{game_id}.")
    ]


async def test_a_restart_plays_the_computer_s_turn_its_killed_predecessor_claimed(
    fake_discord: FakeDiscord, start_bot: StartBot, target: str | Path
) -> None:
    fake = fake_discord
    channel, alice = fake.channel("games"), fake.user("alice")
    # Alice has played her turn; the computer's is waiting (shown, and nobody thinks).
    service = await GameService.open(target, settings=Settings(think_workers=0), thinker=Held())
    try:
        lobby = await service.lobby.create_game(
            fake.GUILD_ID,
            channel.id,
            alice.id,
            "Alice",
            "covenant",
            options={"deck": DECK},
            shuffle_seats=False,
        )
        await service.lobby.add_computer(channel.id, alice.id, "strong")
        await service.lobby.start(channel.id, alice.id)
        result = await play_one(service, lobby.id)
        while not result.turn_over:
            result = await play_one(service, lobby.id)
        await service.posts.mark_announced(lobby.id, result.record.version)
    finally:
        await service.close()

    proc = await _bot(start_bot, fake, target)  # its first round claims the computer's turn
    await _killed_once_it_claims(proc, target, lobby.id)
    await _restarted(proc, fake, **QUICK)
    await fake.recorder.wait_until(
        lambda: _boards(fake, channel.id, lobby.id), SOON, "the computer's turn"
    )
    reader = await GameService.open(target)
    try:
        record = await reader.play.get_game(lobby.id)
        assert record.current is not None and record.current.user_id == alice.id
        assert {a.source for a in await reader.history.actions(lobby.id) if a.seat == 1} == {"bot"}
    finally:
        await reader.close()
    assert not tracebacks(proc.output(tail=None)), proc.output()


async def test_a_restart_posts_the_board_its_killed_predecessor_claimed(
    fake_discord: FakeDiscord, start_bot: StartBot, target: str | Path
) -> None:
    fake = fake_discord
    channel = fake.channel("games")
    users = [fake.user(name) for name in ("alice", "bob")]
    game_id = await open_lobby(target, fake, channel, users, DECK)
    service = await GameService.open(target)
    try:
        await service.lobby.start(channel.id, users[0].id)  # its first board: not shown
    finally:
        await service.close()
    # The first run's post is held up (a long 429): it is killed holding the claim.
    held = fake.rate_limit(rf"^POST /channels/{channel.id}/messages$", retry_after=60)
    proc = await _bot(start_bot, fake, target)
    await fake.recorder.wait_until(lambda: held.hits, SOON, "the held-up board")
    await _killed_once_it_claims(proc, target, game_id)
    await _restarted(proc, fake)
    boards = await fake.recorder.wait_until(
        lambda: _boards(fake, channel.id, game_id), SOON, "the first board"
    )
    assert len(boards) == 1 and str(boards[0].payload["nonce"]).startswith(f"{game_id}.v")
    assert not tracebacks(proc.output(tail=None)), proc.output()


def test_only_a_worker_orphaned_by_the_kill_is_forgiven_its_traceback() -> None:
    """The check above skips what Python's spawn prints in a worker whose bot was killed while
    starting it, and nothing else: a traceback of ours next to it is still found."""
    orphan = (
        "Traceback (most recent call last):\n"
        '  File "<string>", line 1, in <module>\n'
        '  File "/usr/lib/python3.11/multiprocessing/spawn.py", line 130, in _main\n'
        "    preparation_data = reduction.pickle.load(from_parent)\n"
        "EOFError: Ran out of input\n"
    )
    ours = (
        "Traceback (most recent call last):\n"
        '  File "bot/table/rounds.py", line 9, in run_round\n'
        "ValueError: boom\n"
    )
    assert tracebacks("start #2\n" + orphan + "logged in\n") == []
    assert len(tracebacks(orphan + ours)) == 1 and "boom" in tracebacks(orphan + ours)[0]
