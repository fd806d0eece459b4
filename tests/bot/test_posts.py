"""The public posts of a game when something stands in their way (issue 31): every stored
turn is told once, whatever failed or stopped in between; a thread that was locked or
deleted sends the game back to its channel, and the channel's line about the game says so;
without Attach Files the turns are told without their pictures.

The scripted two-player game of :mod:`tests.bot.test_discord`: Ruth closes a city (4-0),
then Boaz lays a tile and passes.
"""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path
from typing import Any

from bot.client import TableBot
from bot.service import FakeClock
from tests.bot.test_discord import BOAZ, LEADER, RUTH, scripted_lobby, start
from tests.support.bot import CHANNEL, make_bot
from tests.support.harness import Harness, Request, http_error

RUTHS_TURN = "A 2-tile city was completed: Ruth +4."
MOVED_HERE = "The game's thread is no longer open, so the game goes on here."
BOAZS_TURN = "Boaz placed a tile on N13."


def bot_of(h: Harness) -> TableBot:
    return h.bot  # type: ignore[return-value]


def public_posts(h: Harness) -> list[str]:
    """What every message in the channel and its threads says now (no private answer)."""
    return [
        m.get("content") or ""
        for m in h.messages.values()
        if not int(m.get("flags", 0)) & 64 and m.get("type") != 20
    ]


def told(h: Harness, words: str) -> int:
    """How many public posts say ``words``."""
    return sum(words in text for text in public_posts(h))


def posts_saying(h: Harness, words: str, channel: int = CHANNEL) -> list[dict[str, Any]]:
    """The public messages in ``channel`` that say ``words``, as they stand now."""
    found = [h.message(m) for m in h.channel_messages(channel, public=True)]
    return [m for m in found if words in (m.get("content") or "")]


def direct_messages(h: Harness) -> list[str]:
    """What the bot said in direct messages (the harness gives each user a DM channel
    whose id is the user's id plus 7)."""
    return [
        (r.json or {}).get("content") or ""
        for r in h.requests
        if r.method == "POST"
        and r.template == "/channels/{channel_id}/messages"
        and r.path.split("/")[2] in {str(RUTH + 7), str(BOAZ + 7)}
    ]


async def ruth_plays(h: Harness, channel: int = CHANNEL) -> str:
    """Ruth closes the city with her follower in it and puts the Ark there (typed); her last
    private answer."""
    await h.slash(RUTH, "covenant place", square="M12", rotation=180, channel=channel)
    await h.slash(RUTH, "covenant follower", spot="B", channel=channel)
    done = await h.slash(RUTH, "covenant putark", square="M12", channel=channel)
    return next(s for s in reversed(done) if s.ephemeral).content or ""


async def boaz_plays(h: Harness, channel: int = CHANNEL) -> str:
    """Boaz lays his tile and passes (typed); his last private answer."""
    await h.slash(BOAZ, "covenant place", square="N13", rotation=0, channel=channel)
    done = await h.slash(BOAZ, "covenant pass", channel=channel)
    return next(s for s in reversed(done) if s.ephemeral).content or ""


async def in_the_channel(h: Harness) -> int:
    """The scripted game started, played in the channel (no thread); its id."""
    game_id = await scripted_lobby(h, ["T21", "T39", "T39"])
    await bot_of(h).service.set_guild_settings(h.guild_id, RUTH, moderator=True, threads=False)
    await start(h)
    return game_id


async def ruth_plays_unposted(h: Harness) -> None:
    """Ruth plays her turn; Discord refuses its post (503)."""

    def unavailable(request: Request) -> Any:
        raise http_error(503, "Service Unavailable")

    h.on("POST", "/channels/{channel_id}/messages", unavailable)
    await ruth_plays(h)
    h.off("POST", "/channels/{channel_id}/messages")


