"""Every word a user reads, from catalogues per domain and language, with an English fallback.

A message id is ``"<domain>.<section>.<name>"``: ``t("covenant.story.passed", "nl",
player="Ruth")``. Domain ``common`` holds words every part shares, ``table`` the bot's own
texts, and each game its own, named as the game; a domain's catalogues are the files
``data/i18n/<domain>/<language>.toml``, or for a game the folder :mod:`engine.registry`
gives (``data/<game>/i18n/``; a game installed from outside the project keeps its words in
its own package), so that every process, the picture workers too, finds a game's words the
same way.

Templates are ICU MessageFormat, the subset we need, so a translator can say a plural the way
their language does: ``{name}`` is a value; ``{count, plural, one {# step} other {# steps}}``
chooses by CLDR's plural rules for the language (from Babel; ``=0 {...}`` matches exactly and
``#`` is the number); ``{kind, select, city {...} other {...}}`` chooses by a word. ``{{`` and
``}}`` are literal braces. A value that is a :class:`Text` is translated too, in the same
language; a number with decimals is written with the language's decimal sign ("1,5" in Dutch);
a :class:`Day` is a date with its weekday and month by name ("zondag 8 december").

A noun's grammar is data of its language: a catalogue's ``[grammar]`` table mirrors its
messages, and ``[grammar.card] hay = "neuter"`` says that ``noah.card.hay`` is a neuter noun
in that language (its words are the catalogue's own: ``common``/``neuter``/``plural`` in
Dutch, ``masculine``/``feminine``/``masculine_plural``/``feminine_plural`` in Spanish,
``singular``/``plural`` in English). A ``select`` on a value that is a :class:`Text` chooses
by that word, so a template puts the right article before whatever noun it is given: ``{card,
select, neuter {het} other {de}} {card}``. A grammar entry is itself a template, filled in
with the message's values, so a noun made of another (``"{spot}, at the edge"``) can take its
grammar from it: ``"{spot, select, neuter {neuter} other {common}}"``. A noun without an
entry (a name, a raw text) chooses ``other``.

Why this and not Project Fluent, which was made for grammar: Fluent's terms carry attributes
(``-hay = Hooi`` with ``.gender = neuter``), but a message cannot ask a term it is given as
a variable for them (``{ $card.gender }`` is not Fluent), so the card's gender would still
be worked out in code, per language, and passed beside it. Here the catalogue keeps it and a
select reads it, in the ICU syntax every catalogue is already written in; moving to Fluent
would rewrite every message of every language for the same result.

A missing message falls back to the next language of the chain (``es-419`` -> ``es`` ->
``en``), logged once (not from a regional variant to its language: ``es-419.toml`` holds only
what Latin America says differently); a message missing in English is a bug, logged as an
error, and shows its id rather than crashing anything.
"""

from __future__ import annotations

import logging
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import cache, lru_cache
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from babel import Locale, UnknownLocaleError
from babel.dates import format_date
from babel.numbers import get_decimal_symbol

from engine import registry
from engine.common.data import DATA_DIR

log = logging.getLogger("arkbot.i18n")

DEFAULT_LANGUAGE = "en"
_WARNED: set[tuple[str, str]] = set()


@dataclass(frozen=True, slots=True)
class Text:
    """A message to be said in the reader's language: its id and its values."""

    key: str
    params: Mapping[str, Any] = field(default_factory=dict)

    def __init__(self, key: str, /, **params: Any) -> None:
        object.__setattr__(self, "key", key)
        object.__setattr__(self, "params", params)

    def __hash__(self) -> int:
        return hash((self.key, tuple(sorted((k, repr(v)) for k, v in self.params.items()))))


@dataclass(frozen=True, slots=True)
class ListOf:
    """Several values said as a list in the reader's language: style ``"unit"`` gives
    "a, b, c"; ``"standard"`` gives "a, b and c" (CLDR list patterns); ``"joined"`` gives
    "abc" (letters spelling a word). A plain tuple or list value is said as
    ``ListOf(values)``."""

    items: tuple[Any, ...]
    style: str = "unit"


