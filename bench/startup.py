"""How long the bot takes to start: ``python -m bot`` against the loopback fake Discord, as
``tests/e2e`` start it, from the process's launch until it has synced its commands and
identified on the gateway (when its guilds' clicks are answered).

Run: ``python bench/startup.py [--starts 5] [--backend sqlite|postgres|both] [--empty]``.

Each backend's database holds one open lobby (a server with a table open: the picture
workers are wanted soon, the case after any restart of a bot in use); ``--empty`` starts on
a database with no game instead. The bot is started ``--starts`` times on the same database
(the first run makes the schema, the others find it current) and stopped with SIGTERM each
time. PostgreSQL is the server at ``ARKBOT_TEST_POSTGRES`` (default
``postgresql://127.0.0.1:5432/test``), in a fresh schema dropped afterwards.

Figures: ``startup_<backend>_s``, the median wall time of the starts; ``..._cpu_s``, the
median CPU time (user + system) the bot process had spent when it was up; the load average
before and after.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import signal
import tempfile
import time
from pathlib import Path

from _common import figure, header, median

from bot.service import GameService
from bot.settings import Settings
from tests.support.databases import fresh_schema
from tests.support.fake_discord import BotProcess, FakeDiscord, python_argv
from tests.support.players import arkbot_env, wait_until_up

REPO = Path(__file__).resolve().parents[1]
#: Clock ticks a second, for the process's CPU time in /proc.
TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float:
    """User and system time the process ``pid`` has spent (Linux's /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


async def with_a_lobby(target: str | Path) -> None:
    """One open table in the database (made by the service, as ``/table new`` would)."""
    service = await GameService.open(target, settings=Settings(db_path=target))
    try:
        await service.lobby.create_game(1, 2, 3, "Ruth", "covenant")
    finally:
        await service.close()


async def starts(target: str | Path, count: int, log: Path) -> tuple[list[float], list[float]]:
    """Start the bot ``count`` times on ``target``: wall and CPU seconds until it was up."""
    walls: list[float] = []
    cpus: list[float] = []
    for number in range(count):
        fake = FakeDiscord()
        await fake.start()
        proc = BotProcess(python_argv("-m", "bot"), arkbot_env(fake, target), log, cwd=REPO)
        try:
            began = time.perf_counter()
            await proc.start()
            await wait_until_up(fake, proc, timeout=60)
            walls.append(time.perf_counter() - began)
            assert proc.proc is not None
            cpus.append(cpu_seconds(proc.proc.pid))
        finally:
            await proc.kill(signal.SIGTERM, 10)
            await proc.stop()
            await fake.close()
        print(f"  start {number + 1}: {walls[-1]:.2f} s, cpu {cpus[-1]:.2f} s", flush=True)
    return walls, cpus


async def run(backends: list[str], count: int, empty: bool) -> None:
    header("startup")
    print(f"load average before: {os.getloadavg()}")
    process_cpu = time.process_time()
    with tempfile.TemporaryDirectory(prefix="arkbot-startup-") as scratch:
        for backend in backends:
            async with contextlib.AsyncExitStack() as stack:
                target: str | Path
                if backend == "postgres":
                    target = await stack.enter_async_context(fresh_schema("arkbot_startup"))
                else:
                    target = Path(scratch) / "arkbot.sqlite3"
                if not empty:
                    await with_a_lobby(target)
                log = Path(scratch) / f"{backend}.log"
                walls, cpus = await starts(target, count, log)
                figure(f"startup_{backend}_s", median(walls), "s")
                figure(f"startup_{backend}_cpu_s", median(cpus), "s")
    figure("bench_process_cpu_s", time.process_time() - process_cpu, "s")
    print(f"load average after: {os.getloadavg()}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--starts", type=int, default=5)
    parser.add_argument("--backend", choices=("sqlite", "postgres", "both"), default="both")
    parser.add_argument("--empty", action="store_true", help="no game in the database")
    args = parser.parse_args()
    backends = ["sqlite", "postgres"] if args.backend == "both" else [args.backend]
    asyncio.run(run(backends, args.starts, args.empty))


if __name__ == "__main__":
    main()
