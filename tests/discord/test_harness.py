"""The harness proven on a small sample bot that uses the discord.py features arkbot needs."""

from __future__ import annotations

import asyncio
import io
import logging
import socket
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import discord
import pytest
from discord import app_commands
from discord.ext import commands
from discord.http import Route
from discord.webhook.async_ import AsyncWebhookAdapter
from discord.webhook.async_ import Route as WebhookRoute
from PIL import Image

from tests.support.harness import (
    ComponentDisabled,
    Harness,
    NetworkBlocked,
    Reply,
    Request,
    http_error,
)
from tests.support.refused_bodies import CHOICES, MESSAGES, THREAD_NAME

log = logging.getLogger("sample-bot")

SQUARES = [f"{c}{r}" for c in "ABCDEFGH" for r in range(1, 9)]
ALICE, BOB, LEADER = 11, 12, 13


# --------------------------------------------------------------------------- the sample bot


def render_board(label: str) -> bytes:
    """A tiny PNG, drawn the way the real bot draws: in a worker thread."""
    image = Image.new("RGB", (64, 48), "darkgreen")
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()


class Confirm(
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"ark:confirm:(?P<game>\d+):(?P<turn>\d+)",
):
    """A button whose custom id names the game and the turn, so it survives restarts."""

    def __init__(self, game: int, turn: int) -> None:
        super().__init__(
            discord.ui.Button(
                label="Confirm",
                style=discord.ButtonStyle.success,
                custom_id=f"ark:confirm:{game}:{turn}",
            )
        )
        self.game = game
        self.turn = turn

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: Any, /
    ) -> Confirm:
        return cls(int(match["game"]), int(match["turn"]))

    async def callback(self, interaction: discord.Interaction[SampleBot]) -> None:
        bot = interaction.client
        if interaction.user.id != bot.player:
            await interaction.response.send_message("It is not your turn.", ephemeral=True)
            return
        if self.turn != bot.turn:
            await interaction.response.send_message(
                "That button is from an earlier turn.", ephemeral=True
            )
            return
        bot.turn += 1
        await interaction.response.edit_message(content=f"Turn {self.turn} confirmed.", view=None)


class SpotView(discord.ui.View):
    """A persistent view with a select menu."""

    def __init__(self) -> None:
        super().__init__(timeout=None)

    @discord.ui.select(
        custom_id="ark:spot",
        placeholder="Pick a spot",
        options=[discord.SelectOption(label=f"Spot {n}", value=str(n)) for n in range(1, 4)],
    )
    async def spot(self, interaction: discord.Interaction, select: discord.ui.Select) -> None:
        await interaction.response.send_message(
            f"You picked spot {select.values[0]}.", ephemeral=True
        )


