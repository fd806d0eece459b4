"""A season through discord.py's own objects: a moderator's ``/moderate season new``, seven
members signing up on its message, round 1 dealt into a thread per table with its players
mentioned and its first board, the standings privately (``/table season``) and in the
channel when round 1 closes."""

from __future__ import annotations

import os
from datetime import timedelta
from pathlib import Path
from typing import Any

from PIL import Image

from bot.client import TableBot
from bot.cogs.reminders import Reminders
from bot.service import FakeClock
from tests.service.conftest import play_to_end
from tests.support.bot import CHANNEL, LEADER, STRANGER, make_bot
from tests.support.harness import Harness, Reply, Request, Sent, http_error

MEMBERS = tuple(range(31, 38))
#: Where the test leaves the pictures it saw, scaled to a phone's 400 px, for a person to
#: look at (``ARKBOT_SEASON_PICTURES=/tmp/x``); nowhere by default.
SAVE = os.environ.get("ARKBOT_SEASON_PICTURES")


def bot_of(h: Harness) -> TableBot:
    return h.bot  # type: ignore[return-value]


def reminders(h: Harness) -> Reminders:
    cog = h.bot.get_cog("Reminders")
    assert isinstance(cog, Reminders)
    return cog


def private(reply: Reply) -> Sent:
    """The private answer of a click (the sign-up message is edited after it)."""
    [answer] = [s for s in reply.messages if s.ephemeral]
    return answer


def _look(image: Image.Image, name: str) -> None:
    """Keep the picture at 400 px wide, as a phone shows it (when asked to)."""
    assert image.width == 760
    if SAVE:
        Path(SAVE).mkdir(parents=True, exist_ok=True)
        scaled = image.resize((400, round(image.height * 400 / image.width)), Image.LANCZOS)
        scaled.save(Path(SAVE) / name)


async def test_a_season_signs_up_deals_threads_and_shows_standings(db_path: Path) -> None:
    clock = FakeClock()
    async with Harness(await make_bot(db_path, clock), channel_id=CHANNEL) as h:
        leader = h.user(LEADER, "Leader", moderator=True)
        for uid in MEMBERS:
            h.user(uid, f"Member{uid}")
        h.user(STRANGER, "Stranger", locale="nl")

        # Only a moderator starts a season; the refusal is private and changes nothing.
        refused = await h.slash(STRANGER, "moderate season new")
        assert refused.last.ephemeral and "moderator" in refused.last.content.lower()
        assert await bot_of(h).service.seasons.current(CHANNEL) is None

        made = await h.slash(leader, "moderate season new", options={"first_day": "bad"})
        assert made.last.ephemeral and "YYYY-MM-DD" in made.last.content
        made = await h.slash(leader, "moderate season new")
        signup = made.last
        assert not signup.ephemeral
        assert "A season of" in signup.content and "3 rounds of 7 days" in signup.content
        assert "Nobody has signed up yet." in signup.content
        season = await bot_of(h).service.seasons.current(CHANNEL)
        assert season is not None and season.message_id == signup.message_id
        join, leave = f"zb:{season.id}:join", f"zb:{season.id}:leave"
        assert {join, leave} <= set(signup.custom_ids)

        for uid in MEMBERS:
            answer = private(await h.click(uid, signup, join))
            assert "round 1" in (answer.content or "")
        again = private(await h.click(MEMBERS[0], signup, join))
        assert "already signed up" in (again.content or "")
        # The sign-up message says who is in (edited after each click).
        current = h.messages[signup.message_id]["content"]
        assert "7 members have signed up" in current
        # In Dutch, to a member whose Discord speaks it, privately.
        dutch = private(await h.click(STRANGER, signup, leave))
        assert dutch.content == "Je bent niet ingeschreven voor dit seizoen."

        # Sign-up closes a day later: round 1 is dealt in the background rounds.
        clock.advance(days=1)
        threads_before = len(h.thread_ids())
        async with h.capture() as dealt:
            await reminders(h).run_once()
        threads = h.thread_ids()[threads_before:]
        assert len(threads) == 2
        service = bot_of(h).service
        games = [await service.play.game_in(thread) for thread in threads]
        assert all(g is not None and g.status == "active" for g in games)
        seated = sorted(s.user_id for g in games if g for s in g.seats if s.user_id)
        assert seated == list(MEMBERS)
        for thread, game in zip(threads, games, strict=True):
            assert game is not None
            said = [s for s in dealt.messages if s.channel_id == thread]
            hello = said[0].content
            assert all(f"<@{s.user_id}>" in hello for s in game.seats if s.user_id)
            assert "round 1 of 3" in hello
            assert any(s.images for s in said), "the first board is posted in the thread"
        lines = [s.content for s in dealt.messages if s.channel_id == CHANNEL]
        assert any("Round 1, table 1:" in (line or "") for line in lines)
        assert "Round 1 of 3 is under way" in h.messages[signup.message_id]["content"]

        # /table season: the standings, privately, as a picture.
        mine = await h.slash(MEMBERS[0], "table season")
        assert mine.last.ephemeral and "Season standings" in mine.last.content
        [picture] = mine.last.images
        _look(picture, "season-standings-round1.png")

        # A member leaves the season with their game under way: a computer takes the seat.
        first = games[0]
        assert first is not None
        leaver = next(s.user_id for s in first.seats if s.user_id)
        gone = private(await h.click(leaver, signup, leave))
        assert "You have left the season" in (gone.content or "")
        record = await service.play.get_game(first.id)
        taken = next(s for s in record.seats if s.left_user_id == leaver)
        assert taken.is_bot and taken.user_id is None
        assert "6 members have signed up" in h.messages[signup.message_id]["content"]

        # Every game of round 1 played to its end; round 1 closes a week after it began.
        for game in games:
            assert game is not None
            await play_to_end(service, game.id)
        clock.advance(days=7)
        async with h.capture() as closed:
            await reminders(h).run_once()
        posts: list[Sent] = [s for s in closed.messages if s.channel_id == CHANNEL]
        standings = next(s for s in posts if "Round 1 is over" in (s.content or ""))
        [picture] = standings.images
        _look(picture, "season-standings-closed.png")
        # Round 2: the six members still in, at two tables of three.
        assert len(h.thread_ids()) == threads_before + 4

        # A moderator ends the season: said in the channel, with the podium.
        ended = await h.slash(leader, "moderate season end")
        assert "Leader ended the season." in ended.text
        podium = next(s for s in ended.messages if "The season is over" in (s.content or ""))
        [picture] = podium.images
        _look(picture, "season-podium.png")
        assert await bot_of(h).service.seasons.current(CHANNEL) is None
        final = h.messages[signup.message_id]
        assert "This season is over." in final["content"] and not final.get("components")


