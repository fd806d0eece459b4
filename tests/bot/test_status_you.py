"""/table status and the pictures a player alone sees say "you" to the player whose turn it
is (issue 40.9: "Turn 12: Ruth is playing." was shown to Ruth), in their language; anyone
else reads the name."""

from __future__ import annotations

from bot.games import plugin
from engine.covenant import Game as Covenant
from engine.noah import Game as Noah
from render.covenant.board import phase_lines
from render.i18n import say
from render.noah.pictures import _phase_text
from tests.support.bot import BOAZ, CHANNEL, RUTH
from tests.support.harness import Harness

NAMES = ["Ruth", "Boaz"]
THREE = ["Ruth", "Boaz", "Miriam"]


async def test_table_status_says_you_to_the_player_on_turn(harness: Harness) -> None:
    h = harness
    h.user(RUTH, "Ruth", locale="nl")
    h.user(BOAZ, "Boaz", locale="es-ES")
    await h.bot.service.lobby.create_game(  # type: ignore[attr-defined]
        h.guild_id, CHANNEL, RUTH, "Ruth", "covenant", seed=1, shuffle_seats=False
    )
    await h.slash(BOAZ, "table join")
    await h.slash(RUTH, "table start")
    ruth = (await h.slash(RUTH, "table status")).last
    assert ruth.ephemeral and "Beurt 1: jij bent aan zet." in ruth.content
    boaz = (await h.slash(BOAZ, "table status")).last
    assert "Turno 1: juega Ruth." in boaz.content


def test_the_fronts_status_says_you_in_every_language() -> None:
    game = Covenant.new(players=2, seed=0)
    front = plugin("covenant").front
    mine = front.status(game.view(None), NAMES, 0).lines[0]
    theirs = front.status(game.view(None), NAMES, 1).lines[0]
    nobody = front.status(game.view(None), NAMES).lines[0]
    assert say(mine) == "Turn 1: it is your turn."
    assert say(mine, "es") == "Turno 1: te toca a ti."
    assert say(theirs) == say(nobody) == "Turn 1: Ruth is playing."
    noah = plugin("noah").front
    shown = Noah.new(players=3, seed=0).view(None)
    on_turn = shown["current_player"]
    assert say(noah.status(shown, THREE, on_turn).lines[0], "nl") == "Jij bent aan de beurt."
    other = (on_turn + 1) % 3
    assert say(noah.status(shown, THREE, other).lines[0]) == f"{THREE[on_turn]} is playing."


def test_a_picture_drawn_for_the_player_on_turn_says_you() -> None:
    game = Covenant.new(players=2, seed=0)
    assert phase_lines(game, NAMES, "en", 2000, 1, viewer=0) == ["Your turn: place a tile"]
    assert phase_lines(game, NAMES, "nl", 2000, 1, viewer=0) == ["Jij bent aan zet: leg een tegel"]
    assert phase_lines(game, NAMES, "en", 2000, 1, viewer=1) == ["Ruth places a tile"]
    assert phase_lines(game, NAMES, "en", 2000, 1) == ["Ruth places a tile"]
    view = Noah.new(players=3, seed=0).view(None)
    me = view["current_player"]
    assert _phase_text(view, THREE, "en", me) == "Your turn to play"
    assert _phase_text(view, THREE, "es", me) == "Te toca jugar"
    assert _phase_text(view, THREE, "en", (me + 1) % 3) == f"{THREE[me]} to play"
