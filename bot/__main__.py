"""``python -m bot``: run the Discord bot; ``python -m bot demo``: an offline demo game.

The launcher is thin: it reads the settings, opens the database (a damaged or unreadable
file stops it here with a sentence saying which file and what to do), and runs the bot
until Discord closes it or the process is told to stop: SIGTERM (``docker stop``) and SIGINT
(Ctrl-C) close the client, the picture workers and the database cleanly, then exit 0.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
import sys

from bot.settings import Settings, SettingsError

log = logging.getLogger("arkbot")


def point_at_fake_discord(settings: Settings) -> None:
    """For end-to-end tests only: send REST and gateway traffic to a fake Discord."""
    import discord
    import yarl

    if settings.discord_api:
        discord.http.Route.BASE = settings.discord_api.rstrip("/")
    if settings.discord_gateway:
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(settings.discord_gateway)


async def run(settings: Settings) -> int:
    from bot.client import TableBot
    from bot.service import GameService
    from bot.service.storage import StorageError

    try:
        service = await GameService.open(settings.db_path, settings=settings)
    except StorageError as exc:
        print(f"arkbot: {exc}", file=sys.stderr)
        return 2
    bot = TableBot(settings, service=service)
    stop = asyncio.Event()
    stop_on_signals(asyncio.get_running_loop(), stop)
    runner = asyncio.create_task(bot.start(settings.discord_token or ""), name="arkbot")
    stopper = asyncio.create_task(stop.wait(), name="arkbot-stop")
    try:
        await asyncio.wait({runner, stopper}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        if stop.is_set():
            log.info("stopping: closing the client, the picture workers and the database")
        stopper.cancel()
        await bot.close()
        runner.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await runner
    if not stop.is_set():
        failure = runner.exception()
        if failure is not None:
            raise failure
    return 0


def stop_on_signals(loop: asyncio.AbstractEventLoop, stop: asyncio.Event) -> bool:
    """Set ``stop`` on SIGTERM and SIGINT; False where the loop takes no signal handlers
    (Windows: there Ctrl+C ends ``asyncio.run``, which closes the bot on its way out)."""
    for signum in (signal.SIGTERM, signal.SIGINT):
        try:
            loop.add_signal_handler(signum, stop.set)
        except NotImplementedError:
            return False
    return True


def main(argv: list[str]) -> int:
    if argv[:1] == ["demo"]:
        from bot.demo import main as demo

        # A demo piped into `head` should stop quietly, like any command-line tool (Windows
        # has no SIGPIPE).
        if hasattr(signal, "SIGPIPE"):
            signal.signal(signal.SIGPIPE, signal.SIG_DFL)

        return demo(argv[1:])
    try:
        settings = Settings.from_env()
    except SettingsError as exc:
        print(f"arkbot: {exc}", file=sys.stderr)
        return 2
    logging.basicConfig(
        level=settings.log_level,
        stream=sys.stderr,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    if not settings.discord_token:
        print(
            "arkbot: set DISCORD_TOKEN to your bot's token (see README, 'Running the bot on "
            "Discord'), or run `python -m bot demo` for an offline game.",
            file=sys.stderr,
        )
        return 2
    point_at_fake_discord(settings)
    return asyncio.run(run(settings))


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
