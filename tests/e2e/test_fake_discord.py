"""The fake Discord proven with a plain discord.py bot in a subprocess
(``tests/support/probe_bot.py``)."""

from __future__ import annotations

import signal
import zlib
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest

from tests.support.e2e import StartBot
from tests.support.fake_discord import (
    ATTACH_FILES,
    CREATE_PUBLIC_THREADS,
    EPHEMERAL,
    MANAGE_THREADS,
    SEND_MESSAGES,
    VIEW_CHANNEL,
    BotProcess,
    FakeDiscord,
    pngs,
)
from tests.support.refused_bodies import CHOICES, MESSAGES, THREAD_NAME

WAIT = 5.0


async def test_login_identify_and_command_sync(
    fake_discord: FakeDiscord, probe: BotProcess
) -> None:
    rec = fake_discord.recorder
    assert rec.find_requests("GET", r"^/users/@me$"), "static_login reads /users/@me"
    assert rec.find_requests("GET", r"^/oauth2/applications/@me$")
    assert fake_discord.identify_count == 1
    # discord.py asks for zlib-stream unless a zstd module is installed; both decode.
    connect = next(q for kind, _, q in rec.gateway_log if kind == "connect")
    assert "v=10" in connect and "encoding=json" in connect
    synced = {r.path: [c["name"] for c in r.json] for r in rec.commands_synced}
    app, guild = fake_discord.APP_ID, fake_discord.GUILD_ID
    assert sorted(synced[f"/applications/{app}/commands"]) == ["echo", "ping", "slow"]
    assert sorted(synced[f"/applications/{app}/guilds/{guild}/commands"]) == [
        "echo",
        "ping",
        "slow",
    ]
    # The sync answer carried ids, and GET returns the same commands.
    assert all(c["id"] for c in rec.commands_synced[0].response)
    assert rec.unknown == [], [f"{r.method} {r.path}" for r in rec.unknown]
    # READY + GUILD_CREATE were complete enough for discord.py to reach on_ready.
    out = await probe.wait_for_output("probe ready as arkbot in 1 guild(s)", timeout=WAIT)
    assert "WARNING discord.state" not in out


async def test_slash_command_reply_has_text_png_and_button(
    fake_discord: FakeDiscord, probe: BotProcess
) -> None:
    iid = await fake_discord.slash("alice", "games", "ping")
    reply = await fake_discord.recorder.wait_for_reply(iid, timeout=WAIT)
    assert reply.content == "pong for alice"
    assert not reply.ephemeral
    [img] = pngs(reply)
    assert img.size == (8, 8) and img.getpixel((0, 0)) == (200, 30, 30)
    assert reply.attachments[0].description == "a probe square"
    assert reply.custom_ids == ["probe:again", "probe:pick"]
    callback = fake_discord.recorder.find_requests("POST", rf"^/interactions/{iid}/")
    assert callback[0].query == {"with_response": "1"} and callback[0].files
    assert fake_discord.recorder.interactions[iid].first_response_s is not None


async def test_button_click_edits_the_message_and_select_answers_ephemerally(
    fake_discord: FakeDiscord, probe: BotProcess
) -> None:
    rec = fake_discord.recorder
    games = fake_discord.channel("games")
    iid = await fake_discord.slash("alice", games, "ping")
    reply = await rec.wait_for_reply(iid, timeout=WAIT)

    pick = await fake_discord.select("bob", games, reply.id, "probe:pick", ["blue"])
    picked = await rec.wait_for_reply(pick, timeout=WAIT)
    assert picked.content == "picked blue" and picked.flags & EPHEMERAL

    click = await fake_discord.click("bob", games, reply.id, reply.button("Again")["custom_id"])
    edited = await rec.wait_for_message(
        lambda m: m.id == reply.id and m.content.startswith("clicked"), timeout=WAIT
    )
    assert edited.content == "clicked by bob" and edited.components == []
    assert len(edited.edits) == 1 and edited.edits[0]["content"] == "pong for alice"
    assert rec.interactions[click].response_type == 7  # UPDATE_MESSAGE
    assert [m.id for m in rec.messages_in(games.id)] == [reply.id, picked.id]


