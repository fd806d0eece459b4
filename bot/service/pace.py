"""A fair clock for games over days: every player's time bank, and when to remind them.

Chess by correspondence and the big turn-based sites count time this way: each player has a
bank (three days at the start, say). The time a turn takes comes out of the mover's bank and
every move adds a little back (twelve hours), up to a cap (five days); a player who answers
in minutes saves time for a busy week, and nobody can stall a table for longer than the cap.
A server picks a :data:`PACES` entry; ``"none"`` runs no clock at all.

A turn's deadline is when its player's bank runs out. Two reminders come before it: when half
the bank is used, and near its end (a tenth of the bank before it, at least an hour). Time a
player spent away (:class:`Away`) does not count, so going away freezes their clocks.

Quiet hours (:class:`QuietHours`) are the server's night in its time zone and, on
weekdays, its busy hours (school): no reminder is sent then (it waits for them to end), and
posts do not notify anybody. The ``"week"`` pace, short enough that a game of 36 or 54
tiles with three or four players ends within a week, sleeps then too: a game on it keeps
the server's quiet hours in its clock (``clock["night"]`` and ``clock["busy"]``,
:func:`new_clock`) and their hours do not count, like time away, so nobody's turn runs out
while they sleep or sit in class; a turn told in them (a post that notified nobody) is
reminded as soon as they end. Whatever the pace, nobody is reminded more than
:data:`REMINDERS_A_DAY` times in one game within a day (a custom pace, a deployment's own,
excepted).

How long a game takes in practice, which the lobby shows, is
:mod:`bot.service.turn_times`'s.

Everything here is a pure function of times in milliseconds, tested on a fake clock.
"""

from __future__ import annotations

import heapq
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from typing import Any, Literal
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

# The paces by name live beside the settings, which check ARKBOT_PACE with them; their
# names are this module's too, where its callers find them.
from bot.paces import CUSTOM as CUSTOM
from bot.paces import DAY_MS as DAY_MS
from bot.paces import DEFAULT_PACE as DEFAULT_PACE
from bot.paces import HOUR_MS as HOUR_MS
from bot.paces import MAX_BANK_MS as MAX_BANK_MS
from bot.paces import MIN_BANK_MS as MIN_BANK_MS
from bot.paces import PACES as PACES
from bot.paces import REMINDERS_A_DAY as REMINDERS_A_DAY
from bot.paces import Pace as Pace
from bot.paces import is_pace as is_pace
from bot.paces import pace_of as pace_of

#: The notices of a turn, in the order they fall due.
STAGES: tuple[Literal["reminder", "final", "timeout"], ...] = ("reminder", "final", "timeout")


@dataclass(frozen=True, slots=True)
class Away:
    """A player's time away (``until`` may be in the future)."""

    start_ms: int
    until_ms: int


def _nights(start: int, night: QuietHours | None) -> Iterator[tuple[int, int]]:
    """The server's quiet hours from ``start`` on (each night, and each weekday's busy
    hours), one (begin, end) a stretch, in order of their beginning."""
    if night is None or not (night.has_night or night.has_busy):
        return
    zone = night.tz()
    day = datetime.fromtimestamp(start / 1000, UTC).astimezone(zone).date() - timedelta(days=1)
    while True:
        # Every stretch begins on its own day, so a day's stretches in order, day after
        # day, are all of them in order.
        stretches = []
        if night.has_night:
            stretches.append(_stretch(day, night.start, night.end, zone))
        if night.has_busy and day.weekday() < 5:
            stretches.append(_stretch(day, night.busy_start, night.busy_end, zone))
        for begin_ms, end_ms in sorted(stretches):
            if end_ms > start:
                yield max(begin_ms, start), end_ms
        day += timedelta(days=1)


def _stretch(day: date, start: int, end: int, zone: ZoneInfo) -> tuple[int, int]:
    """From ``start`` o'clock on ``day`` to the next ``end`` o'clock (the next day's when it
    comes first), in ms. Read as wall-clock times: on the night the clocks go forward, a
    night from 22 to 8 is 9 hours long."""
    begin = datetime.combine(day, time(start), zone)
    finish = datetime.combine(day + timedelta(days=start > end), time(end), zone)
    return int(begin.timestamp() * 1000), int(finish.timestamp() * 1000)


def _pauses(start: int, away: Away | None, night: QuietHours | None) -> Iterator[tuple[int, int]]:
    """When the clock of a turn that began at ``start`` stands still: the player's time away
    (all of it from the turn's start, planned until its end) and the nights of a clock that
    sleeps; in order, those that touch merged."""
    stretches: list[tuple[int, int]] = []
    if away is not None and away.until_ms > start:
        stretches.append((max(start, away.start_ms), away.until_ms))
    merged: tuple[int, int] | None = None
    for begin, end in heapq.merge(stretches, _nights(start, night)):
        if merged is not None and begin <= merged[1]:
            merged = (merged[0], max(merged[1], end))
            continue
        if merged is not None:
            yield merged
        merged = (begin, end)
    if merged is not None:
        yield merged


def counted(start: int, end: int, away: Away | None = None, night: QuietHours | None = None) -> int:
    """How much of [start, end) counts on the clock: not the time away nor, for a clock
    that sleeps, the nights."""
    still = 0
    for begin, stop in _pauses(start, away, night):
        if begin >= end:
            break
        still += min(stop, end) - begin
    return max(0, end - start - still)


