"""The end-to-end fixtures: a fake Discord per test, and bot processes against it."""

from tests.support.e2e import (
    arkbot,
    db_path,
    fake_discord,
    probe,
    pytest_runtest_makereport,
    start_bot,
)

__all__ = ["arkbot", "db_path", "fake_discord", "probe", "pytest_runtest_makereport", "start_bot"]