@dataclass(frozen=True, slots=True)
class Day:
    """The day of the moment ``ms`` (milliseconds since the epoch) in the time zone ``zone``,
    said in the reader's language with its weekday and month by name: the names are CLDR's
    (from Babel), their order the catalogue's CLDR date pattern ``common.date.day``
    ("Sunday 8 December", "zondag 8 december", "domingo 8 de diciembre")."""

    ms: int
    zone: str = "UTC"


def day_text(day: Day, language: str) -> str:
    """``day`` in ``language`` (an unknown time zone is taken as UTC)."""
    try:
        zone = ZoneInfo(day.zone)
    except (ZoneInfoNotFoundError, ValueError):
        zone = ZoneInfo("UTC")
    moment = datetime.fromtimestamp(day.ms / 1000, UTC).astimezone(zone)
    pattern = template("common.date.day", language) or "EEEE d MMMM"
    return format_date(moment.date(), pattern, locale=_locale(language))


def _folder(domain: str) -> Path:
    described = registry.games().get(domain)
    return described.texts if described is not None else DATA_DIR / "i18n" / domain


@cache
def catalogue(domain: str, language: str = DEFAULT_LANGUAGE) -> dict[str, str]:
    """The flat ``{"<domain>.<section>.<name>": template}`` catalogue of one language (empty
    when the language has no file for the domain); its ``[grammar]`` table is not in it
    (:func:`grammar_catalogue`)."""
    loaded = _read(domain, language)
    return _flat(domain, {k: v for k, v in loaded.items() if k != GRAMMAR})


@cache
def grammar_catalogue(domain: str, language: str = DEFAULT_LANGUAGE) -> dict[str, str]:
    """The grammar of the nouns of one language's catalogue, by the id of the message that
    names them: ``{"noah.card.hay": "neuter"}`` (a template: see the module docstring)."""
    return _flat(domain, _read(domain, language).get(GRAMMAR, {}))


#: The catalogue table that holds the grammar of the messages, not messages.
GRAMMAR = "grammar"


def _read(domain: str, language: str) -> dict[str, Any]:
    path = _folder(domain) / f"{language}.toml"
    if not path.is_file():
        return {}
    with path.open("rb") as handle:
        return tomllib.load(handle)


def _flat(domain: str, tree: Mapping[str, Any]) -> dict[str, str]:
    flat: dict[str, str] = {}

    def walk(prefix: str, node: Mapping[str, Any]) -> None:
        for key, value in node.items():
            if isinstance(value, Mapping):
                walk(f"{prefix}{key}.", value)
            else:
                flat[f"{prefix}{key}"] = str(value)

    walk(f"{domain}.", tree)
    return flat


def fallbacks(language: str) -> tuple[str, ...]:
    """The languages to look in, in order: ``es-419`` -> ``es-419, es, en``."""
    chain = [language]
    if "-" in language:
        chain.append(language.split("-")[0])
    if DEFAULT_LANGUAGE not in chain:
        chain.append(DEFAULT_LANGUAGE)
    return tuple(chain)


def template(key: str, language: str = DEFAULT_LANGUAGE) -> str | None:
    """The template of ``key`` in ``language`` or its fallbacks (None if there is none)."""
    domain = key.split(".", 1)[0]
    for number, lang in enumerate(fallbacks(language)):
        found = catalogue(domain, lang).get(key)
        if found is not None:
            # A regional catalogue (es-419) holds only what it says differently from its
            # language's: falling back to that one is by design, not worth a warning.
            regional = lang == language.split("-")[0]
            if number and not regional and (key, language) not in _WARNED:
                _WARNED.add((key, language))
                log.warning("no %s text for %s: said in %s", language, key, lang)
            return found
    return None


