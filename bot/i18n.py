"""The translation function for the Discord layer (it lives in ``engine.common.i18n`` so
that the pictures can use the same catalogue)."""

from engine.common.i18n import DEFAULT_LANGUAGE, catalogue, t

__all__ = ["DEFAULT_LANGUAGE", "catalogue", "t"]