async def _signed_up(h: Harness) -> int:
    """A season with :data:`MEMBERS` signed up; its id."""
    leader = h.user(LEADER, "Leader", moderator=True)
    for uid in MEMBERS:
        h.user(uid, f"Member{uid}")
    signup = (await h.slash(leader, "moderate season new")).last
    season = await bot_of(h).service.seasons.current(CHANNEL)
    assert season is not None
    for uid in MEMBERS:
        await h.click(uid, signup, f"zb:{season.id}:join")
    return season.id


async def test_a_stop_between_a_step_and_its_posts_posts_them_once_after_the_restart(
    db_path: Path,
) -> None:
    clock = FakeClock()
    async with Harness(await make_bot(db_path, clock), channel_id=CHANNEL) as h:
        season_id = await _signed_up(h)
        # Round 1 is dealt (its threads made, its games started), then the bot stops before
        # a table said a word: nobody was mentioned in either thread.
        clock.advance(days=1)
        async with h.capture() as stepped:
            step = bot_of(h).service.seasons.step
            [dealt] = await step(season_id, reminders(h).table.rounds.seasons._make_home)
        threads = [g.channel_id for g in dealt.games]
        assert not [s for s in stepped.messages if s.channel_id in threads]
        await h.restart(await make_bot(db_path, clock))

        # After the restart, the background round says each table's hello once.
        async with h.capture() as after:
            await reminders(h).run_once(grace=timedelta(0))
        for game in dealt.games:
            said = [s for s in after.messages if s.channel_id == game.channel_id]
            [hello] = [s for s in said if "round 1 of 3" in (s.content or "")]
            assert all(f"<@{s.user_id}>" in (hello.content or "") for s in game.seats if s.user_id)
            assert hello.payload.get("nonce") == f"s{season_id}.hello.1.{game.id}"
            # The first board comes back as any missed post does.
            assert any(s.images for s in said)
        async with h.capture() as again:
            await reminders(h).run_once()
        assert not [s for s in again.messages if "round 1 of 3" in (s.content or "")]

        # Round 1 closes while the bot is away again: its standings come after the restart,
        # once, with round 2's hellos.
        service = bot_of(h).service
        for game in dealt.games:
            await play_to_end(service, game.id)
        clock.advance(days=7)
        closed, dealt = await service.seasons.step(
            season_id, reminders(h).table.rounds.seasons._make_home
        )
        assert (closed.kind, dealt.round_number) == ("closed", 2)
        await h.restart(await make_bot(db_path, clock))
        async with h.capture() as after:
            await reminders(h).run_once()
        [standings] = [s for s in after.messages if "Round 1 is over" in (s.content or "")]
        assert standings.channel_id == CHANNEL and len(standings.images) == 1
        for game in dealt.games:
            said = [s for s in after.messages if s.channel_id == game.channel_id]
            assert len([s for s in said if "round 2 of 3" in (s.content or "")]) == 1
        async with h.capture() as again:
            await reminders(h).run_once()
        assert not [s for s in again.messages if "Round 1 is over" in (s.content or "")]
        assert (await bot_of(h).service.seasons.get(season_id)).untold == ()