async def test_autocomplete_options_and_deferred_followups(
    fake_discord: FakeDiscord, probe: BotProcess
) -> None:
    rec = fake_discord.recorder
    ac = await fake_discord.autocomplete("carol", "general", "echo", {"word": "c"}, focused="word")
    assert (await rec.wait_for_response(ac, timeout=WAIT)).choices == [
        {"name": "covenant", "value": "covenant"}
    ]

    echo = await fake_discord.slash("carol", "general", "echo", {"word": "ark", "times": 2})
    said = await rec.wait_for_reply(echo, timeout=WAIT)
    assert said.ephemeral and said.embeds[0]["description"] == "ark ark"

    slow = await fake_discord.slash("dave", "general", "slow")
    dm = fake_discord.dm_channel(fake_discord.user("dave"))
    await rec.wait_for_message(lambda m: m.channel_id == dm.id, timeout=WAIT)
    [original] = rec.replies_to(slow)  # the follow-up filled the "thinking" message
    assert original.content == "slow done (edited)" and not original.loading
    assert pngs(original)[0].getpixel((1, 1)) == (30, 30, 200)
    general = rec.messages_in(fake_discord.channel("general").id)
    assert general[-1].content == "a channel message (edited)"
    assert [m.content for m in rec.messages_in(dm.id)] == ["a direct message"]
    assert rec.unknown == [], [f"{r.method} {r.path}" for r in rec.unknown]


async def test_rate_limited_callback_is_retried_and_nothing_is_lost(
    fake_discord: FakeDiscord, probe: BotProcess
) -> None:
    rule = fake_discord.rate_limit(r"^POST /interactions/\d+/[^/]+/callback$", retry_after=0.3)
    iid = await fake_discord.slash("alice", "games", "ping")
    reply = await fake_discord.recorder.wait_for_reply(iid, timeout=WAIT)
    attempts = fake_discord.recorder.find_requests("POST", rf"^/interactions/{iid}/")
    assert [r.status for r in attempts] == [429, 200]
    assert len(rule.hits) == 1 and attempts[1].at - attempts[0].at >= 0.3
    assert len(fake_discord.recorder.replies_to(iid)) == 1 and pngs(reply)


async def test_kill_9_and_restart_identifies_again_and_answers(
    fake_discord: FakeDiscord, probe: BotProcess
) -> None:
    await probe.kill(signal.SIGKILL)
    assert probe.proc is not None and probe.proc.returncode == -signal.SIGKILL
    await probe.start()
    await fake_discord.wait_ready(timeout=15, identifies=2)
    iid = await fake_discord.slash("bob", "games", "ping")
    reply = await fake_discord.recorder.wait_for_reply(iid, timeout=WAIT)
    assert reply.content == "pong for bob"
    # The restarted bot synced again and Discord kept the command ids stable.
    path = f"/applications/{fake_discord.APP_ID}/commands"
    first, *_, last = [r for r in fake_discord.recorder.commands_synced if r.path == path]
    assert first is not last
    assert {c["name"]: c["id"] for c in first.response} == {
        c["name"]: c["id"] for c in last.response
    }


async def test_gateway_drop_is_resumed_without_a_new_identify(
    fake_discord: FakeDiscord, probe: BotProcess
) -> None:
    await fake_discord.disconnect_gateway()
    await fake_discord.recorder.wait_until(lambda: fake_discord.resume_count == 1, 15, "RESUME")
    iid = await fake_discord.slash("alice", "games", "ping")
    await fake_discord.recorder.wait_for_reply(iid, timeout=WAIT)
    assert fake_discord.identify_count == 1


