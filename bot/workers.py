"""Worker processes that never outlive the bot.

The pictures and the computer players' thinking run in process pools. A pool's workers wait
on a queue whose writing end they hold themselves, so when the bot is killed (SIGKILL, out of
memory: nothing tells the pool to stop) they would sleep on forever, orphaned. Each worker
made here watches its parent and leaves as soon as it is gone.

A worker may also keep the memory it frees (:func:`keep_freed_memory`: a picture's canvas
buffers are reused by the next picture instead of being given back to the system and faulted
in again), and give it back after something unusually large (:func:`trim_freed_memory`).
"""

from __future__ import annotations

import contextlib
import ctypes
import multiprocessing
import os
import sys
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any

#: How often a worker looks whether the bot that started it is still there.
PARENT_CHECK_SECONDS = 0.5

#: glibc's mallopt() parameters (malloc.h) and the largest mmap threshold it accepts on a
#: 64-bit system: blocks up to this size come from the heap, which is then never trimmed.
M_TRIM_THRESHOLD = -1
M_MMAP_THRESHOLD = -3
MMAP_THRESHOLD_MAX = 32 * 1024 * 1024
#: Heap at the top that may stay unused before glibc gives it back: a few boards' buffers
#: (a 72-tile board's canvas is 12 MB), so the worker keeps what its pictures need, no more.
TRIM_THRESHOLD = 64 * 1024 * 1024


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


def keep_freed_memory() -> bool:
    """Have glibc keep what this process frees for its next allocations (returns whether it
    could: not on other C libraries or systems, where nothing changes).

    By default glibc serves a large block (a board's canvas: 12 MB) with a fresh mmap and
    gives it back when it is freed, so every picture faults its buffers in again, page by
    page (thousands of faults, a third of a board's CPU time). Served from the heap, and
    given back only when much more than that lies unused, the memory of one picture is the
    next one's.
    """
    if not sys.platform.startswith("linux"):
        return False
    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):
        return False
    mallopt.argtypes = (ctypes.c_int, ctypes.c_int)
    mallopt.restype = ctypes.c_int
    # mallopt answers 1 when it took the value (musl's stand-in answers 0).
    kept = mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD_MAX) == 1
    return mallopt(M_TRIM_THRESHOLD, TRIM_THRESHOLD) == 1 and kept


def trim_freed_memory() -> None:
    """Give what this process freed back to the system now (glibc only), e.g. after a
    picture much larger than the usual ones."""
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            ctypes.CDLL(None).malloc_trim(0)


def footprint() -> tuple[tuple[str, ...], float]:
    """What this process has loaded: the names of its modules, and its peak resident memory
    in MB (for the tests and bench/workers.py, run in a worker after its work)."""
    import resource

    peak_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # kilobytes on Linux
    return tuple(sorted(sys.modules)), peak_kb / 1024
