"""Drawing pictures without holding up the bot, in the order people wait for them.

A board takes tens of milliseconds of CPU, and much of that holds Python's GIL; drawn in a
thread of the bot's own process it still slows every other interaction down. So by default
the pictures are drawn in worker processes, which get a picture's description
(:class:`bot.panels.Picture`: a render function by name and its JSON-ready arguments, e.g. a
view's JSON) and send back PNG bytes. With ``workers=0`` they are drawn in a thread instead
(tests, tiny machines). A worker that dies is replaced, and that picture is drawn in a thread.

The bot does not hand the workers every picture as it is asked for: it keeps the queue
itself and gives a worker its next picture only when the worker is free, so that

- what a player is waiting for right now (the public board, the acting player's next
  panel: :attr:`Priority.WAITED`) is drawn before what someone merely asked to look at
  (status, history, rules, ratings: :attr:`Priority.ASKED`), and that before what nobody
  waits for (:attr:`Priority.SPARE`: a finished game's replay); first come first served
  within each;
- a panel's pictures that a newer tap on the same message made stale are dropped before
  they are drawn (:class:`Superseded`), and the stale panel is not shown over the newer;
- a picture already drawn for the same state (the same function, arguments and language)
  is not drawn again: the bytes come from a small cache, or from the drawing in progress.

A slow picture (``Picture.slow``: a replay takes seconds) is drawn in steps, a frame at a
time, by the same workers (no process of its own, which would double the bot's memory):
its render function gives a generator that yields between steps and returns the bytes. After
each step the worker takes whatever more urgent picture came meanwhile, so a board waits at
most for one frame, never for a whole replay.

The workers keep the memory they free (:func:`bot.workers.keep_freed_memory`): a board's
canvas is the next board's, instead of being faulted in again page by page; what a slow
picture took is given back when it is done. After :data:`REST_SECONDS` without a picture
they stop (a bot with no game going on holds no worker's sprites and fonts), and the next
picture starts one again.
"""

from __future__ import annotations

import asyncio
import hashlib
import heapq
import itertools
import json
import logging
import time
from collections import OrderedDict, deque
from collections.abc import Callable, Generator, Hashable, Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from enum import IntEnum
from importlib import import_module
from typing import Any

from bot.panels import Picture
from bot.workers import keep_freed_memory, process_pool, trim_freed_memory

log = logging.getLogger("arkbot.pictures")

#: Bytes of drawn pictures kept for asking again (a board of 72 tiles is some 200 KB).
CACHE_BYTES = 8 * 1024 * 1024
#: Waits remembered for the figures at the end (the newest ones).
WAITS_KEPT = 20_000
#: After this long without a picture the workers stop, and give back their memory (their
#: sprites, fonts and palettes: some 90 MB); the next picture starts one again (a second or
#: two, warming up). A bot with no game going on is then just the bot.
REST_SECONDS = 300.0


class Priority(IntEnum):
    """Who waits for a picture; lower first."""

    #: A player waits for it now: the public board after a move, the acting player's panel.
    WAITED = 0
    #: Someone asked to look at something: the status, a turn of the history, the rules.
    ASKED = 1
    #: Nobody waits: a finished game's replay (every slow picture), drawn in what time is left.
    SPARE = 2


class Superseded(Exception):
    """A newer tap on the same message asked for another panel: this one is not shown."""


# --------------------------------------------------------------------- worker side

#: Slow pictures begun in this process, by job number: the rest of their steps.
_STEPPING: dict[int, Generator[None, None, bytes]] = {}


def _call(function: str, args: Sequence[Any], language: str) -> Any:
    module, _, name = function.partition(":")
    return getattr(import_module(module), name)(*args, language=language)


def draw(function: str, args: Sequence[Any], language: str) -> bytes:
    """Call render function ``"module:name"`` (worker side: module level, so a worker process
    can import it by name); a picture drawn in steps is drawn to its end."""
    made = _call(function, args, language)
    if isinstance(made, Generator):
        while True:
            try:
                next(made)
            except StopIteration as done:
                return done.value
    assert isinstance(made, bytes)
    return made


def draw_step(job: int, function: str, args: Sequence[Any], language: str) -> bytes | None:
    """One step of slow picture ``job``: its bytes once it is done, else None (the rest of
    it waits here, in this process, for the next step)."""
    steps = _STEPPING.pop(job, None)
    if steps is None:
        made = _call(function, args, language)
        if not isinstance(made, Generator):
            return made
        steps = made
    try:
        next(steps)
    except StopIteration as done:
        trim_freed_memory()  # its frames are not the next board's
        return done.value
    _STEPPING[job] = steps
    return None


