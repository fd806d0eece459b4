"""Taking back a mis-tapped turn through the table (issue 40.5), in both games: the mover's
"Done!" message offers it for 30 seconds; until then nothing of the turn reaches anyone
else (no board, no ping, no status, no next turn, no suggestions); taken back, the mover
plays the turn again; a double tap or a tap after the time is refused privately; once the
time is over the round posts the turn, once."""

from __future__ import annotations

import asyncio
import re
from datetime import timedelta
from pathlib import Path

import pytest

from bot.service import FakeClock
from tests.bot.test_computers import finish_the_turn, lobby_with_a_computer
from tests.bot.test_discord import scripted_lobby, start
from tests.bot.test_posts import bot_of, public_posts
from tests.games.noah.bot.test_hints import MIRIAM, card_game
from tests.support.bot import BOAZ, CHANNEL, RUTH, make_bot
from tests.support.harness import Harness, Sent

GRACE = timedelta(seconds=30)
TAKE_BACK_LABEL = "Take back"


def take_back_id(done: Sent) -> str:
    (button,) = [c for c in done.components if c.label == TAKE_BACK_LABEL]
    assert button.custom_id is not None
    return button.custom_id


async def nothing_reaches_boaz(h: Harness) -> None:
    """While Ruth may take her turn back, Boaz (next) sees nothing of it."""
    for command in ("table status", "table history", "table missed", "table replay"):
        answer = (await h.slash(BOAZ, command)).last
        assert answer.ephemeral and not answer.images, command
        assert answer.content.startswith("A turn was just played"), (command, answer.content)


async def test_a_covenant_turn_taken_back_and_played_again(db_path: Path) -> None:
    clock = FakeClock()
    async with Harness(await make_bot(db_path, clock, take_back=GRACE), channel_id=CHANNEL) as h:
        game_id = await scripted_lobby(h, ["T21", "T39", "T39"])
        await bot_of(h).service.set_guild_settings(h.guild_id, RUTH, moderator=True, threads=False)
        board = await start(h)
        posts = len(public_posts(h))
        # Ruth's four taps: her turn, a square, a letter (tile and follower), the Ark.
        panel = (await h.click(RUTH, board, f"ob:{game_id}:1")).last
        chosen = (await h.click(RUTH, panel, f"tb:{game_id}:0:sq:0:-1")).last
        put_ark = (await h.click(RUTH, chosen, f"tb:{game_id}:0:put:0:-1:180:SSE:0")).last
        done = (await h.click(RUTH, put_ark, f"tb:{game_id}:2:putark:0:-1")).last
        assert done.ephemeral and done.content.startswith("Done! You scored 4 points this turn.")
        assert "until then you can take this turn back and play it again" in done.content
        # The bot's rounds (every minute) run when the time is over, not up to a minute later.
        common = bot_of(h).table.common
        assert common.rounds_asked.is_set()
        assert common.next_round_in(60) == GRACE.total_seconds() + 0.2
        assert len(public_posts(h)) == posts  # no board, no ping for Boaz
        await nothing_reaches_boaz(h)
        placed = (await h.slash(BOAZ, "covenant place", square="N13", rotation=0)).last
        assert placed.ephemeral and placed.content.startswith("A turn was just played")
        assert await h.autocomplete(BOAZ, "covenant place", focused="square", value="") == []
        # Ten seconds later Ruth takes it back, tapping twice in a hurry: one tap counts,
        # the other is told so privately and changes nothing.
        clock.advance(seconds=10)
        taps = await asyncio.gather(
            h.click(RUTH, done, take_back_id(done)), h.click(RUTH, done, take_back_id(done))
        )
        answers = sorted((tap.last for tap in taps), key=lambda sent: "Taken back" in sent.content)
        twice, again = answers
        assert twice.ephemeral and "can no longer be taken back" in twice.content
        assert again.ephemeral
        assert again.content.startswith("Taken back: nobody saw it. Play your turn again.")
        assert "a city on 1 side" in again.content and len(again.images) == 1
        record = await bot_of(h).service.play.get_game(game_id)
        assert (record.version, record.current_seat) == (0, 0)
        # This time the Ark goes to M13, as she meant.
        chosen = (await h.click(RUTH, again, f"tb:{game_id}:0:sq:0:-1")).last
        put_ark = (await h.click(RUTH, chosen, f"tb:{game_id}:0:put:0:-1:180:SSE:0")).last
        done = (await h.click(RUTH, put_ark, f"tb:{game_id}:2:putark:0:0")).last
        assert TAKE_BACK_LABEL in [c.label for c in done.components]
        # The round posts nothing before the time is over, then the board, once.
        await bot_of(h).reminders.run_once()  # type: ignore[union-attr]
        assert len(public_posts(h)) == posts
        clock.advance(GRACE)
        await bot_of(h).reminders.run_once()  # type: ignore[union-attr]
        await bot_of(h).reminders.run_once()  # type: ignore[union-attr]
        new = public_posts(h)[posts:]
        assert len(new) == 1, new
        (post,) = new
        assert post.startswith("Ruth placed a tile on M12.") and f"<@{BOAZ}>" in post
        assert "(it was not shown because the bot was restarting)" not in post
        late = (await h.click(RUTH, done, take_back_id(done), force=True)).last
        assert "can no longer be taken back" in late.content
        # Boaz plays on from the board.
        placed = (await h.slash(BOAZ, "covenant place", square="N13", rotation=0)).last
        assert "Your tile is on **N13**." in placed.content
        taken = await bot_of(h).service.play.taken_back(game_id)
        assert [a.seq for _, a in taken] == [1, 2, 3]