async def test_rest_answers_are_exact_json_and_unknown_routes_are_recorded(
    fake_discord: FakeDiscord,
) -> None:
    async with aiohttp.ClientSession() as http:
        headers = {"Authorization": "Bot x"}
        async with http.get(f"{fake_discord.api_base}/gateway/bot", headers=headers) as resp:
            assert resp.headers["Content-Type"] == "application/json"
            assert (await resp.json())["url"] == fake_discord.gateway_url
            assert "X-RateLimit-Remaining" in resp.headers
        async with http.get(f"{fake_discord.api_base}/nowhere", headers=headers) as resp:
            assert resp.status == 404
        # The gateway speaks zlib-stream when asked: HELLO ends with Z_SYNC_FLUSH.
        url = f"{fake_discord.gateway_url}?v=10&encoding=json&compress=zlib-stream"
        async with http.ws_connect(url) as ws:
            frame = await ws.receive_bytes(timeout=WAIT)
            assert frame.endswith(b"\x00\x00\xff\xff")
            assert b'"heartbeat_interval"' in zlib.decompressobj().decompress(frame)
    assert [r.path for r in fake_discord.recorder.unknown] == ["/nowhere"]


async def test_start_bot_factory_runs_the_probe_without_guild_sync(
    fake_discord: FakeDiscord, start_bot: StartBot
) -> None:
    """The fixture factory starts any argv; here, the probe without guild sync."""
    proc = await start_bot()
    await fake_discord.wait_ready(timeout=15)
    await fake_discord.recorder.wait_until(
        lambda: fake_discord.recorder.commands_synced, 10, "global sync"
    )
    assert proc.running
    assert [r.path for r in fake_discord.recorder.commands_synced] == [
        f"/applications/{fake_discord.APP_ID}/commands"
    ]


async def test_autosharded_client_finds_the_gateway_through_gateway_bot(
    fake_discord: FakeDiscord, start_bot: StartBot
) -> None:
    """AutoShardedClient ignores DEFAULT_GATEWAY and asks GET /gateway/bot; READY carries
    the shard pair it sent in IDENTIFY."""
    proc = await start_bot(env={"PROBE_AUTOSHARD": "1"})
    await proc.wait_for_output("probe ready as arkbot in 1 guild(s)", timeout=15)
    assert fake_discord.recorder.find_requests("GET", r"^/gateway/bot$")
    iid = await fake_discord.slash("carol", "games", "ping")
    assert (
        await fake_discord.recorder.wait_for_reply(iid, timeout=WAIT)
    ).content == "pong for carol"


async def test_second_callback_is_refused_as_discord_does(
    fake_discord: FakeDiscord, probe: BotProcess
) -> None:
    """A double acknowledgement gets 400 / code 40060, and is kept in ``rejected``."""
    iid = await fake_discord.slash("alice", "games", "ping")
    ix = await fake_discord.recorder.wait_for_response(iid, timeout=WAIT)
    url = f"{fake_discord.api_base}/interactions/{iid}/{ix.token}/callback"
    async with aiohttp.ClientSession() as http, http.post(url, json={"type": 6}) as resp:
        assert resp.status == 400 and (await resp.json())["code"] == 40060
    assert [r["why"] for r in ix.rejected] == ["double"]


async def _identified(fake: FakeDiscord, http: aiohttp.ClientSession, shard: list[int]) -> tuple:
    """A raw gateway session on ``shard``: (the websocket, READY, the GUILD_CREATE ids)."""
    ws = await http.ws_connect(f"{fake.gateway_url}?v=10&encoding=json")
    assert (await ws.receive_json())["op"] == 10  # HELLO
    await ws.send_json({"op": 2, "d": {"token": "x", "intents": 1, "shard": shard}})
    ready = (await ws.receive_json())["d"]
    created = [int((await ws.receive_json())["d"]["id"]) for _ in ready["guilds"]]
    return ws, ready, created


