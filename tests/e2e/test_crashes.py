"""Kills at chosen moments (issue 18): every stored turn is announced exactly once, soon
after the restart; stopping the bot leaves nothing of it running.

The unmodified bot process runs against the fake Discord. A board post carries the nonce
``<game>.<version>.<part>``, so counting the channel's messages by nonce counts the posts of
each stored version, and the fake answers a repeated nonce with the first message, as
Discord does with ``enforce_nonce``.
"""

from __future__ import annotations

import asyncio
import os
import signal
import time
from pathlib import Path

from tests.e2e.test_bot_e2e import TURNS, table_for
from tests.support.e2e import Arkbot
from tests.support.fake_discord import FakeDiscord, FakeMessage
from tests.support.players import WAIT, Table, process_family, stored_game, wait_until_up

#: A restart must tell what it missed at once, not after the two minutes' grace.
SOON = 8.0


def boards_of(fake: FakeDiscord, table: Table, version: int) -> list[FakeMessage]:
    prefix = f"{table.game_id}.{version}."
    return [
        m
        for m in fake.recorder.messages_in(table.channel.id)
        if str(m.payload.get("nonce") or "").startswith(prefix)
    ]


async def test_kills_around_a_post_give_one_post_soon_after_the_restart(
    fake_discord: FakeDiscord, arkbot: Arkbot, db_path: Path
) -> None:
    fake, rec = fake_discord, fake_discord.recorder
    table = await table_for(fake, db_path)
    proc = await arkbot()
    await table.start()
    await table.play_turn(TURNS[0])  # Alice

    # 1. Killed after Bob's turn is stored, before its board is posted (Discord holds the
    #    post with a long 429): the restarted bot posts it at once, once.
    held = fake.rate_limit(r"^POST /channels/\d+/messages$", retry_after=60)
    _, panel = await table.open_panel()
    panel, closed = await table.clicks(panel, TURNS[1][:-1])  # the tile placed, and a pass
    assert not closed
    last = TURNS[1][-1]
    assert await _press(table, panel, last)
    await rec.wait_until(lambda: held.hits, WAIT, "the held-up board")
    await proc.kill()
    record, logged = await stored_game(db_path, table.game_id)
    assert record.version == logged == table.version
    assert boards_of(fake, table, table.version) == []
    began = time.monotonic()
    await proc.start()
    await wait_until_up(fake, proc)
    board = await table.wait_board()
    assert time.monotonic() - began < SOON + 20  # start-up included; far below 2 minutes
    assert "restarting" in board.content and "Bob" in board.content
    assert len(boards_of(fake, table, table.version)) == 1

    # 2. Killed after Discord stored Carol's board, before the bot recorded that it did: the
    #    restart sends it again with the same nonce, and the channel still shows it once.
    repeats = rec.nonce_repeats
    board = await table.play_turn(TURNS[2], typed=True)
    await proc.kill()  # at once: the post is recorded in memory, not yet on disk
    await proc.start()
    await wait_until_up(fake, proc)
    await rec.wait_until(lambda: rec.nonce_repeats > repeats, SOON, "the post sent again")
    assert len(boards_of(fake, table, table.version)) == 1
    # The game goes on from there, with one board per turn.
    board = await table.play_turn(TURNS[3])
    assert len(boards_of(fake, table, table.version)) == 1
    assert board.components  # the newest board has its button...
    assert all(not b.components for b in table.boards[:-1])  # ...no older one has


async def _press(table: Table, panel: FakeMessage, action: object) -> bool:
    """Press the control of ``action`` without waiting for the board (it is held up)."""
    from engine.covenant import Pass, PlaceArk

    g, v = table.game_id, table.version
    if isinstance(action, Pass):
        await table.fake.click(table.current, table.channel, panel.id, f"tb:{g}:{v}:pass")
    elif isinstance(action, PlaceArk):
        putark = f"tb:{g}:{v}:putark:{action.x}:{action.y}"
        await table.fake.click(table.current, table.channel, panel.id, putark)
    else:  # pragma: no cover - TURNS[1] ends with one of the two
        raise TypeError(action)
    table.record_played(action)  # type: ignore[arg-type]
    return True


async def test_stopping_the_bot_leaves_nothing_running(
    fake_discord: FakeDiscord, arkbot: Arkbot
) -> None:
    proc = await arkbot()
    assert proc.proc is not None
    family = process_family(proc.proc.pid)
    assert len(family) >= 2  # the bot and its picture worker (and multiprocessing's helper)
    assert await proc.kill(signal.SIGTERM, timeout=15) == 0  # a clean exit
    await _gone(family)
    assert "stopping: closing" in proc.output(tail=None)

    # Killed outright, it cannot clean up: its workers notice and leave on their own.
    await proc.start()
    await wait_until_up(fake_discord, proc)
    family = process_family(proc.proc.pid)
    assert len(family) >= 2
    await proc.kill(signal.SIGKILL)
    await _gone(family)


async def _gone(pids: list[int], within: float = 10.0) -> None:
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        alive = [p for p in pids if os.path.exists(f"/proc/{p}") and not _zombie(p)]
        if not alive:
            return
        await asyncio.sleep(0.2)
    raise AssertionError(f"still running: {alive}")


def _zombie(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] == "Z"
    except OSError:
        return False
