"""The Covenant's length chosen in the lobby, and the lobby saying when the game should end
(issue 27), through discord.py's own objects."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from bot.client import TableBot
from bot.service import FakeClock
from tests.support.bot import BOAZ, CHANNEL, LEADER, RUTH, make_bot
from tests.support.harness import Harness


async def test_the_length_is_chosen_in_the_lobby_and_reaches_the_game(harness: Harness) -> None:
    h = harness
    h.user(RUTH, "Ruth")
    h.user(BOAZ, "Boaz")
    bot: TableBot = h.bot  # type: ignore[assignment]
    opened = await h.slash(RUTH, "table new", game="covenant")
    (lobby,) = [s for s in opened if s.kind == "channel_message"]
    # The default, beside the edition.
    assert "Rules: **English, second edition (2005)** · **Full game (all 72 tiles)**" in (
        lobby.content
    )
    game_id = int(lobby.custom_ids[0].split(":")[1])
    menu = f"lm:{game_id}:length"
    assert lobby.component(menu).option_values == ["full", "medium", "short"]
    labels = [o["label"] for o in lobby.component(menu).options]
    assert labels == ["Full game (all 72 tiles)", "Medium game (54 tiles)", "Short game (36 tiles)"]
    await h.click(BOAZ, lobby, f"lb:{game_id}:join")
    refused = await h.select(BOAZ, lobby, menu, ["short"])  # only the creator chooses
    assert refused.last.ephemeral and "Only Ruth" in refused.last.content
    await h.select(RUTH, lobby, menu, ["short"])
    assert "**Short game (36 tiles)**" in h.message(lobby)["content"]
    assert (await bot.service.play.get_game(game_id)).options == {"length": "short"}
    rules = await h.slash(BOAZ, "table rules")
    assert "This table plays a **short game**: 36 of the 72 tiles" in rules.text
    await h.click(RUTH, lobby, f"lb:{game_id}:start")
    _, game = await bot.service.play.state(game_id)
    assert (game.length, game.tiles_left, len(game.board)) == ("short", 34, 1)
    status = await h.slash(BOAZ, "table status")
    assert "Length: Short game (36 tiles)." in status.last.content
    assert "Tiles left in the bag: 34" in status.last.content


async def test_the_lobby_says_by_when_the_game_should_end_in_the_servers_words(
    db_path: Path,
) -> None:
    # Monday 2 December 2024, 18:00 in Amsterdam.
    clock = FakeClock(datetime(2024, 12, 2, 17, 0, tzinfo=UTC))
    async with Harness(await make_bot(db_path, clock), channel_id=CHANNEL) as h:
        h.user(RUTH, "Ruth")
        h.user(BOAZ, "Boaz")
        h.user(LEADER, "Leader", moderator=True)
        bot: TableBot = h.bot  # type: ignore[assignment]
        await bot.service.set_guild_settings(
            h.guild_id, LEADER, moderator=True, pace="week", timezone="Europe/Amsterdam",
            quiet_start=22, quiet_end=8, language="nl",
        )  # fmt: skip
        opened = await h.slash(RUTH, "table new", game="covenant")
        (lobby,) = [s for s in opened if s.kind == "channel_message"]
        game_id = int(lobby.custom_ids[0].split(":")[1])
        # The full game at a game-in-a-week pace: 71 moves of an hour and a half of day.
        assert (
            "⏳ In het tempo van deze server (ongeveer 1,5 uur per zet, de stille uren niet "
            "meegerekend) zou het spel rond **dinsdag 10 december** klaar moeten zijn."
        ) in lobby.content
        await h.select(RUTH, lobby, f"lm:{game_id}:length", ["medium"])
        assert "rond **zondag 8 december** klaar" in h.message(lobby)["content"]
        await bot.service.set_guild_settings(h.guild_id, LEADER, moderator=True, language="es")
        await h.select(RUTH, lobby, f"lm:{game_id}:length", ["short"])
        assert (
            "⏳ Al ritmo de este servidor (unas 1,5 horas por jugada, sin contar las horas de "
            "silencio), la partida debería terminar hacia el **viernes 6 de diciembre**."
        ) in h.message(lobby)["content"]
        # At the normal pace, which never sleeps: 35 moves of 12 hours.
        await bot.service.set_guild_settings(
            h.guild_id, LEADER, moderator=True, pace="normal", language="en"
        )
        await h.click(BOAZ, lobby, f"lb:{game_id}:join")
        assert (
            "⏳ At this server's pace (about 12 hours a move), the game should finish around "
            "**Friday 20 December**."
        ) in h.message(lobby)["content"]
