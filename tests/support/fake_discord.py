"""A small fake Discord on loopback for end-to-end tests (test code, not product code).

One aiohttp server on 127.0.0.1 (ephemeral port) serves both halves of the protocol a
discord.py 2.x bot uses:

* REST under ``http://127.0.0.1:PORT/api/v10``: login, command sync, interaction
  callbacks, webhook follow-ups and edits, channel messages, DMs and the usual lookups.
* The gateway websocket at ``ws://127.0.0.1:PORT/gateway``: HELLO, heartbeat ACK,
  IDENTIFY -> READY + GUILD_CREATE, RESUME -> RESUMED, then whatever the test dispatches
  (INTERACTION_CREATE as simulated users, mainly).
* Shards: with ``guilds=N`` the fake holds N guilds (the channels dealt out among them), and
  a session that IDENTIFYs with ``shard: [id, count]`` gets the guilds of that shard by
  Discord's formula ``(guild_id >> 22) % count``, and their events; DMs go to shard 0. So
  several bot processes, each with its own shards, run against one fake.

Everything the bot sends is recorded (:class:`Recorder`) and turned into
:class:`FakeMessage` objects, so tests assert on what users would see: text, embeds,
components, the ephemeral flag and attached files (decode PNGs with :meth:`FakeMessage.image`).

The payload shapes follow what discord.py 2.7 parses (``discord/state.py``,
``discord/guild.py``, ``discord/interactions.py``, ``discord/webhook/async_.py``); a
missing key there does not raise in the test but silently kills the bot's connection or
drops the event, which is why the payloads below are fuller than they look necessary.

Typical use (see ``e2e.py`` for the fixtures)::

    iid = await fake.slash("alice", "games", "ping", {"word": "ark"}, subcommand="sub")
    reply = await fake.recorder.wait_for_reply(iid)      # first non-loading answer
    reply.content, reply.embeds, reply.ephemeral, reply.image()
    await fake.click("bob", "games", reply.id, "custom:id")
    fake.rate_limit(r"^POST /interactions/", times=1, retry_after=0.3)
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import hashlib
import io
import itertools
import json
import logging
import mimetypes
import os
import re
import signal
import sys
import time
import zlib
from collections import Counter
from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from aiohttp import WSMsgType, web

from tests.support import discord_limits as limits

log = logging.getLogger("fake_discord")

JSON = dict[str, Any]

DISCORD_EPOCH_MS = 1420070400000
EPHEMERAL = 1 << 6
LOADING = 1 << 7
GUILD_MEMBERS_INTENT = 1 << 1
GUILD_MESSAGES_INTENT = 1 << 9
DIRECT_MESSAGES_INTENT = 1 << 12

# Permission bits used to build roles (discord.py only needs the integer string).
ADMINISTRATOR = 1 << 3
MANAGE_CHANNELS = 1 << 4
MANAGE_GUILD = 1 << 5
VIEW_CHANNEL = 1 << 10
SEND_MESSAGES = 1 << 11
MANAGE_MESSAGES = 1 << 13
ATTACH_FILES = 1 << 15
READ_MESSAGE_HISTORY = 1 << 16
MANAGE_THREADS = 1 << 34
CREATE_PUBLIC_THREADS = 1 << 35
SEND_MESSAGES_IN_THREADS = 1 << 38
# Roughly what @everyone gets in a fresh server: invite, react, view, send, embed, attach,
# history, external emoji, nickname, slash commands, send in threads.
EVERYONE_PERMISSIONS = sum(1 << b for b in (0, 6, 10, 11, 14, 15, 16, 18, 26, 31, 38))
MODERATOR_PERMISSIONS = EVERYONE_PERMISSIONS | MANAGE_MESSAGES | MANAGE_CHANNELS | MANAGE_GUILD
BOT_PERMISSIONS = EVERYONE_PERMISSIONS | MANAGE_MESSAGES

# Interaction types and callback types (Discord API numbers).
APPLICATION_COMMAND = 2
MESSAGE_COMPONENT = 3
AUTOCOMPLETE = 4
MODAL_SUBMIT = 5
CB_CHANNEL_MESSAGE = 4
CB_DEFERRED_CHANNEL_MESSAGE = 5
CB_DEFERRED_UPDATE = 6
CB_UPDATE_MESSAGE = 7
CB_AUTOCOMPLETE = 8
CB_MODAL = 9

ENV_API = "ARKBOT_DISCORD_API"
ENV_GATEWAY = "ARKBOT_DISCORD_GATEWAY"


def _iso(ts: float | None = None) -> str:
    """Discord's ISO-8601 timestamps, which discord.py parses with ``utils.parse_time``."""
    moment = dt.datetime.fromtimestamp(time.time() if ts is None else ts, dt.UTC)
    return moment.isoformat()


class Snowflakes:
    """Monotonic Discord-style ids, so ``discord.utils.snowflake_time`` gives sane times."""

    def __init__(self) -> None:
        self._last = 0

    def next(self) -> int:
        ms = int(time.time() * 1000) - DISCORD_EPOCH_MS
        candidate = (ms << 22) | (1 << 17)
        self._last = max(candidate, self._last + 1)
        return self._last


# --------------------------------------------------------------------------------------
# The simulated world: users, channels, the guild
# --------------------------------------------------------------------------------------


@dataclass
class SimUser:
    """A simulated Discord user and guild member."""

    id: int
    name: str
    roles: list[int] = field(default_factory=list)
    bot: bool = False
    joined_at: str = field(default_factory=_iso)

    def user_payload(self) -> JSON:
        """The ``user`` object (discord.py requires username, id, discriminator, avatar)."""
        return {
            "id": str(self.id),
            "username": self.name,
            "global_name": self.name.title(),
            "discriminator": "0",
            "avatar": None,
            "bot": self.bot,
            "public_flags": 0,
            "flags": 0,
            "banner": None,
            "accent_color": None,
            "avatar_decoration_data": None,
        }

    def member_payload(
        self, permissions: int | None = None, *, with_user: bool = True, shift: int = 0
    ) -> JSON:
        """A guild member (discord.py's Member requires ``user``, ``roles`` and ``flags``).
        ``shift``: from the first guild's role ids to this guild's."""
        data: JSON = {
            "roles": [str(r + shift) for r in self.roles],
            "nick": None,
            "avatar": None,
            "banner": None,
            "joined_at": self.joined_at,
            "premium_since": None,
            "deaf": False,
            "mute": False,
            "pending": False,
            "flags": 0,
            "communication_disabled_until": None,
        }
        if with_user:
            data["user"] = self.user_payload()
        if permissions is not None:
            data["permissions"] = str(permissions)
        return data


@dataclass
class FakeChannel:
    """A channel the fake knows: guild text (0), DM (1) or thread (11). A guild channel
    has its permission overwrites (Discord's objects: id, type 0 role / 1 member, allow,
    deny); a thread takes its parent's, and may be archived and locked."""

    id: int
    name: str
    type: int = 0
    guild_id: int | None = None
    parent_id: int | None = None
    recipient: SimUser | None = None
    position: int = 0
    overwrites: list[JSON] = field(default_factory=list)
    archived: bool = False
    locked: bool = False

    @property
    def is_thread(self) -> bool:
        return self.type in (10, 11, 12)

    def payload(self, permissions: int | None = None) -> JSON:
        """The channel object as REST, READY and interactions carry it."""
        if self.type == 1:
            assert self.recipient is not None
            return {
                "id": str(self.id),
                "type": 1,
                "last_message_id": None,
                "flags": 0,
                "recipients": [self.recipient.user_payload()],
            }
        data: JSON = {
            "id": str(self.id),
            "type": self.type,
            "name": self.name,
            "guild_id": str(self.guild_id),
            "position": self.position,
            "permission_overwrites": [dict(o) for o in self.overwrites],
            "nsfw": False,
            "parent_id": str(self.parent_id) if self.parent_id else None,
            "topic": None,
            "rate_limit_per_user": 0,
            "last_message_id": None,
            "flags": 0,
        }
        if self.is_thread:
            # Threads: discord.py's Thread needs owner_id, thread_metadata and counts.
            data.update(
                owner_id=None,
                message_count=0,
                member_count=1,
                thread_metadata={
                    "archived": self.archived,
                    "auto_archive_duration": 1440,
                    "archive_timestamp": _iso(),
                    "locked": self.locked,
                },
            )
        if permissions is not None:
            data["permissions"] = str(permissions)
        return data


# --------------------------------------------------------------------------------------
# What the bot sent: requests, messages, interactions
# --------------------------------------------------------------------------------------


@dataclass
class Part:
    """One decoded multipart part (``payload_json`` is parsed into the request's json)."""

    name: str
    filename: str | None
    content_type: str | None
    data: bytes


@dataclass
class RecordedRequest:
    """One REST request the bot made, with the answer it got."""

    method: str
    path: str  # without the /api/vN prefix, e.g. /interactions/1/tok/callback
    query: dict[str, str]
    json: Any
    parts: list[Part]
    at: float
    status: int = 0
    route: str = ""  # the matched route template, "" when unknown
    response: Any = None

    @property
    def files(self) -> list[Part]:
        """The attached files (multipart parts with a filename)."""
        return [p for p in self.parts if p.filename is not None]


@dataclass
class AttachedFile:
    """A file the bot attached to a message, with its bytes."""

    id: int
    filename: str
    content_type: str
    data: bytes
    description: str | None = None

    def image(self) -> Any:
        """Decode the file with Pillow (fully loaded, so a truncated PNG fails here)."""
        from PIL import Image

        img = Image.open(io.BytesIO(self.data))
        img.load()
        return img


@dataclass
class FakeMessage:
    """A message as users would see it; ``edits`` keeps every earlier version."""

    id: int
    channel_id: int
    payload: JSON
    files: dict[int, AttachedFile]
    source: str  # "callback", "followup", "channel", "update", "user" (a user's own)
    interaction_id: int | None = None
    deleted: bool = False
    edits: list[JSON] = field(default_factory=list)
    updated_at: float = field(default_factory=time.monotonic)
    created_at: float = field(default_factory=time.monotonic)

    @property
    def content(self) -> str:
        return self.payload.get("content") or ""

    @property
    def embeds(self) -> list[JSON]:
        return self.payload.get("embeds") or []

    @property
    def components(self) -> list[JSON]:
        return self.payload.get("components") or []

    @property
    def flags(self) -> int:
        return int(self.payload.get("flags") or 0)

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & EPHEMERAL)

    @property
    def loading(self) -> bool:
        """A deferred "Bot is thinking..." message not yet filled in."""
        return bool(self.flags & LOADING)

    @property
    def attachments(self) -> list[AttachedFile]:
        """The files currently on the message, in order."""
        ids = [int(a["id"]) for a in self.payload.get("attachments") or []]
        return [self.files[i] for i in ids if i in self.files]

    def image(self, index: int = 0) -> Any:
        """The ``index``-th attachment decoded as a Pillow image."""
        return self.attachments[index].image()

    def text(self) -> str:
        """Content plus embed titles, descriptions and fields: what a reader sees."""
        chunks = [self.content]
        for embed in self.embeds:
            chunks += [embed.get("title") or "", embed.get("description") or ""]
            for f in embed.get("fields") or []:
                chunks += [f.get("name") or "", f.get("value") or ""]
            chunks.append((embed.get("footer") or {}).get("text") or "")
        return "\n".join(c for c in chunks if c)

    def walk_components(self) -> list[JSON]:
        """Every component, flattened out of action rows and containers."""
        out: list[JSON] = []
        stack = list(reversed(self.components))
        while stack:
            comp = stack.pop()
            out.append(comp)
            children = list(comp.get("components") or [])
            if comp.get("accessory"):
                children.append(comp["accessory"])
            if comp.get("component"):
                children.append(comp["component"])
            stack.extend(reversed(children))
        return out

    @property
    def custom_ids(self) -> list[str]:
        """custom_ids of every button and select on the message."""
        return [c["custom_id"] for c in self.walk_components() if c.get("custom_id")]

    def button(self, label: str | None = None, custom_id: str | None = None) -> JSON:
        """Find a button by label or custom_id (AssertionError if there is none)."""
        for comp in self.walk_components():
            if comp.get("type") != 2:
                continue
            if (label is None or comp.get("label") == label) and (
                custom_id is None or comp.get("custom_id") == custom_id
            ):
                return comp
        raise AssertionError(f"no button {label or custom_id!r} on message {self.id}")


