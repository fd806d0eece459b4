"""The bot's fixtures (the real bot on a SQLite file, through the in-process harness)."""

from tests.support.bot import db_path, harness

__all__ = ["db_path", "harness"]