class RotateView(discord.ui.View):
    """An ordinary (non-persistent) view with the default 180 s timeout."""

    def __init__(self, square: str, rotation: int) -> None:
        super().__init__()
        self.square = square
        self.rotation = rotation

    @discord.ui.button(label="Rotate", custom_id="rotate")
    async def rotate(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        self.rotation = (self.rotation + 90) % 360
        await interaction.response.edit_message(
            content=f"Preview: tile on {self.square} turned {self.rotation}°.", view=self
        )


class TurnView(discord.ui.View):
    def __init__(self, game: int, turn: int) -> None:
        super().__init__(timeout=None)
        self.add_item(Confirm(game, turn))
        for item in SpotView().children:
            self.add_item(item)


class Ark(commands.GroupCog, group_name="ark", group_description="Play The Ark of the Covenant"):
    admin = app_commands.Group(name="admin", description="Moderator tools")

    def __init__(self, bot: SampleBot) -> None:
        self.bot = bot
        super().__init__()

    @app_commands.command(description="Place the tile")
    @app_commands.describe(square="A square such as C4", rotation="Clockwise degrees")
    async def place(self, interaction: discord.Interaction, square: str, rotation: int = 0) -> None:
        await interaction.response.send_message(
            f"Preview: tile on {square} turned {rotation}°.",
            ephemeral=True,
            view=RotateView(square, rotation),
        )

    @place.autocomplete("square")
    async def place_square(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return [
            app_commands.Choice(name=s, value=s) for s in SQUARES if s.startswith(current.upper())
        ][:25]

    @app_commands.command(description="Show the board")
    async def board(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(thinking=True)
        png = await asyncio.to_thread(render_board, "board")
        await interaction.followup.send(
            "The board after turn 1.",
            file=discord.File(io.BytesIO(png), filename="board.png"),
            embed=discord.Embed(title="Scores", description="Alice 0 · Bob 0"),
            view=TurnView(7, self.bot.turn),
        )

    @app_commands.command(description="A private preview picture")
    async def preview(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        png = await asyncio.to_thread(render_board, "preview")
        await interaction.edit_original_response(
            content="Only you can see this preview.",
            attachments=[discord.File(io.BytesIO(png), filename="preview.png")],
        )

    @app_commands.command(description="Remind me by direct message")
    async def remind(self, interaction: discord.Interaction) -> None:
        await interaction.user.send("I will remind you here.")
        await interaction.response.send_message("Reminders on.", ephemeral=True)

    @app_commands.command(description="Start the game")
    async def start(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message("Game started.")
        assert isinstance(interaction.channel, discord.TextChannel)
        message = await interaction.channel.send("Shuffling the tiles…")
        await message.edit(content=f"<@{self.bot.player}>, your turn!", view=TurnView(7, 1))

    @app_commands.command(description="Invite a player")
    async def invite(self, interaction: discord.Interaction, player: discord.Member) -> None:
        await interaction.response.send_message(f"{player.display_name} is invited.")

    @app_commands.command(description="Always fails")
    async def crash(self, interaction: discord.Interaction) -> None:
        raise RuntimeError("the engine exploded")

    @admin.command(description="End the game")
    @app_commands.checks.has_permissions(manage_channels=True)
    async def end(self, interaction: discord.Interaction) -> None:
        perms = interaction.user.guild_permissions  # type: ignore[union-attr]
        await interaction.response.send_message(
            f"Game ended (manage channels: {perms.manage_channels})."
        )


class SampleTree(app_commands.CommandTree):
    async def on_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        if isinstance(error, app_commands.MissingPermissions):
            text = "Only moderators can do that."
        else:
            log.error("command failed", exc_info=error)
            text = "Something went wrong; the leaders have been told."
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.response.send_message(text, ephemeral=True)


class SampleBot(commands.Bot):
    def __init__(self) -> None:
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=discord.Intents.default(),
            tree_cls=SampleTree,
        )
        self.player = ALICE
        self.turn = 1
        self.ready_seen = False

    async def setup_hook(self) -> None:
        await self.add_cog(Ark(self))
        self.add_dynamic_items(Confirm)
        self.add_view(SpotView())
        await self.tree.sync()
        self.reminders = asyncio.create_task(self.remind_forever(), name="reminders")

    async def remind_forever(self) -> None:
        """A background job that never ends, like the real reminder loop."""
        await self.wait_until_ready()
        while True:
            await asyncio.sleep(3600)

    async def close(self) -> None:
        self.reminders.cancel()
        await super().close()

    async def on_ready(self) -> None:
        self.ready_seen = True


# --------------------------------------------------------------------------- fixtures


@pytest.fixture(autouse=True)
def no_sockets(monkeypatch: pytest.MonkeyPatch) -> None:
    """Any real connection attempt fails the test."""

    def refuse(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("a test tried to open a network connection")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)


@pytest.fixture
async def h() -> AsyncIterator[Harness]:
    async with Harness(SampleBot()) as harness:
        harness.user(ALICE, "alice")
        harness.user(BOB, "bob")
        harness.user(LEADER, "leader", moderator=True)
        yield harness


# --------------------------------------------------------------------------- tests


async def test_boot_without_login(h: Harness) -> None:
    bot = h.bot
    assert bot.user is not None and bot.user.id == h.bot_user_id
    assert bot.application_id == h.application_id
    assert bot.is_ready() and bot.ready_seen  # type: ignore[attr-defined]
    assert not bot.reminders.done()  # type: ignore[attr-defined]
    assert [c["name"] for c in h.synced[None]] == ["ark"]
    sync = next(r for r in h.requests if r.method == "PUT")
    assert sync.template == "/applications/{application_id}/commands"
    ark = h.synced[None][0]
    assert {o["name"] for o in ark["options"]} >= {"place", "board", "admin"}
    assert bot.get_guild(h.guild_id) is h.guild
    assert h.member(LEADER).guild_permissions.manage_channels
    assert not h.member(ALICE).guild_permissions.manage_channels
    assert h.guild.me.id == h.bot_user_id
    assert h.guild.get_member(ALICE) is None  # no members intent: only the bot is cached


async def test_subcommand_with_options_is_ephemeral(h: Harness) -> None:
    reply = await h.slash(ALICE, "ark place", square="C4", rotation=90)
    assert [s.kind for s in reply] == [4]
    answer = reply.callback
    assert answer is not None and answer.ephemeral
    assert answer.content == "Preview: tile on C4 turned 90°."
    assert answer.request.template == "/interactions/{webhook_id}/{webhook_token}/callback"
    assert answer.request.params == {"with_response": "1"}
    assert not reply.errors


async def test_ephemeral_view_with_timeout(h: Harness) -> None:
    preview = (await h.slash(ALICE, "ark place", square="C4", rotation=90)).last
    assert preview.custom_ids == ["rotate"]
    turned = await h.click(ALICE, preview, "rotate")
    assert [s.kind for s in turned] == [7]
    assert turned.last.ephemeral and turned.last.content == "Preview: tile on C4 turned 180°."
    turned = await h.click(ALICE, preview, "rotate")
    assert turned.last.content == "Preview: tile on C4 turned 270°."


async def test_deferred_ephemeral_then_edit_original(h: Harness) -> None:
    reply = await h.slash(ALICE, "ark preview")
    assert [s.kind for s in reply] == [5, "edit_original"]
    assert reply.callback.ephemeral  # type: ignore[union-attr]
    picture = reply.last
    assert picture.ephemeral and picture.content == "Only you can see this preview."
    assert picture.message_id == reply.callback.message_id  # type: ignore[union-attr]
    assert [name for name, _ in picture.files] == ["preview.png"]
    assert picture.images[0].mode == "RGB"


async def test_direct_message(h: Harness) -> None:
    reply = await h.slash(BOB, "ark remind")
    dm = reply.messages[0]
    assert dm.kind == "channel_message" and dm.content == "I will remind you here."
    assert h.requests[-3].path == "/users/@me/channels"
    assert dm.channel_id != h.default_channel_id
    assert reply.last.ephemeral


async def test_custom_responses_simulate_failures(h: Harness) -> None:
    def closed_dms(request: Request) -> None:
        raise http_error(403, "Cannot send messages to this user", code=50007)

    h.on("POST", "/channels/{channel_id}/messages", closed_dms)
    reply = await h.slash(BOB, "ark remind")
    assert reply.last.content == "Something went wrong; the leaders have been told."
    assert len(reply.errors) == 1


async def test_concurrent_double_click_is_attributed_per_interaction(h: Harness) -> None:
    board = (await h.slash(BOB, "ark board")).last
    first, second = await asyncio.gather(
        h.click(ALICE, board, "ark:confirm:7:1"), h.click(ALICE, board, "ark:confirm:7:1")
    )
    assert [s.kind for s in first] == [7] and [s.kind for s in second] == [4]
    assert first.last.content == "Turn 1 confirmed."
    assert second.last.ephemeral and "earlier turn" in second.last.content
    assert h.bot.turn == 2  # type: ignore[attr-defined]


async def test_late_answers_miss_the_deadline(h: Harness) -> None:
    h.deadline = 0.0  # every answer is "too late"
    reply = await h.slash(ALICE, "ark place", square="A1")
    assert reply.callback is None and reply.requests[0].template.endswith("/callback")
    assert any("Unknown interaction" in str(r.exc_info[1]) for r in reply.errors if r.exc_info)


async def test_autocomplete_returns_choices(h: Harness) -> None:
    choices = await h.autocomplete(ALICE, "ark place", focused="square", value="c", rotation=0)
    assert [c.value for c in choices] == [f"C{r}" for r in range(1, 9)]


async def test_defer_then_follow_up_with_png(h: Harness) -> None:
    reply = await h.slash(BOB, "ark board")
    assert [s.kind for s in reply] == [5, "followup"]
    assert not reply.callback.ephemeral  # type: ignore[union-attr]
    board = reply.last
    assert board.content == "The board after turn 1." and not board.ephemeral
    assert board.embeds[0]["title"] == "Scores" and "Alice 0" in board.text
    assert [name for name, _ in board.files] == ["board.png"]
    assert board.images[0].size == (64, 48)
    assert board.custom_ids == ["ark:confirm:7:1", "ark:spot"]
    assert board.component(label="Confirm").style == discord.ButtonStyle.success.value
    assert board.component("ark:spot").option_values == ["1", "2", "3"]
    assert board.channel_id == h.default_channel_id


async def test_dynamic_item_click_refusals_and_stale_turns(h: Harness) -> None:
    board = (await h.slash(BOB, "ark board")).last

    stranger = await h.click(BOB, board, "ark:confirm:7:1")
    assert stranger.last.ephemeral and stranger.last.content == "It is not your turn."

    done = await h.click(ALICE, board, "ark:confirm:7:1")
    assert [s.kind for s in done] == [7]
    assert done.last.message_id == board.message_id
    assert done.last.content == "Turn 1 confirmed." and done.last.components == []
    assert h.bot.turn == 2  # type: ignore[attr-defined]

    with pytest.raises(LookupError):  # the buttons are gone from the message
        await h.click(ALICE, board, "ark:confirm:7:1")

    # An older message that still shows turn 1's button: a double click from another device.
    older = (await h.slash(BOB, "ark board")).last
    h.message(older)["components"] = board.raw_components
    again = await h.click(ALICE, older, "ark:confirm:7:1")
    assert again.last.ephemeral and "earlier turn" in again.last.content
    assert h.bot.turn == 2  # type: ignore[attr-defined]


async def test_disabled_buttons_cannot_be_pressed(h: Harness) -> None:
    board = (await h.slash(BOB, "ark board")).last
    for row in h.message(board)["components"]:
        for comp in row["components"]:
            comp["disabled"] = True
    with pytest.raises(ComponentDisabled):
        await h.click(ALICE, board, "ark:confirm:7:1")
    forced = await h.click(ALICE, board, "ark:confirm:7:1", force=True)
    assert forced.last.content == "Turn 1 confirmed."


async def test_select_menu(h: Harness) -> None:
    board = (await h.slash(BOB, "ark board")).last
    reply = await h.select(BOB, board, "ark:spot", ["2"])
    assert reply.last.ephemeral and reply.last.content == "You picked spot 2."
    with pytest.raises(LookupError):
        await h.select(BOB, board, "ark:spot", ["9"])


async def test_nested_group_and_moderator_check(h: Harness) -> None:
    refused = await h.slash(ALICE, "ark admin end")
    assert refused.last.ephemeral and refused.last.content == "Only moderators can do that."
    done = await h.slash(LEADER, "ark admin end")
    assert not done.last.ephemeral
    assert done.last.content == "Game ended (manage channels: True)."


async def test_error_handler_hides_the_traceback(h: Harness) -> None:
    reply = await h.slash(ALICE, "ark crash")
    assert reply.last.ephemeral
    assert reply.last.content == "Something went wrong; the leaders have been told."
    assert "Traceback" not in reply.text and "exploded" not in reply.text
    assert [r.getMessage() for r in reply.errors] == ["command failed"]


async def test_channel_post_and_member_option(h: Harness) -> None:
    reply = await h.slash(LEADER, "ark start", channel=h.channel(555, "ark-game"))
    assert [s.kind for s in reply] == [4, "channel_message", "edit"]
    assert reply[1].content == "Shuffling the tiles…"  # as it was when sent
    assert reply[1].payload["content"] == "Shuffling the tiles…"
    post = reply.last
    assert post.message_id == reply[1].message_id and post.request.method == "PATCH"
    assert post.channel_id == 555 and post.content == f"<@{ALICE}>, your turn!"
    assert reply[1].request.path == "/channels/555/messages"
    assert h.channel_messages(555) == [reply.callback.message_id, post.message_id]  # type: ignore[union-attr]
    clicked = await h.click(ALICE, post, "ark:confirm:7:1")
    assert clicked.last.content == "Turn 1 confirmed."

    invited = await h.slash(LEADER, "ark invite", player=h.member(BOB))
    assert invited.last.content == "Bob is invited."


async def test_buttons_survive_a_restart(h: Harness) -> None:
    board = (await h.slash(BOB, "ark board")).last
    fresh = SampleBot()
    await h.restart(fresh)
    assert h.bot is fresh and fresh.get_guild(h.guild_id) is h.guild
    reply = await h.click(ALICE, board, "ark:confirm:7:1")
    assert reply.last.content == "Turn 1 confirmed." and fresh.turn == 2


async def test_no_network(h: Harness) -> None:
    async with aiohttp.ClientSession() as session:
        with pytest.raises(NetworkBlocked):
            await session.get("https://discord.com/api/v10/gateway")


async def test_capture_records_background_sends(h: Harness) -> None:
    channel = h.default_channel
    async with h.capture() as reply:
        asyncio.get_running_loop().create_task(channel.send("Reminder: it is your turn."))
    assert isinstance(reply, Reply)
    assert [s.kind for s in reply] == ["channel_message"]
    assert reply.last.content == "Reminder: it is your turn."


# --------------------------------------------------------------------------- Discord's limits


CALLBACK = "/interactions/{webhook_id}/{webhook_token}/callback"
FOLLOW_UP = "/webhooks/{webhook_id}/{webhook_token}"


def _open_interaction(h: Harness) -> tuple[int, str]:
    """An interaction Discord has told the bot of (its id and token), not yet answered."""
    data = {"id": "1", "name": "ark", "type": 1, "options": []}
    payload = h._interaction_payload(2, ALICE, h.default_channel_id, data)
    return int(payload["id"]), str(payload["token"])


async def _webhook(h: Harness, method: str, path: str, body: Any, **ids: Any) -> Any:
    """A raw interaction call (callback, follow-up, edit) as discord.py's adapter makes it."""
    route = WebhookRoute(method, path, **ids)
    return await AsyncWebhookAdapter().request(route, None, payload=body)  # type: ignore[arg-type]


async def _rest(h: Harness, method: str, path: str, body: Any, **ids: Any) -> Any:
    return await h.bot.http.request(Route(method, path, **ids), json=body)


def _refused_for(error: discord.HTTPException, field: str) -> bool:
    """Refused as Discord refuses a body: 400, code 50035, the field named."""
    return error.status == 400 and error.code == 50035 and f"In {field}:" in error.text


@pytest.mark.parametrize(("name", "body", "field"), MESSAGES, ids=[c[0] for c in MESSAGES])
async def test_a_message_over_a_limit_is_refused_everywhere(
    h: Harness, name: str, body: dict[str, Any], field: str
) -> None:
    """A new message, an edit, an interaction's answer (where the body is its ``data``), a
    follow-up and an edit of the answer: all refused, the field named."""
    channel = {"channel_id": h.default_channel_id}
    posted = await _rest(h, "POST", "/channels/{channel_id}/messages", {"content": "ok"}, **channel)
    iid, token = _open_interaction(h)
    callback = {"webhook_id": iid, "webhook_token": token}
    webhook = {"webhook_id": h.application_id, "webhook_token": token}
    sends = [
        (_rest, "POST", "/channels/{channel_id}/messages", body, channel, field),
        (
            _rest,
            "PATCH",
            "/channels/{channel_id}/messages/{message_id}",
            body,
            channel | {"message_id": posted["id"]},
            field,
        ),
        (_webhook, "POST", CALLBACK, {"type": 4, "data": body}, callback, f"data.{field}"),
    ]
    for send, method, path, sent, ids, named in sends:
        with pytest.raises(discord.HTTPException) as refused:
            await send(h, method, path, sent, **ids)
        assert _refused_for(refused.value, named), refused.value.text
    # The answer was refused, so the interaction is still open: answer it, then send on.
    await _webhook(h, "POST", CALLBACK, {"type": 5}, **callback)
    for method, path in (("POST", FOLLOW_UP), ("PATCH", FOLLOW_UP + "/messages/@original")):
        with pytest.raises(discord.HTTPException) as refused:
            await _webhook(h, method, path, body, **webhook)
        assert _refused_for(refused.value, field), refused.value.text
    assert h.sent[-1].kind == 5  # nothing refused was shown


async def test_an_attachment_an_edit_left_out_cannot_be_kept_again(h: Harness) -> None:
    """An edit keeps attachments the message has by their ids; one an earlier edit left out
    is gone (its file too) and naming it is refused as Discord refuses a body, so a panel
    cannot seem to reuse a picture it no longer has (issue 40.6)."""
    channel = h.bot.get_channel(h.default_channel_id)
    assert isinstance(channel, discord.TextChannel)
    png = b"\x89PNG\r\n"
    message = await channel.send("board", file=discord.File(io.BytesIO(png), filename="b.png"))
    (attachment,) = message.attachments
    message = await message.edit(attachments=[attachment])
    assert [a.id for a in message.attachments] == [attachment.id]
    message = await message.edit(attachments=[])
    assert message.attachments == []
    with pytest.raises(discord.HTTPException) as refused:
        await message.edit(attachments=[attachment])
    assert _refused_for(refused.value, "attachments.0.id"), refused.value.text


@pytest.mark.parametrize(("name", "choices", "field"), CHOICES, ids=[c[0] for c in CHOICES])
async def test_autocomplete_over_a_limit_is_refused(
    h: Harness, name: str, choices: list[dict[str, Any]], field: str
) -> None:
    iid, token = _open_interaction(h)
    with pytest.raises(discord.HTTPException) as refused:
        await _webhook(
            h,
            "POST",
            CALLBACK,
            {"type": 8, "data": {"choices": choices}},
            webhook_id=iid,
            webhook_token=token,
        )
    assert _refused_for(refused.value, field), refused.value.text


async def test_a_long_thread_name_is_refused(h: Harness) -> None:
    channel = h.default_channel_id
    posted = await _rest(
        h, "POST", "/channels/{channel_id}/messages", {"content": "ok"}, channel_id=channel
    )
    with pytest.raises(discord.HTTPException) as refused:
        await _rest(
            h,
            "POST",
            "/channels/{channel_id}/messages/{message_id}/threads",
            {"name": THREAD_NAME},
            channel_id=channel,
            message_id=posted["id"],
        )
    assert _refused_for(refused.value, "name")
    assert h.thread_ids() == []


async def test_an_interaction_answered_twice_is_refused(h: Harness) -> None:
    iid, token = _open_interaction(h)
    ids = {"webhook_id": iid, "webhook_token": token}
    await _webhook(h, "POST", CALLBACK, {"type": 5}, **ids)
    with pytest.raises(discord.HTTPException) as refused:
        await _webhook(h, "POST", CALLBACK, {"type": 4, "data": {"content": "again"}}, **ids)
    assert refused.value.status == 400 and refused.value.code == 40060


async def test_a_first_answer_after_three_seconds_is_refused(h: Harness) -> None:
    assert h.deadline == 3.0  # Discord's
    iid, token = _open_interaction(h)
    h._interactions[token]["t0"] -= 3.1  # as if Discord told the bot 3.1 seconds ago
    with pytest.raises(discord.NotFound) as refused:
        await _webhook(
            h,
            "POST",
            CALLBACK,
            {"type": 5},
            webhook_id=iid,
            webhook_token=token,
        )
    assert refused.value.code == 10062
