"""Pictures drawn in a worker process are the same bytes as drawn in the bot's process;
they are drawn in the order people wait for them, a stale one is dropped, and one already
drawn is not drawn again."""

from __future__ import annotations

import asyncio
import dataclasses
import os
import signal
import threading
from collections.abc import AsyncIterator, Callable, Generator, Iterator
from pathlib import Path

import pytest

import bot.pictures
import render.covenant as render
from bot.client import TableBot
from bot.panels import Picture
from bot.pictures import Pictures, Priority, Superseded, draw
from bot.service import GameService
from engine.covenant import Deploy, Game, PlaceTile
from tests.bot.test_workers import alive
from tests.support.bot import CHANNEL, make_settings
from tests.support.harness import Harness

WARM = ("render.covenant:warm_up",)


def small_game() -> Game:
    game = Game.new(players=2, seed=0, deck=["T39", "T21", "T37"])
    game.apply(PlaceTile(1, 0, 0))
    game.apply(Deploy("E"))
    return game


async def test_a_worker_process_draws_the_same_picture() -> None:
    game = small_game()
    save = game.view(None).to_json()
    pictures = Pictures(workers=1, warm=WARM)
    try:
        await pictures.warm_up()
        board = await pictures.draw(
            Picture("render.covenant:board", (save, True, ["Ruth", "Boaz"])), "en"
        )
        assert board == render.board_png(game.view(None), numbered=True, names=["Ruth", "Boaz"])
        rotations = await pictures.draw(Picture("render.covenant:rotations", ("T37",)), "en")
        assert rotations == render.tile_rotations_png("T37")
        latest = await pictures.draw(
            Picture("render.covenant:latest", (save, ["Ruth", "Boaz"])), "en"
        )
        assert latest == render.latest_png(game, names=["Ruth", "Boaz"])
    finally:
        pictures.close()


async def test_a_dead_worker_is_replaced_and_the_picture_still_comes() -> None:
    game = small_game()
    save = game.view(None).to_json()
    pictures = Pictures(workers=1, warm=WARM)
    try:
        await pictures.warm_up()
        pool = pictures._pool
        assert pool is not None
        for pid in list(pool._processes):  # the worker processes of this pool
            os.kill(pid, signal.SIGKILL)
        board = await pictures.draw(Picture("render.covenant:board", (save, False, [])), "en")
        assert board == render.board_png(game.view(None))
        assert pictures._pool is not pool  # a new pool for the next pictures
        again = await pictures.draw(Picture("render.covenant:rotations", ("T21",)), "en")
        assert again == render.tile_rotations_png("T21")
    finally:
        pictures.close()


def drawn_by(what: str = "", *, language: str) -> bytes:
    """A "picture" that says which process drew it (imported by name in the workers);
    ``what`` tells pictures apart, which are otherwise the same (and drawn once)."""
    return str(os.getpid()).encode()


async def test_a_slow_picture_is_drawn_by_the_same_worker_in_steps() -> None:
    game = small_game()
    saves = [Game.new(players=2, seed=0, deck=["T39", "T21", "T37"]).view(None).to_json()]
    saves.append(game.view(None).to_json())
    replay = Picture("render.covenant:replay", (saves, ["Ruth", "Boaz"]), slow=True)
    pictures = Pictures(workers=1, warm=WARM)
    try:
        here = __name__ + ":drawn_by"
        board = int(await pictures.draw(Picture(here, ("board",)), "en"))
        slow = int(await pictures.draw(Picture(here, ("replay",), slow=True), "en"))
        # No process of its own (it would hold all the sprites again): it waits its turn.
        assert board == slow != os.getpid()
        assert await pictures.draw(replay, "en") == draw(replay.function, replay.args, "en")
    finally:
        pictures.close()


