"""An in-process Discord for tests: drive a ``commands.Bot`` through discord.py's own objects.

No token, no gateway, no network. The harness

* gives the bot a fake logged-in user and application id, runs ``setup_hook`` (cogs load,
  ``tree.sync`` is captured instead of sent);
* builds a guild with channels, roles and members through discord.py's real model classes
  (``Guild``, ``TextChannel``, ``Role``, ``Member``), so ``interaction.user.guild_permissions``
  and friends behave as on Discord;
* captures every REST call (``bot.http.request``) and every interaction/webhook call
  (``AsyncWebhookAdapter.request``) and answers them with plausible payloads that discord.py
  parses (message ids, echoed content, embeds, attachments, components);
* dispatches interactions through ``ConnectionState.parse_interaction_create`` (so slash
  commands and autocomplete reach ``bot.tree`` and components reach the view store, including
  persistent views and ``DynamicItem``) and waits until the bot has finished handling them;
* refuses what Discord refuses, as Discord does (:mod:`tests.support.discord_limits`, which
  the loopback fake shares): an over-long text, too many components or choices, a second
  answer to one interaction, a first answer after 3 seconds;
* blocks real sockets: any ``aiohttp.ClientSession`` request while a harness is open raises
  :class:`NetworkBlocked`.

Example::

    async with Harness(MyBot()) as h:  # no token: fake login, setup_hook, guild, ready
        ruth = h.user(11, "ruth")
        leader = h.user(12, "leader", moderator=True)  # Manage Channels
        reply = await h.slash(ruth, "ark place", square="C4", rotation=90)
        assert [s.kind for s in reply] == [5, "followup"]  # deferred, then the picture
        board = reply.last
        assert not board.ephemeral and board.images[0].format == "PNG"
        assert reply.callback.elapsed < 3  # answered within Discord's deadline
        again = await h.click(leader, board, "ark:confirm:7:3")  # a stranger presses
        assert again.last.ephemeral and "not your turn" in again.last.content
        await h.select(ruth, board, "ark:spot", ["2"])
        choices = await h.autocomplete(ruth, "ark place", focused="square", value="C")
        await h.restart(MyBot())  # same guild and messages, a fresh bot
        async with h.capture() as sent:  # record what a background job sends
            await h.bot.reminders.run_once()

Each interaction helper returns a :class:`Reply`: the list of :class:`Sent` records (callback,
follow-ups, edits, channel posts) caused by that interaction, plus the raw
:class:`Request` list and any ERROR log records emitted meanwhile (e.g. "Ignoring exception").
Calls are attributed through the task context, so concurrent interactions (a double click
with ``asyncio.gather``) get their own replies. Everything is also kept in ``h.requests``
and ``h.sent``; ``h.messages`` holds the current payload of every message (after edits),
which is what later clicks carry. ``h.on(method, template, handler)`` overrides an answer,
e.g. ``h.on("POST", "/channels/{channel_id}/messages", fail)`` with ``fail`` raising
``http_error(403, ...)``.

Limitations: one guild; no DMs as interaction sources, context menus, modal submits or
attachment options; no gateway events other than ``ready``; rate limits and token expiry
are not simulated. Members are cached in the guild only as the bot's member cache flags allow
(with ``Intents.default()`` only the bot itself); ``h.member(id)`` always works.
"""

from __future__ import annotations

import asyncio
import datetime
import io
import itertools
import json
import logging
from collections.abc import AsyncIterator, Callable, Iterable, Mapping, Sequence
from contextlib import asynccontextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any, ClassVar

import aiohttp
import discord
from discord import app_commands
from discord.ext import commands
from discord.http import Route
from discord.webhook.async_ import AsyncWebhookAdapter
from PIL import Image

from tests.support import discord_limits as limits

__all__ = [
    "Component",
    "ComponentDisabled",
    "Harness",
    "NetworkBlocked",
    "Reply",
    "Request",
    "Sent",
    "http_error",
]

EPHEMERAL = 64
_INTERACTION_KINDS = {4, 5, 6, 7, 8, 9}
_MESSAGE_KINDS = {4, 7, "followup", "edit_original", "edit_followup", "channel_message", "edit"}
_SELECT_TYPES = {3, 5, 6, 7, 8}


_ACTIVE: ContextVar[tuple[Reply, ...]] = ContextVar("harness_active_replies", default=())


class NetworkBlocked(RuntimeError):
    """Raised when code under test tries to open a real HTTP connection."""


class ComponentDisabled(RuntimeError):
    """Raised when a test clicks a component a Discord client would not let anyone press."""


# --------------------------------------------------------------------------- records


@dataclass
class Request:
    """One captured HTTP call.

    ``via`` is ``"rest"`` (``bot.http``) or ``"webhook"`` (interaction callbacks, follow-ups,
    original-response edits). ``path`` is the formatted path (``/channels/5/messages``),
    ``template`` the route template (``/channels/{channel_id}/messages``).
    """

    via: str
    method: str
    path: str
    template: str
    params: dict[str, Any]
    json: Any
    files: list[tuple[str, bytes]]
    response: Any = None


@dataclass
class Component:
    """A flattened message component (button, select, text display, text input...)."""

    type: int
    custom_id: str | None = None
    label: str | None = None
    style: int | None = None
    disabled: bool = False
    url: str | None = None
    emoji: str | None = None
    placeholder: str | None = None
    options: list[dict[str, Any]] = field(default_factory=list)
    content: str | None = None
    raw: dict[str, Any] = field(default_factory=dict, repr=False)

    @property
    def option_values(self) -> list[str]:
        """Values of a string select's options, in order."""
        return [str(o.get("value")) for o in self.options]


def _flatten_components(items: Iterable[Mapping[str, Any]] | None) -> list[Component]:
    out: list[Component] = []
    for raw in items or ():
        kind = int(raw.get("type", 0))
        if kind not in (1, 17):  # action rows and containers only group other components
            emoji = raw.get("emoji")
            out.append(
                Component(
                    type=kind,
                    custom_id=raw.get("custom_id"),
                    label=raw.get("label"),
                    style=raw.get("style"),
                    disabled=bool(raw.get("disabled", False)),
                    url=raw.get("url"),
                    emoji=(emoji.get("name") if isinstance(emoji, Mapping) else emoji),
                    placeholder=raw.get("placeholder"),
                    options=list(raw.get("options", [])),
                    content=raw.get("content"),
                    raw=dict(raw),
                )
            )
        out.extend(_flatten_components(raw.get("components")))
        if isinstance(raw.get("accessory"), Mapping):
            out.extend(_flatten_components([raw["accessory"]]))
        if isinstance(raw.get("component"), Mapping):  # label (type 18) wraps one component
            out.extend(_flatten_components([raw["component"]]))
    return out


