"""Taking back a turn (issue 40.5) with the unmodified bot against the fake Discord: a turn
that could be taken back reaches the channel when that time is over, not up to a poll of
the background rounds later (a minute by default), and once."""

from __future__ import annotations

import time
from pathlib import Path

from tests.e2e.test_bot_e2e import TURNS, table_for
from tests.support.e2e import StartBot
from tests.support.fake_discord import FakeDiscord, python_argv
from tests.support.players import arkbot_env, assert_told_once, told_turns, wait_until_up

TAKE_BACK = 2.0  # seconds: the bot's time to take a turn back, short for the test
#: How soon after that time the board must be in the channel (the rounds poll a minute apart).
SOON = 8.0


async def test_a_turn_is_posted_when_its_take_back_time_is_over_not_a_poll_later(
    fake_discord: FakeDiscord, start_bot: StartBot, db_path: Path
) -> None:
    fake, rec = fake_discord, fake_discord.recorder
    table = await table_for(fake, db_path)
    env = arkbot_env(
        fake, db_path, ARKBOT_POLL_SECONDS="60", ARKBOT_TAKE_BACK_SECONDS=str(int(TAKE_BACK))
    )
    proc = await start_bot(python_argv("-m", "bot"), env)
    await wait_until_up(fake, proc)
    await table.start()
    await table.typed(TURNS[0][:-1])
    sub, options = table.typed_command(TURNS[0][-1])
    _, answer = await table.slash(table.current, "covenant", sub, options)
    done = time.monotonic()
    assert table.record_played(TURNS[0][-1])
    assert answer.ephemeral and "take this turn back" in answer.content
    assert not told_turns(rec, table.game_id, [table.channel.id])[1]  # not yet
    await rec.wait_until(
        lambda: told_turns(rec, table.game_id, [table.channel.id])[1],
        TAKE_BACK + SOON,
        "Alice's turn, posted when its take-back time is over",
    )
    assert TAKE_BACK <= time.monotonic() - done + 0.5 < TAKE_BACK + SOON
    await assert_told_once(rec, db_path, table.game_id, [table.channel.id])
