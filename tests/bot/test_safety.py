"""What an attack on the running bot found, at the Discord layer (issue 18), and the table's
share of issue 11: names that ping, posts that fail after the move, slow databases, direct
messages, forged controls, old boards, leaving a game, time-outs that ping someone."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from bot.client import TableBot
from bot.service import FakeClock
from engine.covenant import PlaceTile
from tests.bot.test_discord import BOAZ, LEADER, RUTH, STRANGER, scripted_lobby, start
from tests.support.bot import CHANNEL, make_bot
from tests.support.harness import Harness, Request, http_error

SOMEONE = 123456789012345678  # a real-looking user id that a name tries to mention
ROLE = 223456789012345678


def posts(h: Harness) -> list[Request]:
    return [r for r in h.requests if r.method == "POST" and r.template.endswith("/messages")]


def mentions_of(request: Request) -> dict[str, Any]:
    return (request.json or {}).get("allowed_mentions") or {}


async def test_names_never_ping_anybody(harness: Harness) -> None:
    h = harness
    bot: TableBot = h.bot  # type: ignore[assignment]
    h.user(RUTH, f"<@{SOMEONE}> @everyone")
    h.user(BOAZ, f"<@&{ROLE}> **Boaz**")
    record = await bot.service.lobby.create_game(
        h.guild_id, CHANNEL, RUTH, f"<@{SOMEONE}> @everyone", "covenant",
        options={"deck": ["T21", "T39"]}, shuffle_seats=False,
    )  # fmt: skip
    await h.slash(BOAZ, "table join")
    await h.slash(RUTH, "table start")
    sent = posts(h)
    assert sent
    for request in sent:
        body = request.json or {}
        assert f"<@{SOMEONE}>" not in body.get("content", "")
        assert f"<@&{ROLE}>" not in body.get("content", "")
        assert "@everyone" not in body.get("content", "").replace("@\u200beveryone", "")
        allowed = mentions_of(request)
        assert allowed.get("parse", []) == [] and allowed.get("roles", []) == []
        assert set(allowed.get("users", [])) <= {str(RUTH), RUTH}
    board = sent[-1].json or {}
    assert "\\*\\*boaz\\*\\*" in board["content"].lower()  # shown as typed, not as bold
    assert mentions_of(sent[-1])["users"] in ([str(RUTH)], [RUTH])  # whose turn it is
    assert record.id


async def test_a_failed_post_after_the_move_says_the_move_counts(harness: Harness) -> None:
    h = harness
    bot: TableBot = h.bot  # type: ignore[assignment]
    game_id = await scripted_lobby(h, ["T21", "T39"])
    await start(h)

    def unavailable(request: Request) -> Any:
        raise http_error(503, "Service Unavailable")

    h.on("POST", "/channels/{channel_id}/messages", unavailable)
    placed = await h.slash(RUTH, "covenant place", square="M12", rotation=180)
    assert "Your tile is on **M12**." in placed.last.content
    await h.slash(RUTH, "covenant follower", spot="B")
    done = await h.slash(RUTH, "covenant putark", square="M12")  # the turn ends: a post
    text = done.last.content
    assert done.last.ephemeral and "your move counts" in text and "could not be posted" in text
    assert "nothing was changed" not in done.text and not done.errors
    record = await bot.service.play.get_game(game_id)
    assert record.version == 3 and record.post_failures == 1
    # Not retried at every round: the next try waits (a minute, then two, four, ...).
    before = len(posts(h))
    await bot.reminders.run_once()  # type: ignore[union-attr]
    assert len(posts(h)) == before


async def test_a_missing_permission_is_told_to_the_creator_once(db_path: Path) -> None:
    clock = FakeClock()
    async with Harness(await make_bot(db_path, clock), channel_id=CHANNEL) as h:
        bot: TableBot = h.bot  # type: ignore[assignment]
        game_id = await scripted_lobby(h, ["T21", "T39"])
        await start(h)

        def denied(request: Request) -> Any:
            raise http_error(403, "Missing Permissions", code=50013)

        h.on("POST", "/channels/{channel_id}/messages", denied)
        await h.slash(RUTH, "covenant place", square="M12", rotation=180)
        await h.slash(RUTH, "covenant follower", spot="B")
        await h.slash(RUTH, "covenant putark", square="M12")
        dms = [r for r in h.requests if r.template == "/users/@me/channels"]
        assert len(dms) == 1  # Ruth created the game: she hears it, once
        (note,) = [
            r for r in posts(h) if "I could not post" in ((r.json or {}).get("content") or "")
        ]
        assert f"<#{CHANNEL}>" in note.json["content"]  # type: ignore[index]
        for minutes in (3, 3, 5):  # tried again after 1 (and the grace), then 2, then 4 minutes
            clock.advance(minutes=minutes)
            await bot.reminders.run_once()  # type: ignore[union-attr]
        assert len([r for r in h.requests if r.template == "/users/@me/channels"]) == 1
        assert (await bot.service.play.get_game(game_id)).post_failures == 4
        # The permission is given: the board goes out, and the game is whole.
        h.off("POST", "/channels/{channel_id}/messages")
        clock.advance(minutes=9)
        async with h.capture() as sent:
            assert await bot.reminders.run_once() == 1  # type: ignore[union-attr]
        (board,) = [s for s in sent.messages if s.kind == "channel_message"]
        assert "A 2-tile city was completed: Ruth +4." in board.content
        await bot.service.posts.flush_posted()
        assert (await bot.service.play.get_game(game_id)).post_failures == 0


async def test_new_tables_answer_in_time_when_the_database_is_slow(harness: Harness) -> None:
    h = harness
    h.user(RUTH, "Ruth")
    bot: TableBot = h.bot  # type: ignore[assignment]
    storage = bot.service.storage
    original = storage.write

    class Slow:
        """A write that waits 3.5 s first: a backup, a slow disk, another process."""

        async def __aenter__(self) -> Any:
            self.inner = original()
            await asyncio.sleep(3.5)
            return await self.inner.__aenter__()

        async def __aexit__(self, *exc: Any) -> Any:
            return await self.inner.__aexit__(*exc)

    def slow_write() -> Any:
        return Slow()

    storage.write = slow_write  # type: ignore[method-assign]
    opened = await h.slash(RUTH, "table new")
    assert opened[0].kind == 5 and opened[0].ephemeral  # deferred, privately
    assert opened.callback is not None and opened.callback.elapsed < 3
    assert [s for s in opened if s.kind == "channel_message"]  # the lobby came after


async def test_commands_are_for_servers_only(harness: Harness) -> None:
    h = harness
    synced = [r for r in h.requests if r.template.startswith("/applications/")]
    assert synced
    commands = synced[-1].json or []
    assert {c["name"] for c in commands} >= {"table", "moderate", "covenant"}
    for command in commands:
        assert command.get("contexts") == [0] or command.get("dm_permission") is False, command


async def test_forged_and_misplaced_controls_are_refused_privately(harness: Harness) -> None:
    h = harness
    bot: TableBot = h.bot  # type: ignore[assignment]
    game_id = await scripted_lobby(h, ["T21", "T39"])
    board = await start(h)
    elsewhere = h.channel(777, "elsewhere")
    forged = [
        (f"ob:{game_id}:1", elsewhere.id),  # a real button, pressed from another channel
        (f"tb:{game_id}:0:place:0:-1:180", elsewhere.id),
        ("tb:99999999999999999999999:0:place:0:0:0", None),  # numbers too big
        (f"tb:{game_id}:0:place:x:y:z", None),  # args our front never made
        ("ob:1", None),
        ("lb:1:dance", None),
        ("ark:turn:1:1", None),  # a control of the bot's first version
    ]
    for custom_id, channel in forged:
        reply = await h.forge(RUTH, board, custom_id, channel_id=channel)
        assert reply.last.ephemeral, custom_id
        assert "no longer valid" in reply.last.content, (custom_id, reply.last.content)
        assert not reply.errors, custom_id
    assert (await bot.service.play.get_game(game_id)).version == 0


STALE = {
    "en-US": "That button is no longer valid. Look for the newest message in the channel.",
    "nl": "Die knop werkt niet meer. Kijk naar het nieuwste bericht in het kanaal.",
    "es-ES": "Ese botón ya no es válido. Busca el mensaje más reciente del canal.",
    "es-419": "Ese botón ya no es válido. Busca el mensaje más reciente del canal.",
}


async def test_a_control_matching_none_of_ours_is_answered_as_a_stale_one(
    harness: Harness,
) -> None:
    """Ids that fit no template of ours (made up, an older version's, too long for any of
    ours: discord.py hands them to no control) are answered privately in the reader's
    language, not left for Discord to say "This interaction failed"."""
    h = harness
    bot: TableBot = h.bot  # type: ignore[assignment]
    game_id = await scripted_lobby(h, ["T21", "T39"])
    board = await start(h)
    unknown = [
        "foo:bar",
        "ob",
        "x" * 300,
        f"tb:{game_id}:0:" + "a" * 290,
        "ob:1\n:2",
        "ark:turn:1:1",
    ]
    for n, (locale, said) in enumerate(STALE.items()):
        reader = 900 + n
        h.user(reader, f"Reader {n}", locale=locale)
        for custom_id in unknown:
            for values in (None, ["1"]):  # a button, a menu
                reply = await h.forge(reader, board, custom_id, values=values)
                assert reply.callback is not None, (locale, custom_id)
                assert reply.last.ephemeral and reply.last.content == said, (locale, custom_id)
                assert not reply.errors, custom_id
    # Ours in shape, on the wrong kind of control: a menu with a button's id, and the reverse.
    for custom_id, values in ((f"tb:{game_id}:0:pass", ["1"]), (f"tm:{game_id}:0:spot", None)):
        reply = await h.forge(RUTH, board, custom_id, values=values)
        assert reply.callback is not None, custom_id
        assert reply.last.ephemeral and reply.last.content == STALE["en-US"], custom_id
    assert (await bot.service.play.get_game(game_id)).version == 0


async def test_a_turn_control_forged_with_the_seat_kind_is_still_the_current_players(
    harness: Harness,
) -> None:
    """Who may use a control is the table's decision from its name: a seated player who is
    not to play, or a stranger, sending the current player's controls with the seat kind
    (``sb:``/``sm:``) is refused privately, shown no panel, and nothing changes."""
    h = harness
    bot: TableBot = h.bot  # type: ignore[assignment]
    game_id = await scripted_lobby(h, ["T21", "T39"])
    board = await start(h)
    forged = [
        (f"sb:{game_id}:0:back", None),
        (f"sb:{game_id}:0:page:1", None),
        (f"sb:{game_id}:0:place:0:-1:180", None),
        (f"sb:{game_id}:0:pass", None),
        (f"sm:{game_id}:0:spot", ["0,-1"]),
    ]
    for user, said in ((BOAZ, "turn, not yours"), (STRANGER, "not playing in this game")):
        for custom_id, values in forged:
            reply = await h.forge(user, board, custom_id, values=values)
            assert reply.last.ephemeral, custom_id
            assert said in reply.last.content.lower(), (custom_id, reply.last.content)
            assert not reply.last.files and not reply.last.custom_ids, custom_id
            assert not reply.errors, custom_id
    assert (await bot.service.play.get_game(game_id)).version == 0


async def test_a_refusal_quoting_a_long_input_still_fits(harness: Harness) -> None:
    h = harness
    await scripted_lobby(h, ["T21", "T39"])
    await start(h)
    reply = await h.slash(RUTH, "covenant place", square="Q" * 100)
    assert reply.last.ephemeral and len(reply.last.content) < 300
    assert "cannot go on" in reply.last.content


async def test_a_player_leaves_a_started_game_after_a_confirm(harness: Harness) -> None:
    h = harness
    bot: TableBot = h.bot  # type: ignore[assignment]
    game_id = await scripted_lobby(h, ["T21", "T39", "T39"])
    await start(h)
    asked = await h.slash(BOAZ, "table leave")
    assert asked.last.ephemeral and "for good" in asked.last.content
    assert (await bot.service.play.get_game(game_id)).seats[1].is_bot is False  # not yet
    stranger = await h.click(STRANGER, asked.last, f"sb:{game_id}:0:table_leave")
    assert "not playing in this game" in stranger.last.content
    left = await h.click(BOAZ, asked.last, f"sb:{game_id}:0:table_leave")
    assert "Boaz left the game" in left.text
    record = await bot.service.play.get_game(game_id)
    assert record.seats[1].is_bot and record.seats[1].user_id is None
    # Ruth plays; the computer answers at once, and its move is told as the computer's.
    await h.slash(RUTH, "covenant place", square="M12", rotation=180)
    await h.slash(RUTH, "covenant follower", spot="B")
    done = await h.slash(RUTH, "covenant putark", square="M12")
    post = [s for s in done if s.kind == "channel_message"][-1]
    assert "🤖 A computer player took 🤖 Boaz's seat and played:" in post.content
    assert "🤖 Boaz placed a tile on" in post.content
    assert [e.act for e in await bot.service.moderation.log(h.guild_id)] == ["leave_game"]
    assert PlaceTile  # the computer placed one


async def test_a_notify_time_out_pings_the_creator_without_a_moderator_role(
    db_path: Path,
) -> None:
    clock = FakeClock()
    async with Harness(await make_bot(db_path, clock), channel_id=CHANNEL) as h:
        await scripted_lobby(h, ["T21", "T39", "T39"])
        await h.slash(LEADER, "moderate settings", timeout_action="notify")
        await start(h)
        await h.slash(RUTH, "covenant place", square="M14", rotation=90)
        await h.slash(RUTH, "covenant pass")  # now Boaz is to play, and does not
        clock.advance(hours=37)
        await h.bot.reminders.run_once()  # type: ignore[attr-defined]  # Boaz is reminded
        clock.advance(hours=43)
        async with h.capture():
            await h.bot.reminders.run_once()  # type: ignore[attr-defined]
        (notice,) = [r for r in posts(h) if "has not played" in (r.json or {}).get("content", "")]
        content = notice.json["content"]  # type: ignore[index]
        assert "Boaz has not played" in content and f"<@{RUTH}>" in content  # the creator
        assert mentions_of(notice)["users"] in ([str(RUTH)], [RUTH])
        assert mentions_of(notice).get("roles", []) == []


async def test_a_start_says_the_game_started_when_the_lobby_cannot_be_posted(
    harness: Harness,
) -> None:
    # Issue 31: the lobby's message was deleted and the bot may not post in the channel; the
    # game started all the same, so the answer must not say that nothing was changed.
    h = harness
    bot: TableBot = h.bot  # type: ignore[assignment]
    game_id = await scripted_lobby(h, ["T21", "T39"])

    def deleted(request: Request) -> Any:
        raise http_error(404, "Unknown Message", code=10008)

    def denied(request: Request) -> Any:
        raise http_error(403, "Missing Permissions", code=50013)

    h.on("PATCH", "/channels/{channel_id}/messages/{message_id}", deleted)
    h.on("POST", "/channels/{channel_id}/messages", denied)
    started = await h.slash(RUTH, "table start")
    said = started.last
    assert said.ephemeral and "The game is on!" in said.content
    assert f"I could not post in <#{CHANNEL}>" in said.content
    assert "nothing was changed" not in started.text and not started.errors
    assert (await bot.service.play.get_game(game_id)).status == "active"


async def test_a_new_table_that_cannot_be_posted_says_it_is_open(harness: Harness) -> None:
    h = harness
    h.user(RUTH, "Ruth")

    def denied(request: Request) -> Any:
        raise http_error(403, "Missing Permissions", code=50013)

    h.on("POST", "/channels/{channel_id}/messages", denied)
    opened = await h.slash(RUTH, "table new")
    assert opened.last.ephemeral and "Your table is open." in opened.last.content
    assert "I could not post" in opened.last.content
    assert "nothing was changed" not in opened.text and not opened.errors


async def test_join_and_leave_clicks_edit_a_lobby_a_few_times_a_minute(db_path: Path) -> None:
    # Issue 31: 100 join/leave clicks edited someone's lobby 100 times.
    clock = FakeClock()
    async with Harness(await make_bot(db_path, clock), channel_id=CHANNEL) as h:
        h.user(RUTH, "Ruth")
        h.user(BOAZ, "Boaz")
        opened = await h.slash(RUTH, "table new")
        (lobby,) = [s for s in opened if s.kind == "channel_message"]
        game_id = next(int(c.split(":")[1]) for c in lobby.custom_ids if c.startswith("lb:"))
        edits = 0
        refusals: list[str] = []
        for click in range(100):
            op = "join" if click % 2 == 0 else "leave"
            reply = await h.click(BOAZ, lobby, f"lb:{game_id}:{op}")
            edits += sum(1 for s in reply if s.kind == "edit_original")
            refusals += [s.content for s in reply if s.ephemeral and s.kind == "followup"]
            assert not reply.errors
        assert edits == 5
        assert len(refusals) == 95
        assert "you can join or leave again in 60 seconds" in refusals[0]
        assert "Boaz" in h.message(lobby)["content"]  # his fifth click, a join, counted
        # A minute later he may come and go again.
        clock.advance(seconds=61)
        left = await h.click(BOAZ, lobby, f"lb:{game_id}:leave")
        assert sum(1 for s in left if s.kind == "edit_original") == 1
        assert "Boaz" not in h.message(lobby)["content"]
