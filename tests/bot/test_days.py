"""Games over days, through discord.py's own objects: each game in a thread with one line in
the channel, the deadline under the board, history, what you missed, away, quiet hours, the
rematch, the replay and the server's ratings.

The scripted two-player game of :mod:`tests.bot.test_discord`: Ruth closes a city (4-0),
Boaz lays the last tile and passes, and the game is over.
"""

from __future__ import annotations

import io
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from PIL import Image

from bot.client import TableBot
from bot.cogs.reminders import Reminders
from bot.service import FakeClock, GameRecord
from engine.common import Rng
from tests.bot.test_discord import (
    BOAZ,
    LEADER,
    RUTH,
    STRANGER,
    ruth_places_and_closes_the_city,
    scripted_lobby,
    start,
)
from tests.support.bot import CHANNEL, make_bot
from tests.support.harness import Harness, Sent

SUPPRESS_NOTIFICATIONS = 1 << 12


def service(h: Harness) -> TableBot:
    return h.bot  # type: ignore[return-value]


async def boaz_ends_the_game(h: Harness) -> list[Sent]:
    await h.slash(BOAZ, "covenant place", square="N13", rotation=0)
    return list(await h.slash(BOAZ, "covenant pass"))


async def test_a_game_is_played_in_its_thread_and_the_channel_keeps_one_line(
    harness: Harness,
) -> None:
    h = harness
    game_id = await scripted_lobby(h, ["T21", "T39"])
    board = await start(h)
    # The thread hangs on the lobby message, which now tells how the game stands.
    (thread,) = h.thread_ids()
    record = await service(h).service.play.get_game(game_id)
    assert record.thread_id == thread and board.channel_id == thread
    assert h.message(thread)["content"].startswith(
        f"🎲 **The Ark of the Covenant** in <#{thread}>: Ruth's turn, time runs out <t:"
    )
    assert h.message(thread)["components"] == []  # no Join button left on it
    # The deadline of the normal pace (three days) is under the board.
    assert "Your time runs out <t:" in board.content
    before = h.channel_messages(CHANNEL, public=True)
    post = await ruth_places_and_closes_the_city(h, board, game_id)
    assert post.channel_id == thread
    assert "Boaz's turn" in h.message(thread)["content"]
    assert h.channel_messages(CHANNEL, public=True) == before  # edited, never posted again
    # Commands work from the thread and from the channel alike.
    status = await h.slash(RUTH, "table status", channel=thread)
    assert status.last.ephemeral and status.last.images
    ended = await boaz_ends_the_game(h)
    (result,) = [s for s in ended if s.kind == "channel_message" and " won " in s.content]
    assert result.channel_id == thread
    assert h.message(thread)["content"] == (
        f"🏆 **The Ark of the Covenant** in <#{thread}> is over: Ruth won!"
    )
    assert h.channel_messages(CHANNEL, public=True) == before


async def test_without_threads_the_game_stays_in_the_channel(harness: Harness) -> None:
    h = harness
    await scripted_lobby(h, ["T21", "T39"])
    changed = await h.slash(LEADER, "moderate settings", threads="off")
    assert "Games in threads: off" in changed.last.content
    board = await start(h)
    assert board.channel_id == CHANNEL and h.thread_ids() == []


