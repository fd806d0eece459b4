"""What native readers stumbled on (issue 42, issue 40.11), said as they would say it, with
realistic values: each message the issue names, in the language it names."""

from __future__ import annotations

from render.i18n import Text, t

COW, GOAT, GRAIN = Text("noah.card.cow"), Text("noah.card.goat"), Text("noah.card.grain")
PORT = Text("noah.side.port")


def test_dutch() -> None:
    assert t("covenant.turn.prophet_no_city", "nl").endswith("op deze tegel is geen vrije stad.")
    assert "daarmee ga je aan kop op" in t(
        "noah.hint.takes_lead", "nl", card=COW, kind=Text("noah.scoring_card.heavy")
    )
    assert t("noah.learned.paid_supply", "nl", discs=0) == (
        "Je legde een actieschijf terug in de voorraad (je hebt er geen meer)."
    )
    assert t("noah.story.paid_supply", "nl", player="Noor") == (
        "Noor legde een actieschijf terug in de voorraad."
    )
    rules = t("noah.rules.text", "nl")
    assert "bij gelijkspel worden de punten gedeeld" in rules
    assert "planteneters delen nooit een hut met voedsel" in rules
    assert "als je een vermelding krijgt" in rules
    assert t("noah.turn.preview", "nl", tilt="x").endswith(
        "Er wordt pas gespeeld als je bevestigt."
    )
    assert "zijn kunstje" in t("noah.picture.key_special", "nl")
    said = t("noah.lesson.balance_now", "nl", tilt="x", card=GOAT, weight=2, side=PORT)
    assert "kan jouw Geit (gewicht 2)" in said
    assert t("covenant.story.passed", "nl", player="Noor") == "Noor paste."
    done = t("table.computer.done_next", "nl", scored=Text("table.turn.scored", points=3))
    assert done.startswith("Klaar! Je hebt deze beurt 3 punten gescoord.")
    edge = Text(
        "covenant.spot.outer", spot=Text("covenant.spot.field", where=Text("covenant.where.n"))
    )
    assert t(
        "covenant.turn.spot_taken", "nl", spot=edge, mine="yes", count=0, owners=""
    ).startswith("Het veld in het noorden (aan de rand) kun je niet kiezen")


def test_spanish() -> None:
    assert t("noah.card.grain", "es") == "Trigo"
    assert "así te pones en cabeza en" in t(
        "noah.hint.takes_lead", "es", card=COW, kind=Text("noah.scoring_card.heavy")
    )
    assert t("table.demo.start", "es", game="Arca", players=4, seed=7) == (
        "Una partida de demostración de Arca con 4 jugadores controlados por el ordenador "
        "(semilla 7)."
    )
    assert "en caso de empate se reparten los puntos" in t("noah.rules.text", "es")
    assert "• Nivel del ordenador que ocupa un puesto: normal" in t(
        "table.mod.settings",
        "es",
        pace="x",
        action="x",
        role="x",
        language="x",
        lobby=2,
        timezone="x",
        quiet="x",
        busy="x",
        threads="x",
        stall=3,
        level="normal",
    )
    assert "solo puede ir a una ciudad" in t("covenant.turn.prophet_no_city", "es")
    assert "gírala con los botones de grados" in t(
        "covenant.turn.on_square", "es", square="M12", number=1, rotation=90, count=3
    )
    assert t("noah.story.paid_supply", "es", player="Lucía") == (
        "Lucía devolvió un disco de acción a la reserva."
    )
    cabin = Text("noah.cabin.new", side=PORT, row=3)
    assert t("noah.hint.placed", "es", card=GRAIN, cabin=cabin) == (
        "El Trigo en un camarote nuevo, el 3 de babor."
    )
    assert t("noah.story.endgame", "es", player="Pablo") == "La ronda final empieza con Pablo."
    assert "Los animales lentos y las provisiones se juegan solos." in t("noah.rules.text", "es")
    assert t("table.turn.stale", "es").startswith("Ese turno ya se ha jugado.")


def test_latin_american_spanish() -> None:
    scored = Text("table.turn.scored", points=0)
    assert t("table.turn.done", "es-419", scored=scored, where="#arca").startswith(
        "¡Hecho! No sumaste puntos en este turno."
    )
    assert t("table.lobby.you_join", "es-419") == "Te sentaste a la mesa."
    assert t("table.lobby.you_leave", "es-419") == "Te levantaste de la mesa."
    assert t("covenant.turn.putark_intro", "es-419").startswith("¡Completaste la primera ciudad!")
    assert t("covenant.illegal.prophet_used", "es-419") == "Ya usaste tu Profeta."
    assert t("covenant.illegal.no_temple", "es-419") == "La loseta que colocaste no tiene templo."
    assert t("noah.story.over", "es-419").startswith("Todos se plantaron")
    assert "(cayeron 2)" in t("noah.lesson.rain", "es-419", number=2)
    assert "(ha caído 1)" in t("noah.lesson.rain", "es", number=1)
    assert "Presiona **Jugar mi turno**" in t("noah.rules.text", "es-419")
    assert "configuración del canal" in t(
        "table.lobby.not_shown_denied", "es-419", channel="#arca", permissions="x"
    )
    assert t("noah.card.skunk", "es-419") == "Zorrillo"
    assert t("noah.card.bananas", "es-419") == "Bananas"
    assert "controlados por la computadora" in t(
        "table.demo.start", "es-419", game="Arca", players=4, seed=7
    )


def test_english() -> None:
    tiles = {
        n: t("covenant.story.field_final", tiles=n, sheep=1, wolves=0, scorers="")
        for n in (8, 11, 18, 3)
    }
    assert [tiles[n].split(" field")[0] for n in (8, 11, 18, 3)] == [
        "An 8-tile",
        "An 11-tile",
        "An 18-tile",
        "A 3-tile",
    ]
    assert t("covenant.story.feature_completed", tiles=11, feature="city", scorers="").startswith(
        "An 11-tile city"
    )
    assert t("noah.learned.better", points=3).startswith("Nice try!")
    assert t("covenant.lesson.better_points", points=3).startswith("Nice try!")
    assert t("covenant.turn.on_square", square="M12", number=1, rotation=90, count=3).endswith(
        "turn it with the degree buttons."
    )
    bend = Text(
        "covenant.where.through", a=Text("covenant.compass.n"), b=Text("covenant.compass.e")
    )
    assert t("covenant.spot.road", where=bend) == "road from north to east"
    watcher = t("table.turn.stranger")
    assert "/table new" not in watcher and "tap **Join**" in watcher
    assert "/tafel nieuw" not in t("table.turn.stranger", "nl")


def test_a_turn_that_cost_points_says_so() -> None:
    """The card game's endgame can cost a player points (a disc kept is worth one): the
    "Done!" message says they were lost, not "scored -2 points"."""
    from bot.table.turns import scored_text

    assert t("table.turn.done", "es", scored=scored_text(-2), where="#arca") == (
        "¡Hecho! Has perdido 2 puntos en este turno. El tablero está publicado en #arca."
    )
    assert t("table.computer.done_next", "en", scored=scored_text(-1)).startswith(
        "Done! You lost 1 point this turn."
    )
    assert t("table.turn.done", "nl", scored=scored_text(0), where="#ark") == (
        "Klaar! Je hebt deze beurt geen punten gescoord. Het bord staat in #ark."
    )
