"""``python -m bot``: run the Discord bot; ``python -m bot demo``: an offline demo game."""

from __future__ import annotations

import sys


def main(argv: list[str]) -> int:
    if argv[:1] == ["demo"]:
        from bot.demo import main as demo

        return demo(argv[1:])
    print(
        "The Discord bot is not built yet; run `python -m bot demo` for an offline game.",
        file=sys.stderr,
    )
    return 2


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