async def test_shards_get_their_guilds_by_discords_formula() -> None:
    channels = [f"room-{i}" for i in range(8)]
    async with FakeDiscord(guilds=4, channels=channels) as fake, aiohttp.ClientSession() as http:
        sessions = [await _identified(fake, http, [shard, 2]) for shard in (0, 1)]
        seen: set[int] = set()
        for shard, (_, ready, created) in enumerate(sessions):
            assert ready["shard"] == [shard, 2]
            assert [int(g["id"]) for g in ready["guilds"]] == created
            assert created and all((g >> 22) % 2 == shard for g in created)
            seen |= set(created)
        assert seen == set(fake.guild_ids) and fake.live_shards() == {0, 1}
        # An interaction goes to the one session whose shard has the channel's guild.
        room = fake.channel("room-3")
        await fake.slash("alice", room, "ping")
        owner = FakeDiscord.shard_of(room.guild_id, 2)
        event = await sessions[owner][0].receive_json(timeout=WAIT)
        assert event["t"] == "INTERACTION_CREATE" and event["d"]["guild_id"] == str(room.guild_id)
        assert event["d"]["member"]["roles"] == []  # alice has no role, in any guild
        other = sessions[1 - owner][0]
        with pytest.raises(TimeoutError):
            await other.receive_json(timeout=0.3)
        for ws, _, _ in sessions:
            await ws.close()


# --------------------------------------------------------------------------- Discord's limits


def _fields(errors: Any, path: str = "") -> list[str]:
    """The fields a Discord ``errors`` object names, dotted as discord.py prints them."""
    found: list[str] = []
    for key, inner in errors.items():
        if key == "_errors":
            found.append(path)
        else:
            found += _fields(inner, f"{path}.{key}" if path else key)
    return found


async def _refused(response: aiohttp.ClientResponse) -> list[str]:
    """The fields of a 400 "Invalid Form Body" (or an empty list for any other answer)."""
    body = await response.json()
    if response.status != 400 or body.get("code") != 50035:
        return []
    assert body["message"] == "Invalid Form Body"
    return _fields(body["errors"])


class _Client:
    """Raw calls to the fake, as discord.py makes them, without a bot: one gateway session
    stands in for the bot, so interactions can be dispatched and then answered here."""

    def __init__(self, fake: FakeDiscord, http: aiohttp.ClientSession) -> None:
        self.fake, self.http = fake, http
        self.headers = {"Authorization": "Bot x"}

    async def call(self, method: str, path: str, body: Any) -> aiohttp.ClientResponse:
        url = f"{self.fake.api_base}{path}"
        response = await self.http.request(method, url, json=body, headers=self.headers)
        await response.read()
        return response

    async def interaction(self) -> tuple[int, str]:
        iid = await self.fake.slash("alice", "games", "ping")
        return iid, self.fake.recorder.interactions[iid].token


@pytest.fixture
async def raw() -> AsyncIterator[_Client]:
    async with FakeDiscord() as fake, aiohttp.ClientSession() as http:
        ws, _, _ = await _identified(fake, http, [0, 1])
        yield _Client(fake, http)
        await ws.close()


@pytest.mark.parametrize(("name", "body", "field"), MESSAGES, ids=[c[0] for c in MESSAGES])
async def test_a_message_over_a_limit_is_refused_everywhere(
    raw: _Client, name: str, body: dict[str, Any], field: str
) -> None:
    """A new message, an edit, an interaction's answer (where the body is its ``data``), a
    follow-up and an edit of the answer: all refused as Discord does, the field named."""
    channel = raw.fake.channel("games").id
    posted = await (
        await raw.call("POST", f"/channels/{channel}/messages", {"content": "ok"})
    ).json()
    iid, token = await raw.interaction()
    callback = f"/interactions/{iid}/{token}/callback"
    for method, path, sent, named in (
        ("POST", f"/channels/{channel}/messages", body, field),
        ("PATCH", f"/channels/{channel}/messages/{posted['id']}", body, field),
        ("POST", callback, {"type": 4, "data": body}, f"data.{field}"),
    ):
        assert await _refused(await raw.call(method, path, sent)) == [named], (method, path)
    assert [r["why"] for r in raw.fake.recorder.interactions[iid].rejected] == ["invalid"]
    # The answer was refused, so the interaction is still open: answer it, then send on.
    assert (await raw.call("POST", callback, {"type": 5})).status == 200
    webhook = f"/webhooks/{raw.fake.APP_ID}/{token}"
    for method, path in (("POST", webhook), ("PATCH", f"{webhook}/messages/@original")):
        assert await _refused(await raw.call(method, path, body)) == [field], (method, path)
    original = raw.fake.recorder.interactions[iid].original_message_id
    assert raw.fake.recorder.messages[original or 0].loading  # nothing refused was shown