async def test_a_hello_whose_thread_is_gone_is_dropped_and_the_others_said(
    db_path: Path,
) -> None:
    clock = FakeClock()
    async with Harness(await make_bot(db_path, clock), channel_id=CHANNEL) as h:
        season_id = await _signed_up(h)
        clock.advance(days=1)
        step = bot_of(h).service.seasons.step
        [dealt] = await step(season_id, reminders(h).table.rounds.seasons._make_home)
        gone, kept = dealt.games
        # The first table's thread was deleted while the bot was away: Discord refuses it.

        def deleted(request: Request) -> Any:
            if request.path == f"/channels/{gone.channel_id}/messages":
                raise http_error(404, "Unknown Channel", code=10003)
            return NotImplemented

        h.on("POST", "/channels/{channel_id}/messages", deleted)
        async with h.capture() as after:
            await reminders(h).run_once()
        said = [s for s in after.messages if "round 1 of 3" in (s.content or "")]
        assert [s.channel_id for s in said] == [kept.channel_id]
        # Not owed any more: the next rounds do not try it again.
        assert (await bot_of(h).service.seasons.get(season_id)).untold == ()
        tries = len([r for r in h.requests if r.path == f"/channels/{gone.channel_id}/messages"])
        assert tries == 1
        await reminders(h).run_once()
        assert tries == len(
            [r for r in h.requests if r.path == f"/channels/{gone.channel_id}/messages"]
        )


async def test_a_whole_season_of_seven_plays_three_rounds_to_its_podium(db_path: Path) -> None:
    clock = FakeClock()
    async with Harness(await make_bot(db_path, clock), channel_id=CHANNEL) as h:
        season_id = await _signed_up(h)
        service = bot_of(h).service
        clock.advance(days=1)  # sign-up closes: round 1
        for round_number in (1, 2, 3):
            before = len(h.thread_ids())
            async with h.capture() as dealt:
                await reminders(h).run_once()
            if round_number > 1:  # the round before closed first: its standings, once
                heading = f"Round {round_number - 1} is over"
                [told] = [s for s in dealt.messages if heading in (s.content or "")]
                assert told.channel_id == CHANNEL
                [picture] = told.images
                _look(picture, f"season-whole-after-round{round_number - 1}.png")
            # Seven members: a table of four and one of three, each in a thread of its own
            # with its players mentioned once, every member seated once.
            threads = h.thread_ids()[before:]
            games = [await service.play.game_in(thread) for thread in threads]
            assert sorted(len(g.seats) for g in games if g) == [3, 4]
            seated = sorted(s.user_id for g in games if g for s in g.seats if s.user_id)
            assert seated == list(MEMBERS)
            for thread, game in zip(threads, games, strict=True):
                assert game is not None and game.status == "active"
                said = [s for s in dealt.messages if s.channel_id == thread]
                [hello] = [s for s in said if f"round {round_number} of 3" in (s.content or "")]
                assert all(f"<@{s.user_id}>" in (hello.content or "") for s in game.seats)
                assert any(s.images for s in said), "the first board is posted in the thread"
            for game in games:
                assert game is not None
                await play_to_end(service, game.id)
            clock.advance(days=7)
        # Round 3 closes with every game ended: its standings, then the podium.
        async with h.capture() as ended:
            await reminders(h).run_once()
        posts = [s for s in ended.messages if s.channel_id == CHANNEL and s.images]
        assert ["Round 3 is over" in (s.content or "") for s in posts] == [True, False]
        assert "The season is over" in (posts[1].content or "")
        _look(posts[1].images[0], "season-whole-podium.png")
        assert len(h.thread_ids()) == before + 2  # no round 4
        assert await service.seasons.current(CHANNEL) is None
        table = await service.seasons.standings(season_id)
        assert table.rounds == 3 and table.playing == 0
        assert sorted(line.user_id for line in table.lines) == list(MEMBERS)
        assert all(line.games == 3 for line in table.lines)
        assert (await service.seasons.get(season_id)).untold == ()
