"""Simulated arkbot players on the fake Discord (test code, shared with bench/e2e_load.py).

A :class:`Table` is one game in one fake channel. Its players play a planned engine action
the way a person would: by clicking the bot's own buttons and menus (``Play my turn``, the
parts of the board, a numbered square, the ways the tile turns, then a lettered spot, the
Ark's menu and its route's ``Move the Ark``, or ``Place it, no piece``; the city's numbered
tiles for the Ark) or by typing ``/covenant ...``. Before each click they check that the
control is on the message and enabled, so a missing or wrong control fails the test, not
the fake.

The table keeps an engine mirror of the game (``Table.game``) to know whose turn it is,
which version the controls must carry and what the bot should say; the bot process never
sees it.
"""

from __future__ import annotations

import os
import re
from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from itertools import islice
from pathlib import Path
from weakref import WeakKeyDictionary

from bot.service import GameService
from engine.covenant import Action, Deploy, Game, MoveArk, Pass, PlaceArk, PlaceTile
from engine.covenant.notation import square_name
from tests.support.fake_discord import (
    BotProcess,
    FakeChannel,
    FakeDiscord,
    FakeMessage,
    Recorder,
    SimUser,
)

WAIT = 10.0  # seconds: a bounded wait for any one answer of the bot
REPO = Path(__file__).resolve().parents[2]


# ----------------------------------------------------------------------------- the process


def arkbot_env(fake: FakeDiscord, db_path: Path | str, **extra: str) -> dict[str, str]:
    """Settings for ``python -m bot`` against ``fake`` (instant guild sync, fast polling)."""
    return {
        **fake.env(),
        "DISCORD_TOKEN": "dummy",
        "ARKBOT_DB": str(db_path),
        "ARKBOT_DEV_GUILD": str(fake.GUILD_ID),
        "ARKBOT_POLL_SECONDS": "0.5",
        "ARKBOT_LOG_LEVEL": "INFO",
        # Every turn posted at once (taking a turn back is tested in process).
        "ARKBOT_TAKE_BACK_SECONDS": "0",
        **extra,
    }


async def wait_until_up(fake: FakeDiscord, proc: BotProcess, timeout: float = 20.0) -> None:
    """Wait until the ``proc.starts``-th run of the bot synced its commands and identified,
    and no older gateway connection is still open."""
    runs = proc.starts

    def up() -> bool:
        if not proc.running:
            return True  # fail fast below, with the output
        return (
            len(fake.recorder.commands_synced) >= runs
            and fake.identify_count >= runs
            and len(fake.live_connections()) == 1
        )

    try:
        await fake.recorder.wait_until(up, timeout, f"arkbot run #{runs} to log in")
    except TimeoutError as err:
        raise AssertionError(f"arkbot did not come up:\n{proc.output()}") from err
    if not proc.running:
        raise AssertionError(f"arkbot exited:\n{proc.output()}")


def display_name(user: SimUser) -> str:
    """What discord.py's ``Member.display_name`` gives for a simulated user."""
    return user.name.title()


async def open_lobby(
    db_path: Path | str,
    fake: FakeDiscord,
    channel: FakeChannel,
    seats: Sequence[SimUser],
    deck: Sequence[str] | None,
    service: GameService | None = None,
    *,
    game_name: str = "covenant",
    seed: int = 0,
) -> int:
    """Open a lobby of ``game_name`` with seed ``seed`` straight in the database and seat
    ``seats`` in that order; for Covenant with a scripted deck (the service's test option,
    which no command exposes), for a game without options ``deck`` is ``None``. Done before
    the bot process starts, so only one process writes at a time."""
    own = service is None
    service = service or await GameService.open(db_path)
    try:
        first, *rest = seats
        record = await service.lobby.create_game(
            channel.guild_id or fake.GUILD_ID,
            channel.id,
            first.id,
            display_name(first),
            game_name,
            options={} if deck is None else {"deck": list(deck)},
            shuffle_seats=False,
            seed=seed,
        )
        for user in rest:
            await service.lobby.join(channel.id, user.id, display_name(user))
        return record.id
    finally:
        if own:
            await service.close()


async def stored_turns(target: Path | str, game_id: int) -> list[int]:
    """The numbers of the game's stored turns that are complete (the one in progress is
    not: it is told when it ends), read through the service."""
    service = await GameService.open(target)
    try:
        _, turns, _ = await service.history.replay_turns(game_id)
        return [turn.number for _, turn in turns if turn.complete]
    finally:
        await service.close()