async def test_a_channels_history_gives_pages_as_discord_does(raw: _Client) -> None:
    """At most 100 messages a request (more is refused, the field named); after a message,
    the ones that follow it, newest first; else the newest."""
    channel = raw.fake.channel("games").id
    ids = []
    for n in range(120):
        sent = await raw.call("POST", f"/channels/{channel}/messages", {"content": f"m{n}"})
        ids.append(int((await sent.json())["id"]))
    messages = f"/channels/{channel}/messages"
    assert await _refused(await raw.call("GET", f"{messages}?limit=101", None)) == ["limit"]
    after = await (await raw.call("GET", f"{messages}?limit=3&after={ids[10]}", None)).json()
    assert [int(m["id"]) for m in after] == [ids[13], ids[12], ids[11]]
    newest = await (await raw.call("GET", f"{messages}?limit=2", None)).json()
    assert [int(m["id"]) for m in newest] == [ids[119], ids[118]]


@pytest.mark.parametrize(("name", "choices", "field"), CHOICES, ids=[c[0] for c in CHOICES])
async def test_autocomplete_over_a_limit_is_refused(
    raw: _Client, name: str, choices: list[dict[str, Any]], field: str
) -> None:
    iid = await raw.fake.autocomplete("alice", "games", "ping", {"word": "a"}, focused="word")
    token = raw.fake.recorder.interactions[iid].token
    answer = {"type": 8, "data": {"choices": choices}}
    response = await raw.call("POST", f"/interactions/{iid}/{token}/callback", answer)
    assert await _refused(response) == [field]


async def test_a_long_thread_name_is_refused(raw: _Client) -> None:
    channel = raw.fake.channel("games").id
    posted = await (
        await raw.call("POST", f"/channels/{channel}/messages", {"content": "ok"})
    ).json()
    path = f"/channels/{channel}/messages/{posted['id']}/threads"
    assert await _refused(await raw.call("POST", path, {"name": THREAD_NAME})) == ["name"]
    assert int(posted["id"]) not in raw.fake.channels


async def test_a_first_answer_after_three_seconds_is_refused(raw: _Client) -> None:
    assert raw.fake.callback_deadline == 3.0  # Discord's
    iid, token = await raw.interaction()
    raw.fake.recorder.interactions[iid].dispatched_at -= 3.1  # told the bot 3.1 seconds ago
    response = await raw.call("POST", f"/interactions/{iid}/{token}/callback", {"type": 5})
    assert response.status == 404 and (await response.json())["code"] == 10062
    assert [r["why"] for r in raw.fake.recorder.interactions[iid].rejected] == ["late"]


# --------------------------------------------------------------------------- what the bot may do


async def _post_file(raw: _Client, channel_id: int) -> aiohttp.ClientResponse:
    """A message with one PNG attached, sent as discord.py sends it (multipart)."""
    form = aiohttp.FormData()
    form.add_field("payload_json", '{"content": "board", "attachments": [{"id": 0}]}')
    form.add_field("files[0]", b"\x89PNG\r\n", filename="b.png", content_type="image/png")
    url = f"{raw.fake.api_base}/channels/{channel_id}/messages"
    response = await raw.http.post(url, data=form, headers=raw.headers)
    await response.read()
    return response


async def _answer(response: aiohttp.ClientResponse) -> tuple[int, Any]:
    return response.status, await response.json()


