"""Translations for the Discord layer: the catalogues of :mod:`render.i18n` (shared with the
pictures), and which language a reader gets."""

from __future__ import annotations

from typing import Any

from render.i18n import DEFAULT_LANGUAGE, ListOf, Text, catalogue, say, t

__all__ = ["DEFAULT_LANGUAGE", "ListOf", "Text", "catalogue", "language_of", "say", "t"]


def language_of(interaction: Any) -> str:
    """The language to answer ``interaction``'s user in, privately."""
    return DEFAULT_LANGUAGE
