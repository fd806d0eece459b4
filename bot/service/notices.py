"""Notices: the reminders and time-outs a turn's clock brings (see :mod:`bot.service.pace`),
claimed and then marked sent; games nobody moves in warned and ended; and what each player
asks of them (pings by DM, time away).

A part of :class:`~bot.service.service.GameService` (``service.notices``); the time-out's
move itself is played by ``service.play.time_out``."""

from __future__ import annotations

import json
from datetime import datetime, timedelta
from typing import Any

from bot.service.clock import to_ms
from bot.service.common import MIN_STALL, next_due_at, record_of, stale, td_ms
from bot.service.core import Core
from bot.service.models import DueTurn, GameRecord, ServiceError
from bot.service.pace import (
    DAY_MS,
    STAGES,
    counted,
    is_pace,
    last_stretch,
    night_of,
    pace_of,
    schedule,
    when_counted,
)

#: A player may be away a month at most: a longer absence stops their games' clocks for so
#: long that the others are better served by a moderator finding a new player (and it is
#: what the command offers).
MAX_AWAY_DAYS = 30


def _shown(value: object) -> str:
    """A forged number as a refusal may quote it: short, whatever was sent."""
    return (f"{value:g}" if isinstance(value, float) else str(value))[:40]


class Notices:
    """What falls due as time passes, and players' time away (``service.notices``)."""

    def __init__(self, core: Core) -> None:
        self._core = core

    async def ping(self, user_id: int) -> str:
        """How ``user_id`` hears it is their turn: "channel" (the default), "dm" or "both"."""
        async with self._core.storage.read() as tx:
            return await tx.people.ping(user_id)

    async def set_ping(self, user_id: int, ping: str) -> None:
        """How ``user_id`` hears it is their turn: "channel", "dm" or "both"."""
        if ping not in ("channel", "dm", "both"):
            raise ServiceError("bad_ping")
        async with self._core.storage.write() as tx:
            await tx.people.set_ping(user_id, ping)

    def away_until(self, days: float) -> datetime | None:
        """The moment a player away for ``days`` from now is back (0: back now, None),
        refused unless 0 to :data:`MAX_AWAY_DAYS` (checked before it is made a duration, so
        a forged ``1e308`` cannot overflow; NaN fails the comparison too)."""
        number = isinstance(days, int | float) and not isinstance(days, bool)
        if not (number and 0 <= days <= MAX_AWAY_DAYS):
            raise ServiceError("bad_away_days", days=_shown(days), max=MAX_AWAY_DAYS)
        return self._core.clock.now() + timedelta(days=days) if days > 0 else None

    async def set_away(self, user_id: int, until: datetime | None) -> list[GameRecord]:
        """``user_id`` is away until ``until`` (None: back now), at most
        :data:`MAX_AWAY_DAYS` ahead: their clocks stand still meanwhile. Returns the active
        games they play in (to say so in each)."""
        now = self._core.now_ms()
        until_ms = to_ms(until) if until is not None else None
        if until_ms is not None and until_ms <= now:
            raise ServiceError("away_in_past")
        if until_ms is not None and until_ms - now > MAX_AWAY_DAYS * DAY_MS:
            days = (until_ms - now) / DAY_MS
            raise ServiceError("bad_away_days", days=_shown(days), max=MAX_AWAY_DAYS)
        async with self._core.storage.write() as tx:
            games = await tx.games.of_user(user_id, ("active",))
            old = next(
                (s.away for g in games for s in g.seats if s.user_id == user_id and s.away), None
            )
            if until_ms is None:
                # Back: the time away so far still does not count; the plan ends now.
                start, end = (old.start_ms, now) if old and old.start_ms < now else (None, None)
            else:
                keep = old is not None and old.start_ms <= now < old.until_ms
                start, end = (old.start_ms if keep and old else now), until_ms
            await tx.people.set_away(user_id, start, end)
            refreshed = []
            for record in games:
                fresh = await tx.games.get(record.id)
                if fresh is None:
                    continue
                seat = fresh.current
                if seat is not None and seat.user_id == user_id and fresh.waiting_since:
                    turn_start = to_ms(fresh.waiting_since)
                    due = next_due_at(fresh.clock, seat, seat.index, turn_start, now, ())
                    await tx.games.update(fresh.id, next_due_at=due)
                refreshed.append(fresh)
        return refreshed

    # ================================================================ reminders, time-outs

    async def due(self, now: datetime | None = None) -> list[DueTurn]:
        """The notices due now: a reminder when half the player's time bank is used, the
        last one near its end, the time-out at zero (see :mod:`bot.service.pace`).

        Each is offered until :meth:`mark_sent` (or ``play.time_out``) records it; of several
        that fell due while nobody looked (the bot was down), only the latest is offered.
        Reminders wait out the server's quiet hours, and so does telling the moderators; and
        a reminder waits while its player had the pace's most in this game within a day.
        """
        core = self._core
        now_ms = to_ms(now or core.clock.now())
        async with core.storage.read() as tx:
            rows = await tx.notices.due_games(now_ms, now_ms - core.lease_ms, core.shards)
        found: list[DueTurn] = []
        for row in rows:
            record, seat = row.record, row.record.current
            if seat is None or record.clock is None or record.waiting_since is None:
                continue
            start = to_ms(record.waiting_since)
            night = night_of(record.clock)
            times = schedule(record.clock["banks"][seat.index], start, now_ms, seat.away, night)
            ready = [st for st in STAGES if times[st] <= now_ms and st not in row.sent]
            if not ready:
                continue
            kind = ready[-1]
            deadline_ms = times["timeout"]
            # Nobody is timed out without a reminder: when the time ran out while no
            # reminder went (the bot was down), one goes now with a last stretch of time.
            late = kind == "timeout" and not {"reminder", "final"} & set(row.sent)
            if late:
                stretch = last_stretch(record.clock, seat.index)
                deadline_ms = when_counted(now_ms, stretch, seat.away, night)
                kind = "reminder"
            settings = await core.recent_guild_settings(record.guild_id)
            quiet = settings.quiet_hours().quiet(now_ms)
            pinging = kind != "timeout" or settings.timeout_action == "notify"
            away = seat.away is not None and seat.away.start_ms <= now_ms < seat.away.until_ms
            if (pinging and quiet) or (away and kind != "timeout"):
                continue
            if kind != "timeout" and await self._reminded_enough(record, now_ms):
                continue
            found.append(
                DueTurn(
                    kind=kind,
                    record=record,
                    seat=seat,
                    version=record.version,
                    waiting_since=record.waiting_since,
                    dm=seat.ping in ("dm", "both"),
                    timeout_action=settings.timeout_action,
                    moderator_role_id=settings.moderator_role_id,
                    deadline_ms=deadline_ms,
                    late=late,
                )
            )
        return found

    async def _reminded_enough(self, record: GameRecord, now_ms: int) -> bool:
        """Whether the current player of ``record`` had as many reminders in this game
        within the last day as its pace gives (a late one, standing for two, counts once)."""
        clock, seat = record.clock, record.current
        pace = pace_of(clock["pace"]) if clock and is_pace(clock["pace"]) else None
        if pace is None or pace.reminders_a_day is None or seat is None or seat.user_id is None:
            return False
        async with self._core.storage.read() as tx:
            sent = await tx.notices.reminded_since(record.id, seat.user_id, now_ms - DAY_MS)
        return sent >= pace.reminders_a_day

    async def claim(self, due: DueTurn) -> bool:
        """Reserve a due notice for sending; ``False`` if another caller has it (or it
        was sent). Call :meth:`mark_sent` once it went out."""
        holder = await self._core.claimant()
        now = self._core.now_ms()
        async with self._core.storage.write() as tx:
            record = await tx.games.get(due.record.id)
            still_waiting = (
                record is not None
                and record.status == "active"
                and record.version == due.version
                and record.current is not None
                and record.current.user_id == due.seat.user_id
            )
            if not still_waiting or due.seat.user_id is None:
                return False
            return await tx.notices.claim(
                due.record.id,
                due.version,
                due.seat.user_id,
                due.kind,
                now,
                now - self._core.lease_ms,
                holder,
            )

    async def mark_sent(self, due: DueTurn) -> None:
        """Record that the reminder (or the moderators' time-out notice) went out; the turn's
        next notice is the next stage after it (earlier ones it stood in for are done)."""
        if due.seat.user_id is None:
            return
        now = self._core.now_ms()
        async with self._core.storage.write() as tx:
            await tx.notices.mark_sent(due.record.id, due.version, due.seat.user_id, due.kind, now)
            record = await tx.games.get(due.record.id)
            if record is None or record.version != due.version or record.clock is None:
                return
            done = STAGES[: STAGES.index(due.kind) + 1] if due.kind in STAGES else STAGES
            start = to_ms(record.waiting_since) if record.waiting_since else now
            seat = record.seats[due.seat.index]
            clock = record.clock
            if due.late and due.deadline_ms is not None:
                # The late reminder stands for the last call too; the bank grows to the
                # deadline it told (how much longer than the time that had run out).
                done = ("reminder", "final")
                await tx.notices.mark_sent(
                    due.record.id, due.version, due.seat.user_id, "final", now
                )
                night = night_of(clock)
                bank = clock["banks"][seat.index]
                ran_out = schedule(bank, start, now, seat.away, night)["timeout"]
                banks = list(clock["banks"])
                banks[seat.index] += counted(ran_out, due.deadline_ms, seat.away, night)
                clock = {**clock, "banks": banks}
            changes: dict[str, Any] = {}
            if clock is not record.clock:
                changes["clock"] = json.dumps(clock)
            await tx.games.update(
                record.id,
                next_due_at=next_due_at(clock, seat, seat.index, start, now, done),
                **changes,
            )

    # ================================================================ stalled games

    async def stalled(self) -> tuple[list[GameRecord], list[GameRecord]]:
        """Games nobody moved in for long: (those to warn now, those to end now). A game is
        warned once, when six sevenths of its server's stall time have passed without a
        move, and ended when all of it has (see :meth:`end_stalled`)."""
        core = self._core
        now = core.now_ms()
        warn, end = [], []
        async with core.storage.read() as tx:
            candidates = await tx.notices.quiet_games(now - td_ms(MIN_STALL * 6 / 7), core.shards)
            for record in candidates:
                settings = await core.guild_settings_in(tx, record.guild_id)
                idle = now - (record.last_move_ms or now)
                limit = td_ms(settings.stall_after)
                if idle >= limit:
                    end.append(record)
                elif idle >= limit * 6 // 7 and not await tx.notices.sent(
                    record.id, record.version, record.creator_id, "stall"
                ):
                    warn.append(record)
        return warn, end

    async def warned_stall(self, record: GameRecord) -> None:
        """The stall warning of ``record`` went out (it is not sent again for this version)."""
        async with self._core.storage.write() as tx:
            await tx.notices.mark_sent(
                record.id, record.version, record.creator_id, "stall", self._core.now_ms()
            )

    async def end_stalled(self, record: GameRecord) -> GameRecord:
        """End a stalled game, logged as the bot's own act; its standings stand."""
        core = self._core
        async with core.storage.write() as tx:
            fresh = await tx.games.get(record.id)
            if fresh is None or fresh.status != "active" or fresh.version != record.version:
                raise stale()
            core.ending.add(record.id)
            now = core.now_ms()
            await tx.games.update(
                record.id, status="ended", current_seat=None, finished_at=now, updated_at=now
            )
            await tx.log.forget_caches(record.id)
            await core.log_act(tx, record.guild_id, record.id, 0, "stall_end", None, {})
            ended = await record_of(tx, record.id)
        core.forget(record.id)
        return ended