async def test_a_post_in_a_locked_thread_is_refused_as_discord_does(raw: _Client) -> None:
    fake = raw.fake
    channel = fake.channel("games")
    starter = await (
        await raw.call("POST", f"/channels/{channel.id}/messages", {"content": "lobby"})
    ).json()
    path = f"/channels/{channel.id}/messages/{starter['id']}/threads"
    # The bot may not open threads unless its role allows it (arkbot's invite does).
    assert await _answer(await raw.call("POST", path, {"name": "game"})) == (
        403,
        {"message": "Missing Permissions", "code": 50013},
    )
    await fake.grant_bot(CREATE_PUBLIC_THREADS)
    opened = await (await raw.call("POST", path, {"name": "game"})).json()
    thread = fake.channels[int(opened["id"])]
    post = f"/channels/{thread.id}/messages"
    # Archived only: a message opens it again.
    await fake.set_thread(thread, archived=True)
    assert (await raw.call("POST", post, {"content": "hello"})).status == 200
    assert not thread.archived
    # Locked (and archived): refused, posts and edits alike, and with files too.
    await fake.set_thread(thread, archived=True, locked=True)
    archived = (400, {"message": "Thread is archived", "code": 50083})
    assert await _answer(await raw.call("POST", post, {"content": "hello"})) == archived
    assert await _answer(await _post_file(raw, thread.id)) == archived
    mine = fake.recorder.messages_in(thread.id)[-1].id
    assert await _answer(await raw.call("PATCH", f"{post}/{mine}", {"content": "x"})) == archived
    # Locked, not archived: still closed to the bot, unless it may manage threads.
    await fake.set_thread(thread, archived=False)
    assert await _answer(await raw.call("POST", post, {"content": "hello"})) == archived
    await fake.grant_bot(MANAGE_THREADS)
    assert (await raw.call("POST", post, {"content": "hello"})).status == 200


async def test_files_without_attach_files_are_refused_as_discord_does(raw: _Client) -> None:
    fake = raw.fake
    channel = fake.channel("games")
    post = f"/channels/{channel.id}/messages"
    assert (await _post_file(raw, channel.id)).status == 200
    missing = (403, {"message": "Missing Permissions", "code": 50013})
    await fake.overwrite(channel, deny=ATTACH_FILES)
    assert await _answer(await _post_file(raw, channel.id)) == missing
    assert (await raw.call("POST", post, {"content": "words only"})).status == 200
    await fake.overwrite(channel, deny=SEND_MESSAGES)
    assert await _answer(await raw.call("POST", post, {"content": "words"})) == missing
    await fake.overwrite(channel, deny=VIEW_CHANNEL)
    assert await _answer(await raw.call("POST", post, {"content": "words"})) == (
        403,
        {"message": "Missing Access", "code": 50001},
    )
    await fake.overwrite(channel)  # as it was
    assert (await _post_file(raw, channel.id)).status == 200
    # Another channel is as the bot's role has it.
    assert (await _post_file(raw, fake.channel("general").id)).status == 200


async def test_an_attachment_an_edit_left_out_cannot_be_kept_again(raw: _Client) -> None:
    """An edit keeps attachments the message has by their ids; one an earlier edit left out
    is gone (its file too) and naming it is refused as Discord refuses a body, so a panel
    cannot seem to reuse a picture it no longer has (issue 40.6)."""
    channel = raw.fake.channel("games").id
    status, posted = await _answer(await _post_file(raw, channel))
    assert status == 200
    (attachment,) = posted["attachments"]
    path = f"/channels/{channel}/messages/{posted['id']}"
    kept = await (await raw.call("PATCH", path, {"attachments": [attachment]})).json()
    assert [a["id"] for a in kept["attachments"]] == [attachment["id"]]
    left_out = await (await raw.call("PATCH", path, {"attachments": []})).json()
    assert left_out["attachments"] == []
    again = await raw.call("PATCH", path, {"attachments": [attachment]})
    assert await _refused(again) == ["attachments.0.id"]
