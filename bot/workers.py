"""Worker processes that never outlive the bot.

The pictures and the computer players' thinking run in process pools. A pool's workers wait
on a queue whose writing end they hold themselves, so when the bot is killed (SIGKILL, out of
memory: nothing tells the pool to stop) they would sleep on forever, orphaned. Each worker
made here watches its parent and leaves as soon as it is gone.
"""

from __future__ import annotations

import multiprocessing
import os
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any

#: How often a worker looks whether the bot that started it is still there.
PARENT_CHECK_SECONDS = 0.5


def process_pool(
    workers: int, start: Callable[..., Any] | None = None, args: Sequence[Any] = ()
) -> ProcessPoolExecutor:
    """A pool of ``workers`` spawned processes that leave when this process is gone;
    ``start(*args)`` runs first in each (a warm-up), at module level so it pickles."""
    # "spawn": forking a process that runs an event loop and a database thread is unsafe.
    return ProcessPoolExecutor(
        max_workers=workers,
        mp_context=multiprocessing.get_context("spawn"),
        initializer=_worker_start,
        initargs=(os.getpid(), start, tuple(args)),
    )


def _worker_start(parent: int, start: Callable[..., Any] | None, args: Sequence[Any]) -> None:
    threading.Thread(target=_follow, args=(parent,), name="follow-parent", daemon=True).start()
    if start is not None:
        start(*args)


def _follow(parent: int) -> None:
    # Once the parent is gone the worker is re-parented (to init or a subreaper).
    while os.getppid() == parent:
        time.sleep(PARENT_CHECK_SECONDS)
    os._exit(0)
