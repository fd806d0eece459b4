"""The end-to-end fixtures (tests.support.e2e): a fake Discord, and the bot against it."""

from tests.support.e2e import arkbot, db_path, fake_discord, pytest_runtest_makereport, start_bot

__all__ = ["arkbot", "db_path", "fake_discord", "pytest_runtest_makereport", "start_bot"]