def warm_up(functions: Sequence[str]) -> None:
    """Call each ``"module:name"`` once (sprites, fonts, palettes), e.g. in a new worker."""
    for function in functions:
        module, _, name = function.partition(":")
        getattr(import_module(module), name)()


def start_worker(functions: Sequence[str]) -> None:
    """A new picture worker: warm up, give back what the warm-up took and let go of (the
    palettes' samples), then keep the memory it frees from now on."""
    warm_up(functions)
    trim_freed_memory()
    keep_freed_memory()


# --------------------------------------------------------------------- bot side


def picture_key(picture: Picture, language: str) -> str:
    """What the picture's bytes depend on: its function, arguments and language (not its
    file name or alt text). (Equal arguments written in another order only miss the cache.)"""
    described = repr((picture.function, picture.args, language))
    return hashlib.blake2b(described.encode(), digest_size=16).hexdigest()


def kind_of(picture: Picture) -> str:
    """The render function's name (``board``, ``preview``...), for the figures."""
    return picture.function.rpartition(":")[2]


@dataclass(eq=False)
class _Job:
    """One picture to draw, for every request that wants it."""

    number: int
    key: str
    picture: Picture
    language: str
    priority: int
    future: asyncio.Future[bytes]
    queued: float = field(default_factory=time.monotonic)
    wanted: int = 0  # requests still waiting for it
    started: bool = False
    dropped: bool = False


@dataclass(eq=False)
class _Request:
    """One panel's pictures, asked for together."""

    jobs: list[_Job] = field(default_factory=list)
    stale: bool = False


class _Lane:
    """One worker process (in threads mode: one thread at a time) and the slow picture it
    has begun, if any."""

    def __init__(self, new_pool: Callable[[], ProcessPoolExecutor] | None) -> None:
        self._new_pool = new_pool
        self.pool: ProcessPoolExecutor | None = None  # started when first needed
        self.busy = False
        #: A slow picture drawn here in steps: its next step is taken here, in its turn.
        self.begun: _Job | None = None

    async def run(self, job: _Job) -> bytes | None:
        """Draw ``job`` (a slow one by a step: None while it is not done)."""
        picture = job.picture
        args = (picture.function, picture.args, job.language)
        if self._new_pool is None:
            if picture.slow:
                return await asyncio.to_thread(draw_step, job.number, *args)
            return await asyncio.to_thread(draw, *args)
        pool = self.start()
        assert pool is not None
        loop = asyncio.get_running_loop()
        try:
            if picture.slow:
                return await loop.run_in_executor(pool, draw_step, job.number, *args)
            return await loop.run_in_executor(pool, draw, *args)
        except BrokenProcessPool:
            log.warning("a picture worker died; starting a new one")
            pool.shutdown(wait=False, cancel_futures=True)
            if self.pool is pool:
                self.pool = None  # a new one for the next picture
            # (A slow picture begun there starts again here, whole.)
            return await asyncio.to_thread(draw, *args)

    def start(self) -> ProcessPoolExecutor | None:
        """The worker process, started (and warming up) if it was not (None: threads)."""
        if self.pool is None and self._new_pool is not None:
            self.pool = self._new_pool()
        return self.pool

    def close(self) -> None:
        if self.pool is not None:
            self.pool.shutdown(wait=False, cancel_futures=True)
        self.pool = None


@dataclass
class PictureFigures:
    """What the painter did since it started: pictures drawn by kind, answered from the
    cache or from a drawing in progress, dropped as stale, and how long those that someone
    waited for waited for a worker."""

    drawn: dict[str, int] = field(default_factory=dict)
    cached: dict[str, int] = field(default_factory=dict)
    shared: int = 0
    dropped: int = 0
    waits_ms: deque[float] = field(default_factory=lambda: deque(maxlen=WAITS_KEPT))

    def summary(self) -> dict[str, Any]:
        waits = sorted(self.waits_ms)

        def nth(q: float) -> float | None:
            return round(waits[min(len(waits) - 1, int(q * len(waits)))], 1) if waits else None

        return {
            "drawn": self.drawn,
            "cached": self.cached,
            "shared": self.shared,
            "dropped": self.dropped,
            "wait_p50_ms": nth(0.5),
            "wait_p99_ms": nth(0.99),
        }


