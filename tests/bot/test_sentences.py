"""The catalogues' sentences read as a native reader writes them (issue 42): one colon a
sentence, in every message of every language and in the messages said inside another
("The Cow cannot go anywhere now: {reason}")."""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator

import pytest

from render.i18n import _branches, _closing, catalogue, format_message, placeholders

DOMAINS = ("common", "table", "covenant", "noah")
LANGUAGES = ("en", "nl", "es", "es-419")
#: A message said inside another: (outer message, its value, the messages that value is).
NESTED = (("noah.turn.cannot", "reason", "noah.illegal."),)

#: Where a sentence ends: a full stop, question or exclamation mark before a space, a new
#: line, or a semicolon (which joins two sentences).
SENTENCE_END = re.compile(r"(?<=[.!?])\s+|\n+|;")
#: A colon that is punctuation: one a space or the end follows (not "custom:START", "12:30",
#: ":emoji:" or a link).
COLON = re.compile(r":(?:\s|$)")


def choices(text: str) -> dict[str, tuple[str, set[str]]]:
    """Every select and plural of ``text`` (nested ones too): its kind and its branches."""
    found: dict[str, tuple[str, set[str]]] = {}
    for match in re.finditer(r"\{\s*([a-z_0-9]+)\s*,\s*(select|plural)\s*,", text):
        body = text[match.start() + 1 : _closing(text, match.start())]
        options = body.split(",", 2)[2]
        found.setdefault(match.group(1), (match.group(2), set()))[1].update(_branches(options))
    return found


def variants(text: str, language: str, **given: object) -> Iterator[str]:
    """``text`` filled in every way its selects and plurals choose (up to 256 ways)."""
    found = choices(text)
    names = sorted(n for n in found if n not in given)
    ways = [[0, 1, 2] if found[n][0] == "plural" else sorted(found[n][1]) for n in names]
    values: dict[str, object] = {n: "7" for n in placeholders(text)} | given
    for chosen in itertools.islice(itertools.product(*ways), 256):
        yield format_message(text, values | dict(zip(names, chosen, strict=True)), language)


def two_colons(said: str) -> list[str]:
    return [s for s in SENTENCE_END.split(said) if len(COLON.findall(s)) > 1]


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_sentence_has_two_colons(language: str) -> None:
    found = [
        (key, sentence)
        for domain in DOMAINS
        for key, text in catalogue(domain, language).items()
        for said in variants(text, language)
        for sentence in two_colons(said)
    ]
    assert found == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_sentence_said_inside_another_has_two_colons(language: str) -> None:
    found = []
    for outer, name, prefix in NESTED:
        domain = outer.split(".")[0]
        outer_text = catalogue(domain, language).get(outer) or catalogue(domain, "en")[outer]
        for key, inner in catalogue(domain, language).items():
            # A refusal said after a colon is a clause, in lower case; one that is a whole
            # sentence (capitalised) is said alone.
            if not key.startswith(prefix):
                continue
            for inner_said in variants(inner, language):
                if inner_said[:1].isupper():
                    continue
                said = next(variants(outer_text, language, **{name: inner_said}))
                found += [(key, sentence) for sentence in two_colons(said)]
    assert found == []


def test_the_test_sees_two_colons() -> None:
    assert two_colons("Too heavy: the ark would tip: it leans 3.") != []
    assert two_colons("Yellow: hot; blue: cold. Pace custom:1,2,3 at 12:30: fine.") == []


#: The perfect tense of the indicative ("has sumado", "se ha detenido"): Spain says it of
#: what has just happened; Latin America says the simple past ("sumaste").
PERFECT = re.compile(
    r"\b(?:he|has|ha|hemos|habéis|han)\s+(?:\w+(?:ad|id|íd)[oa]s?|puesto|hecho|dicho|visto|"
    r"vuelto|roto|escrito|abierto|devuelto)\b",
    re.I,
)
#: Words of Spain that Latin America says otherwise ("presionar", "configuración", "lugar",
#: "computadora", "Bananas", "Zorrillo").
SPAIN_ONLY = re.compile(
    r"\bpuls(?:a|ar|e|es|en|ando)\b|\bajustes\b|\bsitio\b|\bmofeta\b|\bplátanos?\b|"
    r"\bordenador(?:es)?\b|\btumbad[oa]s?\b",
    re.I,
)


def test_latin_american_spanish_has_its_own_form_of_every_spain_form() -> None:
    """Issue 42: every message whose Spanish uses the perfect tense or a word of Spain is
    said in es-419.toml, in the simple past and the Latin-American word."""
    missing = []
    for domain in DOMAINS:
        spain, latin = catalogue(domain, "es"), catalogue(domain, "es-419")
        for key, text in spain.items():
            if not (PERFECT.search(text) or SPAIN_ONLY.search(text)):
                continue
            own = latin.get(key)
            if own is None or PERFECT.search(own) or SPAIN_ONLY.search(own):
                missing.append(key)
    assert missing == []
    # The test sees what it looks for.
    assert PERFECT.search("¡Hecho! No has sumado puntos.") and PERFECT.search("se ha detenido")
    assert not PERFECT.search("¡Hecho! No sumaste puntos; el arca ha de zarpar.")
    assert SPAIN_ONLY.search("Pulsa **Jugar**") and SPAIN_ONLY.search("en ningún sitio")
