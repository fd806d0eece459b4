"""The catalogues: every message the code uses exists, every refusal can be said, and the
template language (plurals, choices, lists) says what it must."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.discord_ui import clip, escape, message_text, split_message
from bot.errors import error_text
from bot.games import plugins
from bot.i18n import CatalogueTranslator, valid_name
from bot.service import ServiceError
from engine import registry
from engine.errors import IllegalAction, Refusal
from render.i18n import (
    ListOf,
    Text,
    catalogue,
    format_message,
    grammar,
    placeholders,
    t,
    template,
)
from tests.support.harness import Harness

ROOT = Path(__file__).resolve().parents[2]
#: The games of this tree (the registry's built-in ones), whose words bot/ and render/ use: a
#: game installed from outside keeps its words and the code that uses them in its package
#: (tests/games/test_every_game.py checks those).
GAMES = tuple(name for name, game in registry.games().items() if game.built_in)
DOMAINS = ("common", "table", *GAMES)
_NAMED = "|".join(DOMAINS)
KEY = re.compile(rf"""["'](?:f?)((?:{_NAMED})\.[a-z_][a-z_0-9.]*)["']""")
#: Message ids built at run time from a prefix (f-strings): their prefix and where.
DYNAMIC = re.compile(rf"""f["']((?:{_NAMED})\.[a-z_.]*)\{{""")
#: Each game's refusal codes with the values they carry, as its rules declare them.
REFUSALS = {name: registry.rules(name).refusals for name in GAMES}


def used_keys() -> tuple[set[str], set[str]]:
    """The ids named literally in bot/ and render/, and the prefixes of built ones."""
    literal: set[str] = set()
    prefixes: set[str] = set()
    for folder in ("bot", "render"):
        for path in (ROOT / folder).rglob("*.py"):
            text = path.read_text()
            literal |= {k for k in KEY.findall(text) if not k.endswith((".png", "."))}
            prefixes |= set(DYNAMIC.findall(text))
            # A front's own short ids: _t("turn.place_intro") means "covenant.turn...".
            if path.parts[-3] == "games" and path.parts[-2] in DOMAINS:
                game = path.parts[-2]
                literal |= {
                    f"{game}.{k}"
                    for k in re.findall(
                        r"""_t\(\s*["']([a-z_]+\.[a-z_]+|title|card_features)["']""", text
                    )
                }
                prefixes |= {
                    f"{game}.{k}" for k in re.findall(r"""_t\(\s*f["']([a-z_.]*)\{""", text)
                }
                # Typed commands: their descriptions and names are found by the spec.
                prefixes |= {f"{game}.command.", f"{game}.command_name."}
    return literal, prefixes


def english() -> dict[str, str]:
    return {k: v for d in DOMAINS for k, v in catalogue(d, "en").items()}


def test_every_message_the_code_uses_exists_and_every_message_is_used() -> None:
    messages = english()
    literal, prefixes = used_keys()
    assert len(literal) > 100 and "covenant.story.tile_placed" in literal
    assert sorted(k for k in literal if k not in messages and k.split(".")[0] in DOMAINS) == []
    # A game's refusals are said by their code (``<game>.illegal.<code>``).
    said_by_code = {f"{game}.illegal.{code}" for game in GAMES for code in REFUSALS[game]}
    unused = [
        key
        for key in messages
        if key not in literal
        and not any(key.startswith(p) for p in prefixes)
        and key not in said_by_code
    ]
    assert unused == []


def test_every_refusal_of_the_service_and_the_engine_can_be_said() -> None:
    messages = english()
    sources = "".join(p.read_text() for p in sorted((ROOT / "bot" / "service").glob("*.py")))
    codes = set(re.findall(r'ServiceError\(\s*"([a-z_]+)"', sources))
    assert len(codes) > 15
    assert sorted(c for c in codes if f"table.error.{c}" not in messages) == []
    assert {"taken", "edge_mismatch", "ark_revisit", "no_followers"} <= set(REFUSALS["covenant"])
    for game in GAMES:
        keys = {f"{game}.illegal.{code}": params for code, params in REFUSALS[game].items()}
        assert sorted(k for k in keys if k not in messages) == []
        # A refusal's sentence asks only for values the engine gives with it.
        for key, params in keys.items():
            assert placeholders(messages[key]) <= set(params), key


def test_templates_parse_and_name_only_identifiers() -> None:
    for key, text in english().items():
        assert all(name.isidentifier() for name in placeholders(text)), key


def test_refusals_and_service_errors_become_catalogue_sentences() -> None:
    assert error_text(Refusal("table.turn.not_yours", player="Ruth")) == t(
        "table.turn.not_yours", "en", player="Ruth"
    )
    stale = ServiceError("stale")
    assert error_text(stale) == t("table.error.stale")
    illegal = IllegalAction("taken", feature="road")
    illegal.game = "covenant"
    assert (
        error_text(illegal) == "Someone already has a piece on that road (or on one joined to it)."
    )
    full = ServiceError("lobby_full", max=5)
    assert error_text(full) == "This game is full (5 players)."
    # A text needing a value the refusal lacks is never filled from the exception: the user
    # hears that something went wrong (and the log says what was missing).
    assert error_text(ServiceError("lobby_full")) == t("table.error.unexpected")
    assert error_text(RuntimeError("boom")) == t("table.error.unexpected")


def test_plurals_follow_the_language() -> None:
    steps = "{n, plural, one {# step} other {# steps}}"
    assert [format_message(steps, {"n": n}, "en") for n in (0, 1, 2)] == [
        "0 steps",
        "1 step",
        "2 steps",
    ]
    exact = "{n, plural, =0 {nobody} one {# player} other {# players}}"
    assert format_message(exact, {"n": 0}, "en") == "nobody"
    assert t("covenant.turn.ark_route", path="N", steps=1) == "Route N, 1 step"
    assert t("covenant.turn.ark_route", path="NES", steps=3) == "Route NES, 3 steps"
    line = t("table.stats.line", rank=1, player="Ruth", rating=1016, games=1, wins=1)
    assert line == "1. Ruth: 1016 (1 game, 1 win)"


def test_choices_lists_and_nested_texts() -> None:
    assert (
        t("covenant.story.piece_deployed", player="Ruth", feature="field", square="M12")
        == "Ruth put a follower on the field at M12."
    )
    gains = (Text("covenant.story.gain", player="Ruth", points=1), "Boaz +2")
    assert format_message("{g}", {"g": gains}, "en") == "Ruth +1, Boaz +2"
    both = ListOf(("Ruth", "Boaz", "Eli"), "standard")
    assert format_message("{w}", {"w": both}, "en") == "Ruth, Boaz, and Eli"
    assert format_message("{{literal}} {x}", {"x": 1}, "en") == "{literal} 1"


def test_a_choice_on_a_noun_follows_its_grammar_in_the_language() -> None:
    """``{card, select, ...}`` on a :class:`Text` chooses by the noun's grammar in the
    reader's language (its catalogue's ``[grammar]``), not by its words."""
    article = "{card, select, neuter {het} plural {de (mv.)} other {de}} {card}"
    pig, cow, dates = Text("noah.card.pig"), Text("noah.card.cow"), Text("noah.card.dates")
    assert [format_message(article, {"card": c}, "nl") for c in (pig, cow, dates)] == [
        "het Varken",
        "de Koe",
        "de (mv.) Dadels",
    ]
    # Latin America takes Spain's grammar; English has its own; a name has none ("other").
    assert grammar(cow, "es-419") == grammar(cow, "es") == "feminine"
    assert grammar(dates, "en") == "plural" and grammar(cow, "en") == "singular"
    assert grammar(Text("common.raw", text="Ruth"), "nl") == "other"
    # A language without the noun's grammar never borrows English's.
    assert grammar(dates, "xx") == "other"
    # The grammar is no message: no catalogue lists it, so no language must translate it.
    assert not any(".grammar." in key for key in english())


def test_a_missing_message_shows_its_id_and_never_crashes(
    caplog: pytest.LogCaptureFixture,
) -> None:
    assert t("table.nowhere.nothing") == "table.nowhere.nothing"
    assert "table.nowhere.nothing" in caplog.text
    # Another language falls back to English, message by message.
    assert t("table.turn.stale", "xx-YY") == t("table.turn.stale", "en")
    # Latin American Spanish says what it does not say differently as Spain does, quietly.
    caplog.clear()
    assert t("table.turn.not_yours", "es-419", player="R") == t(
        "table.turn.not_yours", "es", player="R"
    )
    assert t("table.turn.not_yours", "es", player="R") != t(
        "table.turn.not_yours", "en", player="R"
    )
    assert "table.turn.not_yours" not in caplog.text


def test_user_text_is_escaped_in_messages_but_not_in_labels() -> None:
    someone = "<@123456789012345678>"
    named = Text("table.turn.not_yours", player=f"{someone} **Ruth**")
    said = message_text(named, "en")
    assert someone not in said and "\\*\\*Ruth\\*\\*" in said
    assert escape("@everyone") != "@everyone"


def test_long_posts_are_split_at_lines_never_cut() -> None:
    lines = [f"line {i} " + "x" * 90 for i in range(50)]
    messages = split_message(lines)
    assert all(len(m) <= 2000 for m in messages) and len(messages) == 3
    assert "\n".join(messages).split("\n") == lines
    assert clip("a" * 150, 100) == "a" * 99 + "…"


# --------------------------------------------------------------------- every language

#: The translations: Dutch, Spanish (Spain) and Latin American Spanish (only what differs).
LANGUAGES = ("nl", "es", "es-419")
#: The domains translated here; a game's own domain may be translated on its own, and is
#: checked like the others as soon as its catalogue exists.
TRANSLATED = ("common", "table", "covenant")


def translated_domains(language: str) -> list[str]:
    return [d for d in DOMAINS if d in TRANSLATED or catalogue(d, language)]


def own(language: str) -> dict[str, str]:
    """The messages of ``language``'s own files (no fallback)."""
    return {k: v for d in translated_domains(language) for k, v in catalogue(d, language).items()}


def resolved(language: str) -> dict[str, str]:
    """Every message as ``language`` says it, its fallbacks included."""
    return {key: template(key, language) or "" for key in english()}


@pytest.mark.parametrize("language", ["nl", "es"])
def test_every_message_is_translated_with_the_same_placeholders(language: str) -> None:
    for domain in translated_domains(language):
        ours, theirs = catalogue(domain, "en"), catalogue(domain, language)
        assert sorted(ours.keys() - theirs.keys()) == [], domain
        assert sorted(theirs.keys() - ours.keys()) == [], domain
        changed = [k for k in ours if placeholders(ours[k]) != placeholders(theirs[k])]
        assert changed == [], domain


def test_latin_american_spanish_only_says_what_differs() -> None:
    messages, spain = english(), own("es")
    latin = own("es-419")
    assert 0 < len(latin) < len(messages) // 4
    assert sorted(k for k in latin if k not in messages) == []
    assert [k for k in latin if placeholders(latin[k]) != placeholders(messages[k])] == []
    # Each one says it differently from Spain, or it would not be there.
    assert [k for k in latin if latin[k] == spain[k]] == []
    # Nothing falls back to Spain's words: no ordenador, no vosotros, no coger.
    spanish = re.compile(r"ordenador|vosotros|\bcog(?:e|er|es|ió|ido)\b|\w(?:áis|éis)\b", re.I)
    said = resolved("es-419")
    assert [k for k, text in said.items() if spanish.search(text)] == []
    assert any(spanish.search(text) for text in resolved("es").values())  # the test can see


def sample_params(text: str) -> dict[str, object]:
    """A value for every placeholder of ``text``: a number for plurals, a word for choices."""
    params: dict[str, object] = {}
    for name in placeholders(text):
        if re.search(r"\{\s*" + name + r"\s*,\s*plural", text):
            params[name] = 2
        elif re.search(r"\{\s*" + name + r"\s*,\s*select", text):
            params[name] = "other"
        else:
            params[name] = "X"
    return params


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_translation_parses_and_fills_in(language: str) -> None:
    for key, text in own(language).items():
        names = placeholders(text)
        assert all(name.isidentifier() for name in names), key
        said = format_message(text, sample_params(text), language)
        # Every brace was a placeholder (or a literal one), every # inside a plural.
        assert "{" not in said or "{{" in text, key
        assert "#" not in said, key


PLURALS = {
    # (message, values): its text for 0, 1, 2, 5 and 1000000 of "n".
    ("table.missed.intro", "count", ()): {
        "en": [
            "Nothing happened since your last turn.",
            "Since your last turn, one turn was played:",
            "Since your last turn, 2 turns were played:",
            "Since your last turn, 5 turns were played:",
            "Since your last turn, 1000000 turns were played:",
        ],
    },
    ("covenant.turn.followers_left", "count", ()): {
        "nl": [
            "Je hebt geen horigen meer: ze komen terug zodra hun weg of stad gewaardeerd is.",
            "Je hebt nog 1 horige.",
            "Je hebt nog 2 horigen.",
            "Je hebt nog 5 horigen.",
            "Je hebt nog 1000000 horigen.",
        ],
        "es": [
            "No te quedan seguidores: vuelven cuando se puntúa su camino o su ciudad.",
            "Te queda 1 seguidor.",
            "Te quedan 2 seguidores.",
            "Te quedan 5 seguidores.",
            "Te quedan 1000000 de seguidores.",
        ],
    },
    ("covenant.story.ark_moved_nobody", "steps", (("player", "Ruth"), ("square", "M12"))): {
        "nl": [
            "Ruth verzette de Ark 0 stappen naar M12.",
            "Ruth verzette de Ark 1 stap naar M12.",
            "Ruth verzette de Ark 2 stappen naar M12.",
            "Ruth verzette de Ark 5 stappen naar M12.",
            "Ruth verzette de Ark 1000000 stappen naar M12.",
        ],
        "es": [
            "Ruth movió el Arca 0 casillas hasta M12.",
            "Ruth movió el Arca 1 casilla hasta M12.",
            "Ruth movió el Arca 2 casillas hasta M12.",
            "Ruth movió el Arca 5 casillas hasta M12.",
            "Ruth movió el Arca 1000000 de casillas hasta M12.",
        ],
    },
    ("covenant.tile.sheep", "count", ()): {
        "en": ["0 sheep", "a sheep", "2 sheep", "5 sheep", "1000000 sheep"],
        "nl": ["0 schapen", "een schaap", "2 schapen", "5 schapen", "1000000 schapen"],
        "es": ["0 ovejas", "una oveja", "2 ovejas", "5 ovejas", "1000000 de ovejas"],
    },
    ("covenant.picture.winner_one", "points", (("winners", "Ruth"),)): {
        "en": [
            "Ruth wins with 0 points",
            "Ruth wins with 1 point",
            "Ruth wins with 2 points",
            "Ruth wins with 5 points",
            "Ruth wins with 1000000 points",
        ],
        "nl": [
            "Ruth wint met 0 punten",
            "Ruth wint met 1 punt",
            "Ruth wint met 2 punten",
            "Ruth wint met 5 punten",
            "Ruth wint met 1000000 punten",
        ],
        "es": [
            "Ruth gana con 0 puntos",
            "Ruth gana con 1 punto",
            "Ruth gana con 2 puntos",
            "Ruth gana con 5 puntos",
            "Ruth gana con 1000000 de puntos",
        ],
    },
    # What a turn scored, said in its "Done!" message (table.turn.done and its kin).
    ("table.turn.scored", "points", ()): {
        "nl": [
            "Je hebt deze beurt geen punten gescoord.",
            "Je hebt deze beurt 1 punt gescoord.",
            "Je hebt deze beurt 2 punten gescoord.",
            "Je hebt deze beurt 5 punten gescoord.",
            "Je hebt deze beurt 1000000 punten gescoord.",
        ],
        "es": [
            "No has sumado puntos en este turno.",
            "Has sumado 1 punto en este turno.",
            "Has sumado 2 puntos en este turno.",
            "Has sumado 5 puntos en este turno.",
            "Has sumado 1000000 de puntos en este turno.",
        ],
        # Latin America says what just happened in the simple past.
        "es-419": [
            "No sumaste puntos en este turno.",
            "Sumaste 1 punto en este turno.",
            "Sumaste 2 puntos en este turno.",
            "Sumaste 5 puntos en este turno.",
            "Sumaste 1000000 de puntos en este turno.",
        ],
    },
    # ... or what it cost (the card game's endgame: a disc kept is worth a point).
    ("table.turn.lost", "points", ()): {
        "en": [
            "You lost 0 points this turn.",
            "You lost 1 point this turn.",
            "You lost 2 points this turn.",
            "You lost 5 points this turn.",
            "You lost 1000000 points this turn.",
        ],
        "nl": [
            "Je hebt deze beurt 0 punten verloren.",
            "Je hebt deze beurt 1 punt verloren.",
            "Je hebt deze beurt 2 punten verloren.",
            "Je hebt deze beurt 5 punten verloren.",
            "Je hebt deze beurt 1000000 punten verloren.",
        ],
        "es": [
            "Has perdido 0 puntos en este turno.",
            "Has perdido 1 punto en este turno.",
            "Has perdido 2 puntos en este turno.",
            "Has perdido 5 puntos en este turno.",
            "Has perdido 1000000 de puntos en este turno.",
        ],
        "es-419": [
            "Perdiste 0 puntos en este turno.",
            "Perdiste 1 punto en este turno.",
            "Perdiste 2 puntos en este turno.",
            "Perdiste 5 puntos en este turno.",
            "Perdiste 1000000 de puntos en este turno.",
        ],
    },
}


@pytest.mark.parametrize("message", list(PLURALS), ids=lambda m: m[0])
def test_plurals_give_each_language_its_forms(message: tuple[str, str, tuple]) -> None:
    key, name, values = message
    for language, expected in PLURALS[message].items():
        latin = language == "es" and "es-419" not in PLURALS[message]
        for code in (language, "es-419") if latin else (language,):
            said = [t(key, code, **dict(values), **{name: n}) for n in (0, 1, 2, 5, 1000000)]
            assert said == expected, code


def test_spanish_says_millions_with_de_wherever_a_noun_follows() -> None:
    """CLDR's ``many`` (1000000, 2000000...): "1000000 de puntos"; every Spanish plural
    that puts a noun after the number has that form."""
    noun = re.compile(r"\bother \{[^{}]*# (?!más\b)[a-záéíóúñ]", re.I)
    for language in ("es", "es-419"):
        for key, text in own(language).items():
            if noun.search(text):
                assert "many {" in text, key


def test_numbers_with_decimals_use_the_languages_decimal_sign() -> None:
    half = "{n, plural, one {# hour} other {# hours}}"
    assert format_message(half, {"n": 1.5}, "en") == "1.5 hours"
    assert format_message("{n}", {"n": 1.5}, "nl") == "1,5"
    assert format_message(half, {"n": 1.5}, "es") == "1,5 hours"
    # Whole numbers are left alone: no grouping, as the plural forms above expect.
    assert format_message("{n}", {"n": 1000000}, "nl") == "1000000"
    custom = t("table.mod.pace_custom", "nl", start=1.5, increment=0.5, cap=36)
    assert custom == "het eigen tempo van deze bot: 1,5 uur, +0,5 uur per zet, hoogstens 36 uur"
    assert "tras 2,5 horas" in t(
        "table.mod.settings",
        "es",
        pace="-",
        action="-",
        role="-",
        language="-",
        lobby=2.5,
        timezone="UTC",
        quiet="-",
        busy="-",
        threads="-",
        stall=3,
        level="-",
    )


def test_lists_are_joined_the_languages_way() -> None:
    three = ("Ruth", "Boaz", "Eli")
    expected = {
        "en": ("Ruth and Boaz", "Ruth, Boaz, and Eli", "Ruth, Boaz, Eli"),
        "nl": ("Ruth en Boaz", "Ruth, Boaz en Eli", "Ruth, Boaz en Eli"),
        "es": ("Ruth y Boaz", "Ruth, Boaz y Eli", "Ruth, Boaz y Eli"),
        "es-419": ("Ruth y Boaz", "Ruth, Boaz y Eli", "Ruth, Boaz y Eli"),
    }
    for language, (two, standard, unit) in expected.items():
        assert format_message("{w}", {"w": ListOf(three[:2], "standard")}, language) == two
        assert format_message("{w}", {"w": ListOf(three, "standard")}, language) == standard
        assert format_message("{w}", {"w": three}, language) == unit
    five = tuple(Text("covenant.story.gain", player=n, points=1) for n in "ABCDE")
    assert t("covenant.turn.scores", "nl", scores=five) == "Stand: A +1, B +1, C +1, D +1 en E +1"
    # A language Babel does not know at all is said like English.
    assert format_message("{w}", {"w": three}, "xx") == "Ruth, Boaz, Eli"


# --------------------------------------------------------------------- the commands


def command_tree(language: str) -> dict[str, list[tuple[str, list[str]]]]:
    """``{group: [(command, [option, ...]), ...]}`` as named in ``language``."""
    tree: dict[str, list[tuple[str, list[str]]]] = {}
    for section in ("table.command", "table.mod_command", *(f"{g}.command_name" for g in GAMES)):
        parts = [k.removeprefix(f"{section}.") for k in english() if k.startswith(f"{section}.")]
        names = {p: t(f"{section}.{p}", language) for p in parts if not p.endswith("_description")}
        group = names.pop("group")
        tree[group] = [
            (name, [v for p, v in names.items() if p.startswith(f"{part}_")])
            for part, name in names.items()
            if "_" not in part
        ]
    return tree


@pytest.mark.parametrize("language", ["en", *LANGUAGES])
def test_command_names_are_valid_and_distinct_in_every_language(language: str) -> None:
    tree = command_tree(language)
    # /table, /moderate, /covenant and the card game's /ark are named apart.
    assert len(tree) == 2 + len(GAMES)
    for group, commands in tree.items():
        assert valid_name(group), group
        assert len({name for name, _ in commands}) == len(commands), group
        for command, options in commands:
            assert valid_name(command), (group, command)
            assert all(valid_name(o) for o in options), (group, command, options)
            assert len(set(options)) == len(options), (group, command, options)


@pytest.mark.parametrize("language", ["en", *LANGUAGES])
def test_descriptions_and_choices_fit_discord(language: str) -> None:
    said = resolved(language)
    limited = [
        k
        for k in said
        if k.endswith("_description")
        or k.startswith((*(f"{g}.command." for g in GAMES), "table.choice.", "covenant.edition."))
        or k.endswith(".title")
    ]
    assert len(limited) > 50
    assert [k for k in limited if not 0 < len(said[k]) <= 100] == []


@pytest.mark.parametrize("language", ["en", *LANGUAGES])
def test_commands_in_messages_are_named_as_in_that_language(language: str) -> None:
    """`/table new` in English is `/tafel nieuw` in Dutch: every command a message quotes
    exists under that name."""
    tree = command_tree(language)
    quoted = [
        (key, group, command)
        for key, text in resolved(language).items()
        for group, command in re.findall(r"`/([^` ]+) ([^` ]+)`", text)
    ]
    assert len(quoted) > 8
    named = {group: {name for name, _ in commands} for group, commands in tree.items()}
    assert [q for q in quoted if q[2] not in named.get(q[1], set())] == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_buttons_a_message_names_are_the_buttons(language: str) -> None:
    """ "Tap **Join**": the bold word a message asks to tap is the button's label."""
    said = resolved(language)
    labels = {v for k, v in said.items() if ".button." in k}
    for key in ("table.lobby.open", "table.reminder.channel", "covenant.rules.text"):
        tapped = re.findall(r"\*\*([^*]+)\*\*", said[key])
        assert any(word in labels for word in tapped), key
    for key in ("table.turn.not_started", "table.error.not_started"):
        assert re.findall(r"\*\*([^*]+)\*\*", said[key])[-1] == said["table.button.start"]


async def test_discord_gets_every_command_in_every_language(harness: Harness) -> None:
    """What the bot syncs: each command, option and choice named in Dutch and both Spanish
    locales, names valid, descriptions and choices within 100 characters."""
    tree = harness.bot.tree
    translator = CatalogueTranslator()
    locales = {"nl": "nl", "es-ES": "es", "es-419": "es-419"}
    seen: dict[str, set[str]] = {locale: set() for locale in locales}

    # A game whose catalogues are not (yet) in these languages is named by its own title,
    # and so are its commands.
    untranslated = {
        name: chosen.front.command_group
        for name, chosen in plugins().items()
        if not set(locales.values()) - {"es-419"} <= set(chosen.descriptor.languages)
    }

    def check(part: dict, naming: bool = True) -> None:
        if part.get("value") in untranslated:
            return
        names = part.get("name_localizations", {})
        assert set(names) == set(locales), part["name"]
        for locale, name in names.items():
            assert valid_name(name) if naming else 0 < len(name) <= 100, (locale, name)
            seen[locale].add(name)
        for locale, text in part.get("description_localizations", {}).items():
            assert 0 < len(text) <= 100, (locale, text)
        if "description" in part:
            assert set(part.get("description_localizations", {})) == set(locales), part["name"]
        for option in part.get("options", []):
            check(option)
        for choice in part.get("choices", []):
            check(choice, naming=False)

    for command in tree.get_commands():
        if command.name not in untranslated.values():
            check(await command.get_translated_payload(tree, translator))
    assert {"tafel", "modereren", "verbond", "nieuw", "tegel"} <= seen["nl"]
    assert {"mesa", "moderar", "alianza", "nueva", "loseta", "ajustes"} <= seen["es-ES"]
    assert "configuración" in seen["es-419"]


def test_the_readme_names_every_command_as_each_language_does() -> None:
    """The README's table of commands is what Discord shows a member in each language."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    rows = re.findall(
        r"^\| `(/[^`]+)` \| `(/[^`]+)` \| `(/[^`]+)` \| (?:`(/[^`]+)`|as in Spain) \|$",
        readme,
        re.M,
    )
    columns = [
        [row[0] for row in rows],
        [row[1] for row in rows],
        [row[2] for row in rows],
        [row[3] or row[2] for row in rows],
    ]
    for language, column in zip(("en", "nl", "es", "es-419"), columns, strict=True):
        tree = command_tree(language)
        assert column == [f"/{group} {name}" for group, cs in tree.items() for name, _ in cs]
