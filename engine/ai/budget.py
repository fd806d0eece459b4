"""How long a computer player may think: a number of search iterations, or seconds.

With ``iterations`` the search is a pure function of the game and the seed (tests repeat a
move exactly). With seconds, :func:`time.perf_counter` is read only to stop searching; the
move found is still legal, only which one may vary with the machine's speed.
"""

from __future__ import annotations

import time

#: The share of a time budget the search may use: the rest is kept for what follows the
#: last iteration and for a clock that is late now and then (a busy machine), so that a
#: move comes within its budget.
SAFE_SHARE = 0.9


class Budget:
    """Counts iterations, or watches the clock when no count is given."""

    __slots__ = ("_deadline", "_last", "_left", "_longest", "done")

    def __init__(self, seconds: float = 1.0, iterations: int | None = None) -> None:
        if iterations is not None and iterations < 0:
            raise ValueError("iterations must not be negative")
        if iterations is None and seconds <= 0:
            raise ValueError("the time budget must be positive")
        self._left = iterations
        now = time.perf_counter()
        self._deadline = None if iterations is not None else now + SAFE_SHARE * seconds
        self._last = now
        self._longest = 0.0
        self.done = 0

    @property
    def counted(self) -> bool:
        """True when the budget is a number of iterations (the search is reproducible)."""
        return self._left is not None

    def more(self) -> bool:
        """Whether another iteration may start; counts it if so."""
        if self._left is not None:
            if self.done >= self._left:
                return False
        else:
            deadline = self._deadline
            assert deadline is not None  # a budget in seconds has its deadline
            now = time.perf_counter()
            if self.done:
                self._longest = max(self._longest, now - self._last)
            self._last = now
            # Stop when the longest iteration so far would overrun the deadline.
            if now + self._longest >= deadline:
                return False
        self.done += 1
        return True

    def fraction_left(self) -> float:
        """Roughly how much of the budget is left, from 1 down to 0."""
        if self._left is not None:
            return 1.0 - self.done / self._left if self._left else 0.0
        return 1.0  # the clock budget is checked by more() alone
