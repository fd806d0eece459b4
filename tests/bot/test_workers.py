"""A worker process of the pictures or the thinking leaves when the bot is killed."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# A stand-in bot: it starts a pool as the bot does, has its worker say its process id, and
# then hangs until killed (so nothing tells the pool to stop).
BOT = textwrap.dedent(
    """
    import os, sys, time
    from bot.workers import process_pool

    if __name__ == "__main__":
        pool = process_pool(1)
        print(pool.submit(os.getpid).result(), flush=True)
        time.sleep(600)
    """
)


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # A zombie (exited, not yet reaped by its new parent) is gone for our purpose.
    try:
        return Path(f"/proc/{pid}/stat").read_text().split()[2] != "Z"
    except FileNotFoundError:
        return False


def test_a_worker_leaves_when_its_bot_is_killed(tmp_path: Path) -> None:
    script = tmp_path / "bot_stand_in.py"
    script.write_text(BOT)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    bot = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE, env=env)
    try:
        assert bot.stdout is not None
        worker = int(bot.stdout.readline())
        assert worker != bot.pid and alive(worker)
        bot.send_signal(signal.SIGKILL)
        bot.wait(timeout=10)
        deadline = time.monotonic() + 10
        while alive(worker) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not alive(worker), "the worker outlived the killed bot"
    finally:
        if bot.poll() is None:
            bot.kill()