async def test_a_worker_process_draws_the_card_games_pictures_the_same() -> None:
    import render.noah as noah
    from engine.common import Rng
    from engine.noah import Game as Ark

    game, rng = Ark.new(players=3, seed=4), Rng(4)
    while game.turn < 12:
        game.apply(game.sample_action(rng))
    view, names = game.view(None), ["Ruth", "Boaz", "Maximiliaan van Oranje-Nassau II"]
    hand = list(game.hand(game.current_player))
    pictures = Pictures(workers=1, warm=("render.noah:warm_up",))
    try:
        await pictures.warm_up()
        board = await pictures.draw(Picture("render.noah:board", (view, names)), "nl")
        assert board == noah.board(view, names, language="nl")
        drawn = await pictures.draw(Picture("render.noah:hand", (hand, {}, None, "play")), "es")
        assert drawn == noah.hand(hand, {}, None, "play", language="es")
    finally:
        pictures.close()


# --------------------------------------------------------------------- the order of drawing
# In threads (workers=0) one picture is drawn at a time, like the one worker process: a
# "gated" picture holds its slot until the test opens its gate, so the test decides what
# waits in the queue, and ``STARTED`` says in which order the pictures were taken.

STARTED: list[str] = []
GATES: dict[str, threading.Event] = {}


def gated(name: str, *, language: str) -> bytes:
    """A "picture" that is drawn once its gate is open (at once if it has none)."""
    STARTED.append(name)
    gate = GATES.get(name)
    if gate is not None:
        assert gate.wait(10), f"the gate of {name} was never opened"
    return f"{name} in {language}".encode()


GATED = __name__ + ":gated"


@pytest.fixture
def gates() -> Iterator[Callable[..., None]]:
    """``close(name, ...)`` holds those pictures until the end of the test (or ``open``)."""
    STARTED.clear()
    GATES.clear()

    def close(*names: str) -> None:
        for name in names:
            GATES[name] = threading.Event()

    yield close
    for gate in GATES.values():
        gate.set()


def picture(name: str, *, slow: bool = False) -> Picture:
    return Picture(GATED, (name,), f"{name}.png", slow=slow)


async def until_started(name: str) -> None:
    for _ in range(1000):
        if name in STARTED:
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"{name} was never started; started: {STARTED}")


@pytest.fixture
async def pictures(gates: Callable[..., None]) -> AsyncIterator[Pictures]:
    """A painter drawing in threads, one picture at a time (as one worker process does)."""
    painter = Pictures(workers=0)
    yield painter
    painter.close()


async def busy(pictures: Pictures) -> asyncio.Task[bytes]:
    """Keep the painter busy with a picture (until ``GATES["blocker"]`` opens), so what is
    asked for next waits in the queue."""
    GATES["blocker"] = threading.Event()
    blocker = asyncio.create_task(pictures.draw(picture("blocker"), "en"))
    await until_started("blocker")
    return blocker


async def test_a_picture_made_stale_by_a_newer_tap_is_dropped(pictures: Pictures) -> None:
    blocker = await busy(pictures)
    # Two taps on the same panel while the worker is busy: the first one's pictures wait.
    first = asyncio.create_task(
        pictures.draw_all([picture("preview at C4")], "en", slot=("panel", 7))
    )
    await asyncio.sleep(0)
    second = asyncio.create_task(
        pictures.draw_all([picture("preview at D4")], "en", slot=("panel", 7))
    )
    # Another message's panel is not touched.
    other = asyncio.create_task(
        pictures.draw_all([picture("someone's spots")], "en", slot=("panel", 8))
    )
    await asyncio.sleep(0)
    GATES["blocker"].set()
    with pytest.raises(Superseded):
        await first
    assert [data for data, _, _ in await second] == [b"preview at D4 in en"]
    assert [data for data, _, _ in await other] == [b"someone's spots in en"]
    await blocker
    assert STARTED == ["blocker", "preview at D4", "someone's spots"]
    assert pictures.figures.dropped == 1