def when_counted(
    start: int, amount: int, away: Away | None = None, night: QuietHours | None = None
) -> int:
    """The moment the clock, running from ``start``, has counted ``amount``: time away and,
    for a clock that sleeps, the nights do not count."""
    at, left = start, amount
    for begin, end in _pauses(start, away, night):
        # Counted up exactly as a pause begins: it falls due when the pause is over (never
        # at the first moment of a night).
        if begin - at > left:
            break
        left -= max(0, begin - at)
        at = max(at, end)
    return at + left


def after_move(
    pace: Pace,
    bank_ms: int,
    turn_start_ms: int,
    now_ms: int,
    away: Away | None,
    night: QuietHours | None = None,
) -> int:
    """The bank after a turn that began at ``turn_start_ms`` and ended at ``now_ms``: the
    time used (away time, and a sleeping clock's nights, not counted) goes, the increment
    comes, the cap holds."""
    used = counted(turn_start_ms, now_ms, away, night)
    return min(pace.cap_ms, max(0, bank_ms - used) + pace.increment_ms)


def deadline(
    bank_ms: int,
    turn_start_ms: int,
    now_ms: int,
    away: Away | None,
    night: QuietHours | None = None,
) -> int:
    """When the bank of a turn that began at ``turn_start_ms`` runs out, as seen at
    ``now_ms``: time away (so far, and planned until its end) and a sleeping clock's nights
    move it on. (Planned time away counts in full, so it is the same at any ``now_ms``.)"""
    return when_counted(turn_start_ms, bank_ms, away, night)


def schedule(
    bank_ms: int,
    turn_start_ms: int,
    now_ms: int,
    away: Away | None,
    night: QuietHours | None = None,
) -> dict[str, int]:
    """When each notice of the turn falls due: half the bank used, near its end, at zero.
    A clock that sleeps (``night``) reminds a turn that began in the quiet hours as soon as
    its clock starts: the post that told it then notified nobody."""
    end = deadline(bank_ms, turn_start_ms, now_ms, away, night)
    near = max(HOUR_MS, bank_ms // 10)  # the same as last_stretch
    told_silently = night is not None and night.quiet(turn_start_ms)
    first = 0 if told_silently else bank_ms // 2
    reminder = when_counted(turn_start_ms, first, away, night)
    # A bank too small for a last call after the reminder has none: it would come with the
    # reminder (a late one stands for both) or with the time-out itself.
    final = when_counted(turn_start_ms, bank_ms - near, away, night)
    return {"reminder": reminder, "final": final if final > reminder else end, "timeout": end}


def new_clock(pace: Pace, seats: int, night: QuietHours) -> dict[str, Any]:
    """A new game's clock: every seat's bank full; a clock that sleeps keeps the server's
    quiet hours as they are now (its night, and its weekdays' busy hours when it has them;
    a server without either has none, and its clock never sleeps)."""
    clock: dict[str, Any] = {"pace": pace.name, "banks": [pace.start_ms] * seats}
    if pace.sleeps and (night.has_night or night.has_busy):
        clock["night"] = [night.zone, night.start, night.end]
        if night.has_busy:
            clock["busy"] = [night.busy_start, night.busy_end]
    return clock


def night_of(clock: Mapping[str, Any] | None) -> QuietHours | None:
    """The quiet hours a game's clock sleeps through (None: it never sleeps, or what is
    stored is damaged)."""
    kept = clock.get("night") if clock is not None else None
    if not (isinstance(kept, list) and len(kept) == 3):
        return None
    zone, start, end = kept
    busy = clock.get("busy", [0, 0]) if clock is not None else [0, 0]
    if not (isinstance(busy, list) and len(busy) == 2):
        return None
    hours = all(isinstance(h, int) and 0 <= h < 24 for h in (start, end, *busy))
    return QuietHours(zone, start, end, *busy) if isinstance(zone, str) and hours else None


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
    """The server's quiet hours in ``zone``: its night, from ``start`` to ``end`` o'clock
    (start == end: none), and on weekdays (Monday to Friday) its busy hours, from
    ``busy_start`` to ``busy_end`` o'clock (school; equal: none). Nobody is pinged in
    either, and a clock that sleeps stands still in both."""

    zone: str = "UTC"
    start: int = 22
    end: int = 8
    busy_start: int = 0
    busy_end: int = 0

    @property
    def has_night(self) -> bool:
        return self.start != self.end

    @property
    def has_busy(self) -> bool:
        return self.busy_start != self.busy_end

    def tz(self) -> ZoneInfo:
        try:
            return ZoneInfo(self.zone)
        except (ZoneInfoNotFoundError, ValueError):
            return ZoneInfo("UTC")

    def quiet(self, now_ms: int) -> bool:
        local = datetime.fromtimestamp(now_ms / 1000, UTC).astimezone(self.tz())
        if _within(local.hour, self.start, self.end):
            return True
        return local.weekday() < 5 and _within(local.hour, self.busy_start, self.busy_end)


def _within(hour: int, start: int, end: int) -> bool:
    """Whether ``hour`` falls from ``start`` to ``end`` o'clock (past midnight when
    ``start`` > ``end``; never when they are equal)."""
    if start <= end:
        return start <= hour < end
    return hour >= start or hour < end


def valid_zone(name: str) -> bool:
    try:
        ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return False
    return True
