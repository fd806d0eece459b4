"""Who reads which language: a private answer speaks the clicking user's Discord language,
a public post the server's (which its moderators set), through discord.py's own objects."""

from __future__ import annotations

from tests.bot.test_discord import BOAZ, LEADER, RUTH, scripted_lobby
from tests.support.bot import CHANNEL
from tests.support.harness import Harness


async def test_a_dutch_player_in_a_spanish_server(harness: Harness) -> None:
    h = harness
    await scripted_lobby(h, ["T21", "T39"])
    h.user(RUTH, "Ruth", locale="nl")  # her Discord speaks Dutch
    settings = await h.slash(LEADER, "moderate settings", language="es", threads="off")
    # The leader's own Discord is English: so is the answer to him.
    assert "• Public posts in Español (España)" in (settings.last.content or "")
    started = await h.slash(RUTH, "table start")
    board = [s for s in started if s.kind == "channel_message" and s.images][-1]
    # The public board speaks Spanish; the answer to Ruth alone speaks Dutch.
    assert board.content.startswith("¡Que empiece la partida! 🎲\nPuntuación: Ruth 0 y Boaz 0")
    assert f"Siguiente: <@{RUTH}>, ¡te toca!" in board.content
    status = (await h.slash(RUTH, "table status")).last
    assert status.ephemeral
    assert status.content.startswith("Beurt 1: jij bent aan zet.\nStand: Ruth 0 en Boaz 0")
    hint = (await h.slash(RUTH, "table hint")).last
    assert hint.ephemeral and hint.content.startswith("💡 Een computerspeler zou dit doen:")
    # Every step of the turn as the panel offers it (issue 40.8), then why.
    assert hint.content.endswith(
        "Leg de tegel op **M12** (nummer 1), 180° gedraaid.\n"
        "Zet je Profeet op **B**, de stad in het zuiden.\n"
        "Maak je stad af: dat levert 8 punten op."
    )
    # Ruth plays her tile by the typed command; the story in public is Spanish.
    placed = await h.slash(RUTH, "covenant place", square="M12", rotation=180)
    private = [s for s in placed if s.ephemeral][-1]
    assert private.content.startswith("Je tegel ligt op **M12**.")
    # Boaz's Discord is English: his private answer is English in the same game.
    refused = (await h.slash(BOAZ, "table hint")).last
    assert (
        refused.content
        == "It is Ruth's turn, not yours. You will be mentioned when it is your turn."
    )
    assert len(h.channel_messages(CHANNEL, public=True)) >= 2  # the lobby and the board


async def test_a_moderator_is_told_that_the_changes_apply_at_once(harness: Harness) -> None:
    """In the moderator's own language; what a game takes when it starts (its pace, whether
    it is played in a thread) is said to stay as it is in the games under way."""
    h = harness
    await scripted_lobby(h, ["T21", "T39"])
    looked = (await h.slash(LEADER, "moderate settings")).last.content  # nothing changed
    assert looked.startswith("The settings of this server:\n")
    level = (await h.slash(LEADER, "moderate settings", computer_level="strong")).last
    assert level.content.startswith(
        "✅ Your changes apply right away.\nThe settings of this server:\n"
    )
    told = {}
    for locale in ("en-US", "nl", "es-ES", "es-419"):
        h.user(LEADER, "Leader", moderator=True, locale=locale)
        told[locale] = (await h.slash(LEADER, "moderate settings", pace="fast")).last.content
    assert told["en-US"].startswith(
        "✅ Your changes apply right away, except that games already under way keep their "
        "pace and stay where they are played.\nThe settings of this server:\n"
    )
    assert told["nl"].startswith(
        "✅ Je wijzigingen gaan meteen in, behalve dat spellen die al bezig zijn hun tempo "
        "houden en blijven waar ze gespeeld worden.\nDe instellingen van deze server:\n"
    )
    assert told["es-ES"].startswith(
        "✅ Tus cambios se aplican de inmediato, salvo que las partidas ya empezadas "
        "mantienen su ritmo y siguen donde se juegan.\nLos ajustes de este servidor:\n"
    )
    assert told["es-419"].startswith(
        "✅ Tus cambios se aplican de inmediato, salvo que las partidas ya empezadas "
        "mantienen su ritmo y siguen donde se juegan.\nLa configuración de este servidor:\n"
    )
