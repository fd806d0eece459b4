"""The Ark's route in the reader's letters: the engine spells a route with the English
compass letters (``NNE``), a Dutch reader reads N, O, Z, W and a Spanish one N, E, S, O. The
letters are each language's catalogue (``covenant.compass_letter``); a route typed is read in
the reader's letters and in the English ones, since both are printed on the web and in the
rules."""

from __future__ import annotations

from render.i18n import ListOf, Text, t

#: The engine's letters, in the order of the sides.
LETTERS = "NESW"


def route_text(path: str) -> ListOf:
    """``path`` (the engine's letters) as a value said in the reader's letters."""
    return ListOf(tuple(Text(f"covenant.compass_letter.{c.lower()}") for c in path), "joined")


def route_letters(path: str, language: str) -> str:
    """``path`` in the letters of ``language``."""
    return "".join(t(f"covenant.compass_letter.{c.lower()}", language) for c in path)


def read_route(typed: str, language: str) -> str:
    """A route typed by a reader of ``language`` in the engine's letters: each letter is read
    as the reader's first (a Spanish O is west, a Dutch O east), then as an English one; any
    other character is kept, for the engine to refuse."""
    own = {t(f"covenant.compass_letter.{c.lower()}", language).upper(): c for c in LETTERS}
    return "".join(own.get(c, c) for c in typed.strip().upper())