async def test_a_stale_panel_already_drawing_is_not_shown_over_the_newer(
    gates: Callable[..., None], pictures: Pictures
) -> None:
    gates("preview at C4")
    first = asyncio.create_task(
        pictures.draw_all([picture("preview at C4")], "en", slot=("panel", 7))
    )
    await until_started("preview at C4")
    second = asyncio.create_task(
        pictures.draw_all([picture("preview at D4")], "en", slot=("panel", 7))
    )
    await asyncio.sleep(0)
    GATES["preview at C4"].set()
    # Drawn (it had begun), but its panel would only cover the newer one.
    with pytest.raises(Superseded):
        await first
    assert [data for data, _, _ in await second] == [b"preview at D4 in en"]


def stepped(name: str, frames: int, *, language: str) -> Generator[None, None, bytes]:
    """A slow "picture" drawn in ``frames`` steps, each like a :func:`gated` picture."""
    for frame in range(1, frames + 1):
        gated(f"{name} frame {frame}", language=language)
        yield
    return f"{name} in {language}".encode()


STEPPED = __name__ + ":stepped"


async def test_a_board_is_never_behind_a_replay(
    gates: Callable[..., None], pictures: Pictures
) -> None:
    gates("replay frame 1")
    replays = [
        asyncio.create_task(pictures.draw(Picture(STEPPED, (name, 3), slow=True), "en"))
        for name in ("replay", "another replay")
    ]
    await until_started("replay frame 1")
    # Asked for while a frame of the first replay is drawn: next, before its next frame.
    boards = [
        asyncio.create_task(pictures.draw(picture(name), "en"))
        for name in ("board of game 3", "panel of game 4")
    ]
    await asyncio.sleep(0)
    GATES["replay frame 1"].set()
    assert await asyncio.gather(*boards) == [
        b"board of game 3 in en",
        b"panel of game 4 in en",
    ]
    assert await asyncio.gather(*replays) == [b"replay in en", b"another replay in en"]
    # One replay after the other, the second begun once the first is done.
    assert STARTED == [
        "replay frame 1",
        "board of game 3",
        "panel of game 4",
        "replay frame 2",
        "replay frame 3",
        "another replay frame 1",
        "another replay frame 2",
        "another replay frame 3",
    ]


async def test_what_a_player_waits_for_is_drawn_before_what_someone_asked_to_see(
    pictures: Pictures,
) -> None:
    blocker = await busy(pictures)
    asked = [
        asyncio.create_task(pictures.draw_all([picture(name)], "en", priority=Priority.ASKED))
        for name in ("status", "history turn 3")
    ]
    await asyncio.sleep(0)
    waited = [
        asyncio.create_task(pictures.draw_all([picture(name)], "en"))
        for name in ("board of game 1", "panel of game 2")
    ]
    await asyncio.sleep(0)
    GATES["blocker"].set()
    await asyncio.gather(blocker, *asked, *waited)
    assert STARTED == [
        "blocker",
        "board of game 1",
        "panel of game 2",
        "status",
        "history turn 3",
    ]


async def test_a_picture_asked_for_again_is_drawn_once(
    gates: Callable[..., None], pictures: Pictures
) -> None:
    gates("board")
    # Asked for twice while it is drawn, then again once it is drawn: drawn once.
    both = asyncio.gather(
        pictures.draw(picture("board"), "en"), pictures.draw(picture("board"), "en")
    )
    await until_started("board")
    GATES["board"].set()
    assert await both == [b"board in en"] * 2
    assert await pictures.draw(picture("board"), "en") == b"board in en"
    # In another language it is another picture.
    assert await pictures.draw(picture("board"), "nl") == b"board in nl"
    assert STARTED == ["board", "board"]
    assert pictures.figures.drawn == {"gated": 2}
    assert (pictures.figures.shared, pictures.figures.cached) == (1, {"gated": 1})