async def test_a_card_game_turn_taken_back_draws_nothing_for_anyone(db_path: Path) -> None:
    clock = FakeClock()
    async with Harness(await make_bot(db_path, clock, take_back=GRACE), channel_id=CHANNEL) as h:
        game_id, game = await card_game(h, 4)
        posts = len(public_posts(h))
        took = await h.slash(RUTH, "ark take", card="Berries")
        done = took.last
        assert done.ephemeral and done.content.startswith("Done!")
        assert len(public_posts(h)) == posts  # the drawn card reaches nobody
        await nothing_reaches_boaz(h)
        for user in (BOAZ, MIRIAM):
            assert await h.autocomplete(user, "ark take", focused="card", value="") == []
        # Ruth herself does not see the card she drew before it counts: taken back, she
        # would know the top card of the deck.
        for user in (RUTH, BOAZ):
            hand = (await h.slash(user, "ark hand")).last
            assert hand.ephemeral and not hand.images
            assert hand.content.startswith("A turn was just played")
        again = (await h.click(RUTH, done, take_back_id(done))).last
        assert again.content.startswith("Taken back: nobody saw it.")
        _, now = await bot_of(h).service.play.state(game_id)
        assert now.to_json() == game.to_json()  # the Berries on the table, the deck whole
        took = await h.slash(RUTH, "ark take", card="Spider")
        clock.advance(GRACE)
        await bot_of(h).reminders.run_once()  # type: ignore[union-attr]
        (post,) = public_posts(h)[posts:]
        assert post.startswith("Ruth took the Spider.") and "Berries" not in post
        assert f"<@{BOAZ}>, your turn!" in post


async def test_a_computer_plays_after_the_time_and_one_post_tells_both_turns(
    db_path: Path,
) -> None:
    clock = FakeClock()
    async with Harness(await make_bot(db_path, clock, take_back=GRACE), channel_id=CHANNEL) as h:
        game_id, _ = await lobby_with_a_computer(h, "easy")
        await h.slash(RUTH, "table start")
        before = len(h.channel_messages(CHANNEL, public=True))
        hint = (await h.slash(RUTH, "table hint")).last.content or ""
        found = re.search(r"Put the tile on \*\*([A-Z]+[0-9]+)\*\*.*?, turned ([0-9]+)°", hint)
        assert found is not None, hint
        await h.slash(RUTH, "covenant place", square=found[1], rotation=int(found[2]))
        done = await finish_the_turn(h, game_id)
        assert TAKE_BACK_LABEL in [c.label for c in done.components]
        await bot_of(h).service.computers.settle()
        await bot_of(h).reminders.run_once()  # type: ignore[union-attr]
        await bot_of(h).service.computers.settle()
        # The computer has not moved: Ruth could still take her turn back.
        record = await bot_of(h).service.play.get_game(game_id)
        assert record.current is not None and record.current.is_bot
        assert len(h.channel_messages(CHANNEL, public=True)) == before
        clock.advance(GRACE)
        await bot_of(h).reminders.run_once()  # type: ignore[union-attr]
        await bot_of(h).service.computers.settle()
        await bot_of(h).reminders.run_once()  # type: ignore[union-attr]
        posts = [h.message(m) for m in h.channel_messages(CHANNEL, public=True)[before:]]
        (post,) = [p for p in posts if p.get("attachments")]
        assert f"Ruth placed a tile on {found[1]}" in post["content"]
        assert "Miriam placed a tile on" in post["content"]
        assert f"<@{RUTH}>" in post["content"]
        assert len(posts) == 1