@dataclass
class FakeInteraction:
    """An INTERACTION_CREATE the test dispatched, and how the bot answered it."""

    id: int
    token: str
    type: int
    user: SimUser
    channel: FakeChannel
    payload: JSON
    dispatched_at: float
    callbacks: list[JSON] = field(default_factory=list)  # accepted callbacks: type, data, at
    rejected: list[JSON] = field(default_factory=list)  # late or double callbacks
    responded_at: float | None = None
    original_message_id: int | None = None
    message_ids: list[int] = field(default_factory=list)

    @property
    def response_type(self) -> int | None:
        return self.callbacks[0]["type"] if self.callbacks else None

    @property
    def first_response_s(self) -> float | None:
        """Seconds from dispatch to the accepted callback (the user's first feedback)."""
        return None if self.responded_at is None else self.responded_at - self.dispatched_at

    @property
    def choices(self) -> list[JSON]:
        """Autocomplete choices the bot offered (callback type 8)."""
        for cb in self.callbacks:
            if cb["type"] == CB_AUTOCOMPLETE:
                return list((cb["data"] or {}).get("choices") or [])
        return []


@dataclass
class RateLimitRule:
    """Answer the next ``remaining`` matching requests with 429."""

    match: Callable[[RecordedRequest], bool]
    remaining: int
    retry_after: float
    is_global: bool
    hits: list[RecordedRequest] = field(default_factory=list)


@dataclass
class OutageRule:
    """Answer the next ``remaining`` matching requests with 503 (Discord's side failed)."""

    match: Callable[[RecordedRequest], bool]
    remaining: int
    hits: list[RecordedRequest] = field(default_factory=list)


class Recorder:
    """Everything the bot did, plus bounded waits on it."""

    def __init__(self) -> None:
        self.requests: list[RecordedRequest] = []
        self.unknown: list[RecordedRequest] = []
        self.messages: dict[int, FakeMessage] = {}
        self.interactions: dict[int, FakeInteraction] = {}
        self.gateway_log: list[tuple[str, int | None, str | None]] = []  # (dir, op, t)
        self.commands_synced: list[RecordedRequest] = []
        #: Files the bot uploaded (with a message or an edit), by file name.
        self.uploaded: Counter[str] = Counter()
        #: Posts sent again with a nonce already seen, answered with the first message.
        self.nonce_repeats = 0
        # Waiters are (predicate, future) pairs, re-checked once per event-loop iteration
        # after any change: cheap with hundreds of waiters (the load benchmark).
        self._waiters: list[tuple[Callable[[], Any], asyncio.Future[Any]]] = []
        self._check_scheduled = False

    def changed(self) -> None:
        """Re-check the waiters soon; called after each recorded change."""
        if self._check_scheduled or not self._waiters:
            return
        self._check_scheduled = True
        asyncio.get_running_loop().call_soon(self._check_waiters)

    def _check_waiters(self) -> None:
        self._check_scheduled = False
        waiting, self._waiters = self._waiters, []
        for predicate, future in waiting:
            if future.done():
                continue  # timed out or cancelled
            try:
                result = predicate()
            except Exception as exc:
                future.set_exception(exc)
                continue
            if result:
                future.set_result(result)
            else:
                self._waiters.append((predicate, future))

    async def wait_until(self, predicate: Callable[[], Any], timeout: float, what: str) -> Any:
        """Wait until ``predicate()`` is truthy and return it, or raise TimeoutError(what)."""
        result = predicate()
        if result:
            return result
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._waiters.append((predicate, future))
        try:
            return await asyncio.wait_for(future, timeout)
        except TimeoutError:
            raise TimeoutError(f"timed out after {timeout}s waiting for {what}") from None

    # ---- queries ------------------------------------------------------------------

    def find_requests(
        self, method: str | None = None, path_re: str | None = None
    ) -> list[RecordedRequest]:
        """Requests by method and a regex searched in the path."""
        return [
            r
            for r in self.requests
            if (method is None or r.method == method)
            and (path_re is None or re.search(path_re, r.path))
        ]

    def messages_in(self, channel_id: int, *, include_deleted: bool = False) -> list[FakeMessage]:
        """Messages in a channel, oldest first (ephemeral ones included: flags tell)."""
        return [
            m
            for m in self.messages.values()
            if m.channel_id == channel_id and (include_deleted or not m.deleted)
        ]

    def replies_to(self, interaction_id: int) -> list[FakeMessage]:
        """Messages created or edited in answer to an interaction, in order."""
        ix = self.interactions.get(interaction_id)
        if ix is None:
            return []
        return [self.messages[mid] for mid in ix.message_ids if mid in self.messages]

    async def wait_for_message(
        self, predicate: Callable[[FakeMessage], bool], timeout: float = 5.0
    ) -> FakeMessage:
        """The first live message (newest version) matching ``predicate``."""

        def find() -> FakeMessage | None:
            for m in self.messages.values():
                if not m.deleted and predicate(m):
                    return m
            return None

        return await self.wait_until(find, timeout, "a matching message")

    async def wait_for_request(
        self, predicate: Callable[[RecordedRequest], bool], timeout: float = 5.0
    ) -> RecordedRequest:
        """The first answered request matching ``predicate``."""

        def find() -> RecordedRequest | None:
            return next((r for r in self.requests if r.status and predicate(r)), None)

        return await self.wait_until(find, timeout, "a matching request")

    async def wait_for_response(self, interaction_id: int, timeout: float = 5.0) -> FakeInteraction:
        """Wait until the bot acknowledged an interaction (any accepted callback)."""
        ix = self.interactions[interaction_id]
        await self.wait_until(lambda: ix.responded_at is not None, timeout, f"reply to {ix.id}")
        return ix

    async def wait_for_reply(
        self,
        interaction_id: int,
        predicate: Callable[[FakeMessage], bool] = lambda m: not m.loading,
        timeout: float = 5.0,
    ) -> FakeMessage:
        """The first message answering an interaction that matches (default: not loading)."""

        def find() -> FakeMessage | None:
            return next((m for m in self.replies_to(interaction_id) if predicate(m)), None)

        return await self.wait_until(find, timeout, f"a reply to interaction {interaction_id}")


# --------------------------------------------------------------------------------------
# Gateway sessions
# --------------------------------------------------------------------------------------


@dataclass
class GatewaySession:
    """An identified session; it outlives its websocket so RESUME can replay."""

    session_id: str
    intents: int
    shard: list[int] | None
    seq: int = 0
    history: list[JSON] = field(default_factory=list)
    conn: GatewayConnection | None = None
    resumes: int = 0


class GatewayConnection:
    """One websocket; compresses with a shared zlib stream when the bot asked for it."""

    def __init__(self, ws: web.WebSocketResponse, compress: str | None) -> None:
        self.ws = ws
        self.compress = compress
        # discord.py picks zstd-stream only when a zstd module is installed; it decodes
        # text frames uncompressed in any case, so only zlib-stream needs real encoding.
        self._zlib = zlib.compressobj() if compress == "zlib-stream" else None
        self._lock = asyncio.Lock()
        self.session: GatewaySession | None = None
        self.ready = asyncio.Event()

    @property
    def open(self) -> bool:
        return not self.ws.closed

    async def send(self, payload: JSON) -> None:
        """Send one gateway payload; the lock keeps the zlib stream in send order."""
        raw = json.dumps(payload, separators=(",", ":"))
        async with self._lock:
            if self.ws.closed:
                return
            # A socket whose process was just killed may be closing: the event is lost, as
            # it is on Discord for a session that never resumes.
            with contextlib.suppress(ConnectionResetError):
                if self._zlib is not None:
                    blob = self._zlib.compress(raw.encode())
                    blob += self._zlib.flush(zlib.Z_SYNC_FLUSH)
                    await self.ws.send_bytes(blob)  # ends with 00 00 ff ff, as discord.py checks
                else:
                    await self.ws.send_str(raw)


# --------------------------------------------------------------------------------------
# The server
# --------------------------------------------------------------------------------------

Handler = Callable[["Ctx"], Awaitable[web.StreamResponse]]


@dataclass
class Ctx:
    """A parsed REST request handed to route handlers."""

    request: web.Request
    rec: RecordedRequest
    params: dict[str, str]

    @property
    def body(self) -> Any:
        return self.rec.json


class DiscordError(Exception):
    """An API error answered as Discord does: status + {"message", "code"}, and for a
    refused body the ``errors`` object naming its fields."""

    def __init__(self, status: int, code: int, message: str, errors: JSON | None = None) -> None:
        super().__init__(message)
        self.status, self.code, self.message = status, code, message
        self.errors = errors or {}

    @classmethod
    def refusing(cls, errors: JSON) -> DiscordError:
        """Discord's 400 "Invalid Form Body" for a body with these ``errors``."""
        status, code, message = limits.INVALID_FORM_BODY
        return cls(status, code, message, errors)

    def body(self) -> JSON:
        found: JSON = {"message": self.message, "code": self.code}
        if self.errors:
            found["errors"] = self.errors
        return found


def check_form(errors: JSON) -> None:
    """Refuse a body as Discord would when :mod:`discord_limits <tests.support.discord_limits>`
    found something wrong in it."""
    if errors:
        log.warning("FAKE DISCORD: REFUSED a body as Discord would: %s", json.dumps(errors)[:500])
        raise DiscordError.refusing(errors)


