"""What a worker process costs: the modules it loads and its peak memory, after its work.

Run: ``python bench/workers.py`` (some seconds). A thinking worker (the pool of
``bot.service.thinking.Thinker``) plays a computer's turn and gives a hint in each game; a
picture worker (the pool of ``bot.pictures.Pictures``, warmed up as the bot warms it) draws a
board of each game. Each then reports from inside: ``thinking_worker_modules`` (how many
modules it imported), ``thinking_worker_rss_mb`` and ``picture_worker_rss_mb`` (its peak
resident memory), and whether it loaded discord.py, Pillow or a front of ``bot.games``.
"""

from __future__ import annotations

import os
import time

# Nothing but the standard library's smallest is imported at the top: a spawned worker imports
# this script again (as ``__mp_main__``), and what that loads would be counted as the
# worker's. The bot's own main module (bot/__main__.py) is as small.

#: Modules a lean worker must not load (the bot's Discord library, Pillow, the fronts).
HEAVY = ("discord", "PIL", "bot.games")


def _heavy(modules: tuple[str, ...]) -> str:
    """Which of :data:`HEAVY` (or a module inside one) are among ``modules``."""
    found = {top for top in HEAVY for name in modules if name == top or name.startswith(top + ".")}
    return ",".join(sorted(found)) or "none"


async def thinking() -> tuple[tuple[str, ...], float]:
    from bot.service.thinking import Budget, Thinker
    from bot.workers import footprint
    from engine import registry

    thinker = Thinker(1, Budget(iterations=30))
    try:
        for name in registry.playable():
            rules = registry.rules(name)
            game = rules.new(rules.min_players, 1, {})
            state = game.to_json()
            await thinker.turn(name, state, 0, "strong", 1)
            if registry.game(name).has_computers:
                await thinker.hint(name, state, 0, 1)
        return await thinker._run(footprint)
    finally:
        thinker.close()


async def pictures() -> tuple[tuple[str, ...], float]:
    import asyncio

    from bot.games import plugins
    from bot.pictures import Pictures
    from bot.workers import footprint

    warm = tuple(w for p in plugins().values() for w in p.front.warm_up)
    painter = Pictures(1, warm)
    try:
        for chosen in plugins().values():
            rules = chosen.rules
            game = rules.new(rules.min_players, 1, {})
            names = tuple(f"P{seat}" for seat in range(game.players))
            panel = chosen.front.board_post(game.view(None), names)
            await painter.draw_all(list(panel.pictures), "en")
        pool = painter._pool
        assert pool is not None
        return await asyncio.get_running_loop().run_in_executor(pool, footprint)
    finally:
        painter.close()


def main() -> None:
    import asyncio

    from _common import figure, header

    header("workers")
    load = os.getloadavg()
    start, cpu = time.perf_counter(), time.process_time()
    modules, rss = asyncio.run(thinking())
    figure("thinking_worker_modules", len(modules), "modules")
    figure("thinking_worker_rss_mb", rss, "MB")
    print(f"thinking_worker_heavy: {_heavy(modules)}")
    modules, rss = asyncio.run(pictures())
    figure("picture_worker_modules", len(modules), "modules")
    figure("picture_worker_rss_mb", rss, "MB")
    print(f"picture_worker_heavy: {_heavy(modules)}")
    figure("wall_s", time.perf_counter() - start, "s")
    figure("bot_cpu_s", time.process_time() - cpu, "s")
    print(f"load_average: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")


if __name__ == "__main__":
    main()
