"""Time, injected: the service never calls ``datetime.now`` itself.

Reminders and time-outs depend on "now"; tests move a :class:`FakeClock` forward by hours
instead of sleeping, and the bot uses :class:`SystemClock`.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Protocol, overload


class Clock(Protocol):
    """Anything that tells the current time as an aware UTC datetime."""

    def now(self) -> datetime: ...


class SystemClock:
    """The real time."""

    def now(self) -> datetime:
        return datetime.now(UTC)


class FakeClock:
    """A clock that stands still until told to move; for tests and benchmarks."""

    def __init__(self, start: datetime | None = None) -> None:
        self._now = start or datetime(2024, 1, 1, 12, 0, tzinfo=UTC)
        if self._now.tzinfo is None:
            raise ValueError("FakeClock needs an aware datetime")

    def now(self) -> datetime:
        return self._now

    def advance(self, delta: timedelta | None = None, **kwargs: float) -> datetime:
        """Move forward by ``delta`` or by ``timedelta(**kwargs)``; returns the new time."""
        self._now += delta if delta is not None else timedelta(**kwargs)
        return self._now


def to_ms(moment: datetime) -> int:
    """Milliseconds since the epoch: how the database stores every time."""
    if moment.tzinfo is None:
        raise ValueError("naive datetimes are ambiguous; pass an aware (UTC) datetime")
    return int(moment.timestamp() * 1000)


@overload
def from_ms(ms: int) -> datetime: ...
@overload
def from_ms(ms: None) -> None: ...
def from_ms(ms: int | None) -> datetime | None:
    """The inverse of :func:`to_ms` (``None`` stays ``None``)."""
    return None if ms is None else datetime.fromtimestamp(ms / 1000, UTC)
