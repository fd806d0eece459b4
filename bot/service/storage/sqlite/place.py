"""A process's place on a SQLite file: a lock file beside the database (``<file>-place0``,
``<file>-place1``, ...), held locked by the process while it claims work there.

The operating system ends the lock with the process however it ends (a SIGKILL and a crash
included), and never while it lives: so a place's lock that can be taken
means that whoever held the place before is gone. A lock is taken per open file (``flock``
on Linux and macOS, ``LockFileEx`` on Windows), so two services of one process (tests do
that) have two places too. The files stay: taking a lock on a file another process might
be opening at that moment is safe, unlinking it is not.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from bot.service.storage.values import StorageError

#: More places than processes ever share one file (SQLite is one process's database; a
#: rolling restart, or tests, make it two or three for a while).
MAX_PLACES = 100


def _try_lock(fd: int) -> bool:
    """Lock the file ``fd`` for this open file alone, at once; False if another holds it."""
    try:
        if sys.platform == "win32":
            import msvcrt

            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
        else:
            import fcntl

            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return False
    return True


class FilePlace:
    """The lowest free place beside the database ``path``, held until :meth:`close`."""

    def __init__(self, path: Path) -> None:
        self._path = path
        #: The lock file held open (and locked), and its number.
        self._fd: int | None = None
        self._number = 0
        self._closed = False

    def hold(self) -> tuple[int, bool]:
        """The place held: (its number, whether it was taken just now)."""
        if self._closed:
            raise StorageError(f"{self._path} is closed")
        if self._fd is not None:
            return self._number, False
        for number in range(MAX_PLACES):
            name = f"{self._path}-place{number}"
            try:
                # Not inherited by the workers this process starts (they are spawned, and
                # Python opens files non-inheritable): the lock ends with this process.
                fd = os.open(name, os.O_RDWR | os.O_CREAT, 0o644)
            except OSError as exc:
                raise StorageError(
                    f"cannot open {name}, which marks this process's claims on {self._path}: "
                    f"{exc}. Check that this user may write in that folder."
                ) from None
            if _try_lock(fd):
                self._fd, self._number = fd, number
                return number, True
            os.close(fd)
        raise StorageError(
            f"{MAX_PLACES} processes already use {self._path}; SQLite is for one process "
            "(several are run on PostgreSQL)."
        )

    def close(self) -> None:
        """Give the place up (closing the file ends its lock), for good."""
        self._closed = True
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None