async def test_the_result_has_a_rematch_and_a_replay(harness: Harness) -> None:
    h = harness
    game_id = await scripted_lobby(h, ["T21", "T39"])
    board = await start(h)
    await ruth_places_and_closes_the_city(h, board, game_id)
    ended = await boaz_ends_the_game(h)
    (result,) = [s for s in ended if " won " in s.content]
    # The replay follows the result: every turn's board, then the final scores.
    (replay,) = [s for s in ended if s.files and s.files[0][0] == "replay.gif"]
    assert replay.channel_id == result.channel_id and "The whole game" in replay.content
    gif = Image.open(io.BytesIO(replay.files[0][1]))
    assert gif.format == "GIF" and gif.n_frames == 4  # the start, two turns, the scores
    assert 360 < gif.width <= 720 and len(replay.files[0][1]) < 8 * 1024 * 1024
    # Only the players may call a rematch.
    rematch = f"sb:{game_id}:0:table_rematch"
    stranger = await h.click(STRANGER, result, rematch)
    assert stranger.last.ephemeral and "not playing in this game" in stranger.last.content
    again = await h.click(BOAZ, result, rematch)
    # Issue 40: a lobby with Boaz (who asked) seated, its creator; Ruth is invited, seated
    # only when she joins. Nobody's clock runs until he starts it.
    assert again.last.ephemeral and f"A rematch table is open in <#{CHANNEL}>" in again.text
    assert "each is seated when they press **Join**" in again.last.content
    new = await service(h).service.play.game_in(CHANNEL)
    assert new is not None and new.id != game_id and new.status == "lobby"
    assert [s.user_id for s in new.seats] == [BOAZ] and new.rematch_of == game_id
    assert new.creator_id == BOAZ and new.started_at is None
    assert not [s for s in again if s.images]  # no board yet
    lobby, invite = [s for s in again if s.kind == "channel_message"]
    assert lobby.channel_id == CHANNEL and "Player (1):\n1. Boaz" in lobby.content
    assert "🔁 Rematch! Ruth: press **Join** to play again." in lobby.content
    # The one post that mentions her, and may: she is asked, not seated.
    assert invite.content == (
        f"🔁 <@{RUTH}>: Boaz would like a rematch. Press **Join** on the table if you are in."
    )
    assert invite.request.json["allowed_mentions"]["users"] == [RUTH]
    assert len(h.thread_ids()) == 1
    twice = await h.click(RUTH, result, rematch)
    assert twice.last.ephemeral and "already" in twice.last.content
    joined = await h.click(RUTH, lobby, f"lb:{new.id}:join")
    (edited,) = [s for s in joined if s.content and "Players (2)" in s.content]
    assert "1. Boaz\n2. Ruth" in edited.content and "Rematch!" not in edited.content
    # Only its creator starts it, as any lobby; then it has a thread of its own and a board.
    refused = await h.slash(RUTH, "table start")
    assert refused.last.ephemeral and "Only Boaz" in refused.last.content
    started = await h.click(BOAZ, lobby, f"lb:{new.id}:start")
    new = await service(h).service.play.get_game(new.id)
    assert new.status == "active"
    assert len(h.thread_ids()) == 2 and new.thread_id == h.thread_ids()[1]
    boards = [s for s in started if s.images and s.channel_id == new.thread_id]
    assert boards and "your turn" in boards[-1].content
    # The ratings: the winner took 16 points from the loser.
    stats = await h.slash(STRANGER, "table stats")
    assert "1. Ruth: 1016" in stats.last.content and "2. Boaz: 984" in stats.last.content
    replayed = await h.slash(RUTH, "table replay", channel=CHANNEL)
    assert replayed.last.ephemeral


async def test_history_and_what_you_missed(harness: Harness) -> None:
    h = harness
    game_id = await scripted_lobby(h, ["T21", "T39", "T39"])
    board = await start(h)
    await ruth_places_and_closes_the_city(h, board, game_id)
    await h.slash(BOAZ, "covenant place", square="N13", rotation=0)
    await h.slash(BOAZ, "covenant pass")
    missed = await h.slash(RUTH, "table missed")
    assert missed.last.ephemeral
    assert "Since your last turn, one turn was played:" in missed.text
    assert "Boaz placed a tile on N13." in missed.text
    stranger = await h.slash(STRANGER, "table missed")
    assert "not playing in this game" in stranger.last.content
    shown = (await h.slash(STRANGER, "table history")).last
    assert shown.ephemeral and "Turn 2 of 2: Boaz" in shown.content and shown.images
    assert "Boaz placed a tile on N13." in shown.content
    back = (await h.click(STRANGER, shown, shown.custom_ids[0])).last
    assert "Turn 1 of 2: Ruth" in back.content and "Ruth placed a tile on M12." in back.content
    assert back.component(back.custom_ids[0]).disabled  # nothing before the first turn


