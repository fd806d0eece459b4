"""What Discord refuses, met by the unmodified bot (issue 31): a game's thread locked by a
moderator (400, 50083 "Thread is archived"), and a channel where the bot may not attach files
(403, 50013). The fake refuses them as Discord does; the bot's cache is not told, so it
learns from the refusals, as a bot that missed the gateway's word would.
"""

from __future__ import annotations

from pathlib import Path

from tests.e2e.test_bot_e2e import TURNS, table_for
from tests.support.e2e import Arkbot
from tests.support.fake_discord import ATTACH_FILES, CREATE_PUBLIC_THREADS, FakeDiscord, FakeMessage
from tests.support.players import WAIT, Table, assert_told_once, stored_game


def direct_messages(fake: FakeDiscord, name: str) -> list[str]:
    """What the bot said to ``name`` in direct messages."""
    dm = fake.dm_channel(fake.user(name))
    return [m.content for m in fake.recorder.messages_in(dm.id)]


async def told_in(fake: FakeDiscord, table: Table, words: str) -> FakeMessage:
    """The bot's newest public post in the table's channel that says ``words``."""

    def found() -> FakeMessage | None:
        posts = [
            m
            for m in fake.recorder.messages_in(table.channel.id)
            if m.source == "channel" and words in m.content
        ]
        return posts[-1] if posts else None

    return await fake.recorder.wait_until(found, WAIT, f"a post saying {words!r}")


async def test_a_locked_thread_sends_the_game_to_its_channel(
    fake_discord: FakeDiscord, arkbot: Arkbot, db_path: Path
) -> None:
    fake = fake_discord
    await fake.grant_bot(CREATE_PUBLIC_THREADS)  # games are played in threads
    table = await table_for(fake, db_path)
    channel = table.channel
    await arkbot()
    await table.slash(table.seats[0], "table", "start")
    (thread,) = await fake.recorder.wait_until(
        lambda: fake.threads_of(channel), WAIT, "the game's thread"
    )
    table.channel = thread  # played there, by the players too
    await table.wait_board()
    await table.play_turn(TURNS[0])  # Alice
    # A moderator locks the thread (and so archives it); the bot is not told.
    await fake.set_thread(thread, locked=True, archived=True, tell=False)
    table.channel, table.boards = channel, []
    board = await table.play_turn(TURNS[1], typed=True)  # Bob types in the channel
    assert "Bob" in board.content and f"<@{table.current.id}>" in board.content
    refused = fake.recorder.find_requests("POST", rf"^/channels/{thread.id}/messages$")
    assert [r.status for r in refused][-1] == 400
    assert refused[-1].response == {"message": "Thread is archived", "code": 50083}
    record, _ = await stored_game(db_path, table.game_id)
    assert record.thread_id is None  # type: ignore[attr-defined]
    # The channel's line about the game (its lobby message) says where it went.
    line = fake.recorder.messages[thread.id]
    assert line.content.endswith("moved here, to the channel: its thread is no longer open.")
    # Alice, who made the game, hears it once; the game goes on in the channel.
    await table.play_turn(TURNS[2])  # Carol clicks on the board in the channel
    (note,) = direct_messages(fake, "alice")
    assert f"its thread <#{thread.id}> was locked" in note and f"<#{channel.id}>" in note
    await assert_told_once(fake.recorder, db_path, table.game_id, [channel.id, thread.id])


async def test_without_attach_files_the_turns_are_told_as_text(
    fake_discord: FakeDiscord, arkbot: Arkbot, db_path: Path
) -> None:
    fake = fake_discord
    table = await table_for(fake, db_path)
    await arkbot()
    await table.start()
    # A moderator takes Attach Files away in the channel; the bot is not told.
    await fake.overwrite(table.channel, deny=ATTACH_FILES, tell=False)
    for turn, plan in enumerate(TURNS[:2], start=1):
        await _typed_turn(table, plan)
        post = await told_in(fake, table, f"Next: <@{table.current.id}>")
        assert post.attachments == [] and post.components  # the text, the button to play
        assert f"{table.game_id}.t{turn}-{turn}." in str(post.payload["nonce"])
    refused = fake.recorder.find_requests("POST", rf"^/channels/{table.channel.id}/messages$")
    assert [r.response for r in refused if r.status == 403] == [
        {"message": "Missing Permissions", "code": 50013}
    ] * 2
    (note,) = direct_messages(fake, "alice")  # the game's creator, once
    assert note.startswith(f"⚠️ I posted the turns of your game in <#{table.channel.id}> without")
    # Given back (and the bot told): the board has its pictures again.
    await fake.overwrite(table.channel, tell=True)
    table.boards = [await told_in(fake, table, f"Next: <@{table.current.id}>")]
    board = await table.play_turn(TURNS[2])
    assert board.attachments
    await assert_told_once(fake.recorder, db_path, table.game_id, [table.channel.id])


async def _typed_turn(table: Table, plan: list[object]) -> None:
    """The current player types ``plan`` (a whole turn), without waiting for a board."""
    for action in plan:
        sub, options = table.typed_command(action)  # type: ignore[arg-type]
        _, reply = await table.slash(table.current, "covenant", sub, options)
        closed = table.record_played(action)  # type: ignore[arg-type]
        assert reply.ephemeral and (not closed or reply.content.startswith("Done!"))
