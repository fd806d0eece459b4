"""A teen's week, simulated: three players in Madrid who look at Discord before school
(07:40), after school (15:10) and in the evening (20:30), a few minutes either way, and
answer a ping outside school and night hours three times in ten, play each game and length
through the real service and its reminder rounds on a fake clock, at the ``week`` pace and
at the default one.

For each it prints how many days the game took, how many turns a computer played for a
player whose time ran out (all of them, at night, and in school hours), how many pings
reached someone at night (a turn post that notifies, or a reminder), and the lobby's
estimate of when the game should finish, beside what happened.

    python bench/week.py [--seed N]
"""

from __future__ import annotations

import argparse
import asyncio
import heapq
import os
import random
import tempfile
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

from _common import figure, header

from bot.games import plugins
from bot.service import FakeClock, GameRecord, GameService
from bot.service.clock import to_ms
from bot.settings import Settings

MADRID = ZoneInfo("Europe/Madrid")
GUILD, CHANNEL = 1000, 2000
PLAYERS = {11: "Lucía", 12: "Daan", 13: "Mateo"}
#: When each player looks at Discord, local time (hour, minute), every day.
LOOKS = ((7, 40), (15, 10), (20, 30))
JITTER_MIN = 10
ANSWER_CHANCE = 0.3
#: Monday 7 December 2026, 18:00 in Madrid: the table opens after school.
START = datetime(2026, 12, 7, 18, 0, tzinfo=MADRID)
#: A game still going after this long stops the simulation (it says so).
LIMIT = timedelta(days=30)
#: How often the bot's round looks again for a notice held back (quiet hours).
POLL = timedelta(minutes=10)
QUICK = Settings(think_workers=0, think_iterations=16)


def night(ms: int) -> bool:
    """The teens' night: 22:00 to 8:00 in Madrid."""
    hour = datetime.fromtimestamp(ms / 1000, MADRID).hour
    return hour >= 22 or hour < 8


def school(ms: int) -> bool:
    """School hours: 8:00 to 15:00 on weekdays in Madrid."""
    local = datetime.fromtimestamp(ms / 1000, MADRID)
    return local.weekday() < 5 and 8 <= local.hour < 15


@dataclass
class Outcome:
    days: float = 0.0
    turns: int = 0
    computer_turns: int = 0
    night_computer_turns: int = 0
    school_computer_turns: int = 0
    night_pings: int = 0
    estimate: tuple[float, float] | None = None
    finished: bool = False
    looks: list[tuple[int, int]] = field(default_factory=list)


def looks(seed: int, days: int) -> list[tuple[int, int]]:
    """(moment in ms, user) of every look of every player, in order."""
    rng = random.Random(seed)
    found = []
    for day in range(days):
        date = (START + timedelta(days=day)).date()
        for user in PLAYERS:
            for hour, minute in LOOKS:
                moment = datetime(date.year, date.month, date.day, hour, minute, tzinfo=MADRID)
                moment += timedelta(minutes=rng.uniform(-JITTER_MIN, JITTER_MIN))
                found.append((to_ms(moment), user))
    return sorted(found)


async def settings_for(service: GameService, pace: str) -> None:
    """The server as a moderator leaves it: only the pace chosen (with the time zone the
    ``week`` pace asks for), the server's locale Spanish."""
    note = getattr(service, "note_locale", None)
    if note is not None:
        await note(GUILD, "en-US", "es-ES")
    if pace != "default":
        await service.set_guild_settings(
            GUILD, 1, moderator=True, pace=pace, timezone="Europe/Madrid"
        )


async def play_turn(service: GameService, game_id: int, user: int) -> GameRecord:
    """The player makes their whole turn (the first legal action, until the turn passes)."""
    record, game = await service.play.state(game_id)
    while record.status == "active" and record.current and record.current.user_id == user:
        await service.play.act(record.id, user, game.legal_actions()[0], record.version)
        record, game = await service.play.state(game_id)
    return record


async def simulate(game_name: str, length: str | None, pace: str, seed: int) -> Outcome:
    clock = FakeClock(START.astimezone(UTC))
    with tempfile.TemporaryDirectory() as folder:
        service = await GameService.open(Path(folder) / "week.db", settings=QUICK, clock=clock)
        try:
            return await _run(service, clock, game_name, length, pace, seed)
        finally:
            await service.close()