@dataclass
class Sent:
    """Something the bot sent or changed, as Discord would show it.

    ``kind`` is the interaction callback type (4 message, 5 deferred, 6 deferred update,
    7 update message, 8 autocomplete, 9 modal) or one of ``"followup"``, ``"edit_original"``,
    ``"edit_followup"``, ``"channel_message"``, ``"edit"`` (REST message edit), ``"delete"``.
    For message kinds, ``content``/``embeds``/``components``/``files`` describe the message
    *after* the request (edits are merged into the stored message); ``payload`` is the raw
    JSON that was sent.
    """

    kind: int | str
    request: Request
    payload: dict[str, Any]
    message_id: int | None = None
    channel_id: int | None = None
    content: str | None = None
    embeds: list[dict[str, Any]] = field(default_factory=list)
    flags: int = 0
    files: list[tuple[str, bytes]] = field(default_factory=list)
    raw_components: list[dict[str, Any]] = field(default_factory=list, repr=False)
    interaction_id: int | None = None
    elapsed: float | None = None

    @property
    def ephemeral(self) -> bool:
        """True when the message (or the deferred response) is only visible to the user."""
        return bool(self.flags & EPHEMERAL)

    @property
    def components(self) -> list[Component]:
        """All components, flattened out of action rows and containers."""
        return _flatten_components(self.raw_components)

    @property
    def custom_ids(self) -> list[str]:
        """Custom ids of all interactive components."""
        return [c.custom_id for c in self.components if c.custom_id]

    def component(self, custom_id: str | None = None, *, label: str | None = None) -> Component:
        """The component with this custom id (or label); ``LookupError`` when absent."""
        for comp in self.components:
            if (custom_id is not None and comp.custom_id == custom_id) or (
                label is not None and comp.label == label
            ):
                return comp
        raise LookupError(f"no component {custom_id or label!r} in {self.custom_ids}")

    @property
    def images(self) -> list[Image.Image]:
        """Attached PNG files decoded with Pillow (other files are skipped)."""
        images = []
        for _name, data in self.files:
            if data.startswith(b"\x89PNG"):
                image = Image.open(io.BytesIO(data))
                image.load()
                images.append(image)
        return images

    @property
    def choices(self) -> list[app_commands.Choice[Any]]:
        """Autocomplete choices (kind 8)."""
        data = self.payload.get("data") or {}
        return [app_commands.Choice(name=c["name"], value=c["value"]) for c in data["choices"]]

    @property
    def text(self) -> str:
        """Content, embed titles/descriptions/fields and text displays joined, for searching."""
        parts = [self.content or ""]
        for embed in self.embeds:
            parts += [embed.get("title", ""), embed.get("description", "")]
            for f in embed.get("fields", []):
                parts += [f.get("name", ""), f.get("value", "")]
            parts.append((embed.get("footer") or {}).get("text", ""))
        parts += [c.content for c in self.components if c.content]
        return "\n".join(p for p in parts if p)


class Reply(list[Sent]):
    """The records caused by one interaction (or one :meth:`Harness.capture` block)."""

    def __init__(self) -> None:
        super().__init__()
        self.requests: list[Request] = []
        self.errors: list[logging.LogRecord] = []

    @property
    def callback(self) -> Sent | None:
        """The interaction callback (kinds 4-9), or None when the bot never answered."""
        return next((s for s in self if isinstance(s.kind, int)), None)

    @property
    def messages(self) -> list[Sent]:
        """Records that carry a message (sent, updated or edited)."""
        return [s for s in self if s.kind in _MESSAGE_KINDS]

    @property
    def last(self) -> Sent:
        """The last message record; ``LookupError`` when there is none."""
        if not self.messages:
            raise LookupError(f"no message was sent; records: {[s.kind for s in self]}")
        return self.messages[-1]

    @property
    def text(self) -> str:
        """All message texts joined."""
        return "\n".join(s.text for s in self.messages)


# --------------------------------------------------------------------------- global patches


class _Patches:
    """Class-level patches shared by all open harnesses (ref-counted)."""

    users = 0
    saved_webhook: Any = None
    saved_session: Any = None
    by_token: ClassVar[dict[str, Harness]] = {}

    @classmethod
    def install(cls) -> None:
        if cls.users == 0:
            cls.saved_webhook = AsyncWebhookAdapter.request
            cls.saved_session = aiohttp.ClientSession._request

            async def webhook_request(
                adapter: AsyncWebhookAdapter, route: Route, session: Any = None, **kw: Any
            ) -> Any:
                token = str(route.webhook_token)
                harness = cls.by_token.get(token)
                if harness is None:
                    raise NetworkBlocked(
                        f"webhook call with unknown token: {route.method} {route.url}"
                    )
                return await harness._on_webhook(route, **kw)

            async def blocked(session: Any, method: str, url: Any, *a: Any, **kw: Any) -> Any:
                raise NetworkBlocked(f"real HTTP request attempted during a test: {method} {url}")

            AsyncWebhookAdapter.request = webhook_request  # type: ignore[method-assign]
            aiohttp.ClientSession._request = blocked  # type: ignore[method-assign]
        cls.users += 1

    @classmethod
    def remove(cls) -> None:
        cls.users -= 1
        if cls.users == 0:
            AsyncWebhookAdapter.request = cls.saved_webhook  # type: ignore[method-assign]
            aiohttp.ClientSession._request = cls.saved_session  # type: ignore[method-assign]


