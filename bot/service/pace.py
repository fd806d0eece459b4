"""A fair clock for games over days: every player's time bank, and when to remind them.

Chess by correspondence and the big turn-based sites count time this way: each player has a
bank (three days at the start, say). The time a turn takes comes out of the mover's bank and
every move adds a little back (twelve hours), up to a cap (five days); a player who answers
in minutes saves time for a busy week, and nobody can stall a table for longer than the cap.
A server picks a :data:`PACES` entry; ``"none"`` runs no clock at all.

A turn's deadline is when its player's bank runs out. Two reminders come before it: when half
the bank is used, and near its end (a tenth of the bank before it, at least an hour). Time a
player spent away (:class:`Away`) does not count, so going away freezes their clocks.

Quiet hours are the server's night in its time zone: no reminder is sent then (it waits for
the morning), and posts do not notify anybody.

Everything here is a pure function of times in milliseconds, tested on a fake clock.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, Literal
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

HOUR_MS = 3_600_000
DAY_MS = 24 * HOUR_MS


@dataclass(frozen=True, slots=True)
class Pace:
    """A time bank's rules: what a player starts with, gains per move, and can hold."""

    name: str
    start_ms: int
    increment_ms: int
    cap_ms: int


#: The paces a server may choose (``"none"``: no clock, no reminders, no time-outs).
PACES: dict[str, Pace | None] = {
    "relaxed": Pace("relaxed", 5 * DAY_MS, 24 * HOUR_MS, 7 * DAY_MS),
    "normal": Pace("normal", 3 * DAY_MS, 12 * HOUR_MS, 5 * DAY_MS),
    "fast": Pace("fast", 1 * DAY_MS, 4 * HOUR_MS, 2 * DAY_MS),
    "none": None,
}
DEFAULT_PACE = "normal"
CUSTOM = "custom:"
#: A custom pace's time bank (START and CAP) is one minute at least: a shorter one runs out
#: before a player has seen the board (every turn would time out). A minute, not an hour,
#: as the end-to-end tests play on banks of a couple of minutes.
MIN_BANK_MS = 60_000
#: ... and a year at most, far past any game a group plays, and well inside what a
#: timestamp in milliseconds and a ``timedelta`` hold (a forged ``1e308`` is refused).
MAX_BANK_MS = 365 * DAY_MS


def pace_of(name: str) -> Pace | None:
    """The pace called ``name``: a key of :data:`PACES` (``"none"``: no clock), or
    ``"custom:START,INCREMENT,CAP"`` in hours, a deployment's own clock (a weekend camp's,
    or seconds for the end-to-end tests). ``ValueError`` for anything else."""
    if name in PACES:
        return PACES[name]
    if not name.startswith(CUSTOM):
        raise ValueError(f"A pace is one of {', '.join(PACES)} or {CUSTOM}START,INCREMENT,CAP")
    try:
        start, increment, cap = (float(part) for part in name[len(CUSTOM) :].split(","))
    except ValueError:
        raise ValueError(
            f"A custom pace is {CUSTOM}START,INCREMENT,CAP in hours, like custom:48,12,96"
        ) from None
    # Written so that NaN fails every bound (each comparison with it is false).
    in_bank = MIN_BANK_MS <= start * HOUR_MS <= cap * HOUR_MS <= MAX_BANK_MS
    if not (in_bank and 0 <= increment * HOUR_MS <= MAX_BANK_MS):
        raise ValueError(
            "A custom pace needs a minute <= START <= CAP <= a year, 0 <= INCREMENT <= a year"
        )
    return Pace(name, round(start * HOUR_MS), round(increment * HOUR_MS), round(cap * HOUR_MS))


def is_pace(name: str) -> bool:
    try:
        pace_of(name)
    except ValueError:
        return False
    return True


#: The notices of a turn, in the order they fall due.
STAGES: tuple[Literal["reminder", "final", "timeout"], ...] = ("reminder", "final", "timeout")


@dataclass(frozen=True, slots=True)
class Away:
    """A player's time away (``until`` may be in the future)."""

    start_ms: int
    until_ms: int


def overlap(start: int, end: int, away: Away | None) -> int:
    """How much of [start, end) the player was away, in ms."""
    if away is None:
        return 0
    return max(0, min(end, away.until_ms) - max(start, away.start_ms))


def after_move(pace: Pace, bank_ms: int, turn_start_ms: int, now_ms: int, away: Away | None) -> int:
    """The bank after a turn that began at ``turn_start_ms`` and ended at ``now_ms``: the
    time used (away time not counted) goes, the increment comes, the cap holds."""
    used = max(0, now_ms - turn_start_ms - overlap(turn_start_ms, now_ms, away))
    return min(pace.cap_ms, max(0, bank_ms - used) + pace.increment_ms)


def deadline(bank_ms: int, turn_start_ms: int, now_ms: int, away: Away | None) -> int:
    """When the bank of a turn that began at ``turn_start_ms`` runs out, as seen at
    ``now_ms``: time away (so far, and planned until its end) moves it on."""
    if away is None or away.until_ms <= turn_start_ms:
        return turn_start_ms + bank_ms
    # The whole away period that falls after the turn began does not count.
    return turn_start_ms + bank_ms + overlap(turn_start_ms, max(now_ms, away.until_ms), away)


def schedule(bank_ms: int, turn_start_ms: int, now_ms: int, away: Away | None) -> dict[str, int]:
    """When each notice of the turn falls due: half the bank used, near its end, at zero."""
    end = deadline(bank_ms, turn_start_ms, now_ms, away)
    near = max(HOUR_MS, bank_ms // 10)  # the same as last_stretch
    reminder = end - bank_ms + bank_ms // 2
    # A bank too small for a last call after the reminder has none: it would come with the
    # reminder (a late one stands for both) or with the time-out itself.
    final = end - near if end - near > reminder else end
    return {"reminder": reminder, "final": final, "timeout": end}


def last_stretch(clock: dict[str, Any], seat: int) -> int:
    """The time a player gets after a reminder that came only when their time was up (the
    bot was down): what the last call before the deadline would have left them."""
    return max(HOUR_MS, int(clock["banks"][seat]) // 10)


def next_due(times: dict[str, int], sent: Sequence[str]) -> int | None:
    """The earliest notice not yet sent (None when all are)."""
    left = [times[stage] for stage in STAGES if stage not in sent]
    return min(left) if left else None


@dataclass(frozen=True, slots=True)
class QuietHours:
    """The server's night: from ``start`` to ``end`` o'clock in ``zone`` (start == end: none)."""

    zone: str = "UTC"
    start: int = 22
    end: int = 8

    def tz(self) -> ZoneInfo:
        try:
            return ZoneInfo(self.zone)
        except (ZoneInfoNotFoundError, ValueError):
            return ZoneInfo("UTC")

    def quiet(self, now_ms: int) -> bool:
        if self.start == self.end:
            return False
        hour = datetime.fromtimestamp(now_ms / 1000, UTC).astimezone(self.tz()).hour
        if self.start < self.end:
            return self.start <= hour < self.end
        return hour >= self.start or hour < self.end

    def ends_after(self, now_ms: int) -> int:
        """When the quiet hours that hold at ``now_ms`` end (``now_ms`` if they do not)."""
        if not self.quiet(now_ms):
            return now_ms
        local = datetime.fromtimestamp(now_ms / 1000, UTC).astimezone(self.tz())
        end = local.replace(hour=self.end, minute=0, second=0, microsecond=0)
        if end <= local:
            end += timedelta(days=1)
        return int(end.timestamp() * 1000)


def valid_zone(name: str) -> bool:
    try:
        ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return False
    return True