async def test_a_turn_whose_post_failed_is_told_with_the_next_once(db_path: Path) -> None:
    async with Harness(await make_bot(db_path), channel_id=CHANNEL) as h:
        await in_the_channel(h)
        await ruth_plays_unposted(h)
        assert told(h, RUTHS_TURN) == 0
        # Boaz plays before the post is tried again: his post tells Ruth's turn, then his.
        assert (await boaz_plays(h)).startswith("Done!")
        (post,) = [text for text in public_posts(h) if BOAZS_TURN in text]
        assert post.index(RUTHS_TURN) < post.index(BOAZS_TURN)
        # The retry finds nothing left to tell.
        await bot_of(h).reminders.run_once(grace=timedelta(0))  # type: ignore[union-attr]
        assert told(h, RUTHS_TURN) == 1 and told(h, BOAZS_TURN) == 1


async def test_the_standings_of_an_ended_game_tell_the_turn_not_told_yet(db_path: Path) -> None:
    async with Harness(await make_bot(db_path), channel_id=CHANNEL) as h:
        await in_the_channel(h)
        await ruth_plays_unposted(h)
        await h.slash(LEADER, "moderate end")
        (final,) = posts_saying(h, "Standings when the game was ended:")
        assert final["content"].index(RUTHS_TURN) < final["content"].index("Standings")
        assert told(h, RUTHS_TURN) == 1


async def test_a_board_posted_before_a_crash_is_not_posted_again(db_path: Path) -> None:
    # Killed after Discord took Ruth's board, before the bot recorded it; back after longer
    # than Discord remembers a nonce: the restart finds the board instead of posting it again.
    async with Harness(await make_bot(db_path), channel_id=CHANNEL) as h:
        game_id = await in_the_channel(h)
        await ruth_plays(h)
        (posted,) = posts_saying(h, RUTHS_TURN)
        bot_of(h).service.posts._pending.clear()  # the kill: what was in memory is lost
        await h.restart(await make_bot(db_path))
        await bot_of(h).reminders.run_once(grace=timedelta(0))  # type: ignore[union-attr]
        assert told(h, RUTHS_TURN) == 1
        record = await bot_of(h).service.play.get_game(game_id)
        assert record.board_message_id == int(posted["id"])
        assert record.announced == record.version
        await boaz_plays(h)
        # Ruth's board handed its controls on to Boaz's.
        assert h.message(int(posted["id"]))["components"] == []


async def test_a_locked_thread_sends_the_game_to_its_channel_and_the_creator_is_told(
    db_path: Path,
) -> None:
    async with Harness(await make_bot(db_path), channel_id=CHANNEL) as h:
        game_id = await scripted_lobby(h, ["T21", "T39", "T39"])
        await start(h)
        (thread,) = h.thread_ids()
        await ruth_plays(h)
        # A moderator locks the thread; the bot's cache has not heard of it yet.
        h.thread_update(thread, locked=True, archived=True, tell=False)
        answer = await boaz_plays(h, thread)
        assert answer.startswith("Done!") and answer.endswith(f"posted in <#{CHANNEL}>.")
        (post,) = posts_saying(h, BOAZS_TURN)
        assert post["content"].startswith(MOVED_HERE)
        assert f"Next: <@{RUTH}>, your turn!" in post["content"]
        assert len(posts_saying(h, MOVED_HERE)) == 1  # no second board to say so
        record = await bot_of(h).service.play.get_game(game_id)
        assert record.thread_id is None and record.post_failures == 0
        # The channel's line about the game no longer points at the thread.
        assert h.message(thread)["content"] == (
            "🎲 **The Ark of the Covenant** moved here, to the channel: its thread is no "
            "longer open."
        )
        (note,) = direct_messages(h)
        assert note == (
            f"⚠️ Your game of **The Ark of the Covenant** goes on in <#{CHANNEL}>: its thread "
            f"<#{thread}> was locked, and I cannot post there any more."
        )
        # The game goes on in the channel; the line is left as it is, and nobody is told twice.
        await h.slash(RUTH, "covenant place", square="O13", rotation=0)
        assert "moved here" in h.message(thread)["content"]
        assert len(direct_messages(h)) == 1


async def test_a_thread_the_bot_knows_is_locked_is_left_before_posting(db_path: Path) -> None:
    async with Harness(await make_bot(db_path), channel_id=CHANNEL) as h:
        game_id = await scripted_lobby(h, ["T21", "T39", "T39"])
        await start(h)
        (thread,) = h.thread_ids()
        h.thread_update(thread, locked=True)
        before = len(h.requests)
        await ruth_plays(h)
        tried = [r for r in h.requests[before:] if r.path == f"/channels/{thread}/messages"]
        assert tried == []  # never refused: it knew
        (post,) = posts_saying(h, RUTHS_TURN)
        assert post["content"].startswith(MOVED_HERE)
        assert (await bot_of(h).service.play.get_game(game_id)).thread_id is None


