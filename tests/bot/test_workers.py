"""A worker process of the pictures or the thinking leaves when the bot is killed."""

from __future__ import annotations

import json
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


# A stand-in bot that has a computer think a turn and a hint in each game, and draws a board of
# each, each in a worker process as the bot does; then each worker says what it has loaded.
LOADED = textwrap.dedent(
    """
    import asyncio, json

    async def main():
        from bot.games import plugins
        from bot.pictures import Pictures
        from bot.service.thinking import Budget, Thinker
        from bot.workers import footprint
        from engine import registry

        thinker = Thinker(1, Budget(iterations=20))
        for name, rules in registry.playable().items():
            state = rules.new(rules.min_players, 3, {}).to_json()
            assert await thinker.turn(name, state, 0, "strong", 3)
            if registry.game(name).has_computers:
                await thinker.hint(name, state, 0, 3)
        thinking = (await thinker._run(footprint))[0]
        thinker.close()
        painter = Pictures(1)
        for chosen in plugins().values():
            rules = chosen.rules
            game = rules.new(rules.min_players, 3, {})
            names = tuple(str(seat) for seat in range(game.players))
            post = chosen.front.board_post(game.view(None), names)
            assert post.pictures and await painter.draw_all(list(post.pictures), "en")
        loop = asyncio.get_running_loop()
        drawing = (await loop.run_in_executor(painter._pool, footprint))[0]
        painter.close()
        print(json.dumps({"thinking": thinking, "pictures": drawing}))

    asyncio.run(main())
    """
)


def _loaded(modules: list[str], *packages: str) -> list[str]:
    """Which of ``packages`` (or a module in them) are among ``modules``."""
    return sorted({p for p in packages for m in modules if m == p or m.startswith(p + ".")})


def test_a_thinking_worker_loads_the_engines_alone_and_a_picture_worker_no_discord() -> None:
    """A computer's turn or a hint needs the engines only: its worker loads neither discord.py
    nor Pillow nor a game's front (a fraction of the memory); a picture worker draws with
    Pillow but loads no discord.py."""
    done = subprocess.run(
        [sys.executable, "-c", LOADED],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    loaded = json.loads(done.stdout.splitlines()[-1])
    assert "engine.ai.thinking" in loaded["thinking"]
    assert _loaded(loaded["thinking"], "discord", "PIL", "bot.games", "bot.service") == []
    assert _loaded(loaded["pictures"], "discord", "PIL") == ["PIL"]