#: A board post's nonce: ``<game>.t<first>-<last>.<part>`` for the turns it tells,
#: ``<game>.v<version>.<part>`` for one that tells none (the first board, the standings).
TURNS_NONCE = re.compile(r"(?P<game>\d+)\.t(?P<first>\d+)-(?P<last>\d+)\.(?P<part>\d+)")


def told_turns(recorder: Recorder, game_id: int, channel_ids: Sequence[int]) -> Counter[int]:
    """How many posts in ``channel_ids`` told each turn of the game, by the posts' nonces
    (each post counted once, by its first message: one sent again under the same nonce is
    given back by Discord, not posted twice)."""
    told: Counter[int] = Counter()
    for channel_id in channel_ids:
        for message in recorder.messages_in(channel_id):
            found = TURNS_NONCE.fullmatch(str(message.payload.get("nonce") or ""))
            if found and int(found["game"]) == game_id and found["part"] == "0":
                told.update(range(int(found["first"]), int(found["last"]) + 1))
    return told


async def assert_told_once(
    recorder: Recorder, target: Path | str, game_id: int, channel_ids: Sequence[int]
) -> list[int]:
    """Every stored turn of the game was told exactly once in ``channel_ids`` (and no turn
    that is not stored); returns the stored turns."""
    stored = await stored_turns(target, game_id)
    told = told_turns(recorder, game_id, channel_ids)
    assert told == Counter(stored), f"turns told (turn: posts) {dict(told)}, stored {stored}"
    return stored


async def stored_game(db_path: Path, game_id: int) -> tuple[object, int]:
    """(the stored record, the number of actions in its log), read through the service."""
    service = await GameService.open(db_path)
    try:
        record = await service.play.get_game(game_id)
        return record, len(await service.history.actions(game_id))
    finally:
        await service.close()


# ----------------------------------------------------------------------------- a table


class ChannelPosts:
    """The bot's channel posts by channel, indexed as they arrive: cheap to poll even with
    hundreds of games waiting for their boards at once."""

    def __init__(self, recorder: Recorder) -> None:
        self.recorder = recorder
        self.seen = 0
        self.by_channel: dict[int, list[FakeMessage]] = defaultdict(list)

    def of(self, channel_id: int) -> list[FakeMessage]:
        messages = self.recorder.messages  # only ever grows, in id order
        if len(messages) > self.seen:
            fresh = list(islice(reversed(messages.values()), len(messages) - self.seen))
            for message in reversed(fresh):
                # A board post carries its pictures (a lobby message or the first part of a
                # long post has none).
                if message.source == "channel" and not message.ephemeral and message.files:
                    self.by_channel[message.channel_id].append(message)
            self.seen = len(messages)
        return self.by_channel[channel_id]


_POSTS: WeakKeyDictionary[Recorder, ChannelPosts] = WeakKeyDictionary()


def channel_posts(recorder: Recorder) -> ChannelPosts:
    """The one index of ``recorder``'s channel posts."""
    if recorder not in _POSTS:
        _POSTS[recorder] = ChannelPosts(recorder)
    return _POSTS[recorder]


class BotSaidNo(AssertionError):
    """The bot answered something other than the next step (a refusal, an error)."""


def select_values(message: FakeMessage, custom_id: str) -> list[str]:
    for comp in message.walk_components():
        if comp.get("custom_id") == custom_id and comp.get("type") == 3:
            return [o["value"] for o in comp.get("options") or []]
    raise BotSaidNo(f"no menu {custom_id} on message {message.id}: {message.text()!r}")


def enabled_button(message: FakeMessage, custom_id: str) -> None:
    for comp in message.walk_components():
        if comp.get("custom_id") == custom_id and comp.get("type") == 2:
            if comp.get("disabled"):
                raise BotSaidNo(f"button {custom_id} is disabled: {message.text()!r}")
            return
    raise BotSaidNo(f"no button {custom_id} on message {message.id}: {message.text()!r}")


def button_ids(message: FakeMessage, prefix: str) -> list[str]:
    return [c for c in message.custom_ids if c.startswith(prefix)]


def _disabled(message: FakeMessage, custom_id: str) -> bool:
    return any(
        comp.get("custom_id") == custom_id and comp.get("disabled")
        for comp in message.walk_components()
    )


