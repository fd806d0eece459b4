"""``python -m bot``: run the Discord bot; ``python -m bot demo``: an offline demo game."""

from __future__ import annotations

import logging
import signal
import sys

from bot.settings import Settings, SettingsError


def point_at_fake_discord(settings: Settings) -> None:
    """For end-to-end tests only: send REST and gateway traffic to a fake Discord."""
    import discord
    import yarl

    if settings.discord_api:
        discord.http.Route.BASE = settings.discord_api.rstrip("/")
    if settings.discord_gateway:
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(settings.discord_gateway)


def main(argv: list[str]) -> int:
    if argv[:1] == ["demo"]:
        from bot.demo import main as demo

        # A demo piped into `head` should stop quietly, like any command-line tool.
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
    from bot.client import TableBot

    TableBot(settings).run(settings.discord_token, log_handler=None)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