class FakeDiscord:
    """The loopback Discord. ``await start()``, point the bot at :meth:`env`, ``await close()``.

    ``callback_deadline`` mirrors Discord's 3-second window to acknowledge an interaction
    (late callbacks get 404 Unknown interaction, and land in ``FakeInteraction.rejected``).
    ``click_delay`` is the least time between a message changing and a simulated click
    on it (see :meth:`_message_for_component`). ``guilds`` is how many guilds there are:
    the first is :attr:`GUILD_ID`, guild ``k`` is ``GUILD_ID + (k << 22)`` (so they fall on
    shards in turn), and channel ``i`` is in guild ``i % guilds``. Every user is a member of
    every guild, with the same roles in each.
    """

    APP_ID = 1100000000000000001
    GUILD_ID = 1100000000000000100
    OWNER_ID = 1100000000000000200

    def __init__(
        self,
        *,
        users: Sequence[str] = ("alice", "bob", "carol", "dave"),
        moderators: Sequence[str] = ("mod",),
        channels: Sequence[str] = ("general", "games", "games-2"),
        heartbeat_interval_ms: int = 41250,
        callback_deadline: float | None = limits.ANSWER_DEADLINE,
        click_delay: float = 0.1,
        token: str | None = None,
        host: str = "127.0.0.1",
        guilds: int = 1,
    ) -> None:
        self.host = host
        self.guild_ids = [self.GUILD_ID + (k << 22) for k in range(max(1, guilds))]
        self.port = 0
        self.heartbeat_interval_ms = heartbeat_interval_ms
        self.callback_deadline = callback_deadline
        self.click_delay = click_delay
        self.expected_token = token
        self.ids = Snowflakes()
        self.recorder = Recorder()
        self.rate_limits: list[RateLimitRule] = []
        self.outages: list[OutageRule] = []
        self.sessions: dict[str, GatewaySession] = {}
        self.connections: list[GatewayConnection] = []
        self.identify_count = 0
        self.resume_count = 0
        self.commands: dict[int | None, list[JSON]] = {}  # guild id (None: global) -> list
        self._command_ids: dict[tuple[int | None, str, int], int] = {}
        self._runner: web.AppRunner | None = None
        self._tokens: dict[str, int] = {}  # interaction token -> interaction id
        self._uid = itertools.count(1)
        self._route_table: list[tuple[str, re.Pattern[str], str, Handler]] | None = None

        self.everyone_role = self._role(self.GUILD_ID, "@everyone", EVERYONE_PERMISSIONS, 0)
        self.moderator_role = self._role(self.GUILD_ID + 1, "Moderator", MODERATOR_PERMISSIONS, 1)
        self.bot_role = self._role(self.GUILD_ID + 2, "arkbot", BOT_PERMISSIONS, 2, managed=True)
        self.roles: list[JSON] = [self.everyone_role, self.moderator_role, self.bot_role]
        self.bot_user = SimUser(self.APP_ID, "arkbot", roles=[self.GUILD_ID + 2], bot=True)
        self.users: dict[str, SimUser] = {}
        self.add_user("owner", roles=[self.GUILD_ID + 1], user_id=self.OWNER_ID)
        for name in users:
            self.add_user(name)
        for name in moderators:
            self.add_user(name, roles=[self.GUILD_ID + 1])
        self.channels: dict[int, FakeChannel] = {}
        for pos, name in enumerate(channels):
            gid = self.guild_ids[pos % len(self.guild_ids)]
            cid = gid + 1000 + pos
            self.channels[cid] = FakeChannel(cid, name, 0, gid, position=pos)
        self.guild_name = "Youth Group"

    # ---- world ----------------------------------------------------------------------

    @staticmethod
    def _role(rid: int, name: str, perms: int, pos: int, *, managed: bool = False) -> JSON:
        return {
            "id": str(rid),
            "name": name,
            "color": 0,
            "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
            "hoist": False,
            "icon": None,
            "unicode_emoji": None,
            "position": pos,
            "permissions": str(perms),
            "managed": managed,
            "mentionable": False,
            "flags": 0,
        }

    def add_user(
        self, name: str, *, roles: Sequence[int] = (), user_id: int | None = None
    ) -> SimUser:
        """Add a simulated member (also dispatches GUILD_MEMBER_ADD if a bot is connected)."""
        user = SimUser(user_id or self.GUILD_ID + 500 + next(self._uid), name, list(roles))
        self.users[name] = user
        if any(c.ready.is_set() for c in self.connections):
            for gid in self.guild_ids:
                data = user.member_payload(shift=gid - self.GUILD_ID) | {"guild_id": str(gid)}
                event = self.dispatch("GUILD_MEMBER_ADD", data, intent=GUILD_MEMBERS_INTENT)
                asyncio.get_running_loop().create_task(event)
        return user

    def user(self, name: str) -> SimUser:
        return self.users[name]

    def channel(self, name: str) -> FakeChannel:
        """A guild text channel by name."""
        for ch in self.channels.values():
            if ch.name == name and ch.type == 0:
                return ch
        raise KeyError(name)

    def dm_channel(self, user: SimUser) -> FakeChannel:
        """The DM channel with ``user`` (created on demand, same id every time)."""
        for ch in self.channels.values():
            if ch.type == 1 and ch.recipient is user:
                return ch
        ch = FakeChannel(self.ids.next(), f"dm-{user.name}", 1, recipient=user)
        self.channels[ch.id] = ch
        return ch

    def permissions_of(self, user: SimUser) -> int:
        """Guild-level permissions: @everyone | roles; owner and admins get everything."""
        if user.id == self.OWNER_ID:
            return (1 << 53) - 1
        perms = EVERYONE_PERMISSIONS
        for role in self.roles:
            if int(role["id"]) in user.roles:
                perms |= int(role["permissions"])
        return (1 << 53) - 1 if perms & ADMINISTRATOR else perms

    def permissions_in(self, user: SimUser, channel: FakeChannel) -> int:
        """``user``'s permissions in ``channel``, by Discord's rule: the guild's (everyone's
        and the user's roles'), then the channel's overwrites: @everyone's, the roles'
        (denies, then allows), the member's. A thread has its parent's."""
        if channel.type == 1:
            return VIEW_CHANNEL | SEND_MESSAGES | ATTACH_FILES | READ_MESSAGE_HISTORY
        base = self.permissions_of(user)
        if base & ADMINISTRATOR or user.id == self.OWNER_ID:
            return base
        parent = self.channels.get(channel.parent_id or 0) if channel.is_thread else channel
        overwrites = parent.overwrites if parent is not None else []
        gid = channel.guild_id or self.GUILD_ID
        shift = gid - self.GUILD_ID
        roles = {r + shift for r in user.roles}

        def apply(perms: int, chosen: list[JSON]) -> int:
            deny = allow = 0
            for o in chosen:
                deny |= int(o.get("deny") or 0)
                allow |= int(o.get("allow") or 0)
            return (perms & ~deny) | allow

        everyone = [o for o in overwrites if int(o["id"]) == gid]
        of_roles = [o for o in overwrites if o.get("type") == 0 and int(o["id"]) in roles]
        of_member = [o for o in overwrites if o.get("type") == 1 and int(o["id"]) == user.id]
        return apply(apply(apply(base, everyone), of_roles), of_member)

    def bot_role_id(self, guild_id: int | None = None) -> int:
        """The id of the bot's own (managed) role in ``guild_id`` (the first guild's)."""
        return self.GUILD_ID + 2 + ((guild_id or self.GUILD_ID) - self.GUILD_ID)

    async def overwrite(
        self, channel: FakeChannel, *, allow: int = 0, deny: int = 0, tell: bool = True
    ) -> None:
        """Set the overwrite of the bot's role in ``channel`` (as a moderator would in the
        channel's settings): ``deny`` takes those permissions away, ``allow`` gives them.
        ``tell``: dispatch CHANNEL_UPDATE, as Discord does; without it the bot's cache is
        stale and it learns only from the refusals."""
        rid = str(self.bot_role_id(channel.guild_id))
        channel.overwrites = [o for o in channel.overwrites if o["id"] != rid]
        if allow or deny:
            channel.overwrites.append(
                {"id": rid, "type": 0, "allow": str(allow), "deny": str(deny)}
            )
        if tell and self.connections_for(channel.guild_id):
            await self.dispatch("CHANNEL_UPDATE", channel.payload(), timeout=0.1)

    async def grant_bot(self, permissions: int) -> None:
        """Give the bot's role ``permissions`` in every guild (GUILD_ROLE_UPDATE to a bot
        that is connected)."""
        self.bot_role["permissions"] = str(int(self.bot_role["permissions"]) | permissions)
        for gid in self.guild_ids:
            if self.connections_for(gid):
                role = next(r for r in self.roles_of(gid) if int(r["id"]) == self.bot_role_id(gid))
                data = {"guild_id": str(gid), "role": role}
                await self.dispatch("GUILD_ROLE_UPDATE", data, timeout=0.1)

    def threads_of(self, channel: FakeChannel) -> list[FakeChannel]:
        """The threads opened in ``channel``, oldest first."""
        return [c for c in self.channels.values() if c.is_thread and c.parent_id == channel.id]

    async def set_thread(
        self,
        thread: FakeChannel,
        *,
        archived: bool | None = None,
        locked: bool | None = None,
        tell: bool = True,
    ) -> None:
        """Archive or lock a thread (or open it again), as a moderator would; ``tell``:
        dispatch THREAD_UPDATE, as Discord does."""
        if archived is not None:
            thread.archived = archived
        if locked is not None:
            thread.locked = locked
        if tell and self.connections_for(thread.guild_id):
            await self.dispatch("THREAD_UPDATE", thread.payload(), timeout=0.1)

    async def delete_thread(self, thread: FakeChannel, *, tell: bool = True) -> None:
        """Delete a thread, as a moderator would (its starter message in the channel
        stays); ``tell``: dispatch THREAD_DELETE, as Discord does."""
        del self.channels[thread.id]
        if tell and self.connections_for(thread.guild_id):
            data = {
                "id": str(thread.id),
                "guild_id": str(thread.guild_id),
                "parent_id": str(thread.parent_id),
                "type": thread.type,
            }
            await self.dispatch("THREAD_DELETE", data, timeout=0.1)

    def _refuse_post(self, channel: FakeChannel, files: bool) -> None:
        """Refuse a message the bot may not post in ``channel``, as Discord does: 403 50001
        without View Channel, 400 50083 in a locked thread (unless it may manage threads),
        403 50013 without Send Messages (in a thread: Send Messages in Threads) or, for a
        message with files, without Attach Files."""
        if channel.type == 1:
            return
        perms = self.permissions_in(self.bot_user, channel)
        if not perms & VIEW_CHANNEL:
            raise DiscordError(403, 50001, "Missing Access")
        if channel.is_thread and channel.locked and not perms & MANAGE_THREADS:
            raise DiscordError(400, 50083, "Thread is archived")
        send = SEND_MESSAGES_IN_THREADS if channel.is_thread else SEND_MESSAGES
        if not perms & send or (files and not perms & ATTACH_FILES):
            raise DiscordError(403, 50013, "Missing Permissions")

    @staticmethod
    def shard_of(guild_id: int | None, count: int) -> int:
        """Discord's formula; DMs (no guild) are shard 0's."""
        return 0 if guild_id is None else (guild_id >> 22) % count

    def guilds_of(self, shard: Sequence[int] | None) -> list[int]:
        """The guilds a session with ``shard`` ([id, count], or none: all) receives."""
        if shard is None:
            return list(self.guild_ids)
        return [g for g in self.guild_ids if self.shard_of(g, shard[1]) == shard[0]]

    def roles_of(self, guild_id: int) -> list[JSON]:
        """The guild's roles: the first guild's, with ids moved to this guild's."""
        shift = guild_id - self.GUILD_ID
        return [r | {"id": str(int(r["id"]) + shift)} for r in self.roles]

    def guild_payload(self, guild_id: int | None = None) -> JSON:
        """GUILD_CREATE data: everything Guild._from_data and the caches read."""
        gid = self.GUILD_ID if guild_id is None else guild_id
        shift = gid - self.GUILD_ID
        members = [self.bot_user, *self.users.values()]
        own = [c for c in self.channels.values() if c.guild_id == gid]
        return {
            "id": str(gid),
            "name": self.guild_name if gid == self.GUILD_ID else f"{self.guild_name} {shift >> 22}",
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "banner": None,
            "description": None,
            "owner_id": str(self.OWNER_ID),
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "mfa_level": 0,
            "nsfw_level": 0,
            "premium_tier": 0,
            "premium_subscription_count": 0,
            "premium_progress_bar_enabled": False,
            "preferred_locale": "en-US",
            "system_channel_id": str(own[0].id) if own else None,
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "public_updates_channel_id": None,
            "safety_alerts_channel_id": None,
            "vanity_url_code": None,
            "widget_enabled": False,
            "features": [],
            "application_id": None,
            "max_members": 500000,
            "max_video_channel_users": 25,
            "max_stage_video_channel_users": 50,
            "roles": self.roles_of(gid),
            "emojis": [],
            "stickers": [],
            "joined_at": _iso(),
            "large": False,
            "unavailable": False,
            "lazy": True,
            # member_count == len(members) makes Guild.chunked true, so discord.py never
            # waits on member chunking (it would with the members intent on).
            "member_count": len(members),
            "members": [u.member_payload(shift=shift) for u in members],
            "channels": [c.payload() for c in own if c.type == 0],
            "threads": [c.payload() for c in own if c.type == 11],
            "presences": [],
            "voice_states": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
            "incidents_data": None,
        }

    # ---- lifecycle ------------------------------------------------------------------

    @property
    def base_url(self) -> str:
        return f"http://{self.host}:{self.port}"

    @property
    def api_base(self) -> str:
        """What goes into ``discord.http.Route.BASE``."""
        return f"{self.base_url}/api/v10"

    @property
    def gateway_url(self) -> str:
        """What goes into ``DiscordWebSocket.DEFAULT_GATEWAY`` (no query: discord.py adds it)."""
        return f"ws://{self.host}:{self.port}/gateway"

    def env(self) -> dict[str, str]:
        """Environment settings for the process under test."""
        return {ENV_API: self.api_base, ENV_GATEWAY: self.gateway_url}

    async def start(self) -> FakeDiscord:
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_get("/gateway", self._ws_handler)
        app.router.add_get("/attachments/{aid}/{filename}", self._attachment_handler)
        app.router.add_route("*", r"/api/v{version:\d+}/{tail:.*}", self._rest_handler)
        self._runner = web.AppRunner(app, handle_signals=False, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, 0)
        await site.start()
        sockets = site._server.sockets if site._server else []  # type: ignore[union-attr]
        self.port = sockets[0].getsockname()[1]
        log.info("fake discord on %s", self.base_url)
        return self

    async def close(self) -> None:
        for conn in list(self.connections):
            with contextlib.suppress(Exception):
                await conn.ws.close()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> FakeDiscord:
        return await self.start()

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    # ---- rate limits ----------------------------------------------------------------

    def rate_limit(
        self,
        match: Callable[[RecordedRequest], bool] | str,
        *,
        times: int = 1,
        retry_after: float = 0.25,
        is_global: bool = False,
    ) -> RateLimitRule:
        """Answer the next ``times`` matching requests with 429 + Retry-After.

        ``match`` is a predicate or a regex searched in ``"METHOD /path"``.
        """
        if isinstance(match, str):
            pattern = re.compile(match)

            def predicate(r: RecordedRequest) -> bool:
                return bool(pattern.search(f"{r.method} {r.path}"))

        else:
            predicate = match
        rule = RateLimitRule(predicate, times, retry_after, is_global)
        self.rate_limits.append(rule)
        return rule

    def unavailable(self, match: str, *, times: int = 1) -> OutageRule:
        """Answer the next ``times`` requests matching ``match`` (a regex searched in
        ``"METHOD /path"``) with 503 Service Unavailable, as Discord does when its side
        fails for a moment."""
        pattern = re.compile(match)
        rule = OutageRule(lambda r: bool(pattern.search(f"{r.method} {r.path}")), times)
        self.outages.append(rule)
        return rule

    # ---- gateway --------------------------------------------------------------------

    async def _ws_handler(self, request: web.Request) -> web.StreamResponse:
        ws = web.WebSocketResponse(max_msg_size=0, autoping=True)
        await ws.prepare(request)
        conn = GatewayConnection(ws, request.query.get("compress"))
        if request.query.get("encoding", "json") != "json":
            log.error("fake gateway only speaks encoding=json, got %s", request.query)
        self.connections.append(conn)
        self.recorder.gateway_log.append(("connect", None, request.query_string))
        self.recorder.changed()
        try:
            await conn.send({"op": 10, "d": {"heartbeat_interval": self.heartbeat_interval_ms}})
            async for msg in ws:
                if msg.type in (WSMsgType.TEXT, WSMsgType.BINARY):
                    await self._gateway_receive(conn, json.loads(msg.data))
                elif msg.type == WSMsgType.ERROR:
                    break
        finally:
            conn.ready.clear()
            if conn.session is not None and conn.session.conn is conn:
                conn.session.conn = None
            self.recorder.gateway_log.append(("disconnect", None, None))
            self.recorder.changed()
        return ws

    async def _gateway_receive(self, conn: GatewayConnection, msg: JSON) -> None:
        op, data = msg.get("op"), msg.get("d")
        self.recorder.gateway_log.append(("recv", op, None))
        if op == 1:  # HEARTBEAT
            await conn.send({"op": 11})
        elif op == 2:  # IDENTIFY
            await self._identify(conn, data or {})
        elif op == 6:  # RESUME
            await self._resume(conn, data or {})
        elif op == 8:  # REQUEST_GUILD_MEMBERS: one chunk with everyone
            gid = int((data or {}).get("guild_id") or self.GUILD_ID)
            shift = gid - self.GUILD_ID
            everyone = [self.bot_user, *self.users.values()]
            members = [u.member_payload(shift=shift) for u in everyone]
            chunk = {
                "guild_id": str(gid),
                "members": members,
                "chunk_index": 0,
                "chunk_count": 1,
                "not_found": [],
                "nonce": (data or {}).get("nonce"),
            }
            await self._dispatch_to(conn, "GUILD_MEMBERS_CHUNK", chunk)
        elif op in (3, 4):  # presence / voice state: accepted, nothing to do
            pass
        else:
            log.warning("fake gateway: unhandled op %s: %s", op, msg)
        self.recorder.changed()

    async def _identify(self, conn: GatewayConnection, data: JSON) -> None:
        if self.expected_token is not None and data.get("token") != self.expected_token:
            await conn.ws.close(code=4004, message=b"Authentication failed.")
            return
        self.identify_count += 1
        session = GatewaySession(
            session_id=hashlib.sha1(str(self.ids.next()).encode()).hexdigest()[:32],
            intents=int(data.get("intents") or 0),
            shard=data.get("shard"),
        )
        self.sessions[session.session_id] = session
        session.conn, conn.session = conn, session
        ready: JSON = {
            "v": 10,
            "user": self.bot_user.user_payload() | {"verified": True, "mfa_enabled": False},
            "guilds": [{"id": str(g), "unavailable": True} for g in self.guilds_of(session.shard)],
            "session_id": session.session_id,
            "session_type": "normal",
            "resume_gateway_url": self.gateway_url,
            "application": {"id": str(self.APP_ID), "flags": 0},
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "user_settings": {},
            "geo_ordered_rtc_regions": [],
            "auth": {},
            "_trace": ["fake-discord"],
        }
        if session.shard is not None:  # AutoShardedClient's parse_ready reads data['shard']
            ready["shard"] = session.shard
        await self._dispatch_to(conn, "READY", ready)
        for gid in self.guilds_of(session.shard):
            await self._dispatch_to(conn, "GUILD_CREATE", self.guild_payload(gid))
        conn.ready.set()

    async def _resume(self, conn: GatewayConnection, data: JSON) -> None:
        session = self.sessions.get(str(data.get("session_id")))
        if session is None:
            await conn.send({"op": 9, "d": False})  # discord.py then IDENTIFYs afresh
            return
        self.resume_count += 1
        session.resumes += 1
        session.conn, conn.session = conn, session
        last = int(data.get("seq") or 0)
        for payload in session.history:
            if payload["s"] > last:
                await conn.send(payload)
        await self._dispatch_to(conn, "RESUMED", {"_trace": ["fake-discord"]})
        conn.ready.set()

    async def _dispatch_to(self, conn: GatewayConnection, event: str, data: JSON) -> None:
        session = conn.session
        assert session is not None
        session.seq += 1
        payload = {"op": 0, "t": event, "s": session.seq, "d": data}
        session.history.append(payload)
        del session.history[:-500]  # enough to replay a short disconnect
        self.recorder.gateway_log.append(("send", 0, event))
        await conn.send(payload)

    def live_connections(self) -> list[GatewayConnection]:
        return [c for c in self.connections if c.open and c.ready.is_set()]

    def connections_for(self, guild_id: int | None) -> list[GatewayConnection]:
        """The live sessions that get the events of ``guild_id`` (``None``: a DM)."""
        found = []
        for conn in self.live_connections():
            shard = conn.session.shard if conn.session is not None else None
            if shard is None or shard[0] == self.shard_of(guild_id, shard[1]):
                found.append(conn)
        return found

    def live_shards(self) -> set[int]:
        """The shard ids that have a live session now."""
        return {
            c.session.shard[0]
            for c in self.live_connections()
            if c.session is not None and c.session.shard is not None
        }

    async def wait_ready(self, timeout: float = 10.0, identifies: int = 1) -> GatewayConnection:
        """Wait until ``identifies`` IDENTIFYs happened and a session is live."""
        await self.recorder.wait_until(
            lambda: self.identify_count >= identifies and self.live_connections(),
            timeout,
            f"{identifies} gateway IDENTIFY(s) and a live session",
        )
        return self.live_connections()[-1]

    async def dispatch(
        self,
        event: str,
        data: JSON,
        *,
        intent: int | None = None,
        timeout: float = 10.0,
        one: bool = False,
    ) -> None:
        """Send a DISPATCH to the live sessions of its guild's shard (``data["guild_id"]``;
        none: a DM, shard 0), waiting (bounded) for one to exist. ``one``: to the newest
        session only (an interaction goes to one process)."""
        raw_gid = data.get("guild_id")
        gid = int(raw_gid) if raw_gid else None
        conns = self.connections_for(gid)
        if not conns:
            await self.recorder.wait_until(
                lambda: self.connections_for(gid), timeout, f"a live session for guild {gid}"
            )
            conns = self.connections_for(gid)
        for conn in conns[-1:] if one else conns:
            if intent is None or (conn.session and conn.session.intents & intent):
                await self._dispatch_to(conn, event, data)

    async def disconnect_gateway(self, code: int = 4000) -> None:
        """Drop every websocket (the bot should RESUME, as after a network blip)."""
        for conn in self.live_connections():
            await conn.ws.close(code=code, message=b"fake disconnect")

    # ---- simulated users: interactions ----------------------------------------------

    def _command(self, name: str, guild_id: int | None = None) -> JSON | None:
        for gid in (guild_id, None) if guild_id else (None,):
            for cmd in self.commands.get(gid, []):
                if cmd["name"] == name and cmd.get("type", 1) == 1:
                    return cmd
        for gid, cmds in self.commands.items():
            if gid is not None:
                for cmd in cmds:
                    if cmd["name"] == name and cmd.get("type", 1) == 1:
                        return cmd
        return None

    def _base_interaction(self, itype: int, user: SimUser, channel: FakeChannel) -> JSON:
        """Fields every INTERACTION_CREATE carries (discord.py needs version and
        attachment_size_limit, or Interaction() raises and the event is lost)."""
        iid = self.ids.next()
        token = f"itok.{iid}.{hashlib.sha1(str(iid).encode()).hexdigest()}"
        gid = channel.guild_id or self.GUILD_ID
        shift = gid - self.GUILD_ID
        data: JSON = {
            "id": str(iid),
            "application_id": str(self.APP_ID),
            "type": itype,
            "token": token,
            "version": 1,
            "locale": "en-US",
            "app_permissions": str(self.permissions_in(self.bot_user, channel)),
            "entitlements": [],
            "entitlement_sku_ids": [],
            "attachment_size_limit": 10 * 1024 * 1024,
            "channel_id": str(channel.id),
            "channel": channel.payload(self.permissions_of(user)),
        }
        if channel.type == 1:
            data.update(
                user=user.user_payload(),
                context=1,
                authorizing_integration_owners={"0": "0"},
            )
        else:
            data.update(
                guild_id=str(gid),
                guild={"id": str(gid), "locale": "en-US", "features": []},
                guild_locale="en-US",
                member=user.member_payload(self.permissions_of(user), shift=shift),
                context=0,
                authorizing_integration_owners={"0": str(gid)},
            )
        return data

    def _option(self, schema: JSON | None, name: str, value: Any, resolved: JSON) -> JSON:
        """One option value, typed from the synced command schema when there is one."""
        otype = (schema or {}).get("type")
        if otype is None:  # unknown command: infer from the Python value
            if isinstance(value, SimUser):
                otype = 6
            elif isinstance(value, FakeChannel):
                otype = 7
            elif isinstance(value, bool):
                otype = 5
            elif isinstance(value, int):
                otype = 4
            elif isinstance(value, float):
                otype = 10
            else:
                otype = 3
        if isinstance(value, SimUser):
            resolved.setdefault("users", {})[str(value.id)] = value.user_payload()
            member = value.member_payload(self.permissions_of(value), with_user=False)
            resolved.setdefault("members", {})[str(value.id)] = member
            value = str(value.id)
        elif isinstance(value, FakeChannel):
            resolved.setdefault("channels", {})[str(value.id)] = value.payload(BOT_PERMISSIONS)
            value = str(value.id)
        return {"name": name, "type": otype, "value": value}

    def _options(
        self,
        cmd: JSON | None,
        options: Mapping[str, Any],
        subcommand: str | None,
        resolved: JSON,
        focused: str | None = None,
    ) -> list[JSON]:
        schema_list: list[JSON] = (cmd or {}).get("options") or []
        wrappers: list[tuple[str, int]] = []
        for part in (subcommand or "").split():
            sub = next((o for o in schema_list if o["name"] == part), None)
            wrappers.append((part, sub["type"] if sub else (2 if part != subcommand else 1)))
            schema_list = (sub or {}).get("options") or []
        if wrappers:  # the last word of "group sub" is the subcommand itself
            wrappers[-1] = (wrappers[-1][0], 1)
        by_name = {o["name"]: o for o in schema_list}
        leaf = []
        for name, value in options.items():
            opt = self._option(by_name.get(name), name, value, resolved)
            if name == focused:
                opt["focused"] = True
                opt["value"] = str(value)
            leaf.append(opt)
        for name, kind in reversed(wrappers):
            leaf = [{"name": name, "type": kind, "options": leaf}]
        return leaf

    async def _send_interaction(
        self,
        data: JSON,
        user: SimUser,
        channel: FakeChannel,
        to: GatewayConnection | None = None,
    ) -> int:
        iid = int(data["id"])
        ix = FakeInteraction(
            id=iid,
            token=data["token"],
            type=data["type"],
            user=user,
            channel=channel,
            payload=data,
            dispatched_at=time.monotonic(),
        )
        self.recorder.interactions[iid] = ix
        self._tokens[ix.token] = iid
        if to is not None:  # a chosen session (two processes on one shard, say)
            await self._dispatch_to(to, "INTERACTION_CREATE", data)
        else:
            await self.dispatch("INTERACTION_CREATE", data, one=True)
        ix.dispatched_at = time.monotonic()  # the clock starts when the bot can see it
        self.recorder.changed()
        return iid

    async def slash(
        self,
        user: SimUser | str,
        channel: FakeChannel | str,
        name: str,
        options: Mapping[str, Any] | None = None,
        subcommand: str | None = None,
    ) -> int:
        """A user runs ``/name [subcommand] options``; returns the interaction id.

        ``subcommand`` may be ``"sub"`` or ``"group sub"``. Option values may be
        str/int/float/bool, a :class:`SimUser` or a :class:`FakeChannel`.
        """
        user, channel = self._who(user), self._where(channel)
        data = self._base_interaction(APPLICATION_COMMAND, user, channel)
        cmd = self._command(name, channel.guild_id or self.GUILD_ID)
        resolved: JSON = {}
        inner: JSON = {
            "id": str(cmd["id"]) if cmd else str(self.ids.next()),
            "name": name,
            "type": 1,
            "options": self._options(cmd, options or {}, subcommand, resolved),
        }
        if resolved:
            inner["resolved"] = resolved
        if cmd and cmd.get("guild_id"):
            inner["guild_id"] = str(cmd["guild_id"])  # the tree looks guild commands up by it
        data["data"] = inner
        return await self._send_interaction(data, user, channel)

    async def autocomplete(
        self,
        user: SimUser | str,
        channel: FakeChannel | str,
        name: str,
        options: Mapping[str, Any],
        focused: str,
        subcommand: str | None = None,
    ) -> int:
        """A user is typing option ``focused`` of ``/name``; read the answer's ``.choices``."""
        user, channel = self._who(user), self._where(channel)
        data = self._base_interaction(AUTOCOMPLETE, user, channel)
        cmd = self._command(name, channel.guild_id or self.GUILD_ID)
        resolved: JSON = {}
        data["data"] = {
            "id": str(cmd["id"]) if cmd else str(self.ids.next()),
            "name": name,
            "type": 1,
            "options": self._options(cmd, options, subcommand, resolved, focused),
        }
        if cmd and cmd.get("guild_id"):
            data["data"]["guild_id"] = str(cmd["guild_id"])
        return await self._send_interaction(data, user, channel)

    async def _message_for_component(self, message_id: int) -> JSON:
        """The clicked message, no sooner than ``click_delay`` after it last changed.

        The fake stores a message before the bot has read the HTTP answer, and discord.py
        registers a non-persistent view only then (under ``response_message_id``); a
        click in between is silently dropped, as it would be on Discord. Humans take
        longer than this to click, so waiting here is faithful, not a fudge.
        """
        msg = self.recorder.messages.get(message_id)
        if msg is None:
            raise KeyError(f"the fake never saw message {message_id}")
        wait = msg.updated_at + self.click_delay - time.monotonic()
        if wait > 0:
            await asyncio.sleep(wait)
        return msg.payload

    async def click(
        self,
        user: SimUser | str,
        channel: FakeChannel | str,
        message_id: int,
        custom_id: str,
        *,
        to: GatewayConnection | None = None,
    ) -> int:
        """A user clicks the button ``custom_id`` on a message the bot sent (``to``: through
        that gateway session rather than its shard's newest)."""
        user, channel = self._who(user), self._where(channel)
        data = self._base_interaction(MESSAGE_COMPONENT, user, channel)
        data["message"] = await self._message_for_component(message_id)
        data["data"] = {"custom_id": custom_id, "component_type": 2}
        return await self._send_interaction(data, user, channel, to)

    async def select(
        self,
        user: SimUser | str,
        channel: FakeChannel | str,
        message_id: int,
        custom_id: str,
        values: Sequence[str],
    ) -> int:
        """A user picks ``values`` in the string select ``custom_id``."""
        user, channel = self._who(user), self._where(channel)
        data = self._base_interaction(MESSAGE_COMPONENT, user, channel)
        data["message"] = await self._message_for_component(message_id)
        data["data"] = {"custom_id": custom_id, "component_type": 3, "values": list(values)}
        return await self._send_interaction(data, user, channel)

    async def submit_modal(
        self,
        user: SimUser | str,
        channel: FakeChannel | str,
        custom_id: str,
        fields: Mapping[str, str],
    ) -> int:
        """A user submits modal ``custom_id`` with text inputs ``{custom_id: value}``."""
        user, channel = self._who(user), self._where(channel)
        data = self._base_interaction(MODAL_SUBMIT, user, channel)
        rows = [
            {"type": 1, "components": [{"type": 4, "custom_id": k, "value": v}]}
            for k, v in fields.items()
        ]
        data["data"] = {"custom_id": custom_id, "components": rows}
        return await self._send_interaction(data, user, channel)

    async def say(self, user: SimUser | str, channel: FakeChannel | str, content: str) -> int:
        """A user posts a plain message (MESSAGE_CREATE), for prefix commands or chatter; it
        stays in the channel's history, as on Discord."""
        user, channel = self._who(user), self._where(channel)
        mid = self.ids.next()
        data: JSON = self._message_payload(mid, channel, {"content": content}, [], author=user)
        self.recorder.messages[mid] = FakeMessage(mid, channel.id, dict(data), {}, "user")
        self.recorder.changed()
        if channel.type != 1:
            data["member"] = user.member_payload(with_user=False)
        intent = DIRECT_MESSAGES_INTENT if channel.type == 1 else GUILD_MESSAGES_INTENT
        await self.dispatch("MESSAGE_CREATE", data, intent=intent)
        return mid

    def _who(self, user: SimUser | str) -> SimUser:
        return self.users[user] if isinstance(user, str) else user

    def _where(self, channel: FakeChannel | str) -> FakeChannel:
        return self.channel(channel) if isinstance(channel, str) else channel

    # ---- REST plumbing --------------------------------------------------------------

    def _routes(self) -> list[tuple[str, str, Handler]]:
        app = r"(?P<app>\d+)"
        gid = r"(?P<guild>\d+)"
        cid = r"(?P<channel>\d+)"
        mid = r"(?P<message>\d+|@original)"
        wh = r"/webhooks/(?P<app>\d+)/(?P<token>[^/]+)"
        return [
            ("GET", r"/users/@me", self._get_me),
            ("GET", r"/users/(?P<user>\d+)", self._get_user),
            ("POST", r"/users/@me/channels", self._create_dm),
            ("GET", r"/oauth2/applications/@me", self._get_app),
            ("GET", r"/applications/@me", self._get_app),
            ("GET", r"/gateway", self._get_gateway),
            ("GET", r"/gateway/bot", self._get_gateway),
            ("POST", r"/auth/logout", self._no_content),
            ("GET", rf"/applications/{app}/commands", self._get_commands),
            ("PUT", rf"/applications/{app}/commands", self._put_commands),
            ("GET", rf"/applications/{app}/guilds/{gid}/commands", self._get_commands),
            ("PUT", rf"/applications/{app}/guilds/{gid}/commands", self._put_commands),
            ("GET", rf"/applications/{app}/guilds/{gid}/commands/permissions", self._empty_list),
            ("GET", rf"/applications/{app}/emojis", self._empty_items),
            ("GET", rf"/applications/{app}/entitlements", self._empty_list),
            ("GET", rf"/applications/{app}/skus", self._empty_list),
            ("POST", r"/interactions/(?P<iid>\d+)/(?P<token>[^/]+)/callback", self._callback),
            ("POST", wh, self._followup),
            ("GET", wh + rf"/messages/{mid}", self._get_webhook_message),
            ("PATCH", wh + rf"/messages/{mid}", self._edit_webhook_message),
            ("DELETE", wh + rf"/messages/{mid}", self._delete_webhook_message),
            ("GET", rf"/channels/{cid}", self._get_channel),
            ("GET", rf"/channels/{cid}/messages", self._history),
            ("POST", rf"/channels/{cid}/messages", self._post_message),
            ("GET", rf"/channels/{cid}/messages/{mid}", self._get_message),
            ("PATCH", rf"/channels/{cid}/messages/{mid}", self._edit_message),
            ("DELETE", rf"/channels/{cid}/messages/{mid}", self._delete_message),
            ("POST", rf"/channels/{cid}/messages/bulk-delete", self._bulk_delete),
            ("POST", rf"/channels/{cid}/typing", self._no_content),
            ("PUT", rf"/channels/{cid}/messages/{mid}/reactions/[^/]+/@me", self._no_content),
            ("DELETE", rf"/channels/{cid}/messages/{mid}/reactions(/.*)?", self._no_content),
            ("PUT", rf"/channels/{cid}/pins/{mid}", self._no_content),
            ("DELETE", rf"/channels/{cid}/pins/{mid}", self._no_content),
            ("PUT", rf"/channels/{cid}/messages/pins/{mid}", self._no_content),
            ("DELETE", rf"/channels/{cid}/messages/pins/{mid}", self._no_content),
            ("POST", rf"/channels/{cid}/threads", self._create_thread),
            ("POST", rf"/channels/{cid}/messages/{mid}/threads", self._create_thread),
            ("GET", rf"/guilds/{gid}", self._get_guild),
            ("GET", rf"/guilds/{gid}/channels", self._get_guild_channels),
            ("GET", rf"/guilds/{gid}/roles", self._get_roles),
            ("GET", rf"/guilds/{gid}/members", self._get_members),
            ("GET", rf"/guilds/{gid}/members/(?P<user>\d+)", self._get_member),
        ]

    def _match(self, method: str, path: str) -> tuple[str, Handler, dict[str, str]] | None:
        if self._route_table is None:
            self._route_table = [(m, re.compile(p), p, h) for m, p, h in self._routes()]
        for m, regex, pattern, handler in self._route_table:
            if m == method:
                found = regex.fullmatch(path)
                if found:
                    params = {k: v for k, v in found.groupdict().items() if v is not None}
                    return pattern, handler, params
        return None

    @staticmethod
    def _json(
        data: Any, status: int = 200, headers: Mapping[str, str] | None = None
    ) -> web.Response:
        """JSON with Content-Type exactly application/json: discord.py's json_or_text
        compares the header verbatim, and aiohttp's json_response would add a charset."""
        return web.Response(
            body=json.dumps(data).encode(),
            status=status,
            headers={"Content-Type": "application/json", **(headers or {})},
        )

    @staticmethod
    def _ratelimit_headers(route: str, *, remaining: int = 49, reset_after: float = 1.0) -> dict:
        bucket = hashlib.sha1(route.encode()).hexdigest()[:16]
        return {
            "X-RateLimit-Limit": "50",
            "X-RateLimit-Remaining": str(remaining),
            "X-RateLimit-Reset": f"{time.time() + reset_after:.3f}",
            "X-RateLimit-Reset-After": f"{reset_after:.3f}",
            "X-RateLimit-Bucket": bucket,
            # discord.py treats a 429 without Via as a Cloudflare ban and gives up.
            "Via": "1.1 google",
        }

    async def _read(self, request: web.Request) -> tuple[Any, list[Part]]:
        """JSON body, or multipart with payload_json + files[n] as discord.py sends them."""
        if request.content_type.startswith("multipart/"):
            payload: Any = None
            parts: list[Part] = []
            reader = await request.multipart()
            while (part := await reader.next()) is not None:
                raw = bytes(await part.read())  # type: ignore[union-attr]
                name = part.name or ""
                if name == "payload_json":
                    payload = json.loads(raw)
                else:
                    ctype = part.headers.get("Content-Type")
                    parts.append(Part(name, part.filename, ctype, raw))  # type: ignore[union-attr]
            return payload, parts
        raw = await request.read()
        if not raw:
            return None, []
        try:
            return json.loads(raw), []
        except ValueError:
            return raw.decode(errors="replace"), []

    async def _rest_handler(self, request: web.Request) -> web.StreamResponse:
        path = "/" + request.match_info["tail"]
        body, parts = await self._read(request)
        rec = RecordedRequest(
            method=request.method,
            path=path,
            query=dict(request.query),
            json=body,
            parts=parts,
            at=time.monotonic(),
        )
        self.recorder.requests.append(rec)
        found = self._match(request.method, path)
        try:
            if found is None:
                rec.route = ""
                self.recorder.unknown.append(rec)
                log.error("FAKE DISCORD: UNKNOWN ROUTE %s %s body=%r", request.method, path, body)
                raise DiscordError(404, 0, "404: Not Found")
            rec.route, handler, params = found
            for rule in self.rate_limits:
                if rule.remaining > 0 and rule.match(rec):
                    rule.remaining -= 1
                    rule.hits.append(rec)
                    return self._too_many(rec, rule)
            for outage in self.outages:
                if outage.remaining > 0 and outage.match(rec):
                    outage.remaining -= 1
                    outage.hits.append(rec)
                    raise DiscordError(503, 0, "503: Service Unavailable")
            authed = path.startswith(("/interactions/", "/webhooks/"))
            auth = request.headers.get("Authorization", "")
            if not authed and (
                not auth.startswith("Bot ")
                or (self.expected_token is not None and auth != f"Bot {self.expected_token}")
            ):
                raise DiscordError(401, 0, "401: Unauthorized")
            response = await handler(Ctx(request, rec, params))
        except DiscordError as err:
            response = self._json(err.body(), err.status)
        rec.status = response.status
        if isinstance(response, web.Response) and response.body:
            with contextlib.suppress(ValueError, TypeError):
                rec.response = json.loads(response.body)  # type: ignore[arg-type]
        for key, value in self._ratelimit_headers(rec.route or path).items():
            response.headers.setdefault(key, value)
        self.recorder.changed()
        return response

    def _too_many(self, rec: RecordedRequest, rule: RateLimitRule) -> web.Response:
        rec.status = 429
        headers = self._ratelimit_headers(rec.route, remaining=0, reset_after=rule.retry_after)
        # Retry-After is whole seconds in the header; the body carries the exact float.
        headers["Retry-After"] = str(max(1, int(rule.retry_after + 0.999)))
        headers["X-RateLimit-Scope"] = "global" if rule.is_global else "user"
        if rule.is_global:
            headers["X-RateLimit-Global"] = "true"
        body = {
            "message": "You are being rate limited.",
            "retry_after": rule.retry_after,
            "global": rule.is_global,
        }
        self.recorder.changed()
        return self._json(body, 429, headers)

    async def _attachment_handler(self, request: web.Request) -> web.StreamResponse:
        aid = int(request.match_info["aid"])
        for msg in self.recorder.messages.values():
            if aid in msg.files:
                f = msg.files[aid]
                return web.Response(body=f.data, headers={"Content-Type": f.content_type})
        return web.Response(status=404)

    # ---- message store ----------------------------------------------------------------

    def _attachments(
        self, body: JSON, parts: list[Part], existing: Mapping[int, AttachedFile] | None = None
    ) -> tuple[list[JSON], dict[int, AttachedFile]]:
        """Turn files[n] parts + the payload's ``attachments`` list into stored files.

        discord.py lists new files as ``{"id": n, "filename": ...}`` (n = upload index) and
        kept ones by their real id; on edits, a missing ``attachments`` key keeps all.
        """
        existing = dict(existing or {})
        uploads = {}
        for p in parts:
            m = re.fullmatch(r"files\[(\d+)\]", p.name) or re.fullmatch(r"file(\d*)", p.name)
            if m and p.filename is not None:
                uploads[int(m.group(1) or 0)] = p
        listed = body.get("attachments")
        check_form(limits.kept_attachments_errors(listed, {str(k) for k in existing}, uploads))
        keep: list[int] = []
        new_meta: dict[int, JSON] = {}
        if listed is None:
            keep = list(existing)
            new_meta = {i: {} for i in uploads}
        else:
            for a in listed:
                aid = int(a["id"])
                if aid in uploads and aid not in existing:
                    new_meta[aid] = a
                elif aid in existing:
                    keep.append(aid)
            for i in uploads:
                new_meta.setdefault(i, {})
        files = {k: existing[k] for k in keep}
        for index in sorted(new_meta):
            p = uploads[index]
            fname = new_meta[index].get("filename") or p.filename or f"file{index}"
            ctype = mimetypes.guess_type(fname)[0] or p.content_type or "application/octet-stream"
            fid = self.ids.next()
            self.recorder.uploaded[fname] += 1
            files[fid] = AttachedFile(fid, fname, ctype, p.data, new_meta[index].get("description"))
        payload = []
        for f in files.values():
            entry: JSON = {
                "id": str(f.id),
                "filename": f.filename,
                "size": len(f.data),
                "url": f"{self.base_url}/attachments/{f.id}/{f.filename}",
                "proxy_url": f"{self.base_url}/attachments/{f.id}/{f.filename}",
                "content_type": f.content_type,
                "description": f.description,
            }
            if f.content_type.startswith("image/"):
                with contextlib.suppress(Exception):
                    # The header is enough for the size (tests decode whole files with
                    # image()); decoding every upload here slows the fake under load.
                    from PIL import Image

                    with Image.open(io.BytesIO(f.data)) as img:
                        entry.update(width=img.width, height=img.height)
            payload.append(entry)
        return payload, files

    def _message_payload(
        self,
        mid: int,
        channel: FakeChannel,
        body: JSON,
        attachments: list[JSON],
        *,
        author: SimUser | None = None,
        interaction: FakeInteraction | None = None,
        flags: int = 0,
    ) -> JSON:
        """A full message object, the shape discord.py's Message() expects."""
        data: JSON = {
            "id": str(mid),
            "channel_id": str(channel.id),
            "type": 0,
            "content": body.get("content") or "",
            "author": (author or self.bot_user).user_payload(),
            "embeds": body.get("embeds") or [],
            "attachments": attachments,
            "components": body.get("components") or [],
            "flags": flags | int(body.get("flags") or 0),
            "mentions": [],
            "mention_roles": [],
            "mention_everyone": False,
            "pinned": False,
            "tts": bool(body.get("tts")),
            "timestamp": _iso(),
            "edited_timestamp": None,
            "nonce": body.get("nonce"),
        }
        if channel.guild_id:
            data["guild_id"] = str(channel.guild_id)
        if body.get("poll"):
            data["poll"] = body["poll"] | {"results": {"is_finalized": False, "answer_counts": []}}
        if body.get("message_reference"):
            data["type"] = 19
            data["message_reference"] = body["message_reference"]
        if interaction is not None:
            data["webhook_id"] = str(self.APP_ID)
            data["application_id"] = str(self.APP_ID)
            data["type"] = 20 if interaction.type == APPLICATION_COMMAND else 19
            data["interaction_metadata"] = {
                "id": str(interaction.id),
                "type": interaction.type,
                "user": interaction.user.user_payload(),
                "authorizing_integration_owners": interaction.payload.get(
                    "authorizing_integration_owners", {}
                ),
            }
        return data

    async def _store_message(
        self,
        channel: FakeChannel,
        body: JSON,
        parts: list[Part],
        source: str,
        *,
        interaction: FakeInteraction | None = None,
        flags: int = 0,
    ) -> FakeMessage:
        attachments, files = self._attachments(body, parts)
        mid = self.ids.next()
        data = self._message_payload(
            mid, channel, body, attachments, interaction=interaction, flags=flags
        )
        msg = FakeMessage(
            mid, channel.id, data, files, source, interaction.id if interaction else None
        )
        self.recorder.messages[mid] = msg
        if interaction is not None:
            interaction.message_ids.append(mid)
        if not msg.ephemeral:
            await self._broadcast_message("MESSAGE_CREATE", msg)
        self.recorder.changed()
        return msg

    async def _edit(
        self,
        msg: FakeMessage,
        body: JSON,
        parts: list[Part],
        *,
        interaction: FakeInteraction | None = None,
    ) -> FakeMessage:
        if msg.deleted:
            raise DiscordError(404, 10008, "Unknown Message")
        msg.edits.append(json.loads(json.dumps(msg.payload)))
        data = dict(msg.payload)
        for key in ("content", "embeds", "components", "poll", "allowed_mentions"):
            if key in body:
                data[key] = body[key] if body[key] is not None else ([] if key != "content" else "")
        if "flags" in body and body["flags"] is not None:
            # Only suppress_embeds / components-v2 can be changed; ephemeral is fixed.
            data["flags"] = (msg.flags & EPHEMERAL) | int(body["flags"])
        data["flags"] = int(data.get("flags") or 0) & ~LOADING
        if "attachments" in body or parts:
            data["attachments"], msg.files = self._attachments(body, parts, msg.files)
        data["edited_timestamp"] = _iso()
        msg.payload = data
        msg.updated_at = time.monotonic()
        if interaction is not None and msg.id not in interaction.message_ids:
            interaction.message_ids.append(msg.id)
        if not msg.ephemeral:
            await self._broadcast_message("MESSAGE_UPDATE", msg)
        self.recorder.changed()
        return msg

    async def _broadcast_message(self, event: str, msg: FakeMessage) -> None:
        """Real Discord echoes the bot's own messages to it over the gateway."""
        channel = self.channels.get(msg.channel_id)
        if channel is None or not self.connections_for(channel.guild_id):
            return  # nobody to tell (the guild's shard has no live session)
        intent = DIRECT_MESSAGES_INTENT if channel.type == 1 else GUILD_MESSAGES_INTENT
        data = dict(msg.payload)
        if channel.type != 1:
            shift = (channel.guild_id or self.GUILD_ID) - self.GUILD_ID
            data["member"] = self.bot_user.member_payload(with_user=False, shift=shift)
        await self.dispatch(event, data, intent=intent, timeout=0.1)

    def _channel(self, ctx: Ctx) -> FakeChannel:
        ch = self.channels.get(int(ctx.params["channel"]))
        if ch is None:
            raise DiscordError(404, 10003, "Unknown Channel")
        return ch

    def _message(self, ctx: Ctx, channel_id: int | None = None) -> FakeMessage:
        key = ctx.params["message"]
        if key == "@original":
            ix = self._interaction_by_token(ctx.params["token"])
            if ix.original_message_id is None:
                raise DiscordError(404, 10008, "Unknown Message")
            key = str(ix.original_message_id)
        msg = self.recorder.messages.get(int(key))
        if msg is None or msg.deleted or (channel_id is not None and msg.channel_id != channel_id):
            raise DiscordError(404, 10008, "Unknown Message")
        return msg

    def _interaction_by_token(self, token: str) -> FakeInteraction:
        iid = self._tokens.get(token)
        if iid is None:
            raise DiscordError(404, 10015, "Unknown Webhook")
        return self.recorder.interactions[iid]

    # ---- REST handlers ----------------------------------------------------------------

    async def _no_content(self, ctx: Ctx) -> web.Response:
        return web.Response(status=204)

    async def _empty_list(self, ctx: Ctx) -> web.Response:
        return self._json([])

    async def _empty_items(self, ctx: Ctx) -> web.Response:
        return self._json({"items": []})

    async def _get_me(self, ctx: Ctx) -> web.Response:
        return self._json(self.bot_user.user_payload() | {"verified": True, "mfa_enabled": False})

    async def _get_user(self, ctx: Ctx) -> web.Response:
        uid = int(ctx.params["user"])
        for u in [self.bot_user, *self.users.values()]:
            if u.id == uid:
                return self._json(u.user_payload())
        raise DiscordError(404, 10013, "Unknown User")

    async def _get_app(self, ctx: Ctx) -> web.Response:
        # AppInfo() requires description, icon, bot_public, bot_require_code_grant, owner,
        # verify_key; interactions_endpoint_url must be null or discord.py warns that
        # gateway interactions will not arrive.
        return self._json(
            {
                "id": str(self.APP_ID),
                "name": "arkbot",
                "icon": None,
                "description": "",
                "summary": "",
                "type": None,
                "bot_public": False,
                "bot_require_code_grant": False,
                "verify_key": "0" * 64,
                "flags": 0,
                "owner": self.users["owner"].user_payload(),
                "team": None,
                "bot": self.bot_user.user_payload(),
                "interactions_endpoint_url": None,
                "redirect_uris": [],
                "approximate_guild_count": 1,
                "tags": [],
            }
        )

    async def _get_gateway(self, ctx: Ctx) -> web.Response:
        data: JSON = {"url": self.gateway_url}
        if ctx.rec.path.endswith("/bot"):
            data["shards"] = 1
            data["session_start_limit"] = {
                "total": 1000,
                "remaining": 999,
                "reset_after": 86_400_000,
                "max_concurrency": 1,
            }
        return self._json(data)

    async def _get_commands(self, ctx: Ctx) -> web.Response:
        gid = int(ctx.params["guild"]) if "guild" in ctx.params else None
        return self._json(self.commands.get(gid, []))

    async def _put_commands(self, ctx: Ctx) -> web.Response:
        """Bulk overwrite; ids stay stable per (scope, name, type) as on Discord."""
        gid = int(ctx.params["guild"]) if "guild" in ctx.params else None
        out = []
        for cmd in ctx.body or []:
            ctype = int(cmd.get("type", 1))
            key = (gid, cmd["name"], ctype)
            if key not in self._command_ids:
                self._command_ids[key] = self.ids.next()
            stored = {
                "description": "",
                "options": [],
                "default_member_permissions": None,
                "dm_permission": True,
                "nsfw": False,
                "contexts": None,
                "integration_types": [0],
                "name_localizations": None,
                "description_localizations": None,
                **cmd,
                "id": str(self._command_ids[key]),
                "application_id": str(self.APP_ID),
                "version": str(self.ids.next()),
                "type": ctype,
            }
            if gid is not None:
                stored["guild_id"] = str(gid)
            out.append(stored)
        self.commands[gid] = out
        self.recorder.commands_synced.append(ctx.rec)
        return self._json(out)

    async def _callback(self, ctx: Ctx) -> web.Response:
        iid = int(ctx.params["iid"])
        ix = self.recorder.interactions.get(iid)
        if ix is None or ix.token != ctx.params["token"]:
            raise DiscordError(404, 10062, "Unknown interaction")
        body = ctx.body or {}
        ctype, data = int(body.get("type", 0)), body.get("data") or {}
        now = time.monotonic()
        if ix.responded_at is not None:
            ix.rejected.append({"type": ctype, "data": data, "at": now, "why": "double"})
            raise DiscordError(*limits.ALREADY_ACKNOWLEDGED)
        if self.callback_deadline is not None and now - ix.dispatched_at > self.callback_deadline:
            ix.rejected.append({"type": ctype, "data": data, "at": now, "why": "late"})
            raise DiscordError(*limits.UNKNOWN_INTERACTION)
        errors = limits.callback_errors(body)
        if errors:
            ix.rejected.append({"type": ctype, "data": data, "at": now, "why": "invalid"})
            check_form(errors)
        flags = int(data.get("flags") or 0)
        msg: FakeMessage | None = None
        if ctype == CB_CHANNEL_MESSAGE:
            msg = await self._store_message(
                ix.channel, data, ctx.rec.parts, "callback", interaction=ix
            )
            ix.original_message_id = msg.id
        elif ctype == CB_DEFERRED_CHANNEL_MESSAGE:
            placeholder = {"content": "", "flags": flags & EPHEMERAL}
            msg = await self._store_message(
                ix.channel, placeholder, [], "callback", interaction=ix, flags=LOADING
            )
            ix.original_message_id = msg.id
        elif ctype in (CB_DEFERRED_UPDATE, CB_UPDATE_MESSAGE):
            if ix.type not in (MESSAGE_COMPONENT, MODAL_SUBMIT):
                raise DiscordError(400, 50035, "Invalid Form Body (update needs a message)")
            source_id = int((ix.payload.get("message") or {}).get("id", 0))
            msg = self.recorder.messages.get(source_id)
            if msg is None:
                raise DiscordError(404, 10008, "Unknown Message")
            ix.original_message_id = msg.id
            if ctype == CB_UPDATE_MESSAGE:
                msg = await self._edit(msg, data, ctx.rec.parts, interaction=ix)
        elif ctype == CB_AUTOCOMPLETE:
            if ix.type != AUTOCOMPLETE:
                raise DiscordError(400, 50035, "Invalid Form Body (autocomplete)")
        elif ctype == CB_MODAL:
            if ix.type == MODAL_SUBMIT:
                raise DiscordError(400, 50035, "Invalid Form Body (modal from modal)")
        else:
            raise DiscordError(400, 50035, f"Invalid Form Body (callback type {ctype})")
        ix.callbacks.append({"type": ctype, "data": data, "at": now})
        ix.responded_at = now
        self.recorder.changed()
        callback: JSON = {
            "id": str(ix.id),
            "type": ix.type,
            "response_message_loading": ctype == CB_DEFERRED_CHANNEL_MESSAGE,
            "response_message_ephemeral": bool(msg and msg.ephemeral),
        }
        # discord.py stores the view under response_message_id: without it a button on
        # the reply would never be routed back to its callback.
        if msg is not None:
            callback["response_message_id"] = str(msg.id)
        resource: JSON = {"type": ctype}
        if msg is not None and ctype != CB_DEFERRED_UPDATE:
            resource["message"] = msg.payload
        return self._json({"interaction": callback, "resource": resource})

    async def _followup(self, ctx: Ctx) -> web.Response:
        ix = self._interaction_by_token(ctx.params["token"])
        if ix.responded_at is None:
            raise DiscordError(404, 10015, "Unknown Webhook")  # no followups before the ACK
        body = ctx.body or {}
        check_form(limits.message_errors(body))
        original = self.recorder.messages.get(ix.original_message_id or 0)
        if original is not None and original.loading:
            # The first follow-up after a "thinking" defer fills in that message (and
            # keeps its ephemerality), as Discord does.
            msg = await self._edit(original, body | {"flags": None}, ctx.rec.parts, interaction=ix)
        else:
            flags = int(body.get("flags") or 0) & EPHEMERAL
            msg = await self._store_message(
                ix.channel, body, ctx.rec.parts, "followup", interaction=ix, flags=flags
            )
        if ctx.rec.query.get("wait", "").lower() in ("true", "1"):
            return self._json(msg.payload)
        return web.Response(status=204)

    async def _get_webhook_message(self, ctx: Ctx) -> web.Response:
        self._interaction_by_token(ctx.params["token"])
        return self._json(self._message(ctx).payload)

    async def _edit_webhook_message(self, ctx: Ctx) -> web.Response:
        ix = self._interaction_by_token(ctx.params["token"])
        check_form(limits.message_errors(ctx.body))
        msg = await self._edit(self._message(ctx), ctx.body or {}, ctx.rec.parts, interaction=ix)
        return self._json(msg.payload)

    async def _delete_webhook_message(self, ctx: Ctx) -> web.Response:
        self._interaction_by_token(ctx.params["token"])
        await self._delete(self._message(ctx))
        return web.Response(status=204)

    async def _delete(self, msg: FakeMessage) -> None:
        msg.deleted = True
        channel = self.channels.get(msg.channel_id)
        if not msg.ephemeral and channel is not None and self.connections_for(channel.guild_id):
            data: JSON = {"id": str(msg.id), "channel_id": str(msg.channel_id)}
            if channel.guild_id:
                data["guild_id"] = str(channel.guild_id)
            intent = DIRECT_MESSAGES_INTENT if channel.type == 1 else GUILD_MESSAGES_INTENT
            await self.dispatch("MESSAGE_DELETE", data, intent=intent, timeout=0.1)
        self.recorder.changed()

    async def _get_channel(self, ctx: Ctx) -> web.Response:
        return self._json(self._channel(ctx).payload())

    async def _history(self, ctx: Ctx) -> web.Response:
        ch = self._channel(ctx)
        perms = self.permissions_in(self.bot_user, ch)
        if not perms & VIEW_CHANNEL:
            raise DiscordError(403, 50001, "Missing Access")
        if not perms & READ_MESSAGE_HISTORY:
            return self._json([])  # Discord answers, with no messages
        limit = int(ctx.rec.query.get("limit", 50))
        check_form(limits.history_errors(limit))
        msgs = [m for m in self.recorder.messages_in(ch.id) if not m.ephemeral]
        before = ctx.rec.query.get("before")
        after = ctx.rec.query.get("after")
        if before:
            msgs = [m for m in msgs if m.id < int(before)]
        if after:
            msgs = [m for m in msgs if m.id > int(after)]
        # Newest first, as Discord lists them; after a message (and not before one): the
        # ``limit`` messages that follow it, else the newest ``limit``.
        page = msgs[:limit] if after and not before else msgs[-limit:]
        return self._json([m.payload for m in reversed(page)])

    #: How long Discord remembers a nonce for ``enforce_nonce`` ("the past few minutes").
    NONCE_WINDOW = 300.0

    async def _post_message(self, ctx: Ctx) -> web.Response:
        ch = self._channel(ctx)
        body = ctx.body or {}
        check_form(limits.message_errors(body))
        visible = ("content", "embeds", "poll", "components", "sticker_ids")
        if not (ctx.rec.files or any(body.get(k) for k in visible)):
            raise DiscordError(400, 50006, "Cannot send an empty message")
        self._refuse_post(ch, bool(ctx.rec.files))
        if ch.is_thread and ch.archived:
            # A message in an archived (not locked) thread opens it again.
            await self.set_thread(ch, archived=False)
        nonce = body.get("nonce")
        if nonce is not None and body.get("enforce_nonce"):
            # The same author sending the same nonce again gets the first message back.
            now = time.monotonic()
            for old in self.recorder.messages_in(ch.id):
                if old.payload.get("nonce") == nonce and now - old.created_at < self.NONCE_WINDOW:
                    self.recorder.nonce_repeats += 1
                    return self._json(old.payload)
        msg = await self._store_message(ch, body, ctx.rec.parts, "channel")
        return self._json(msg.payload)

    async def _get_message(self, ctx: Ctx) -> web.Response:
        return self._json(self._message(ctx, self._channel(ctx).id).payload)

    async def _edit_message(self, ctx: Ctx) -> web.Response:
        ch = self._channel(ctx)
        msg = self._message(ctx, ch.id)
        if msg.ephemeral:
            raise DiscordError(404, 10008, "Unknown Message")
        check_form(limits.message_errors(ctx.body))
        if ch.is_thread and (ch.archived or ch.locked):
            raise DiscordError(400, 50083, "Thread is archived")
        return self._json((await self._edit(msg, ctx.body or {}, ctx.rec.parts)).payload)

    async def _delete_message(self, ctx: Ctx) -> web.Response:
        await self._delete(self._message(ctx, self._channel(ctx).id))
        return web.Response(status=204)

    async def _bulk_delete(self, ctx: Ctx) -> web.Response:
        ch = self._channel(ctx)
        for mid in (ctx.body or {}).get("messages", []):
            msg = self.recorder.messages.get(int(mid))
            if msg is not None and msg.channel_id == ch.id:
                await self._delete(msg)
        return web.Response(status=204)

    async def _create_dm(self, ctx: Ctx) -> web.Response:
        rid = int((ctx.body or {}).get("recipient_id", 0))
        user = next((u for u in self.users.values() if u.id == rid), None)
        if user is None:
            raise DiscordError(400, 50007, "Cannot send messages to this user")
        return self._json(self.dm_channel(user).payload())

    async def _create_thread(self, ctx: Ctx) -> web.Response:
        parent = self._channel(ctx)
        body = ctx.body or {}
        check_form(limits.thread_errors(body))
        if not self.permissions_in(self.bot_user, parent) & CREATE_PUBLIC_THREADS:
            raise DiscordError(403, 50013, "Missing Permissions")
        tid = int(ctx.params["message"]) if "message" in ctx.params else self.ids.next()
        thread = FakeChannel(
            tid,
            body.get("name", "thread"),
            int(body.get("type") or 11),
            parent.guild_id or self.GUILD_ID,
            parent_id=parent.id,
        )
        self.channels[tid] = thread
        data = thread.payload() | {"owner_id": str(self.APP_ID)}
        if self.connections_for(thread.guild_id):
            await self.dispatch("THREAD_CREATE", data | {"newly_created": True}, timeout=0.1)
        return self._json(data)

    def _guild_id(self, ctx: Ctx) -> int:
        gid = int(ctx.params["guild"])
        if gid not in self.guild_ids:
            raise DiscordError(404, 10004, "Unknown Guild")
        return gid

    async def _get_guild(self, ctx: Ctx) -> web.Response:
        full = self.guild_payload(self._guild_id(ctx))
        rest_keys = ("members", "channels", "threads", "presences", "voice_states", "joined_at")
        return self._json({k: v for k, v in full.items() if k not in rest_keys})

    async def _get_guild_channels(self, ctx: Ctx) -> web.Response:
        gid = self._guild_id(ctx)
        return self._json([c.payload() for c in self.channels.values() if c.guild_id == gid])

    async def _get_roles(self, ctx: Ctx) -> web.Response:
        return self._json(self.roles_of(self._guild_id(ctx)))

    async def _get_members(self, ctx: Ctx) -> web.Response:
        shift = self._guild_id(ctx) - self.GUILD_ID
        everyone = [self.bot_user, *self.users.values()]
        return self._json([u.member_payload(shift=shift) for u in everyone])

    async def _get_member(self, ctx: Ctx) -> web.Response:
        uid = int(ctx.params["user"])
        shift = self._guild_id(ctx) - self.GUILD_ID
        for u in [self.bot_user, *self.users.values()]:
            if u.id == uid:
                return self._json(u.member_payload(shift=shift))
        raise DiscordError(404, 10007, "Unknown Member")


