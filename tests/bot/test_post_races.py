"""Posts racing what the channel is told (issue 41), on SQLite and PostgreSQL: a move stored
just before a moderator ends the game is told once, in the end's standings, and nothing
posted after the end asks anyone to play or carries controls; a damaged game's end is said
as it is, and nothing claims that nothing was changed after a change was stored; a board
posted but unrecorded at a kill is found after any amount of chatter before it.

The scripted two-player game of :mod:`tests.bot.test_discord`, played in its channel. The
race is made reproducible by holding the game's post lock while both the move and the end
are stored: the move's post waits first, as in the attack that found it.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from datetime import timedelta
from pathlib import Path

import pytest

from bot.client import TableBot
from bot.errors import error_text
from bot.i18n import t
from bot.service import GameService
from tests.bot.test_discord import BOAZ, LEADER
from tests.bot.test_posts import (
    BOAZS_TURN,
    RUTHS_TURN,
    boaz_plays,
    bot_of,
    in_the_channel,
    posts_saying,
    ruth_plays,
)
from tests.support.bot import CHANNEL, make_settings
from tests.support.databases import RawDb, database
from tests.support.harness import Harness

ENDED = "The game in this channel was ended by"
STANDINGS = "Standings when the game was ended:"


@pytest.fixture(params=["sqlite", "postgres"])
async def target(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[str | Path]:
    async with database(request.param, tmp_path) as found:
        yield found


async def bot_on(target: str | Path, folder: Path) -> TableBot:
    settings = make_settings(folder / "unused.sqlite3")
    return TableBot(settings, service=await GameService.open(target, settings=settings))


class CountedLock(asyncio.Lock):
    """A game's post lock that says how many posts wait for it."""

    def __init__(self) -> None:
        super().__init__()
        self.asked = 0

    async def acquire(self) -> bool:
        self.asked += 1
        return await super().acquire()

    async def until_asked(self, times: int) -> None:
        for _ in range(2000):
            if self.asked >= times:
                return
            await asyncio.sleep(0.005)
        raise AssertionError(f"the post lock was asked for {self.asked} times, not {times}")


async def test_a_move_racing_the_end_is_told_once_and_asks_nobody_to_play(
    target: str | Path, tmp_path: Path
) -> None:
    async with Harness(await bot_on(target, tmp_path), channel_id=CHANNEL, timeout=60) as h:
        for _ in range(6):
            before = set(h.channel_messages(CHANNEL, public=True))
            game_id = await in_the_channel(h)
            lock = CountedLock()
            bot_of(h).table.posts._locks[game_id] = lock
            async with lock:
                move = asyncio.create_task(ruth_plays(h))
                await lock.until_asked(2)  # the test's own, then Ruth's post
                end = asyncio.create_task(h.slash(LEADER, "moderate end"))
                await lock.until_asked(3)  # the end's post
            await asyncio.gather(move, end)
            record = await bot_of(h).service.play.get_game(game_id)
            shown = bot_of(h).service.posts.shown(record)
            assert record.status == "ended" and shown.announced == record.version
            posts = [
                h.message(m)["content"] or ""
                for m in h.channel_messages(CHANNEL, public=True)
                if m not in before
            ]
            (ended_at,) = [i for i, text in enumerate(posts) if ENDED in text]
            after = posts[ended_at + 1 :]
            # The end's post alone follows the end: Ruth's turn, then the standings.
            assert len(after) == 1, after
            assert after[0].index(RUTHS_TURN) < after[0].index(STANDINGS)
            assert "your turn" not in after[0] and f"<@{BOAZ}>" not in after[0]
            assert sum(RUTHS_TURN in text for text in posts) == 1
            # No control is left live on any message of the game.
            live = [
                m
                for m in h.channel_messages(CHANNEL, public=True)
                if m not in before and h.message(m).get("components")
            ]
            assert live == [], [h.message(m)["content"] for m in live]


async def test_ending_a_damaged_game_says_what_it_did(target: str | Path, tmp_path: Path) -> None:
    # Ruth's turn is stored and told; then its log is damaged behind the bot's back.
    async with Harness(await bot_on(target, tmp_path), channel_id=CHANNEL, timeout=60) as h:
        game_id = await in_the_channel(h)
        await ruth_plays(h)
        (board,) = posts_saying(h, RUTHS_TURN)
        await RawDb(target).execute(
            "UPDATE actions SET action = '{not json' WHERE game_id = ? AND seq = 2", game_id
        )
        bot_of(h).service.forget()
        ended = await h.slash(LEADER, "moderate end")
        said = [(s.ephemeral, s.content) for s in ended if s.content and s.kind != "edit"]
        assert said == [
            (False, "The game in this channel was ended by Leader."),
            (False, "This game's record is damaged, so its standings cannot be shown."),
        ]
        assert ended.errors == []
        assert (await bot_of(h).service.play.get_game(game_id)).status == "ended"
        # Its last board's controls are gone with it.
        assert h.message(int(board["id"]))["components"] == []


def test_nothing_says_nothing_was_changed_after_a_change() -> None:
    # A failure after the change was stored says that it was.
    assert error_text(RuntimeError("boom"), changed=True) == t("table.error.after_change")
    for language in ("en", "nl", "es", "es-419"):
        assert error_text(RuntimeError("boom"), language, changed=True) != t(
            "table.error.unexpected", language
        )


async def test_a_board_unrecorded_at_a_kill_is_found_after_a_long_chat(
    target: str | Path, tmp_path: Path
) -> None:
    # Ruth's board is recorded; more than ten pages of chatter; Boaz's board goes out and
    # the bot is killed before it records it; back after Discord forgot the nonce.
    async with Harness(await bot_on(target, tmp_path), channel_id=CHANNEL, timeout=60) as h:
        game_id = await in_the_channel(h)
        await ruth_plays(h)
        await bot_of(h).service.posts.flush_posted()
        for n in range(1100):
            h._new_message(CHANNEL, {"content": f"chatter {n}"}, [], None)
        await boaz_plays(h)
        (posted,) = posts_saying(h, BOAZS_TURN)
        bot_of(h).service.posts._pending.clear()  # the kill: what was in memory is lost
        await h.restart(await bot_on(target, tmp_path))
        await bot_of(h).reminders.run_once(grace=timedelta(0))  # type: ignore[union-attr]
        assert posts_saying(h, BOAZS_TURN) == [posted]
        record = await bot_of(h).service.play.get_game(game_id)
        assert record.board_message_id == int(posted["id"])
