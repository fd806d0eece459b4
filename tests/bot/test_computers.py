"""Computer players through discord.py's own objects: added in the lobby at a level, moving
in the background after a person's turn (one post tells both turns), and hints.

The service's computers think in a thread for a few search iterations here (see
``tests/support/bot.py``), so every run plays the same moves.
"""

from __future__ import annotations

import re

from bot.client import TableBot
from tests.bot.test_discord import BOAZ, RUTH, STRANGER
from tests.support.bot import CHANNEL
from tests.support.harness import Harness, Sent


def bot_of(h: Harness) -> TableBot:
    return h.bot  # type: ignore[return-value]


async def lobby_with_a_computer(h: Harness, level: str) -> tuple[int, Sent]:
    """Ruth opens a table (threads off: the game stays in the channel) and adds a computer."""
    h.user(RUTH, "Ruth")
    h.user(STRANGER, "Stranger")
    await bot_of(h).service.set_guild_settings(h.guild_id, RUTH, moderator=True, threads=False)
    opened = await h.slash(RUTH, "table new", game="covenant", seats="kept")
    lobby = next(s for s in opened if s.kind == "channel_message")
    record = await bot_of(h).service.play.game_in(CHANNEL)
    assert record is not None
    menu = f"lm:{record.id}:add_computer"
    assert lobby.component(menu).option_values == ["easy", "normal", "strong"]
    added = await h.select(RUTH, lobby, menu, [level])
    return record.id, added.last


async def finish_the_turn(h: Harness, game_id: int) -> Sent:
    """After her tile, Ruth puts the Ark where the hint says, or passes; her last answer."""
    for _ in range(6):
        record = await bot_of(h).service.play.get_game(game_id)
        assert record.current is not None and record.current.user_id == RUTH
        hint = (await h.slash(RUTH, "table hint")).last.content or ""
        ark = re.search(r"Put the Ark on ([A-Z]+[0-9]+)\.", hint)
        if ark:
            sent = await h.slash(RUTH, "covenant putark", square=ark[1])
        else:
            sent = await h.slash(RUTH, "covenant pass")
        answer = next(s for s in reversed(sent) if s.ephemeral)
        if (answer.content or "").startswith("Done"):
            return answer
    raise AssertionError("Ruth's turn did not end")


async def test_a_computer_joins_from_the_lobby_menu_and_can_be_removed(harness: Harness) -> None:
    h = harness
    game_id, lobby = await lobby_with_a_computer(h, "strong")
    content = h.message(lobby)["content"]
    assert "Players (2):\n1. Ruth\n2. 🤖 Miriam (computer, strong)" in content
    # Only the table's creator (or a moderator) adds and removes computers; nothing changes.
    refused = await h.select(STRANGER, lobby, f"lm:{game_id}:add_computer", ["easy"])
    assert refused.last.ephemeral and "Only Ruth" in refused.last.content
    assert "3." not in h.message(lobby)["content"]
    removed = await h.click(RUTH, lobby, f"lb:{game_id}:unbot")
    assert "Miriam" not in h.message(removed.last)["content"]
    assert h.message(lobby)["content"].endswith("Player (1):\n1. Ruth")
    seats = (await bot_of(h).service.play.get_game(game_id)).seats
    assert [(s.name, s.is_bot) for s in seats] == [("Ruth", False)]


async def test_after_a_persons_turn_the_computer_plays_and_one_post_tells_both(
    harness: Harness,
) -> None:
    h = harness
    game_id, _ = await lobby_with_a_computer(h, "normal")
    started = await h.slash(RUTH, "table start")
    board = [s for s in started if s.kind == "channel_message" and s.images][-1]
    assert f"<@{RUTH}>" in board.content
    # A hint, privately: the reason in words and where the tile goes.
    hint = (await h.slash(RUTH, "table hint")).last
    assert hint.ephemeral and hint.content.startswith("💡 A computer player would do this:")
    found = re.search(
        r"Put the tile on \*\*([A-Z]+[0-9]+)\*\* \(number [0-9]+.*?\), turned ([0-9]+)°",
        hint.content,
    )
    assert found is not None, hint.content
    # Strangers get no hints of a game they do not play.
    stranger = (await h.slash(STRANGER, "table hint")).last
    assert stranger.ephemeral and "not playing" in stranger.content
    before = len(h.channel_messages(CHANNEL, public=True))
    await h.slash(RUTH, "covenant place", square=found[1], rotation=int(found[2]))
    done = await finish_the_turn(h, game_id)
    assert "A computer player moves next" in (done.content or "")
    await bot_of(h).service.computers.settle()  # the computer thinks in the background
    posts = [h.message(m) for m in h.channel_messages(CHANNEL, public=True)[before:]]
    (post,) = [p for p in posts if p.get("attachments")]
    assert f"Ruth placed a tile on {found[1]}" in post["content"]
    assert "Miriam placed a tile on" in post["content"]
    # Miriam was seated in the lobby: she plays her own seat, nobody's she took over.
    assert "🤖 Miriam (computer) played:" in post["content"]
    assert "took" not in post["content"]
    assert f"<@{RUTH}>" in post["content"]  # her turn again, and she is told
    record = await bot_of(h).service.play.get_game(game_id)
    assert record.current is not None and record.current.user_id == RUTH
    log = await bot_of(h).service.history.actions(game_id)
    assert {a.source for a in log if a.seat == 1} == {"bot"}


async def test_a_player_who_is_not_on_turn_gets_no_hint(harness: Harness) -> None:
    h = harness
    h.user(BOAZ, "Boaz")
    await lobby_with_a_computer(h, "easy")
    await h.slash(BOAZ, "table join")
    await h.slash(RUTH, "table start")
    answer = (await h.slash(BOAZ, "table hint")).last
    assert answer.ephemeral and "Ruth's turn" in answer.content