async def test_away_stops_the_clock_and_says_so(db_path: Path) -> None:
    clock = FakeClock()
    async with Harness(await make_bot(db_path, clock), channel_id=CHANNEL) as h:
        await scripted_lobby(h, ["T21", "T39", "T39"])
        await start(h)
        (thread,) = h.thread_ids()
        gone = await h.slash(RUTH, "table away", days=2.0)
        assert gone.last.ephemeral and "your clocks stand still in your game" in gone.text
        (notice,) = [s for s in gone if s.channel_id == thread]
        assert "Ruth is away until <t:" in notice.content
        cog = h.bot.get_cog("Reminders")
        assert isinstance(cog, Reminders)
        # Half of her three days would be used after 36 hours; away, none of it is.
        clock.advance(hours=37)
        async with h.capture() as early:
            assert await cog.run_once() == 0
        assert list(early) == []
        clock.advance(hours=48)  # two days later than it would have been
        async with h.capture() as sent:
            assert await cog.run_once() == 1
        assert f"<@{RUTH}>" in sent.messages[0].content


async def test_no_pings_in_the_servers_night(db_path: Path) -> None:
    # 12:00 UTC on 1 January is 21:00 in Tokyo; the server sleeps from 21:00 to 8:00.
    clock = FakeClock(datetime(2024, 1, 1, 12, 0, tzinfo=UTC))
    async with Harness(await make_bot(db_path, clock), channel_id=CHANNEL) as h:
        game_id = await scripted_lobby(h, ["T21", "T39", "T39"])
        night = await h.slash(
            LEADER, "moderate settings", timezone="Asia/Tokyo", quiet_from=21, quiet_until=8
        )
        assert "Time zone Asia/Tokyo, quiet from 21:00 to 8:00" in night.last.content
        board = await start(h)
        assert board.request.json["flags"] & SUPPRESS_NOTIFICATIONS  # a silent post
        clock.advance(hours=15)  # 12:00 in Tokyo
        post = await ruth_places_and_closes_the_city(h, board, game_id)
        assert not post.request.json.get("flags", 0) & SUPPRESS_NOTIFICATIONS
        cog = h.bot.get_cog("Reminders")
        assert isinstance(cog, Reminders)
        # Boaz's reminder falls due 36 h later: midnight in Tokyo, so it waits for 8:00.
        clock.advance(hours=36)
        async with h.capture() as waiting:
            assert await cog.run_once() == 0
        assert list(waiting) == []
        clock.advance(hours=8)
        async with h.capture() as morning:
            assert await cog.run_once() == 1
        (reminder,) = morning.messages
        assert f"<@{BOAZ}>" in reminder.content
        assert not reminder.request.json.get("flags", 0) & SUPPRESS_NOTIFICATIONS


async def test_a_game_ended_by_a_moderator_ranks_the_standings_and_its_line_says_so(
    harness: Harness,
) -> None:
    h = harness
    game_id = await scripted_lobby(h, ["T21", "T39", "T39"])
    board = await start(h)
    (thread,) = h.thread_ids()
    await ruth_places_and_closes_the_city(h, board, game_id)
    ended = await h.slash(LEADER, "moderate end")
    (final,) = [s for s in ended if s.kind == "channel_message" and s.channel_id == thread]
    # Nobody won: who stood where when it was ended, by points, and who ended it.
    assert "Standings when the game was ended:\n1. Ruth: 4 points\n2. Boaz: 0 points\n" in (
        final.content
    )
    assert final.content.endswith("The game was ended by a moderator.")
    assert " won" not in final.content
    # The channel's line about the game says the same, and names no winner.
    assert h.message(thread)["content"] == (
        f"🏁 **The Ark of the Covenant** in <#{thread}> was ended by a moderator."
    )


async def test_a_stalled_game_ends_with_a_line_saying_why(db_path: Path) -> None:
    clock = FakeClock()
    async with Harness(await make_bot(db_path, clock), channel_id=CHANNEL) as h:
        await scripted_lobby(h, ["T21", "T39", "T39"])
        await h.slash(LEADER, "moderate settings", pace="none")
        await start(h)
        (thread,) = h.thread_ids()
        cog = h.bot.get_cog("Reminders")
        assert isinstance(cog, Reminders)
        clock.advance(days=13)
        await cog.run_once()  # the warning
        clock.advance(days=2)
        async with h.capture() as sent:
            await cog.run_once()
        (final,) = [s for s in sent if s.kind == "channel_message" and s.channel_id == thread]
        assert "Nobody moved in this game for a long time" in final.content
        assert "1. Ruth and Boaz: 0 points" in final.content
        assert "moderator" not in final.content and " won" not in final.content
        line = h.message(thread)["content"]
        assert line == f"🏁 **The Ark of the Covenant** in <#{thread}> has ended: " + (
            "nobody moved for a long time."
        )


