"""One click, one call: the SQL a click costs, counted on the real SQLite connection.

A click that moves the game reads the game's row once (with its seats) and writes in one
transaction; a click that only changes the private panel reads once and writes nothing. The
counts do not grow with the length of the game (no replay of the log on a click).
"""

from __future__ import annotations

from collections.abc import Awaitable

from bot.client import TableBot
from engine.common import Rng
from engine.covenant import Game, Pass, PlaceTile
from engine.covenant.players import sensible_action
from render.covenant import squares_pages
from tests.support.bot import CHANNEL
from tests.support.harness import Harness, Sent

RUTH, BOAZ = 11, 12


async def traced(bot: TableBot, call: Awaitable[object]) -> list[str]:
    """Every SQL statement run while ``call`` runs."""
    statements: list[str] = []
    connection = bot.service.storage.connection  # type: ignore[attr-defined]
    await connection.set_trace_callback(statements.append)
    try:
        await call
    finally:
        await connection.set_trace_callback(None)
    return [" ".join(s.split()) for s in statements]


def quiet_spot(game: Game) -> tuple[int, int, int]:
    """A placement after which passing ends the turn (no city to put the Ark in)."""
    for (x, y), rotations in game.placements().items():
        for rotation in rotations:
            trial = game.copy()
            trial.apply(PlaceTile(x, y, rotation))
            trial.apply(Pass())
            if trial.phase != "place_ark":
                return x, y, rotation
    raise AssertionError("no quiet spot")


def shape(statements: list[str]) -> dict[str, int]:
    first = [s.split()[0].upper() for s in statements]
    return {
        "reads": first.count("SELECT"),
        "writes": sum(word in ("INSERT", "UPDATE", "DELETE") for word in first),
        "write_transactions": sum(s.upper().startswith("BEGIN IMMEDIATE") for s in statements),
        "all": len(statements),
    }


async def one_turn(h: Harness, bot: TableBot, game_id: int) -> dict[str, dict[str, int]]:
    """The current player's turn: open the panel, then taps: the square's part of the board,
    the square (and the way it turns), then place it and pass; counted."""
    record, game = await bot.service.play.state(game_id)
    user = record.seats[game.current_player].user_id
    assert user is not None
    counts: dict[str, dict[str, int]] = {}
    opened: list[Sent] = []

    async def click(name: str, call: Awaitable[list[Sent]]) -> Sent:
        reply: list[Sent] = []

        async def run() -> None:
            reply.extend(await call)

        counts[name] = shape(await traced(bot, run()))
        opened.extend(reply)
        return reply[-1]

    panel = await click("open", h.slash(user, "covenant tile"))
    x, y, rotation = quiet_spot(game)
    v = record.version
    part = next(i for i, p in enumerate(squares_pages(game)) if (x, y) in p)
    if part:
        panel = await click("part", h.click(user, panel, f"tb:{game_id}:{v}:page:{part}"))
    chosen = await click("square", h.click(user, panel, f"tb:{game_id}:{v}:sq:{x}:{y}"))
    if rotation != game.placements()[(x, y)][0]:
        chosen = await click(
            "turn", h.click(user, chosen, f"tb:{game_id}:{v}:rot:{x}:{y}:{rotation}")
        )
    done = await click("pass", h.click(user, chosen, f"tb:{game_id}:{v}:pass:{x}:{y}:{rotation}"))
    assert "Done!" in done.content
    assert (await bot.service.play.get_game(game_id)).version == v + 2
    return counts


async def test_a_click_reads_once_and_writes_once_however_long_the_game(
    harness: Harness,
) -> None:
    h = harness
    bot: TableBot = h.bot  # type: ignore[assignment]
    h.user(RUTH, "Ruth")
    h.user(BOAZ, "Boaz")
    record = await bot.service.lobby.create_game(
        h.guild_id, CHANNEL, RUTH, "Ruth", "covenant", seed=1, shuffle_seats=False
    )
    await bot.service.lobby.join(CHANNEL, BOAZ, "Boaz")
    await h.slash(RUTH, "table start")
    early = await one_turn(h, bot, record.id)
    # Some forty turns more through the service, then the same four taps again.
    rng = Rng(1)
    while True:
        record, game = await bot.service.play.state(record.id)
        if game.turn > 40 and game.phase == "place_tile":
            break
        user = record.seats[game.current_player].user_id
        await bot.service.play.act(record.id, user, sensible_action(game, rng), record.version)
    # As if each of them had been posted (else the next post tells them all, as it must).
    await bot.service.posts.mark_announced(record.id, record.version)
    late = await one_turn(h, bot, record.id)
    for maybe in ("part", "turn"):  # another part of the board, the tile turned: if need be
        for counted in (early, late):
            if maybe in counted:
                assert counted.pop(maybe) == counted["square"]
    assert early == late  # nothing grows with the game's length
    # Choosing a square (or a part of the board) only changes the private panel: one read,
    # no write. (The read is a transaction of its own, BEGIN and COMMIT around the SELECT,
    # so that it sees one moment while another process may be writing.)
    assert early["square"] == {"reads": 1, "writes": 0, "write_transactions": 0, "all": 3}
    # Placing the tile and passing is a move of two actions: the row once to check the
    # turn, then in one transaction the row again (the version check), the actions and the
    # new row; the board is posted, still one transaction.
    assert early["pass"]["write_transactions"] == 1
    assert early["pass"]["reads"] == 2