def _offered_route(game: Game, path: str) -> str:
    """The route the panel offers to where ``path`` takes the Ark (the route best for the
    player: it may be another one than the planned, to the same square)."""
    from bot.games.covenant.choices import ark_destinations, ark_end

    end = ark_end(game, path)
    return next(d.path for d in ark_destinations(game) if d.square == end)


@dataclass
class Table:
    """One game in one channel, played by simulated users in seat order."""

    fake: FakeDiscord
    channel: FakeChannel
    game_id: int
    seats: list[SimUser]
    game: Game
    boards: list[FakeMessage] = field(default_factory=list)  # public turn messages
    #: (interaction that closed a turn, the board message that turn posted)
    turn_ends: list[tuple[int, FakeMessage]] = field(default_factory=list)
    interactions: list[int] = field(default_factory=list)
    version: int = 0  # actions applied: what the bot's controls carry
    closed_turn: int = 0  # the number of the last turn the mirror saw end

    @classmethod
    def scripted(
        cls,
        fake: FakeDiscord,
        channel: FakeChannel,
        game_id: int,
        seats: Sequence[SimUser],
        deck: Sequence[str],
    ) -> Table:
        game = Game.new(players=len(seats), seed=0, deck=list(deck))
        return cls(fake, channel, game_id, list(seats), game)

    # ---- plumbing ----------------------------------------------------------------

    @property
    def current(self) -> SimUser:
        return self.seats[self.game.current_player]

    def public_boards(self) -> list[FakeMessage]:
        """The bot's own channel posts with pictures (turn boards), oldest first."""
        return list(channel_posts(self.fake.recorder).of(self.channel.id))

    async def wait_board(self, closing: int | None = None) -> FakeMessage:
        """The next public board message (and remember which interaction posted it)."""
        want = len(self.boards) + 1
        found = await self.fake.recorder.wait_until(
            lambda: len(boards := self.public_boards()) >= want and boards,
            WAIT,
            f"board #{want} in #{self.channel.name}",
        )
        board = found[want - 1]
        self.boards.append(board)
        if closing is not None:
            self.turn_ends.append((closing, board))
        return board

    async def answer(self, iid: int) -> FakeMessage:
        """The bot's (first finished) answer to interaction ``iid``."""
        self.interactions.append(iid)
        return await self.fake.recorder.wait_for_reply(iid, timeout=WAIT)

    async def slash(
        self, user: SimUser, name: str, sub: str, options: Mapping[str, object] | None = None
    ) -> tuple[int, FakeMessage]:
        iid = await self.fake.slash(user, self.channel, name, options or {}, subcommand=sub)
        return iid, await self.answer(iid)

    async def click(self, user: SimUser, message: FakeMessage, cid: str) -> tuple[int, FakeMessage]:
        enabled_button(message, cid)
        iid = await self.fake.click(user, self.channel, message.id, cid)
        return iid, await self.answer(iid)

    async def select(
        self, user: SimUser, message: FakeMessage, cid: str, value: str
    ) -> tuple[int, FakeMessage]:
        if value not in select_values(message, cid):
            raise BotSaidNo(f"{value!r} not offered in {cid}: {select_values(message, cid)}")
        iid = await self.fake.select(user, self.channel, message.id, cid, [value])
        return iid, await self.answer(iid)

    # ---- the lobby -----------------------------------------------------------------

    async def start(self, user: SimUser | None = None) -> FakeMessage:
        """``/table start`` by the creator; returns the first board."""
        iid, reply = await self.slash(user or self.seats[0], "table", "start")
        if "The game is on" not in reply.content:
            raise BotSaidNo(f"/table start: {reply.content!r}")
        return await self.wait_board(iid)

    # ---- turns ---------------------------------------------------------------------

    def record_played(self, action: Action) -> bool:
        """Apply ``action`` to the mirror; True if that closed the turn (then
        :attr:`closed_turn` is its number)."""
        turn = self.game.turn
        self.game.apply(action)
        self.version += 1
        closed = self.game.phase == "over" or self.game.turn != turn
        if closed:
            self.closed_turn = turn
        return closed

    def _expect_next_step(self, reply: FakeMessage, closed: bool) -> None:
        if closed:
            if "Done!" not in reply.content:
                raise BotSaidNo(f"expected the turn to close, got {reply.text()!r}")
        elif not any(f":{self.game_id}:{self.version}" in c for c in reply.custom_ids):
            raise BotSaidNo(f"expected step {self.version}'s controls, got {reply.text()!r}")

    async def play_turn(self, plan: Sequence[Action], *, typed: bool = False) -> FakeMessage:
        """The current player plays ``plan`` (one whole turn); returns the board it posts."""
        return await (self._typed_turn(plan) if typed else self._clicked_turn(plan))

    async def open_panel(self, user: SimUser | None = None) -> tuple[int, FakeMessage]:
        """Tap ``Play my turn`` on the newest board."""
        cid = f"ob:{self.game_id}:{self.game.turn}"
        return await self.click(user or self.current, self.boards[-1], cid)

    async def _clicked_turn(self, plan: Sequence[Action]) -> FakeMessage:
        _, panel = await self.open_panel()
        if not panel.ephemeral:
            raise BotSaidNo(f"the turn panel is public: {panel.text()!r}")
        return await self.finish_by_clicks(panel, plan)

    async def finish_by_clicks(self, panel: FakeMessage, plan: Sequence[Action]) -> FakeMessage:
        """Play the rest of a turn with the controls on ``panel``; returns the new board."""
        message, closed = await self.clicks(panel, plan)
        if not closed:
            raise AssertionError("the plan did not finish the turn")
        return message

    async def preview(self, panel: FakeMessage, action: PlaceTile) -> FakeMessage:
        """Tap ``action``'s numbered square (showing its part of the board first if need be)
        and turn the tile to ``action``'s rotation; returns the panel where the rest of the
        turn is decided."""
        user, g, v = self.current, self.game_id, self.version
        square = f"tb:{g}:{v}:sq:{action.x}:{action.y}"
        for part in button_ids(panel, f"tb:{g}:{v}:page:"):
            if square in panel.custom_ids:
                break
            if not _disabled(panel, part):
                _, panel = await self.click(user, panel, part)
        _, panel = await self.click(user, panel, square)
        turn = f"tb:{g}:{v}:rot:{action.x}:{action.y}:{action.rotation}"
        if turn in panel.custom_ids and not _disabled(panel, turn):
            _, panel = await self.click(user, panel, turn)
        return panel

    async def decide(
        self, panel: FakeMessage, action: Action, at: str
    ) -> tuple[int, FakeMessage, Action]:
        """Tap what plays ``action`` (a piece, the Ark, a pass) on the panel of the turn's
        choice (``at``: the tile's square and rotation, while it is not placed yet); returns
        the interaction, the answer and the action played (the Ark goes where it was asked
        by the route the panel offers)."""
        user, g, v = self.current, self.game_id, self.version
        tail = f":{at}" if at else ""
        if isinstance(action, Deploy):
            put = f"tb:{g}:{v}:put{tail}:{action.port}:{int(action.prophet)}"
            iid, panel = await self.click(user, panel, put)
            return iid, panel, action
        if isinstance(action, Pass):
            iid, panel = await self.click(user, panel, f"tb:{g}:{v}:pass{tail}")
            return iid, panel, action
        if isinstance(action, MoveArk):
            trial = self.game.copy()
            if at:
                x, y, rotation = (int(n) for n in at.split(":"))
                trial.apply(PlaceTile(x, y, rotation))
            path = _offered_route(trial, action.path)
            menus = [m for m in panel.custom_ids if m.startswith(f"tm:{g}:{v}:ark{tail}:")]
            menu = next((m for m in menus if path in select_values(panel, m)), menus[0])
            _, panel = await self.select(user, panel, menu, path)
            iid, panel = await self.click(user, panel, f"tb:{g}:{v}:go{tail}:{path}")
            return iid, panel, MoveArk(path)
        raise TypeError(action)  # pragma: no cover - the plan holds engine actions only

    async def clicks(self, panel: FakeMessage, plan: Sequence[Action]) -> tuple[FakeMessage, bool]:
        """Play ``plan`` with the controls on the private ``panel``: (the new board, True)
        once the turn closed, else (the panel as it now stands, False). A tile is placed by
        the same tap that decides what follows it."""
        user = self.current
        g = self.game_id
        steps = list(plan)
        while steps:
            action = steps.pop(0)
            v = self.version
            if isinstance(action, PlaceTile):
                panel = await self.preview(panel, action)
                at = f"{action.x}:{action.y}:{action.rotation}"
                iid, panel, then = await self.decide(panel, steps.pop(0), at)
                played = [action, then]
            elif isinstance(action, PlaceArk):
                putark = f"tb:{g}:{v}:putark:{action.x}:{action.y}"
                iid, panel = await self.click(user, panel, putark)
                played = [action]
            else:
                iid, panel, then = await self.decide(panel, action, "")
                played = [then]
            closed = any([self.record_played(a) for a in played])
            self._expect_next_step(panel, closed)
            if closed:
                return await self.wait_board(iid), True
        return panel, False

    def typed_command(self, action: Action) -> tuple[str, dict[str, object]]:
        """The ``/covenant`` subcommand and options that play ``action`` now."""
        if isinstance(action, PlaceTile):
            square = square_name((action.x, action.y))
            return "place", {"square": square, "rotation": action.rotation}
        if isinstance(action, Deploy):
            return "follower", {"spot": f"{action.port}:{int(action.prophet)}"}
        if isinstance(action, MoveArk):
            return "ark", {"path": action.path}
        if isinstance(action, Pass):
            return "pass", {}
        if isinstance(action, PlaceArk):
            return "putark", {"square": square_name((action.x, action.y))}
        raise TypeError(action)  # pragma: no cover

    async def _typed_turn(self, plan: Sequence[Action]) -> FakeMessage:
        message, closed = await self.typed(plan)
        if not closed:
            raise AssertionError("the plan did not finish the turn")
        return message

    async def typed(self, plan: Sequence[Action]) -> tuple[FakeMessage, bool]:
        """Type ``plan`` as ``/covenant`` commands: (the new board, True) once the turn
        closed, else (the last private answer, False)."""
        user = self.current
        reply: FakeMessage | None = None
        for action in plan:
            sub, options = self.typed_command(action)
            iid, reply = await self.slash(user, "covenant", sub, options)
            if not reply.ephemeral:
                raise BotSaidNo(f"/covenant {sub} answered in public: {reply.text()!r}")
            closed = self.record_played(action)
            self._expect_next_step(reply, closed)
            if closed:
                return await self.wait_board(iid), True
        assert reply is not None, "an empty plan"
        return reply, False