async def _run(
    service: GameService, clock: FakeClock, game_name: str, length: str | None, pace: str, seed: int
) -> Outcome:
    out = Outcome()
    await settings_for(service, pace)
    users = list(PLAYERS)
    options = {"length": length} if length else {}
    await service.lobby.create_game(
        GUILD, CHANNEL, users[0], PLAYERS[users[0]], game_name, options, seed=seed
    )
    for user in users[1:]:
        record = await service.lobby.join(CHANNEL, user, PLAYERS[user])
    start_ms = to_ms(clock.now())
    estimate = await service.lobby.estimate(record)
    if estimate is not None:
        early = getattr(estimate, "early_ms", estimate.finish_ms)
        out.estimate = (
            (early - start_ms) / 86_400_000,
            (estimate.finish_ms - start_ms) / 86_400_000,
        )
    record = await service.lobby.start(CHANNEL, users[0])
    rng = random.Random(seed * 7919)
    # The events to come: (ms, kind, user, version): looks, and answers to pings.
    events: list[tuple[int, str, int, int]] = [
        (ms, "look", user, -1) for ms, user in looks(seed, LIMIT.days)
    ]
    heapq.heapify(events)
    told = -1  # the version whose turn post went out

    async def tell(record: GameRecord) -> None:
        """The turn post of a new turn: a ping unless the server's quiet hours hold; one
        who is awake and out of school may answer it."""
        nonlocal told
        if record.status != "active" or record.version == told or record.current is None:
            return
        told = record.version
        now = to_ms(clock.now())
        settings = await service.recent_guild_settings(GUILD)
        if not settings.quiet_hours().quiet(now):
            ping(record, now)

    def ping(record: GameRecord, now: int) -> None:
        user = record.current.user_id if record.current else None
        if user is None:
            return
        out.night_pings += night(now)
        if not (night(now) or school(now)) and rng.random() < ANSWER_CHANCE:
            answer = now + int(rng.uniform(2, 10) * 60_000)
            heapq.heappush(events, (answer, "answer", user, record.version))

    await tell(record)
    end_ms = start_ms + int(LIMIT.total_seconds() * 1000)
    while record.status == "active":
        now = to_ms(clock.now())
        due_ms = record.next_due_ms if record.next_due_ms is not None else end_ms
        if due_ms <= now:
            due_ms = now + int(POLL.total_seconds() * 1000)  # held back: the next round
        at = min(due_ms, events[0][0])
        if at >= end_ms:
            break
        if at > now:
            clock.advance(timedelta(milliseconds=at - now))
        now = at
        for due in await service.notices.due():
            if due.kind == "timeout":
                await service.play.time_out(due)
                out.computer_turns += 1
                out.turns += 1
                out.night_computer_turns += night(now)
                out.school_computer_turns += school(now)
            else:
                assert await service.notices.claim(due)
                await service.notices.mark_sent(due)
                ping(due.record, now)
        record = await service.play.get_game(record.id)
        await tell(record)
        while events and events[0][0] <= now:
            _, kind, user, version = heapq.heappop(events)
            if record.current is None or record.current.user_id != user:
                continue
            if kind == "answer" and version != record.version:
                continue
            record = await play_turn(service, record.id, user)
            out.turns += 1
            await tell(record)
    out.finished = record.status == "finished"
    out.days = (to_ms(clock.now()) - start_ms) / 86_400_000
    return out


def lengths(game_name: str) -> list[str | None]:
    """The game's lengths (its ``length`` option), or its one length."""
    front = plugins()[game_name].front
    for option in front.table_options:
        if option.name == "length":
            return [choice.value for choice in option.choices]
    return [None]


async def main(seed: int) -> None:
    header("week")
    load = os.getloadavg()[0]
    wall, cpu = time.perf_counter(), time.process_time()
    for pace in ("week", "default"):
        for game_name in sorted(plugins()):
            for length in lengths(game_name):
                out = await simulate(game_name, length, pace, seed)
                name = f"{pace}.{game_name}_{length or 'game'}"
                figure(f"{name}_days", out.days, "days" if out.finished else "days (unfinished)")
                figure(f"{name}_turns", out.turns, "turns")
                figure(f"{name}_computer_turns", out.computer_turns, "turns")
                figure(f"{name}_night_computer_turns", out.night_computer_turns, "turns")
                figure(f"{name}_school_computer_turns", out.school_computer_turns, "turns")
                figure(f"{name}_night_pings", out.night_pings, "pings")
                if out.estimate is not None:
                    figure(f"{name}_estimate_early_days", out.estimate[0], "days")
                    figure(f"{name}_estimate_late_days", out.estimate[1], "days")
    figure("wall_s", time.perf_counter() - wall, "s")
    figure("cpu_s", time.process_time() - cpu, "s")
    figure("load_average_1min", load, "")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=1)
    asyncio.run(main(parser.parse_args().seed))