async def test_the_cache_gives_the_same_bytes_for_the_same_state() -> None:
    game = small_game()
    names = ["Ruth", "Boaz"]
    pictures = Pictures(workers=0)
    try:
        public = Picture("render.covenant:board", (game.view(None).to_json(), True, names))
        posted = await pictures.draw(public, "en")
        assert posted == render.board_png(game.view(None), numbered=True, names=names)
        # The next player's numbered squares are the same state: the same bytes, not drawn.
        seat = game.current_player
        spots = Picture(
            "render.covenant:board", (game.view(seat).to_json(), True, names), "spots.png"
        )
        assert await pictures.draw(spots, "en") == posted
        assert pictures.figures.drawn == {"board": 1}
        # Another state is another picture.
        game.apply(game.legal_actions()[0])
        moved = Picture("render.covenant:board", (game.view(None).to_json(), True, names))
        assert await pictures.draw(moved, "en") != posted
        assert pictures.figures.drawn == {"board": 2}
    finally:
        pictures.close()


async def test_a_request_given_up_leaves_its_waiting_pictures_undrawn(pictures: Pictures) -> None:
    blocker = await busy(pictures)
    gone = asyncio.create_task(pictures.draw(picture("nobody waits"), "en"))
    await asyncio.sleep(0)
    gone.cancel()
    GATES["blocker"].set()
    await blocker
    assert await pictures.draw(picture("next"), "en") == b"next in en"
    assert STARTED == ["blocker", "next"]


async def test_workers_rest_when_nothing_is_drawn_and_start_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(bot.pictures, "REST_SECONDS", 0.2)
    pictures = Pictures(workers=1)
    try:
        here = __name__ + ":drawn_by"
        first = int(await pictures.draw(Picture(here, ("board",)), "en"))
        for _ in range(200):
            if pictures._pool is None and not alive(first):
                break
            await asyncio.sleep(0.05)
        # Stopped: the bot with nothing to draw holds no worker's memory.
        assert pictures._pool is None and not alive(first)
        again = int(await pictures.draw(Picture(here, ("next board",)), "en"))
        assert again != first and pictures._pool is not None
    finally:
        pictures.close()


async def test_a_table_opened_starts_the_workers_before_its_first_picture() -> None:
    pictures = Pictures(workers=1)
    try:
        assert pictures._pool is None  # nothing asked yet: no worker
        pictures.expect()
        pool = pictures._pool
        assert pool is not None
        pictures.expect()  # already on its way: not a second one
        assert pictures._pool is pool
        for _ in range(200):
            if pool._processes:  # the worker process is there, warming up
                break
            await asyncio.sleep(0.05)
        worker = next(iter(pool._processes))
        here = __name__ + ":drawn_by"
        assert int(await pictures.draw(Picture(here, ("board",)), "en")) == worker
    finally:
        pictures.close()


async def test_without_workers_nothing_is_started_ahead() -> None:
    pictures = Pictures(workers=0)
    pictures.expect()
    assert pictures._pool is None and not pictures._tasks
    pictures.close()


async def test_the_bot_logs_in_while_its_picture_workers_warm_up(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 41: with a game open, the bot started its workers warming up and waited for
    them before logging in (seconds on a busy machine, every restart). The warm-up begins;
    the bot does not wait for it."""
    began = asyncio.Event()
    never = asyncio.Event()

    async def slow_warm_up(self: Pictures) -> None:
        began.set()
        await never.wait()

    monkeypatch.setattr(Pictures, "warm_up", slow_warm_up)
    path = tmp_path / "g.sqlite3"
    settings = dataclasses.replace(make_settings(path), render_workers=1)
    service = await GameService.open(path, settings=settings)
    await service.lobby.create_game(1, 2, 3, "Ruth", "covenant")
    bot = TableBot(settings, service=service)
    h = Harness(bot, channel_id=CHANNEL)
    try:
        await asyncio.wait_for(h.start(), 10)
        assert began.is_set()
    finally:
        never.set()
        await h.close()