async def test_a_deleted_thread_leaves_no_line_pointing_at_it(db_path: Path) -> None:
    async with Harness(await make_bot(db_path), channel_id=CHANNEL) as h:
        await scripted_lobby(h, ["T21", "T39", "T39"])
        await start(h)
        (thread,) = h.thread_ids()
        assert f"in <#{thread}>: Ruth's turn" in h.message(thread)["content"]
        h.delete_thread(thread)
        await ruth_plays(h)
        assert told(h, RUTHS_TURN) == 1
        assert h.message(thread)["content"] == (
            "🎲 **The Ark of the Covenant** moved here, to the channel: its thread is no "
            "longer open."
        )
        assert direct_messages(h) == []  # deleted on purpose: nobody needs telling
        await boaz_plays(h)
        assert "moved here" in h.message(thread)["content"]


async def test_a_thread_deleted_unnoticed_is_left_when_a_post_is_refused(db_path: Path) -> None:
    async with Harness(await make_bot(db_path), channel_id=CHANNEL) as h:
        game_id = await scripted_lobby(h, ["T21", "T39", "T39"])
        await start(h)
        (thread,) = h.thread_ids()
        h.delete_thread(thread, tell=False)  # the bot missed the gateway's word
        await ruth_plays(h)
        assert told(h, RUTHS_TURN) == 1
        assert "moved here" in h.message(thread)["content"]
        assert (await bot_of(h).service.play.get_game(game_id)).thread_id is None


async def test_a_reminder_for_a_locked_thread_goes_to_the_channel_with_a_board(
    db_path: Path,
) -> None:
    clock = FakeClock()
    async with Harness(await make_bot(db_path, clock), channel_id=CHANNEL) as h:
        await scripted_lobby(h, ["T21", "T39", "T39"])
        await start(h)
        (thread,) = h.thread_ids()
        h.thread_update(thread, locked=True, archived=True, tell=False)
        clock.advance(hours=37)  # half of Ruth's time is used
        async with h.capture():  # and what it leaves running
            assert await bot_of(h).reminders.run_once() == 1  # type: ignore[union-attr]
        (reminder,) = posts_saying(h, "the others are waiting for your move")
        assert reminder["content"].startswith(f"⏰ <@{RUTH}>")
        # The players need a board in the channel to tap "Play my turn" on: here it is.
        (board,) = posts_saying(h, MOVED_HERE)
        assert f"Next: <@{RUTH}>, your turn!" in board["content"] and board["attachments"]
        assert len(direct_messages(h)) == 1
        await ruth_plays(h)
        assert told(h, RUTHS_TURN) == 1


async def test_without_attach_files_the_turns_are_told_without_pictures(db_path: Path) -> None:
    async with Harness(await make_bot(db_path), channel_id=CHANNEL) as h:
        game_id = await in_the_channel(h)

        def no_files(request: Request) -> Any:
            if request.files:
                raise http_error(403, "Missing Permissions", code=50013)
            return NotImplemented

        h.on("POST", "/channels/{channel_id}/messages", no_files)
        await ruth_plays(h)
        answer = await boaz_plays(h)
        assert answer.startswith("Done!")
        for words in (RUTHS_TURN, BOAZS_TURN):
            (post,) = posts_saying(h, words)
            assert post["attachments"] == []
            # The words speak of the picture ("the next tile (in the picture)"): say why not.
            assert post["content"].endswith(
                "🖼️ The pictures are missing: I am not allowed to attach files in this channel."
            )
        assert post["components"]  # the newest has its button: the game goes on
        # The creator hears why, once.
        assert direct_messages(h) == [
            f"⚠️ I posted the turns of your game in <#{CHANNEL}> without the pictures of the "
            "board: I don't have the Attach Files permission there. A moderator can give it to "
            "me in the channel's settings."
        ]
        assert (await bot_of(h).service.play.get_game(game_id)).post_failures == 0