def split_turns(game: Game, actions: Sequence[Action]) -> list[list[Action]]:
    """Cut a game's action list into turns, replaying it on a copy of ``game``."""
    mirror = game.copy()
    turns: list[list[Action]] = [[]]
    for action in actions:
        turn = mirror.turn
        mirror.apply(action)
        turns[-1].append(action)
        if mirror.phase == "over" or mirror.turn != turn:
            turns.append([])
    return [t for t in turns if t]


def process_family(pid: int) -> list[int]:
    """``pid`` and all its live descendants (the bot and its picture workers)."""
    family, queue = [], [pid]
    while queue:
        current = queue.pop()
        family.append(current)
        try:
            for task in os.listdir(f"/proc/{current}/task"):
                with open(f"/proc/{current}/task/{task}/children") as children:
                    queue.extend(int(child) for child in children.read().split())
        except OSError:
            continue  # gone meanwhile
    return family


def _memory_mb(pid: int, field: str, family: bool) -> float:
    """The ``field`` line (``VmHWM``, ``VmRSS``) of /proc's status in MB, for a live process
    and, with ``family``, summed over its descendants."""
    total = 0.0
    for member in process_family(pid) if family else [pid]:
        try:
            with open(f"/proc/{member}/status") as status:
                total += next(
                    int(line.split()[1]) / 1024 for line in status if line.startswith(field + ":")
                )
        except (OSError, StopIteration):
            continue
    return total or float("nan")


def peak_rss_mb(pid: int, *, family: bool = True) -> float:
    """VmHWM (peak resident set) in MB of a live process, summed over its descendants."""
    return _memory_mb(pid, "VmHWM", family)


def rss_mb(pid: int) -> float:
    """VmRSS (resident now) in MB of a live process and its descendants, summed."""
    return _memory_mb(pid, "VmRSS", True)


__all__ = [
    "REPO",
    "TURNS_NONCE",
    "WAIT",
    "BotSaidNo",
    "Table",
    "arkbot_env",
    "assert_told_once",
    "display_name",
    "open_lobby",
    "peak_rss_mb",
    "process_family",
    "rss_mb",
    "split_turns",
    "stored_game",
    "stored_turns",
    "told_turns",
    "wait_until_up",
]