class _ErrorCollector(logging.Handler):
    def __init__(self) -> None:
        super().__init__(level=logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


def _iso(dt: datetime.datetime | None = None) -> str:
    return (dt or datetime.datetime.now(datetime.UTC)).isoformat()


def _is_background(task: asyncio.Task[Any]) -> bool:
    """Tasks that live on after an interaction by design (view timeouts, delete_after...)."""
    coro = task.get_coro()
    name = getattr(coro, "__qualname__", "") or ""
    return any(
        marker in name
        for marker in ("timeout_task_impl", "inner_call", "Loop._loop", "_delay_ready")
    )


# --------------------------------------------------------------------------- the harness


class Harness:
    """A fake Discord around one bot; see the module docstring for an example.

    Args:
        bot: a ``commands.Bot`` (not logged in, not started).
        guild_id / guild_name: the guild every user and channel lives in.
        channel_id / channel_name: the default text channel for interactions.
        bot_user_id / application_id: ids of the bot's user and application.
        timeout: seconds to wait for the bot to finish one interaction.
        deadline: Discord's answer deadline; a callback later than this fails with
            ``NotFound`` (10062 Unknown interaction), as on Discord.
        ignore_task: extra predicate for tasks that should not be waited for.
        cache_members: put members in the guild's member cache (``guild.get_member``).
            The default follows the bot's ``member_cache_flags``, as on Discord: with
            ``Intents.default()`` (no members intent) only the bot itself is cached.
    """

    def __init__(
        self,
        bot: commands.Bot,
        *,
        guild_id: int = 900_000_000_000_000_001,
        guild_name: str = "Youth group",
        channel_id: int = 900_000_000_000_000_100,
        channel_name: str = "general",
        bot_user_id: int = 900_000_000_000_000_002,
        application_id: int | None = None,
        timeout: float = 5.0,
        deadline: float = limits.ANSWER_DEADLINE,
        ignore_task: Callable[[asyncio.Task[Any]], bool] | None = None,
        cache_members: bool | None = None,
    ) -> None:
        self.cache_members = cache_members
        self._member_objs: dict[int, discord.Member] = {}
        #: Each user's Discord language (``interaction.locale``); en-US unless given.
        self.locales: dict[int, str] = {}
        self.bot = bot
        self.guild_id = guild_id
        self.bot_user_id = bot_user_id
        self.application_id = application_id or bot_user_id
        self.timeout = timeout
        self.deadline = deadline
        self.ignore_task = ignore_task
        self.requests: list[Request] = []
        self.sent: list[Sent] = []
        self.synced: dict[int | None, list[dict[str, Any]]] = {}
        self.messages: dict[int, dict[str, Any]] = {}  # current message payloads by id
        self._files: dict[int, dict[str, bytes]] = {}  # message id -> attachment id -> bytes
        self._channel_name = channel_name
        self.default_channel_id = channel_id
        self._ids = itertools.count(int(discord.utils.time_snowflake(discord.utils.utcnow())))
        self._interactions: dict[str, dict[str, Any]] = {}  # token -> info
        self._handlers: list[tuple[str, str, Callable[[Request], Any]]] = []
        self._replies: list[Reply] = []
        self._errors = _ErrorCollector()
        self._started = False
        self.guild: discord.Guild
        self.moderator_role: discord.Role
        self._guild_name = guild_name

    # ---------------------------------------------------------------- lifecycle

    async def __aenter__(self) -> Harness:
        return await self.start()

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def start(self, *, dispatch_ready: bool = True) -> Harness:
        """Fake the login, run ``setup_hook``, build the guild, mark the bot ready."""
        _Patches.install()
        logging.getLogger().addHandler(self._errors)
        self._started = True
        self._build_guild()
        await self._boot(dispatch_ready=dispatch_ready)
        return self

    async def _boot(self, *, dispatch_ready: bool) -> None:
        bot = self.bot
        state = bot._connection
        bot.http.request = self._on_rest  # type: ignore[method-assign]
        bot.http.token = "harness-token"
        await bot._async_setup_hook()
        state.user = discord.ClientUser(state=state, data=self._bot_user_payload())
        state.application_id = self.application_id
        # Tasks started while booting (schedulers, reminder loops) run on: don't wait for them.
        async with self.capture(wait_for=lambda task: False):
            await bot.setup_hook()
        state._add_guild(self.guild)
        bot._ready.set()  # type: ignore[union-attr]
        if dispatch_ready:
            async with self.capture(wait_for=lambda task: task.get_name().endswith(" on_ready")):
                bot.dispatch("ready")

    async def close(self) -> None:
        """Close the bot (unloads cogs) and remove the patches."""
        if not self._started:
            return
        self._started = False
        try:
            await self.bot.close()
        finally:
            logging.getLogger().removeHandler(self._errors)
            for token in [t for t, h in _Patches.by_token.items() if h is self]:
                del _Patches.by_token[token]
            _Patches.remove()

    async def restart(self, bot: commands.Bot, *, dispatch_ready: bool = True) -> None:
        """Close the current bot and boot ``bot`` in the same guild, keeping every message.

        Old messages stay clickable, which is how tests check that persistent views and
        dynamic items survive a restart.
        """
        await self.bot.close()
        self.bot = bot
        self._rebuild_guild_for(bot)
        await self._boot(dispatch_ready=dispatch_ready)

    # ---------------------------------------------------------------- the guild

    def _snowflake(self) -> int:
        return next(self._ids)

    def _bot_user_payload(self) -> dict[str, Any]:
        return {
            "id": str(self.bot_user_id),
            "username": "arkbot",
            "discriminator": "0",
            "global_name": None,
            "avatar": None,
            "bot": True,
            "verified": True,
            "mfa_enabled": False,
            "flags": 0,
        }

    def _build_guild(self) -> None:
        self._roles: list[dict[str, Any]] = []
        self._channels: list[dict[str, Any]] = []
        self._threads: list[dict[str, Any]] = []
        #: The members of each private thread (thread id -> user ids).
        self.thread_members: dict[int, set[int]] = {}
        self._gone_threads: set[int] = set()
        self._members: list[dict[str, Any]] = []
        everyone = discord.Permissions(
            view_channel=True,
            send_messages=True,
            read_message_history=True,
            use_application_commands=True,
            add_reactions=True,
            embed_links=True,
            attach_files=True,
        )
        self._role_payload(self.guild_id, "@everyone", everyone, position=0)
        mod_id = self.guild_id + 1
        self._role_payload(
            mod_id,
            "Moderator",
            discord.Permissions(manage_channels=True, manage_messages=True),
            position=1,
        )
        bot_role = self.guild_id + 2
        # What the bot is invited with (see the README), and more; not Manage Threads.
        invited = discord.Permissions.text() | discord.Permissions(view_channel=True)
        invited.manage_threads = False
        self._role_payload(bot_role, "arkbot", invited, position=2)
        self._channel_payload(self.default_channel_id, self._channel_name)
        self._member_payload(self._bot_user_payload(), [bot_role])
        self._rebuild_guild_for(self.bot)
        self.moderator_role = self.guild.get_role(mod_id)  # type: ignore[assignment]

    def _rebuild_guild_for(self, bot: commands.Bot) -> None:
        data = {
            "id": str(self.guild_id),
            "name": self._guild_name,
            "icon": None,
            "owner_id": str(self.guild_id + 3),  # an owner who never plays: no implicit admin
            "roles": self._roles,
            "channels": self._channels,
            "threads": self._threads,
            "members": self._members,
            "member_count": len(self._members),
            "emojis": [],
            "stickers": [],
            "features": [],
            "preferred_locale": "en-US",
            "premium_tier": 0,
            "unavailable": False,
        }
        state = bot._connection
        self.guild = discord.Guild(data=data, state=state)  # type: ignore[arg-type]
        self.moderator_role = self.guild.get_role(self.guild_id + 1)  # type: ignore[assignment]
        cache = self.cache_members
        if cache is None:
            cache = state.member_cache_flags.joined
        self._member_objs = {}
        for member_data in self._members:
            member = discord.Member(data=member_data, guild=self.guild, state=state)  # type: ignore[arg-type]
            self._member_objs[member.id] = member
            if cache or member.id == self.bot_user_id:
                self.guild._add_member(member)

    def _role_payload(
        self, role_id: int, name: str, permissions: discord.Permissions, position: int
    ) -> dict[str, Any]:
        data = {
            "id": str(role_id),
            "name": name,
            "permissions": str(permissions.value),
            "position": position,
            "color": 0,
            "hoist": False,
            "managed": False,
            "mentionable": False,
            "flags": 0,
        }
        self._roles.append(data)
        return data

    def _channel_payload(self, channel_id: int, name: str, channel_type: int = 0) -> dict[str, Any]:
        data = {
            "id": str(channel_id),
            "type": channel_type,
            "guild_id": str(self.guild_id),
            "name": name,
            "position": len(self._channels),
            "permission_overwrites": [],
            "nsfw": False,
            "parent_id": None,
            "topic": None,
            "last_message_id": None,
            "rate_limit_per_user": 0,
        }
        self._channels.append(data)
        return data

    def _member_payload(self, user: dict[str, Any], roles: Sequence[int]) -> dict[str, Any]:
        data = {
            "user": user,
            "roles": [str(r) for r in roles],
            "joined_at": _iso(),
            "deaf": False,
            "mute": False,
            "flags": 0,
            "nick": None,
            "avatar": None,
            "pending": False,
        }
        self._members.append(data)
        return data

    def channel(self, channel_id: int, name: str) -> discord.TextChannel:
        """Add a text channel to the guild (or return the existing one)."""
        existing = self.guild.get_channel(channel_id)
        if isinstance(existing, discord.TextChannel):
            return existing
        data = self._channel_payload(channel_id, name)
        channel = discord.TextChannel(state=self.bot._connection, guild=self.guild, data=data)  # type: ignore[arg-type]
        self.guild._add_channel(channel)
        return channel

    def _any_channels(self) -> list[dict[str, Any]]:
        return self._channels + self._threads

    def _new_private_thread(self, parent_id: int, body: Mapping[str, Any]) -> Any:
        """A private thread (on no message), as Discord makes one: only with Create Private
        Threads in its channel (403 50013 without), its members the bot and whoever it adds
        (:attr:`thread_members`)."""
        channel = self.guild.get_channel(parent_id)
        me = self.guild.me
        if channel is None or me is None:
            raise http_error(404, "Unknown Channel", code=10003)
        if int(body.get("type", 12)) != 12:
            raise http_error(400, "Invalid Form Body", code=50035)
        if not channel.permissions_for(me).create_private_threads:  # type: ignore[union-attr]
            raise http_error(403, "Missing Permissions", code=50013)
        thread_id = self._snowflake()
        data = self._new_thread(parent_id, None, body, thread_id=thread_id)
        self.thread_members[thread_id] = {self.bot_user_id}
        return data

    def _new_thread(
        self,
        parent_id: int,
        message_id: int | None,
        body: Mapping[str, Any],
        *,
        thread_id: int | None = None,
    ) -> Any:
        """A public thread on a message, as Discord makes it: the thread's id is the
        message's, and the guild learns of it (as the gateway's THREAD_CREATE would tell)."""
        if message_id is not None and message_id not in self.messages:
            raise http_error(404, "Unknown Message", code=10008)
        if any(int(t["id"]) == message_id for t in self._threads):
            raise http_error(400, "A thread has already been created for this message", code=160004)
        data = {
            "id": str(message_id if message_id is not None else thread_id),
            "type": 11 if message_id is not None else 12,
            "guild_id": str(self.guild_id),
            "parent_id": str(parent_id),
            "owner_id": str(self.bot_user_id),
            "name": str(body.get("name", "thread")),
            "last_message_id": None,
            "rate_limit_per_user": 0,
            "message_count": 0,
            "member_count": 1,
            "flags": 0,
            "thread_metadata": {
                "archived": False,
                "auto_archive_duration": int(body.get("auto_archive_duration", 1440)),
                "archive_timestamp": _iso(),
                "locked": False,
            },
        }
        self._threads.append(data)
        thread = discord.Thread(guild=self.guild, state=self.bot._connection, data=data)  # type: ignore[arg-type]
        self.guild._add_thread(thread)
        return data

    def thread_update(self, thread_id: int, *, tell: bool = True, **metadata: bool) -> None:
        """Archive or lock a thread (``archived=True``, ``locked=True``), as a moderator would;
        ``tell``: the bot's cache learns it, as from the gateway's THREAD_UPDATE."""
        data = next(t for t in self._threads if int(t["id"]) == thread_id)
        data["thread_metadata"].update(metadata)
        thread = self.guild.get_thread(thread_id)
        if tell and thread is not None:
            thread._update(data)

    def delete_thread(self, thread_id: int, *, tell: bool = True) -> None:
        """Delete a thread, as a moderator would (its starter message stays); ``tell``: the
        bot's cache forgets it, as on the gateway's THREAD_DELETE."""
        self._threads = [t for t in self._threads if int(t["id"]) != thread_id]
        self._gone_threads.add(thread_id)
        thread = self.guild.get_thread(thread_id)
        if tell and thread is not None:
            self.guild._remove_thread(thread)

    def _refuse_closed_thread(self, channel_id: int, *, edit: bool = False) -> None:
        """A post in a locked thread (unless the bot has Manage Threads; an edit in an
        archived thread) is refused as Discord refuses it (400, 50083); one in a deleted
        thread as unknown (404, 10003). A post in an archived thread that is not locked
        opens it again."""
        if channel_id in self._gone_threads:
            raise http_error(404, "Unknown Channel", code=10003)
        for data in self._threads:
            if int(data["id"]) != channel_id:
                continue
            metadata = data["thread_metadata"]
            me = self.guild.me
            moderates = me is not None and me.guild_permissions.manage_threads
            if (metadata["locked"] and not moderates) or (edit and metadata["archived"]):
                raise http_error(400, "Thread is archived", code=50083)
            metadata["archived"] = False

    def thread_ids(self) -> list[int]:
        """The threads opened so far, oldest first."""
        return [int(t["id"]) for t in self._threads]

    @property
    def default_channel(self) -> discord.TextChannel:
        """The channel interactions happen in unless told otherwise."""
        return self.guild.get_channel(self.default_channel_id)  # type: ignore[return-value]

    def role(
        self, role_id: int, name: str, *, permissions: discord.Permissions | None = None
    ) -> discord.Role:
        """Add a role (no permissions unless given) to the guild."""
        existing = self.guild.get_role(role_id)
        if existing is not None:
            return existing
        data = self._role_payload(
            role_id, name, permissions or discord.Permissions.none(), position=len(self._roles)
        )
        role = discord.Role(guild=self.guild, state=self.bot._connection, data=data)  # type: ignore[arg-type]
        self.guild._add_role(role)
        return role

    def user(
        self,
        user_id: int,
        name: str,
        *,
        moderator: bool = False,
        roles: Iterable[int | str | discord.Role] = (),
        locale: str = "en-US",
    ) -> discord.Member:
        """Add a member to the guild. ``moderator`` gives the Manage Channels role;
        ``locale`` is the language their Discord client is set to.

        ``roles`` are role objects, ids, or names of roles created with :meth:`role`
        (an unknown name creates a permission-less role).
        """
        self.locales[user_id] = locale
        existing = self._member_objs.get(user_id)
        if existing is not None:
            return existing
        role_ids: list[int] = [self.moderator_role.id] if moderator else []
        for r in roles:
            if isinstance(r, discord.Role):
                role_ids.append(r.id)
            elif isinstance(r, int):
                role_ids.append(r)
            else:
                found = discord.utils.get(self.guild.roles, name=r)
                role_ids.append((found or self.role(self._snowflake(), r)).id)
        user = {
            "id": str(user_id),
            "username": name,
            "discriminator": "0",
            "global_name": name.capitalize(),
            "avatar": None,
        }
        data = self._member_payload(user, role_ids)
        member = discord.Member(data=data, guild=self.guild, state=self.bot._connection)  # type: ignore[arg-type]
        self._member_objs[user_id] = member
        cache = self.cache_members
        if cache is None:
            cache = self.bot._connection.member_cache_flags.joined
        if cache:
            self.guild._add_member(member)
        self.guild._member_count = len(self._members)
        return member

    def member(self, user_id: int) -> discord.Member:
        """The member created with :meth:`user` (whether or not the guild caches it)."""
        return self._member_objs[user_id]

    # ---------------------------------------------------------------- HTTP capture

    def on(self, method: str, template: str, handler: Callable[[Request], Any]) -> None:
        """Answer ``method template`` (e.g. ``"GET", "/users/{user_id}"``) with ``handler``.

        The handler gets the :class:`Request` and returns the response payload, or raises
        (e.g. a ``discord.Forbidden``) to simulate a failure, or returns ``NotImplemented``
        to have the request answered as usual. Later registrations win.
        """
        self._handlers.insert(0, (method.upper(), template, handler))

    def off(self, method: str, template: str) -> None:
        """Answer ``method template`` as usual again (drop the handlers given to :meth:`on`)."""
        self._handlers = [h for h in self._handlers if (h[0], h[1]) != (method.upper(), template)]

    def _targets(self) -> list[Reply]:
        # Replies of the interaction (or capture block) whose task context made the call;
        # calls from tasks that existed before (background loops) go to every open capture.
        active = [r for r in _ACTIVE.get() if r in self._replies]
        return active or list(self._replies)

    def _record(self, request: Request) -> None:
        self.requests.append(request)
        for reply in self._targets():
            reply.requests.append(request)

    def _record_sent(self, sent: Sent) -> None:
        self.sent.append(sent)
        for reply in self._targets():
            reply.append(sent)

    @staticmethod
    def _read_files(files: Sequence[discord.File] | None) -> list[tuple[str, bytes]]:
        out = []
        for f in files or ():
            f.reset(seek=True)
            out.append((f.filename, f.fp.read()))
            f.reset(seek=True)
        return out

    @staticmethod
    def _form_payload(form: Iterable[Mapping[str, Any]] | None) -> Any:
        for part in form or ():
            if part.get("name") == "payload_json":
                return json.loads(part["value"])
        return None

    def _path(self, route: Route) -> str:
        return route.url[len(Route.BASE) :] if route.url.startswith(Route.BASE) else route.url

    async def _on_rest(
        self,
        route: Route,
        *,
        files: Sequence[discord.File] | None = None,
        form: Iterable[Mapping[str, Any]] | None = None,
        **kwargs: Any,
    ) -> Any:
        payload = kwargs.get("json")
        if payload is None and form:
            payload = self._form_payload(form)
        request = Request(
            via="rest",
            method=route.method,
            path=self._path(route),
            template=route.path,
            params=dict(kwargs.get("params") or {}),
            json=payload,
            files=self._read_files(files),
        )
        self._record(request)
        request.response = await self._respond_rest(request, route)
        return request.response

    async def _custom(self, request: Request) -> tuple[bool, Any]:
        for method, template, handler in self._handlers:
            if method == request.method and template == request.template:
                result = handler(request)
                if asyncio.iscoroutine(result):
                    result = await result
                if result is NotImplemented:
                    continue  # this one is not for the handler: answered as usual
                return True, result
        return False, None

    @staticmethod
    def _refuse_invalid(request: Request) -> None:
        """Refuse a body Discord would refuse (400, 50035, the fields named), before any
        handler given to :meth:`on` sees it: Discord checks the form first."""
        body = request.json if isinstance(request.json, Mapping) else None
        if request.method not in ("POST", "PATCH") or body is None:
            return
        if request.template.endswith("/callback"):
            errors = limits.callback_errors(body)
        elif request.template.endswith("/threads"):
            errors = limits.thread_errors(body)
        else:
            errors = limits.message_errors(body)
        if errors:
            status, code, message = limits.INVALID_FORM_BODY
            raise http_error(status, message, code=code, errors=errors)

    async def _respond_rest(self, request: Request, route: Route) -> Any:
        self._refuse_invalid(request)
        handled, result = await self._custom(request)
        if handled:
            return result
        key = (request.method, request.template)
        body = request.json if isinstance(request.json, dict) else {}
        channel_id = int(route.channel_id) if route.channel_id else None
        parts = request.path.strip("/").split("/")
        if key == ("POST", "/channels/{channel_id}/messages"):
            self._refuse_closed_thread(channel_id or 0)
            message = self._new_message(channel_id or 0, body, request.files, interaction=None)
            self._record_sent(self._sent("channel_message", request, message))
            return message
        if key == ("PATCH", "/channels/{channel_id}/messages/{message_id}"):
            self._refuse_closed_thread(channel_id or 0, edit=True)
            message = self._edit_message(int(parts[3]), body, request.files)
            self._record_sent(self._sent("edit", request, message))
            return message
        if key == ("GET", "/channels/{channel_id}/messages"):
            return self._history(channel_id or 0, request.params)
        if key == ("GET", "/channels/{channel_id}/messages/{message_id}"):
            message_id = int(parts[3])
            if message_id not in self.messages:
                raise http_error(404, "Unknown Message", code=10008)
            return self.messages[message_id]
        if key == ("DELETE", "/channels/{channel_id}/messages/{message_id}"):
            self._delete_message(int(parts[3]), request)
            return None
        if key == ("POST", "/channels/{channel_id}/messages/{message_id}/threads"):
            return self._new_thread(channel_id or 0, int(parts[3]), body)
        if key == ("POST", "/channels/{channel_id}/threads"):
            return self._new_private_thread(channel_id or 0, body)
        if key == ("PUT", "/channels/{channel_id}/thread-members/{user_id}"):
            if not any(int(t["id"]) == channel_id for t in self._threads):
                raise http_error(404, "Unknown Channel", code=10003)
            self.thread_members.setdefault(channel_id or 0, set()).add(int(parts[3]))
            return None
        if key == ("GET", "/channels/{channel_id}"):
            return next((c for c in self._any_channels() if int(c["id"]) == channel_id), None) or (
                self._raise_not_found("Unknown Channel")
            )
        if key == ("POST", "/users/@me/channels"):
            user_id = int(body["recipient_id"])
            member = self._member_objs.get(user_id)
            name = member.name if member else str(user_id)
            return {
                "id": str(user_id + 7),  # a stable fake DM channel id per user
                "type": 1,
                "last_message_id": None,
                "recipients": [
                    {"id": str(user_id), "username": name, "discriminator": "0", "avatar": None}
                ],
            }
        if key == ("GET", "/users/{user_id}"):
            member = self._member_objs.get(int(parts[1]))
            if member is None:
                self._raise_not_found("Unknown User")
            return member._user._to_minimal_user_json()  # type: ignore[union-attr]
        if key == ("GET", "/guilds/{guild_id}/members/{user_id}"):
            for m in self._members:
                if m["user"]["id"] == parts[3]:
                    return m
            self._raise_not_found("Unknown Member")
        if request.template.startswith("/applications/") and request.template.endswith("/commands"):
            if request.method == "PUT":
                guild_id = int(parts[3]) if "guilds" in parts else None
                commands_ = [
                    {**c, "id": str(self._snowflake()), "application_id": str(self.application_id)}
                    for c in (request.json or [])
                ]
                self.synced[guild_id] = commands_
                return commands_
            if request.method == "GET":
                guild_id = int(parts[3]) if "guilds" in parts else None
                return self.synced.get(guild_id, [])
        if request.method in ("PUT", "DELETE") and "/reactions/" in request.template:
            return None
        if request.method == "GET" and request.template == "/gateway/bot":
            raise NetworkBlocked("the harness has no gateway")
        return {}

    @staticmethod
    def _raise_not_found(text: str) -> Any:
        raise http_error(404, text, code=10000)

    async def _on_webhook(
        self,
        route: Route,
        *,
        payload: dict[str, Any] | None = None,
        multipart: list[dict[str, Any]] | None = None,
        files: Sequence[discord.File] | None = None,
        params: dict[str, Any] | None = None,
        **_: Any,
    ) -> Any:
        body = payload if payload is not None else self._form_payload(multipart) or {}
        request = Request(
            via="webhook",
            method=route.method,
            path=self._path(route),
            template=route.path,
            params=dict(params or {}),
            json=body,
            files=self._read_files(files),
        )
        self._record(request)
        request.response = await self._respond_webhook(request, route)
        return request.response

    async def _respond_webhook(self, request: Request, route: Route) -> Any:
        if not request.template.endswith("/callback"):  # a callback is first checked in time
            self._refuse_invalid(request)
        handled, result = await self._custom(request)
        if handled:
            return result
        info = self._interactions[str(route.webhook_token)]
        parts = request.path.strip("/").split("/")
        body: dict[str, Any] = request.json or {}
        if request.template.endswith("/callback"):
            return self._callback(info, request, body)
        target = parts[-1] if len(parts) > 3 else None
        if request.method == "POST" and target is None:  # follow-up
            message = self._new_message(info["channel_id"], body, request.files, interaction=info)
            self._record_sent(self._sent("followup", request, message, info))
            return message
        if target is None:
            return {}
        if target == "@original":
            message_id = info.get("original")
            kind = "edit_original"
        else:
            message_id = int(target)
            kind = "edit_followup"
        if message_id is None or message_id not in self.messages:
            self._raise_not_found("Unknown Message")
        if request.method == "GET":
            return self.messages[message_id]
        if request.method == "DELETE":
            self._delete_message(message_id, request)
            return None
        message = self._edit_message(message_id, body, request.files)
        self._record_sent(self._sent(kind, request, message, info))
        return message

    def _callback(self, info: dict[str, Any], request: Request, body: dict[str, Any]) -> Any:
        kind = int(body["type"])
        data: dict[str, Any] = body.get("data") or {}
        if info.get("responded"):
            status, code, message = limits.ALREADY_ACKNOWLEDGED
            raise http_error(status, message, code=code)
        elapsed = asyncio.get_running_loop().time() - info["t0"]
        if elapsed > self.deadline:
            status, code, message = limits.UNKNOWN_INTERACTION
            raise http_error(status, message, code=code)
        self._refuse_invalid(request)
        info["responded"] = True
        interaction = {"id": str(info["id"]), "type": info["type"]}
        resource: dict[str, Any] = {"type": kind}
        message: dict[str, Any] | None = None
        if kind == 4:
            message = self._new_message(info["channel_id"], data, request.files, interaction=info)
            info["original"] = int(message["id"])
        elif kind == 5:
            message = self._new_message(
                info["channel_id"], {"content": "", "flags": data.get("flags", 0) | 128}, [], info
            )
            info["original"] = int(message["id"])
            interaction["response_message_loading"] = True
        elif kind in (6, 7):
            info["original"] = info.get("message_id")
            if kind == 7 and info.get("message_id") in self.messages:
                message = self._edit_message(info["message_id"], data, request.files)
        if message is not None:
            interaction["response_message_id"] = message["id"]
            interaction["response_message_ephemeral"] = bool(int(message.get("flags", 0)) & 64)
            resource["message"] = message
        sent = self._sent(kind, request, message, info)
        if kind == 5:
            sent.flags = int(data.get("flags", 0))
        if kind == 6:
            sent.message_id = info.get("message_id")
        if kind == 9:
            sent.raw_components = list(data.get("components", []))
        self._record_sent(sent)
        return {"interaction": interaction, "resource": resource}

    # ---------------------------------------------------------------- message store

    def _new_message(
        self,
        channel_id: int,
        body: Mapping[str, Any],
        files: Sequence[tuple[str, bytes]],
        interaction: dict[str, Any] | None,
    ) -> dict[str, Any]:
        message_id = self._snowflake()
        message: dict[str, Any] = {
            "id": str(message_id),
            "channel_id": str(channel_id),
            "author": self._bot_user_payload(),
            "content": "",
            "timestamp": _iso(),
            "edited_timestamp": None,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": [],
            "embeds": [],
            "components": [],
            "pinned": False,
            "type": 0 if interaction is None else 20,
            "flags": 0,
        }
        if any(int(c["id"]) == channel_id for c in self._any_channels()):
            message["guild_id"] = str(self.guild_id)
        if interaction is not None:
            message["webhook_id"] = str(self.application_id)
            message["application_id"] = str(self.application_id)
        self._files[message_id] = {}
        self._merge(message, body, files)
        self.messages[message_id] = message
        return message

    def _edit_message(
        self, message_id: int, body: Mapping[str, Any], files: Sequence[tuple[str, bytes]]
    ) -> dict[str, Any]:
        message = self.messages[message_id]
        self._merge(message, body, files)
        message["edited_timestamp"] = _iso()
        message["flags"] = int(message.get("flags", 0)) & ~128  # no longer "thinking"
        return message

    def _merge(
        self, message: dict[str, Any], body: Mapping[str, Any], files: Sequence[tuple[str, bytes]]
    ) -> None:
        message_id = int(message["id"])
        # Refused before anything changes, as Discord refuses the whole body.
        errors = limits.kept_attachments_errors(
            body.get("attachments"),
            {str(a["id"]) for a in message["attachments"]},
            range(len(files)),
        )
        if errors:
            status, code, text = limits.INVALID_FORM_BODY
            raise http_error(status, text, code=code, errors=errors)
        for key in ("content", "embeds", "components", "tts"):
            if key in body:
                message[key] = (
                    body[key] if body[key] is not None else ([] if key != "content" else "")
                )
        if "flags" in body:
            message["flags"] = int(body["flags"] or 0) | (int(message.get("flags", 0)) & 64)
        if "attachments" in body:
            kept: list[dict[str, Any]] = []
            old = {a["id"]: a for a in message["attachments"]}
            store = self._files.setdefault(message_id, {})
            new_store: dict[str, bytes] = {}
            for spec in body["attachments"]:
                spec_id = str(spec.get("id"))
                if spec_id in old:
                    kept.append(old[spec_id])
                    new_store[spec_id] = store.get(spec_id, b"")
                    continue
                index = int(spec_id)
                name, data = files[index] if index < len(files) else (spec.get("filename"), b"")
                att_id = str(self._snowflake())
                url = f"https://cdn.discordapp.com/attachments/{message['channel_id']}/{att_id}/{name}"
                kept.append(
                    {
                        "id": att_id,
                        "filename": name,
                        "size": len(data),
                        "url": url,
                        "proxy_url": url,
                        "content_type": "image/png" if data.startswith(b"\x89PNG") else None,
                        "description": spec.get("description"),
                        "ephemeral": bool(int(message.get("flags", 0)) & 64),
                    }
                )
                new_store[att_id] = data
            message["attachments"] = kept
            self._files[message_id] = new_store

    def _delete_message(self, message_id: int, request: Request) -> None:
        message = self.messages.pop(message_id, None)
        sent = Sent(kind="delete", request=request, payload={}, message_id=message_id)
        if message is not None:
            sent.channel_id = int(message["channel_id"])
        self._record_sent(sent)

    def _sent(
        self,
        kind: int | str,
        request: Request,
        message: Mapping[str, Any] | None,
        info: Mapping[str, Any] | None = None,
    ) -> Sent:
        body = request.json if isinstance(request.json, dict) else {}
        sent = Sent(kind=kind, request=request, payload=body)
        if info is not None:
            sent.interaction_id = info["id"]
            sent.elapsed = asyncio.get_running_loop().time() - info["t0"]
            sent.channel_id = info["channel_id"]
        if message is not None:
            message_id = int(message["id"])
            sent.message_id = message_id
            sent.channel_id = int(message["channel_id"])
            sent.content = message.get("content")
            sent.embeds = list(message.get("embeds", []))
            sent.flags = int(message.get("flags", 0))
            sent.raw_components = list(message.get("components", []))
            store = self._files.get(message_id, {})
            sent.files = [(a["filename"], store.get(a["id"], b"")) for a in message["attachments"]]
        return sent

    def message(self, message: Sent | int) -> dict[str, Any]:
        """The current payload of a message (after all edits)."""
        message_id = message if isinstance(message, int) else message.message_id
        return self.messages[int(message_id)]  # type: ignore[arg-type]

    def _history(self, channel_id: int, params: Mapping[str, Any]) -> list[dict[str, Any]]:
        """A channel's messages as Discord lists them: newest first, at most ``limit`` (which
        Discord bounds), only those after ``after`` or before ``before`` (ids) when given;
        after a message (and not before one), the ``limit`` that follow it."""
        limit = int(params.get("limit") or 50)
        errors = limits.history_errors(limit)
        if errors:
            status, code, message = limits.INVALID_FORM_BODY
            raise http_error(status, message, code=code, errors=errors)
        found = [self.messages[mid] for mid in self.channel_messages(channel_id, public=True)]
        if params.get("after"):
            found = [m for m in found if int(m["id"]) > int(params["after"])]
        if params.get("before"):
            found = [m for m in found if int(m["id"]) < int(params["before"])]
        page = found[:limit] if params.get("after") and not params.get("before") else found[-limit:]
        return page[::-1]

    def channel_messages(
        self, channel: discord.abc.Snowflake | int | None = None, *, public: bool = False
    ) -> list[int]:
        """Ids of the messages (not deleted) in a channel, oldest first (``public``: only
        those everyone sees, not the ephemeral answers)."""
        channel_id = self._channel_id(channel)
        return [
            mid
            for mid, m in self.messages.items()
            if int(m["channel_id"]) == channel_id and not (public and m.get("flags", 0) & 64)
        ]

    # ---------------------------------------------------------------- dispatching

    @asynccontextmanager
    async def capture(
        self, *, wait_for: Callable[[asyncio.Task[Any]], bool] | None = None
    ) -> AsyncIterator[Reply]:
        """Record what the bot sends inside the block, e.g. while a background job runs.

        Tasks created inside the block are awaited (bounded by ``timeout``) before it ends,
        except view time-outs, ``delete_after`` timers, ``tasks.loop`` loops and whatever
        ``ignore_task`` matches; ``wait_for`` narrows the wait to matching tasks.
        """
        reply = Reply()
        before = set(asyncio.all_tasks())
        first_error = len(self._errors.records)
        self._replies.append(reply)
        token = _ACTIVE.set((*_ACTIVE.get(), reply))
        try:
            yield reply
            await self._settle(before, wait_for)
        finally:
            _ACTIVE.reset(token)
            self._replies.remove(reply)
            reply.errors = self._errors.records[first_error:]

    def _busy(
        self,
        before: set[asyncio.Task[Any]],
        wait_for: Callable[[asyncio.Task[Any]], bool] | None,
    ) -> list[asyncio.Task[Any]]:
        current = asyncio.current_task()
        return [
            t
            for t in asyncio.all_tasks()
            if t not in before
            and t is not current
            and not t.done()
            and not _is_background(t)
            and not (self.ignore_task and self.ignore_task(t))
            and (wait_for is None or wait_for(t))
        ]

    async def _settle(
        self,
        before: set[asyncio.Task[Any]],
        wait_for: Callable[[asyncio.Task[Any]], bool] | None = None,
    ) -> None:
        """Wait until every task started since ``before`` (and their children) has ended."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.timeout
        while True:
            for _ in range(3):  # let call_soon callbacks run; they may create tasks
                await asyncio.sleep(0)
            pending = self._busy(before, wait_for)
            if not pending:
                return
            remaining = deadline - loop.time()
            if remaining <= 0:
                names = [f"{t.get_name()} {t.get_coro()!r}" for t in pending]
                raise TimeoutError(
                    f"the bot was still busy after {self.timeout}s: {names}; "
                    "pass ignore_task= for tasks that run on by design"
                )
            await asyncio.wait(pending, timeout=remaining)

    def _channel_id(self, channel: discord.abc.Snowflake | int | None) -> int:
        if channel is None:
            return self.default_channel_id
        return channel if isinstance(channel, int) else channel.id

    def _member_payload_for(self, user: discord.abc.Snowflake | int) -> dict[str, Any]:
        user_id = user if isinstance(user, int) else user.id
        for m in self._members:
            if int(m["user"]["id"]) == user_id:
                return m
        raise LookupError(f"user {user_id} is not in the guild; create it with h.user()")

    def _interaction_payload(
        self,
        kind: int,
        user: discord.abc.Snowflake | int,
        channel_id: int,
        data: dict[str, Any],
        message: dict[str, Any] | None = None,
    ) -> dict[str, Any]:
        interaction_id = self._snowflake()
        token = f"harness-{interaction_id}"
        channel = self.guild.get_channel_or_thread(channel_id)
        if channel is None:
            raise LookupError(
                f"channel {channel_id} is not in the guild; create it with h.channel()"
            )
        member_payload = dict(self._member_payload_for(user))
        member = self._member_objs[int(member_payload["user"]["id"])]
        member_payload["permissions"] = str(channel.permissions_for(member).value)
        me = self.guild.me
        app_permissions = channel.permissions_for(me).value if me else 0
        channel_payload = next(c for c in self._any_channels() if int(c["id"]) == channel_id)
        payload: dict[str, Any] = {
            "id": str(interaction_id),
            "application_id": str(self.application_id),
            "type": kind,
            "token": token,
            "version": 1,
            "guild_id": str(self.guild_id),
            "guild": {"id": str(self.guild_id), "locale": "en-US", "features": []},
            "channel_id": str(channel_id),
            "channel": channel_payload,
            "member": member_payload,
            "locale": self.locales.get(int(member_payload["user"]["id"]), "en-US"),
            "guild_locale": "en-US",
            "app_permissions": str(app_permissions),
            "attachment_size_limit": 10 * 1024 * 1024,
            "entitlements": [],
            "authorizing_integration_owners": {"0": str(self.guild_id)},
            "context": 0,
            "data": data,
        }
        if message is not None:
            payload["message"] = message
        self._interactions[token] = {
            "id": interaction_id,
            "type": kind,
            "channel_id": channel_id,
            "message_id": int(message["id"]) if message else None,
            "original": None,
            "t0": asyncio.get_running_loop().time(),
        }
        _Patches.by_token[token] = self
        return payload

    async def _dispatch(self, payload: dict[str, Any]) -> Reply:
        async with self.capture() as reply:
            self.bot._connection.parse_interaction_create(payload)  # type: ignore[arg-type]
        return reply

    # ---------------------------------------------------------------- application commands

    def _find_command(
        self, name: str
    ) -> tuple[app_commands.Command[Any, ..., Any], list[str], int | None]:
        words = name.split()
        tree = self.bot.tree
        root = tree.get_command(words[0])
        guild_id: int | None = None
        if root is None:
            root = tree.get_command(words[0], guild=discord.Object(self.guild_id))
            guild_id = self.guild_id
        if root is None:
            raise LookupError(f"no slash command /{words[0]} in the tree")
        command: Any = root
        for word in words[1:]:
            if not isinstance(command, app_commands.Group):
                raise LookupError(f"/{name}: {command.qualified_name} has no subcommands")
            command = command.get_command(word)
            if command is None:
                raise LookupError(f"no subcommand {word!r} in /{name}")
        if isinstance(command, app_commands.Group):
            raise LookupError(f"/{name} is a group; name a subcommand")
        return command, words, guild_id

    def _option_value(
        self, option_type: discord.AppCommandOptionType, value: Any, resolved: dict[str, Any]
    ) -> Any:
        t = discord.AppCommandOptionType
        if option_type in (t.user, t.mentionable) and isinstance(value, discord.Member | int):
            user_id = value if isinstance(value, int) else value.id
            if user_id in self._member_objs:
                member = dict(self._member_payload_for(user_id))
                resolved.setdefault("users", {})[str(user_id)] = member["user"]
                member.pop("user")
                resolved.setdefault("members", {})[str(user_id)] = member
                return str(user_id)
        if option_type in (t.role, t.mentionable) and isinstance(value, discord.Role | int):
            role_id = value if isinstance(value, int) else value.id
            role = next((r for r in self._roles if int(r["id"]) == role_id), None)
            if role is not None:
                resolved.setdefault("roles", {})[str(role_id)] = role
                return str(role_id)
        if option_type is t.channel:
            channel_id = value if isinstance(value, int) else value.id
            data = next(c for c in self._channels if int(c["id"]) == channel_id)
            resolved.setdefault("channels", {})[str(channel_id)] = {
                **data,
                "permissions": str(discord.Permissions.all().value),
            }
            return str(channel_id)
        if option_type is t.integer:
            return int(value)
        if option_type is t.number:
            return float(value)
        if option_type is t.boolean:
            return bool(value)
        if option_type is t.string:
            return str(value)
        raise NotImplementedError(f"the harness cannot send {option_type.name} options yet")

    def _command_data(
        self,
        command_name: str,
        values: Mapping[str, Any],
        focused: str | None = None,
    ) -> dict[str, Any]:
        command, words, guild_id = self._find_command(command_name)
        params = {p.name: p for p in command.parameters}
        params.update({p.display_name: p for p in command.parameters})
        resolved: dict[str, Any] = {}
        options: list[dict[str, Any]] = []
        for key, value in values.items():
            param = params.get(key)
            if param is None:
                raise LookupError(
                    f"/{command_name} has no option {key!r}; options: {sorted(params)}"
                )
            if key == focused:
                options.append(
                    {
                        "name": param.display_name,
                        "type": param.type.value,
                        "value": value,
                        "focused": True,
                    }
                )
                continue
            options.append(
                {
                    "name": param.display_name,
                    "type": param.type.value,
                    "value": self._option_value(param.type, value, resolved),
                }
            )
        if focused is not None and focused not in values:
            raise LookupError(f"focused option {focused!r} has no value")
        for word in reversed(words[1:]):
            is_leaf = not options or options[0].get("type") not in (1, 2)
            options = [{"name": word, "type": 1 if is_leaf else 2, "options": options}]
        synced = {c["name"]: c for c in self.synced.get(guild_id, [])}
        data: dict[str, Any] = {
            "id": synced.get(words[0], {}).get("id", str(self._snowflake())),
            "name": words[0],
            "type": 1,
            "options": options,
        }
        if guild_id is not None:
            data["guild_id"] = str(guild_id)
        if resolved:
            data["resolved"] = resolved
        return data

    async def slash(
        self,
        user: discord.abc.Snowflake | int,
        command: str,
        *,
        channel: discord.abc.Snowflake | int | None = None,
        options: Mapping[str, Any] | None = None,
        **kwargs: Any,
    ) -> Reply:
        """Run ``/command`` (``"ark place"`` for subcommands) as ``user`` and wait for the bot.

        Options go as keyword arguments (python or display names) or in ``options`` when an
        option is called ``channel``/``options``. Members, roles and channels may be given as
        objects or ids.
        """
        values = {**kwargs, **(options or {})}
        data = self._command_data(command, values)
        payload = self._interaction_payload(2, user, self._channel_id(channel), data)
        return await self._dispatch(payload)

    async def autocomplete(
        self,
        user: discord.abc.Snowflake | int,
        command: str,
        *,
        focused: str,
        value: Any,
        channel: discord.abc.Snowflake | int | None = None,
        options: Mapping[str, Any] | None = None,
        **kwargs: Any,
    ) -> list[app_commands.Choice[Any]]:
        """Type ``value`` into option ``focused`` of ``/command``; return the offered choices."""
        values = {**kwargs, **(options or {}), focused: value}
        data = self._command_data(command, values, focused=focused)
        payload = self._interaction_payload(4, user, self._channel_id(channel), data)
        reply = await self._dispatch(payload)
        callback = reply.callback
        if callback is None or callback.kind != 8:
            raise AssertionError(f"autocomplete got no choices; records {[s.kind for s in reply]}")
        return callback.choices

    # ---------------------------------------------------------------- components

    def _component_target(
        self, message: Sent | int, custom_id: str, force: bool
    ) -> tuple[dict[str, Any], Component]:
        message_id = message if isinstance(message, int) else message.message_id
        if message_id is None or int(message_id) not in self.messages:
            raise LookupError(f"message {message_id} does not exist (deleted, or never sent)")
        payload = self.messages[int(message_id)]
        found = [
            c for c in _flatten_components(payload.get("components")) if c.custom_id == custom_id
        ]
        if not found:
            ids = [
                c.custom_id for c in _flatten_components(payload.get("components")) if c.custom_id
            ]
            raise LookupError(f"no component {custom_id!r} on message {message_id}; it has {ids}")
        if found[0].disabled and not force:
            raise ComponentDisabled(f"{custom_id!r} is disabled; pass force=True to press anyway")
        return payload, found[0]

    async def click(
        self,
        user: discord.abc.Snowflake | int,
        message: Sent | int,
        custom_id: str,
        *,
        force: bool = False,
    ) -> Reply:
        """Press the button ``custom_id`` on ``message`` (a :class:`Sent` or message id).

        The component must be on the current version of the message and enabled (a Discord
        client cannot press a disabled button); ``force=True`` skips the enabled check.
        """
        payload, component = self._component_target(message, custom_id, force)
        data = {"custom_id": custom_id, "component_type": component.type}
        interaction = self._interaction_payload(
            3, user, int(payload["channel_id"]), data, message=json.loads(json.dumps(payload))
        )
        return await self._dispatch(interaction)

    async def forge(
        self,
        user: discord.abc.Snowflake | int,
        message: Sent | int,
        custom_id: str,
        *,
        values: Sequence[str] | None = None,
        channel_id: int | None = None,
    ) -> Reply:
        """A component interaction no Discord client would send: any ``custom_id`` (an old
        one, a made-up one), maybe from another channel, on ``message`` as it was sent (a
        client that missed an edit still shows those components). What a stale client or an
        attacker sends; the bot must answer it privately and act on nothing it should not.
        The message is given a button (or menu) with that id, since discord.py only hands a
        click to the bot when the message it came from holds the component."""
        message_id = message if isinstance(message, int) else message.message_id
        payload = json.loads(json.dumps(self.messages[int(message_id)]))
        kind = 2 if values is None else 3
        forged: dict[str, Any] = {"type": kind, "custom_id": custom_id}
        if kind == 2:
            forged |= {"style": 2, "label": "?"}
        else:
            forged |= {"options": [{"label": v, "value": v} for v in values or ["-"]]}
        payload["components"] = [{"type": 1, "components": [forged]}]
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": 2}
        if values is not None:
            data = {"custom_id": custom_id, "component_type": 3, "values": list(values)}
        channel = int(payload["channel_id"]) if channel_id is None else channel_id
        interaction = self._interaction_payload(3, user, channel, data, message=payload)
        return await self._dispatch(interaction)

    async def select(
        self,
        user: discord.abc.Snowflake | int,
        message: Sent | int,
        custom_id: str,
        values: Sequence[Any],
        *,
        force: bool = False,
    ) -> Reply:
        """Choose ``values`` in the select menu ``custom_id`` on ``message``.

        For string selects the values must be among the menu's options; for user, role,
        mentionable and channel selects give objects or ids.
        """
        payload, component = self._component_target(message, custom_id, force)
        if component.type not in _SELECT_TYPES:
            raise LookupError(f"{custom_id!r} is not a select menu (type {component.type})")
        resolved: dict[str, Any] = {}
        t = discord.AppCommandOptionType
        if component.type == 3:
            allowed = set(component.option_values)
            bad = [v for v in values if str(v) not in allowed]
            if bad and not force:
                raise LookupError(f"{bad} are not options of {custom_id!r}: {sorted(allowed)}")
            raw_values = [str(v) for v in values]
        else:
            kind = {5: t.user, 6: t.role, 7: t.mentionable, 8: t.channel}[component.type]
            raw_values = [self._option_value(kind, v, resolved) for v in values]
        data: dict[str, Any] = {
            "custom_id": custom_id,
            "component_type": component.type,
            "values": raw_values,
        }
        if resolved:
            data["resolved"] = resolved
        interaction = self._interaction_payload(
            3, user, int(payload["channel_id"]), data, message=json.loads(json.dumps(payload))
        )
        return await self._dispatch(interaction)


def http_error(
    status: int, message: str, *, code: int = 0, errors: Mapping[str, Any] | None = None
) -> discord.HTTPException:
    """A ``discord.HTTPException`` (``Forbidden`` for 403, ``NotFound`` for 404) to raise from
    a handler given to :meth:`Harness.on`, e.g. ``http_error(403, "Cannot send messages to
    this user", code=50007)`` for closed DMs; ``errors`` is Discord's object naming the
    refused fields (of a 400 "Invalid Form Body")."""
    cls = {403: discord.Forbidden, 404: discord.NotFound}.get(status, discord.HTTPException)
    data: dict[str, Any] = {"message": message, "code": code}
    if errors:
        data["errors"] = dict(errors)
    return cls(_FakeResponse(status), data)


class _FakeResponse:
    """Just enough of ``aiohttp.ClientResponse`` for ``discord.HTTPException``."""

    def __init__(self, status: int) -> None:
        self.status = status
        self.reason = {400: "Bad Request", 403: "Forbidden", 404: "Not Found"}.get(status, "Error")