# --------------------------------------------------------------------------------------
# The process under test
# --------------------------------------------------------------------------------------


class BotProcess:
    """A bot run as its own process against the fake; output goes to ``log_path``.

    Usable for the probe and for ``python -m bot``. Every process it starts is ended by
    its own pid in :meth:`stop` (SIGTERM, then SIGKILL after ``grace`` seconds).
    """

    def __init__(
        self,
        argv: Sequence[str],
        env: Mapping[str, str],
        log_path: Path,
        cwd: Path | None = None,
    ) -> None:
        self.argv = list(argv)
        self.env = {**os.environ, "PYTHONUNBUFFERED": "1", **env}
        self.log_path = log_path
        self.cwd = cwd
        self.proc: asyncio.subprocess.Process | None = None
        self.starts = 0

    async def start(self) -> BotProcess:
        assert self.proc is None or self.proc.returncode is not None, "already running"
        with open(self.log_path, "ab") as out:
            out.write(f"\n==== start #{self.starts + 1}: {self.argv}\n".encode())
            out.flush()
            self.proc = await asyncio.create_subprocess_exec(
                *self.argv,
                env=self.env,
                cwd=self.cwd,
                stdin=asyncio.subprocess.DEVNULL,
                stdout=out,
                stderr=asyncio.subprocess.STDOUT,
            )
        self.starts += 1
        return self

    @property
    def running(self) -> bool:
        return self.proc is not None and self.proc.returncode is None

    async def kill(self, sig: int = signal.SIGKILL, timeout: float = 5.0) -> int | None:
        """Send ``sig`` to the process (by pid) and wait for it to exit."""
        if self.proc is None or self.proc.returncode is not None:
            return None if self.proc is None else self.proc.returncode
        with contextlib.suppress(ProcessLookupError):
            self.proc.send_signal(sig)
        with contextlib.suppress(TimeoutError):
            return await asyncio.wait_for(self.proc.wait(), timeout)
        return None

    async def restart(self) -> BotProcess:
        await self.kill(signal.SIGKILL)
        return await self.start()

    async def stop(self, grace: float = 3.0) -> None:
        """SIGTERM, then SIGKILL: the test never leaves a process behind."""
        if not self.running:
            return
        await self.kill(signal.SIGTERM, grace)
        if self.running:
            await self.kill(signal.SIGKILL, grace)

    async def wait_for_output(self, text: str, timeout: float = 10.0) -> str:
        """Wait (bounded) until ``text`` appears in the process output; return the output."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while text not in (out := self.output(tail=None)):
            if loop.time() > deadline or not self.running:
                raise TimeoutError(f"{text!r} not in output of {self.argv}:\n{out[-4000:]}")
            await asyncio.sleep(0.05)
        return out

    def output(self, tail: int | None = 4000) -> str:
        """The end of the process's combined stdout/stderr (for assertion messages)."""
        try:
            text = self.log_path.read_text(errors="replace")
        except FileNotFoundError:
            return ""
        return text if tail is None else text[-tail:]


def python_argv(*args: str) -> list[str]:
    """``[sys.executable, *args]``: the interpreter running the tests runs the bot too."""
    return [sys.executable, *args]


def pngs(message: FakeMessage) -> list[Any]:
    """Every attachment on ``message`` that Pillow decodes as a PNG."""
    return [a.image() for a in message.attachments if a.data.startswith(b"\x89PNG")]


def first(items: Iterable[Any]) -> Any:
    """The first item or None; reads better than next(iter(...), None) in tests."""
    return next(iter(items), None)