@pytest.mark.parametrize(
    ("locale", "done", "label", "again"),
    [
        ("nl", "tot dan kun je deze beurt terugnemen", "Terugnemen", "Teruggenomen: niemand"),
        ("es-ES", "hasta entonces puedes deshacer este turno", "Deshacer", "nadie lo ha visto"),
        ("es-419", "hasta entonces puedes deshacer este turno", "Deshacer", "nadie lo vio"),
    ],
)
async def test_taking_back_is_said_in_the_players_language(
    db_path: Path, locale: str, done: str, label: str, again: str
) -> None:
    clock = FakeClock()
    async with Harness(await make_bot(db_path, clock, take_back=GRACE), channel_id=CHANNEL) as h:
        h.user(RUTH, "Ruth", locale=locale)
        await card_game(h, 4)
        h.user(RUTH, "Ruth", locale=locale)
        answer = (await h.slash(RUTH, "ark take", card="Berries")).last
        assert done in answer.content
        (button,) = [c for c in answer.components if c.label == label]
        assert button.custom_id is not None
        taken = (await h.click(RUTH, answer, button.custom_id)).last
        assert again in taken.content


async def test_a_restart_within_the_time_keeps_the_button_working_and_posts_once(
    db_path: Path,
) -> None:
    clock = FakeClock()
    async with Harness(await make_bot(db_path, clock, take_back=GRACE), channel_id=CHANNEL) as h:
        game_id, game = await card_game(h, 4)
        posts = len(public_posts(h))
        done = (await h.slash(RUTH, "ark take", card="Berries")).last
        await h.restart(await make_bot(db_path, clock, take_back=GRACE))
        clock.advance(seconds=5)
        await bot_of(h).reminders.run_once(grace=timedelta(0))  # type: ignore[union-attr]
        assert len(public_posts(h)) == posts  # the restart's round leaves it alone
        again = (await h.click(RUTH, done, take_back_id(done))).last
        assert again.content.startswith("Taken back: nobody saw it.")
        done = (await h.slash(RUTH, "ark take", card="Snail")).last
        await h.restart(await make_bot(db_path, clock, take_back=GRACE))
        clock.advance(GRACE)
        for _ in range(2):
            await bot_of(h).reminders.run_once(grace=timedelta(0))  # type: ignore[union-attr]
        (post,) = public_posts(h)[posts:]
        assert post.startswith("Ruth took the Snail.") and "Berries" not in post
        late = (await h.click(RUTH, done, take_back_id(done))).last
        assert "can no longer be taken back" in late.content
        assert len(await bot_of(h).service.play.taken_back(game_id)) == 1
        assert game.current_player == 0


async def test_the_mover_posts_at_once_and_the_next_player_need_not_wait(db_path: Path) -> None:
    clock = FakeClock()
    async with Harness(await make_bot(db_path, clock, take_back=GRACE), channel_id=CHANNEL) as h:
        game_id, _ = await card_game(h, 4)
        posts = len(public_posts(h))
        done = (await h.slash(RUTH, "ark take", card="Berries")).last
        (button,) = [c for c in done.components if c.label == "Post now"]
        assert button.custom_id is not None
        # Tapped twice in a hurry: one post, and both taps say where it is.
        taps = await asyncio.gather(
            h.click(RUTH, done, button.custom_id), h.click(RUTH, done, button.custom_id)
        )
        home = (await bot_of(h).service.play.get_game(game_id)).home  # the game's thread
        for tap in taps:
            assert tap.last.ephemeral
            assert tap.last.content == f"Posted: the board is in <#{home}>."
        (post,) = public_posts(h)[posts:]
        assert post.startswith("Ruth took the Berries.") and f"<@{BOAZ}>, your turn!" in post
        with_no_wait = (await h.slash(BOAZ, "table status")).last
        assert not with_no_wait.content.startswith("A turn was just played")
        record = await bot_of(h).service.play.get_game(game_id)
        assert not record.taking_back(int(clock.now().timestamp() * 1000))
        # The time being over, the rounds find nothing more to post.
        clock.advance(GRACE)
        await bot_of(h).reminders.run_once()  # type: ignore[union-attr]
        assert len(public_posts(h)) == posts + 1
