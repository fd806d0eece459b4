"""Kills at chosen moments (issues 18 and 31): every stored turn is announced exactly once,
soon after the restart, even when the next move comes first; stopping the bot leaves nothing
of it running.

The unmodified bot process runs against the fake Discord. A board post carries the nonce
``<game>.t<first>-<last>.<part>`` of the turns it tells, so counting the channel's posts by
nonce counts how often each stored turn was told, and the fake answers a repeated nonce
with the first message, as Discord does with ``enforce_nonce``.
"""

from __future__ import annotations

import asyncio
import os
import signal
import time
from pathlib import Path

from tests.e2e.test_bot_e2e import TURNS, table_for
from tests.support.e2e import Arkbot
from tests.support.fake_discord import SEND_MESSAGES, FakeDiscord, FakeMessage
from tests.support.players import (
    WAIT,
    Table,
    assert_told_once,
    process_family,
    stored_game,
    told_turns,
    wait_until_up,
)

#: A restart must tell what it missed at once, not after the two minutes' grace.
SOON = 8.0


async def _until_recorded(db_path: Path, game_id: int, version: int) -> None:
    """Wait until the game's channel is stored as having seen ``version``."""
    deadline = time.monotonic() + SOON
    while True:
        record, _ = await stored_game(db_path, game_id)
        if record.announced >= version:  # type: ignore[attr-defined]
            return
        if time.monotonic() > deadline:
            raise AssertionError(f"version {version} of game {game_id} never recorded as told")
        await asyncio.sleep(0.2)


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
    assert told_turns(rec, table.game_id, [table.channel.id])[2] == 0
    began = time.monotonic()
    await proc.start()
    await wait_until_up(fake, proc)
    board = await table.wait_board()
    assert time.monotonic() - began < SOON + 20  # start-up included; far below 2 minutes
    assert "restarting" in board.content and "Bob" in board.content
    await assert_told_once(rec, db_path, table.game_id, [table.channel.id])

    # 2. Killed after Discord stored Carol's board, perhaps before the bot recorded that it
    #    did: the restart finds the board there and records it, and posts nothing again.
    board = await table.play_turn(TURNS[2], typed=True)
    await proc.kill()  # at once: the post may be recorded in memory only, not on disk
    await proc.start()
    await wait_until_up(fake, proc)
    await _until_recorded(db_path, table.game_id, table.version)
    await assert_told_once(rec, db_path, table.game_id, [table.channel.id])
    # The game goes on from there, each turn told once.
    board = await table.play_turn(TURNS[3])
    await assert_told_once(rec, db_path, table.game_id, [table.channel.id])
    assert board.components  # the newest board has its button...
    assert all(not b.components for b in table.boards[:-1])  # ...no older one has


async def test_a_turn_not_shown_before_a_kill_is_told_with_the_next_move(
    fake_discord: FakeDiscord, arkbot: Arkbot, db_path: Path
) -> None:
    """Bob's board is refused (the bot may not post for a moment); the bot is killed and
    comes back; Carol plays before the refused post's retry is due. Her board tells Bob's
    turn, then hers: every stored turn once, none lost to the move that came first."""
    fake, rec = fake_discord, fake_discord.recorder
    table = await table_for(fake, db_path)
    proc = await arkbot()
    await table.start()
    await table.play_turn(TURNS[0])  # Alice
    # A moderator takes Send Messages away for a moment; the bot learns it from Discord.
    await fake.overwrite(table.channel, deny=SEND_MESSAGES, tell=False)
    await table.typed(TURNS[1][:-1])
    last = TURNS[1][-1]
    sub, options = table.typed_command(last)
    _, answer = await table.slash(table.current, "covenant", sub, options)
    assert table.record_played(last)
    assert "could not be posted" in answer.content
    await proc.kill()
    await fake.overwrite(table.channel)  # given back
    await proc.start()
    await wait_until_up(fake, proc)
    board = await table.play_turn(TURNS[2], typed=True)  # Carol, before the retry is due
    assert board.content.index("Bob") < board.content.index("Carol")
    assert await assert_told_once(rec, db_path, table.game_id, [table.channel.id]) == [1, 2, 3]
    for plan in TURNS[3:]:
        await table.play_turn(plan)
    every = await assert_told_once(rec, db_path, table.game_id, [table.channel.id])
    assert every == list(range(1, len(TURNS) + 1))


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
    fake_discord: FakeDiscord, arkbot: Arkbot, db_path: Path
) -> None:
    await table_for(fake_discord, db_path)  # an open table: the workers start with the bot
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