def grammar(text: Text, language: str = DEFAULT_LANGUAGE) -> str:
    """The grammar word of the noun ``text`` names in ``language`` (``"neuter"``), or
    ``"other"`` when its catalogue says none. A regional language falls back to its
    language's grammar, never to English's (another language's genders mean nothing)."""
    domain = text.key.split(".", 1)[0]
    chain = fallbacks(language)
    if language.split("-")[0] != DEFAULT_LANGUAGE:
        chain = tuple(lang for lang in chain if lang != DEFAULT_LANGUAGE)
    for lang in chain:
        found = grammar_catalogue(domain, lang).get(text.key)
        if found is not None:
            return format_message(found, text.params, language).strip() or "other"
    return "other"


def t(key: str, language: str = DEFAULT_LANGUAGE, /, **params: Any) -> str:
    """The message ``key`` in ``language`` with ``params`` filled in."""
    text = template(key, language)
    if text is None:
        if (key, "") not in _WARNED:
            _WARNED.add((key, ""))
            log.error("no text at all for message %s", key)
        return key
    return format_message(text, params, language)


def say(text: Text, language: str = DEFAULT_LANGUAGE) -> str:
    """A :class:`Text` in ``language``."""
    return t(text.key, language, **text.params)


# ------------------------------------------------------------------ the template language


def plural_category(number: float, language: str) -> str:
    """CLDR's plural category (``one``, ``few``, ``other``, ...) of ``number``."""
    return _locale(language).plural_form(abs(number))


@cache
def _locale(language: str) -> Locale:
    try:
        return Locale.parse(language, sep="-")
    except (ValueError, LookupError, UnknownLocaleError):
        return Locale.parse(DEFAULT_LANGUAGE)


def number_text(value: Any, language: str) -> str:
    """A value as text; a number with decimals with the language's decimal sign (1.5 is
    "1,5" in Dutch and Spanish). Numbers get no grouping (1000000, as CLDR's plurals say)."""
    if isinstance(value, float):
        return str(value).replace(".", get_decimal_symbol(_locale(language)))
    return str(value)


def format_message(text: str, params: Mapping[str, Any], language: str) -> str:
    """Fill in ``text`` (see the module docstring for the syntax)."""
    out: list[str] = []
    for piece in _pieces(text):
        out.append(piece if isinstance(piece, str) else _placeholder(piece, params, language))
    return "".join(out)


#: A placeholder as read from its template: its name, its kind ("" for a plain value,
#: "plural", "select") and its branches by selector.
Placeholder = tuple[str, str, dict[str, str]]


@lru_cache(maxsize=8192)
def _pieces(text: str) -> tuple[str | Placeholder, ...]:
    """``text`` read once: its runs of plain text (``{{`` and ``}}`` said as ``{`` and ``}``)
    and its placeholders, in order. A bot says the same few hundred templates again and
    again: reading each once, not a character at a time on every message, is a tenth of
    what the bot's own work costs."""
    pieces: list[str | Placeholder] = []
    plain: list[str] = []
    i, n = 0, len(text)
    while i < n:
        char = text[i]
        if char == "{":
            if text.startswith("{{", i):
                plain.append("{")
                i += 2
                continue
            end = _closing(text, i)
            if plain:
                pieces.append("".join(plain))
                plain = []
            pieces.append(_read_placeholder(text[i + 1 : end]))
            i = end + 1
        elif char == "}" and text.startswith("}}", i):
            plain.append("}")
            i += 2
        else:
            plain.append(char)
            i += 1
    if plain:
        pieces.append("".join(plain))
    return tuple(pieces)


def _read_placeholder(body: str) -> Placeholder:
    name, _, rest = (part.strip() for part in body.partition(","))
    if not rest:
        return (name, "", {})
    kind, _, options = (part.strip() for part in rest.partition(","))
    if kind not in ("plural", "select"):
        raise ValueError(f"unknown placeholder kind {kind!r} in {{{body}}}")
    return (name, kind, _branches(options))


def _closing(text: str, start: int) -> int:
    depth = 0
    for i in range(start, len(text)):
        if text[i] == "{":
            depth += 1
        elif text[i] == "}":
            depth -= 1
            if depth == 0:
                return i
    raise ValueError(f"unbalanced braces in {text!r}")


