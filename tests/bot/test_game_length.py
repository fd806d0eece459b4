"""The Covenant's length chosen in the lobby, and the lobby saying when the game should end
(issue 27), through discord.py's own objects."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from bot.client import TableBot
from bot.discord_ui import message_text
from bot.service import FakeClock, Seat
from bot.table.lobby_message import invite_line
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
        # Issue 40: reckoned from how long a turn takes in practice (the simulation's 2.75
        # to 4 hours before the server has finished games), as a range. The full game: 71
        # turns, all Ruth's so far.
        assert (
            "⏳ Afgaand op hoe groepen meestal spelen zou het spel tussen **dinsdag 10 "
            "december** en **zaterdag 14 december** klaar moeten zijn."
        ) in lobby.content
        await h.select(RUTH, lobby, f"lm:{game_id}:length", ["medium"])
        assert (
            "tussen **zondag 8 december** en **woensdag 11 december**"
            in h.message(lobby)["content"]
        )
        await bot.service.set_guild_settings(h.guild_id, LEADER, moderator=True, language="es")
        await h.select(RUTH, lobby, f"lm:{game_id}:length", ["short"])
        assert (
            "⏳ A juzgar por cómo suelen jugar los grupos, la partida debería terminar entre el "
            "**viernes 6 de diciembre** y el **domingo 8 de diciembre**."
        ) in h.message(lobby)["content"]
        await bot.service.set_guild_settings(
            h.guild_id, LEADER, moderator=True, pace="normal", language="en"
        )
        await h.click(BOAZ, lobby, f"lb:{game_id}:join")
        shown = h.message(lobby)["content"]
        assert (
            "⏳ Going by how groups usually play, the game should finish between "
            "**Friday 6 December** and **Sunday 8 December**."
        ) in shown
        assert "🕙" not in shown  # the moderators chose the time zone


async def test_a_server_without_a_time_zone_is_told_the_one_used_and_how_to_change_it(
    db_path: Path,
) -> None:
    """Issue 40: a server nobody set up has quiet hours from 22 to 8 in the likeliest time
    zone for its language, and says so, with the command that changes it: in the lobby and
    in the settings reply, in each language."""
    clock = FakeClock(datetime(2024, 12, 2, 17, 0, tzinfo=UTC))
    async with Harness(await make_bot(db_path, clock), channel_id=CHANNEL) as h:
        h.user(RUTH, "Ruth", locale="es-ES")  # the server keeps Discord's default, en-US
        h.user(BOAZ, "Boaz")
        h.user(LEADER, "Leader", moderator=True)
        bot: TableBot = h.bot  # type: ignore[assignment]
        opened = await h.slash(RUTH, "table new", game="covenant")
        (lobby,) = [s for s in opened if s.kind == "channel_message"]
        game_id = int(lobby.custom_ids[0].split(":")[1])
        assert (
            "🕙 Times are in Europe/Madrid, the likeliest time zone for this server's language: "
            "a moderator sets the right one with `/moderate settings timezone:`."
        ) in lobby.content
        settings = await bot.service.guild_settings(h.guild_id)
        assert settings.locale == "es-ES" and settings.timezone is None
        expected = {
            "nl": "🕙 De tijden zijn in Europe/Amsterdam, de waarschijnlijkste tijdzone voor de "
            "taal van deze server: een moderator stelt de juiste in met "
            "`/modereren instellingen tijdzone:`.",
            "es": "🕙 Las horas están en Europe/Madrid, la zona horaria más probable para el "
            "idioma de este servidor: un moderador puede poner la correcta con "
            "`/moderar ajustes zona_horaria:`.",
            # (Discord's markdown would read an underscore as italics: it is escaped.)
            "es-419": "🕙 Las horas están en America/Mexico\\_City, la zona horaria más probable "
            "para el idioma de este servidor: un moderador puede poner la correcta con "
            "`/moderar configuración zona_horaria:`.",
        }
        for language, line in expected.items():
            await bot.service.set_guild_settings(
                h.guild_id, LEADER, moderator=True, language=language
            )
            await h.click(BOAZ, lobby, f"lb:{game_id}:{'join' if language == 'nl' else 'leave'}")
            if language != "nl":
                await h.click(BOAZ, lobby, f"lb:{game_id}:join")
            assert line in h.message(lobby)["content"], language
        await bot.service.set_guild_settings(h.guild_id, LEADER, moderator=True, language=None)
        # The week pace asks for a time zone, and changes nothing without one.
        refused = await h.slash(LEADER, "moderate settings", pace="week")
        assert (
            refused.last.ephemeral
            and (
                "The week pace stops the clock at night and in school hours, so it needs this "
                "server's time zone: choose it in the same command with `timezone:` "
                "(e.g. Europe/Madrid)."
            )
            in refused.last.content
        )
        assert (await bot.service.guild_settings(h.guild_id)).pace == "normal"
        # The time zone option completes: the likeliest first, then what holds the letters.
        offered = await h.autocomplete(LEADER, "moderate settings", focused="timezone", value="")
        assert offered[0].value == "Europe/Madrid" and len(offered) == 25
        offered = await h.autocomplete(
            LEADER, "moderate settings", focused="timezone", value="bogo", pace="week"
        )
        assert [c.value for c in offered] == ["America/Bogota"]
        shown = await h.slash(LEADER, "moderate settings")
        assert (
            "• Time zone Europe/Madrid (guessed from the server's language: set yours with "
            "`/moderate settings timezone:`), quiet from 22:00 to 8:00; no busy hours on weekdays"
        ) in shown.last.content
        week = await h.slash(LEADER, "moderate settings", pace="week", timezone="Europe/Madrid")
        assert (
            "• Time zone Europe/Madrid, quiet from 22:00 to 8:00; busy hours on weekdays from "
            "8:00 to 15:00 (school: no pings)"
        ) in week.last.content
        assert "the clock stops at night and in school hours)" in week.last.content
        # Quiet hours off on purpose: the week clock never stops, and the reply says so
        # rather than that it stops in quiet hours there are none of.
        off = await h.slash(
            LEADER, "moderate settings", quiet_from=0, quiet_until=0, busy_from=0, busy_until=0
        )
        assert "no quiet hours" in off.last.content
        assert "stops in" not in off.last.content
        assert "with no quiet hours, the clock never stops" in off.last.content
        school = await h.slash(LEADER, "moderate settings", busy_from=8, busy_until=15)
        assert "no quiet hours; busy hours on weekdays from 8:00" in school.last.content
        assert "the clock stops in school hours)" in school.last.content


def test_a_rematch_invitation_in_each_language() -> None:
    """Issue 40: the rematch lobby invites by name, and one post mentions them; said as a
    native speaker would, in each language."""
    invited = [Seat(1, 12, "Ruth"), Seat(2, 13, "Daan")]
    said = {language: message_text(invite_line(invited), language) for language in
            ("en", "nl", "es", "es-419")}  # fmt: skip
    assert said == {
        "en": "🔁 Rematch! Ruth and Daan: press **Join** to play again.",
        "nl": "🔁 Revanche! Ruth en Daan: druk op **Meedoen** om nog een keer te spelen.",
        "es": "🔁 ¡Revancha! Ruth y Daan: pulsa **Unirse** para volver a jugar.",
        "es-419": "🔁 ¡Revancha! Ruth y Daan: presiona **Unirse** para volver a jugar.",
    }