async def card_table(h: Harness) -> GameRecord:
    """Ruth, Boaz and Stranger at a card game Ruth started (seed 4, seats as joined)."""
    for user, name in ((RUTH, "Ruth"), (BOAZ, "Boaz"), (STRANGER, "Stranger")):
        h.user(user, name)
    h.user(LEADER, "Leader", moderator=True)
    record = await service(h).service.lobby.create_game(
        h.guild_id, CHANNEL, RUTH, "Ruth", "noah", seed=4, shuffle_seats=False
    )
    for user in (BOAZ, STRANGER):
        await h.slash(user, "table join")
    await h.slash(RUTH, "table start")
    return record


async def test_a_card_game_ended_by_a_moderator_turns_up_the_pets_then_only(
    harness: Harness,
) -> None:
    h = harness
    bot = service(h)
    record = await card_table(h)
    drawn = []
    draw_all = bot.pictures.draw_all

    async def drawing(pictures: Any, language: str, **how: Any) -> Any:
        drawn.extend(pictures)
        return await draw_all(pictures, language, **how)

    bot.pictures.draw_all = drawing  # type: ignore[method-assign]
    # Played on until the pets are chosen and some are in hand, face down.
    rng = Rng(4)
    _, game = await bot.service.play.state(record.id)
    while game.phase != "endgame" or not any(game.view(s)["pet"] for s in range(3)):
        assert game.phase != "over"
        seat = (await bot.service.play.get_game(record.id)).current
        assert seat is not None and seat.user_id is not None
        await bot.service.play.act(record.id, seat.user_id, game.sample_action(rng))
        _, game = await bot.service.play.state(record.id)
    pets = [game.view(s)["pet"] for s in range(3)]
    await h.slash(STRANGER, "table status")  # the board as everyone sees it: pets face down
    public = [picture.args[0] for picture in drawn if isinstance(picture.args[0], dict)]
    assert public and all(type(p) is not int for view in public for p in view["pets"])
    drawn.clear()
    ended = await h.slash(LEADER, "moderate end")
    # Once it is over, the final scoring shows every pet, as the natural end does.
    (final,) = [p for p in drawn if p.function.endswith(":final")]
    assert final.args[0]["pets"] == pets
    (post,) = [s for s in ended if s.kind == "channel_message" and s.images]
    scores = sorted(game.scores, reverse=True)
    assert "Standings when the game was ended:\n1. " in post.content
    assert f": {scores[0]} points" in post.content and " won" not in post.content
    # The words say whose pet was which, as the picture shows: nothing is "still hidden".
    assert "pets still hidden" not in post.content
    assert post.content.count("'s pet was the ") == 3


async def test_after_a_turn_the_player_is_told_where_the_board_is(harness: Harness) -> None:
    h = harness
    await scripted_lobby(h, ["T21", "T39", "T39"])
    await start(h)
    (thread,) = h.thread_ids()
    await h.slash(RUTH, "covenant place", square="M12", rotation=180, channel=thread)
    await h.slash(RUTH, "covenant follower", spot="B", channel=thread)
    done = await h.slash(RUTH, "covenant putark", square="M12", channel=CHANNEL)
    answer = next(s for s in reversed(done) if s.ephemeral)
    # In the game's thread, even when the move was typed in the channel.
    assert answer.content.startswith("Done!")
    assert answer.content.endswith(f"The board is posted in <#{thread}>.")


async def test_a_card_game_has_no_replay_and_says_why(harness: Harness) -> None:
    h = harness
    await card_table(h)
    await h.slash(LEADER, "moderate end")
    answer = (await h.slash(RUTH, "table replay")).last
    assert answer.ephemeral and not answer.files
    assert answer.content.startswith("There is no replay animation for **Ark**: the bot draws")
    assert "`/table history`" in answer.content