def _value(name: str, params: Mapping[str, Any], language: str) -> Any:
    if name not in params:
        raise KeyError(name)
    return _said(params[name], language)


def _said(value: Any, language: str) -> Any:
    if isinstance(value, Text):
        return say(value, language)
    if isinstance(value, Day):
        return day_text(value, language)
    if isinstance(value, tuple | list):
        value = ListOf(tuple(value))
    if isinstance(value, ListOf):
        items = [number_text(_said(item, language), language) for item in value.items]
        return join_list(items, value.style, language)
    return value


#: The list styles CLDR lets fall back to others (root's aliases, as Babel reads them).
_LIST_FALLBACKS = {
    "or-narrow": ("or-short", "or"),
    "or-short": ("or",),
    "standard-narrow": ("standard-short", "standard"),
    "standard-short": ("standard",),
    "unit": ("unit-short", "standard"),
    "unit-narrow": ("unit-short", "unit", "standard"),
    "unit-short": ("standard",),
}


def join_list(items: list[str], style: str, language: str) -> str:
    """``items`` joined by CLDR's list patterns of ``language`` in ``style``.

    A language may give a style only in part (Dutch and Spanish ``unit`` give the last
    joint, "a, b en c", but not the first): each missing part comes from the style it falls
    back to, part by part, where Babel would take one whole style and fail on the missing
    parts.
    """
    if len(items) < 2 or style == "joined":
        return "".join(items)
    found = _locale(language).list_patterns
    patterns: dict[str, str] = {}
    for name in (style, *_LIST_FALLBACKS.get(style, ()), "standard"):
        if name in found:
            for part in ("start", "middle", "end", "2"):
                if part not in patterns and part in found[name]:
                    patterns[part] = found[name][part]
    if len(items) == 2:
        return patterns.get("2", patterns["end"]).format(*items)
    result = patterns["start"].format(items[0], items[1])
    for item in items[2:-1]:
        result = patterns["middle"].format(result, item)
    return patterns["end"].format(result, items[-1])


def _placeholder(placeholder: Placeholder, params: Mapping[str, Any], language: str) -> str:
    name, kind, branches = placeholder
    if not kind:
        return number_text(_value(name, params, language), language)
    if kind == "select" and isinstance(params.get(name), Text):
        # A noun: chosen by its grammar in this language, not by its words.
        word = grammar(params[name], language)
        return format_message(branches.get(word, branches.get("other", "")), params, language)
    value = _value(name, params, language)
    if kind == "plural":
        exact = f"={value}"
        chosen = branches.get(exact)
        if chosen is None:
            chosen = branches.get(plural_category(value, language), branches.get("other", ""))
        number = number_text(value, language)
        return format_message(chosen.replace("#", number), params, language)
    chosen = branches.get(str(value), branches.get("other", ""))
    return format_message(chosen, params, language)


def _branches(options: str) -> dict[str, str]:
    """``one {# step} other {# steps}`` -> ``{"one": "# step", "other": "# steps"}``."""
    found: dict[str, str] = {}
    i, n = 0, len(options)
    while i < n:
        while i < n and options[i].isspace():
            i += 1
        if i >= n:
            break
        start = i
        while i < n and options[i] != "{" and not options[i].isspace():
            i += 1
        selector = options[start:i]
        while i < n and options[i].isspace():
            i += 1
        end = _closing(options, i)
        found[selector] = options[i + 1 : end]
        i = end + 1
    return found


def placeholders(text: str) -> set[str]:
    """The names a template needs (to check that every translation asks for the same)."""
    names: set[str] = set()
    i, n = 0, len(text)
    while i < n:
        if text.startswith("{{", i) or text.startswith("}}", i):
            i += 2
            continue
        if text[i] == "{":
            end = _closing(text, i)
            body = text[i + 1 : end]
            name, _, rest = (part.strip() for part in body.partition(","))
            names.add(name)
            if rest:
                _, _, options = (part.strip() for part in rest.partition(","))
                for branch in _branches(options).values():
                    names |= placeholders(branch)
            i = end + 1
        else:
            i += 1
    return names