class Pictures:
    """The bot's painter: ``await pictures.draw_all(pictures, language)``."""

    def __init__(self, workers: int = 1, warm: Sequence[str] = ()) -> None:
        self.workers = workers
        self._warm = tuple(warm)
        self._numbers = itertools.count()
        self._queue: list[tuple[int, int, _Job]] = []
        self._flight: dict[str, _Job] = {}
        self._cache: OrderedDict[str, bytes] = OrderedDict()
        self._cached_bytes = 0
        self._slots: dict[Hashable, _Request] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        self._last_drawn = time.monotonic()
        self._resting: asyncio.TimerHandle | None = None
        self.figures = PictureFigures()
        new_pool = self._new_pool if workers > 0 else None
        # One process each (not one pool of several): a slow picture's steps are all taken
        # by the process that holds the rest of it.
        self._lanes = [_Lane(new_pool) for _ in range(max(1, workers))]

    def _new_pool(self) -> ProcessPoolExecutor:
        return process_pool(1, start_worker, (self._warm,))

    @property
    def _pool(self) -> ProcessPoolExecutor | None:
        """The first worker's process pool (for tests)."""
        return self._lanes[0].pool

    async def draw(self, picture: Picture, language: str) -> bytes:
        """One picture, as a player waits for it."""
        return (await self.draw_all([picture], language))[0][0]

    async def draw_all(
        self,
        pictures: Sequence[Picture],
        language: str,
        *,
        priority: Priority = Priority.WAITED,
        slot: Hashable | None = None,
    ) -> list[tuple[bytes, str, str | None]]:
        """Every picture of a panel: (PNG bytes, file name, alt text).

        ``slot`` names where the panel is shown (a message that each tap edits): a newer
        request for the same slot makes this one stale, and then it raises
        :class:`Superseded` (its pictures not drawn, if they were still waiting)."""
        from bot.i18n import say

        request = _Request()
        if slot is not None:
            older = self._slots.get(slot)
            if older is not None:
                older.stale = True
                self._release(older)
            self._slots[slot] = request
        try:
            drawn = await self._wait_for(request, pictures, language, priority)
        finally:
            if slot is not None and self._slots.get(slot) is request:
                del self._slots[slot]
        if request.stale:
            raise Superseded()
        return [
            (data, p.filename, say(p.description, language) if p.description else None)
            for data, p in zip(drawn, pictures, strict=True)
        ]

    async def _wait_for(
        self, request: _Request, pictures: Sequence[Picture], language: str, priority: int
    ) -> list[bytes]:
        waits: list[asyncio.Future[bytes]] = []
        loop = asyncio.get_running_loop()
        for picture in pictures:
            key = picture_key(picture, language)
            cached = self._cache.get(key)
            if cached is not None:
                self._cache.move_to_end(key)
                kind = kind_of(picture)
                self.figures.cached[kind] = self.figures.cached.get(kind, 0) + 1
                done = loop.create_future()
                done.set_result(cached)
                waits.append(done)
                continue
            wanted = Priority.SPARE if picture.slow else priority
            job = self._flight.get(key)
            if job is None:
                job = self._new_job(key, picture, language, wanted)
            else:
                self.figures.shared += 1
                if wanted < job.priority and not job.started:
                    # Someone waits for it now: it moves up (its old entry is skipped).
                    job.priority = wanted
                    self._push(job)
            job.wanted += 1
            request.jobs.append(job)
            waits.append(job.future)
        try:
            # Shielded: one request giving up must not cancel a drawing others wait for.
            return list(await asyncio.gather(*(asyncio.shield(w) for w in waits)))
        except asyncio.CancelledError:
            self._release(request)
            raise

    def _new_job(self, key: str, picture: Picture, language: str, priority: int) -> _Job:
        future: asyncio.Future[bytes] = asyncio.get_running_loop().create_future()
        # A failure nobody is left to hear of (its requests gave up) is not an error.
        future.add_done_callback(lambda f: f.cancelled() or f.exception())
        job = _Job(next(self._numbers), key, picture, language, priority, future)
        self._flight[key] = job
        self._push(job)
        return job

    def _push(self, job: _Job) -> None:
        heapq.heappush(self._queue, (job.priority, job.number, job))
        self._pump()

    def _release(self, request: _Request) -> None:
        """``request`` waits no more: its pictures nobody else waits for are not drawn."""
        for job in request.jobs:
            job.wanted -= 1
            if job.wanted <= 0 and not job.started and not job.dropped:
                job.dropped = True
                self.figures.dropped += 1
                if self._flight.get(job.key) is job:
                    del self._flight[job.key]
                if not job.future.done():
                    job.future.set_exception(Superseded())
        request.jobs = []

    def _first_waiting(self) -> _Job | None:
        """The first picture in the queue (entries dropped or moved up are cleared away)."""
        while self._queue:
            priority, _, job = self._queue[0]
            if job.dropped or job.started or priority != job.priority:
                heapq.heappop(self._queue)
                continue
            return job
        return None

    def _pump(self) -> None:
        """Give each free worker its next picture: the first in the queue, unless it is a
        slow one and the worker has a slow one begun (that one goes on first)."""
        for lane in self._lanes:
            if lane.busy:
                continue
            job = self._first_waiting()
            if lane.begun is not None and (job is None or job.priority >= Priority.SPARE):
                job, lane.begun = lane.begun, None
            elif job is not None:
                heapq.heappop(self._queue)
                job.started = True
                if not job.picture.slow:
                    self.figures.waits_ms.append((time.monotonic() - job.queued) * 1000)
            else:
                continue
            lane.busy = True
            task = asyncio.get_running_loop().create_task(self._run(lane, job))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def _run(self, lane: _Lane, job: _Job) -> None:
        try:
            data = await lane.run(job)
        except Exception as error:
            self._forget(job)
            if not job.future.done():
                job.future.set_exception(error)
        else:
            if data is None:
                lane.begun = job  # more steps to come, here
            else:
                self._forget(job)
                kind = kind_of(job.picture)
                self.figures.drawn[kind] = self.figures.drawn.get(kind, 0) + 1
                if not job.picture.slow:
                    self._remember(job.key, data)
                if not job.future.done():
                    job.future.set_result(data)
        finally:
            lane.busy = False
            self._pump()
            self._rest_later()

    def _rest_later(self) -> None:
        """Stop the workers once nothing was drawn for :data:`REST_SECONDS` (looked at then)."""
        self._last_drawn = time.monotonic()
        if self._resting is None and self.workers > 0:
            self._resting = asyncio.get_running_loop().call_later(REST_SECONDS, self._rest)

    def _rest(self) -> None:
        self._resting = None
        quiet = time.monotonic() - self._last_drawn
        working = any(lane.busy or lane.begun for lane in self._lanes) or self._queue
        if quiet < REST_SECONDS or working:
            self._resting = asyncio.get_running_loop().call_later(
                max(1.0, REST_SECONDS - quiet), self._rest
            )
            return
        log.info("no picture for %d s: the picture workers stop until the next one", quiet)
        for lane in self._lanes:
            lane.close()

    def _forget(self, job: _Job) -> None:
        if self._flight.get(job.key) is job:
            del self._flight[job.key]

    def _remember(self, key: str, data: bytes) -> None:
        if len(data) > CACHE_BYTES // 8:
            return
        self._cache[key] = data
        self._cached_bytes += len(data)
        while self._cached_bytes > CACHE_BYTES:
            _, old = self._cache.popitem(last=False)
            self._cached_bytes -= len(old)

    async def warm_up(self) -> None:
        """Build sprites and fonts now where the pictures are drawn: in the workers (which
        start now and warm up before they take their first picture), or here in threads
        mode. (Not here as well: that memory would sit unused, a worker that dies is
        replaced at once, and the one picture drawn here meanwhile may be slower.)"""
        pools = [pool for lane in self._lanes if (pool := lane.start()) is not None]
        if not pools:
            await asyncio.to_thread(warm_up, self._warm)
            return
        loop = asyncio.get_running_loop()
        await asyncio.gather(*(loop.run_in_executor(pool, warm_up, ()) for pool in pools))
        self._rest_later()

    def expect(self) -> None:
        """Pictures are likely soon (a table was opened): start the workers warming up now,
        if they are not running, without waiting for them."""
        if self.workers <= 0 or all(lane.pool is not None for lane in self._lanes):
            return
        for lane in self._lanes:
            lane.start()  # now: a picture asked for meanwhile goes to this worker
        task = asyncio.get_running_loop().create_task(self._expected())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _expected(self) -> None:
        try:
            await self.warm_up()
        except Exception:  # the first picture starts a worker again, and says why it can't
            log.warning("the picture workers could not warm up", exc_info=True)

    def close(self) -> None:
        log.info("pictures: %s", json.dumps(self.figures.summary()))
        if self._resting is not None:
            self._resting.cancel()
        waiting = [job for _, _, job in self._queue]
        waiting += [lane.begun for lane in self._lanes if lane.begun is not None]
        for job in waiting:
            job.future.cancel()
        self._queue.clear()
        for lane in self._lanes:
            lane.begun = None
            lane.close()
