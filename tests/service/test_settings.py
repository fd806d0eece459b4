"""Settings from the environment, and the registry of game kinds."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest

from bot.games import plugin
from bot.service import move_rng
from bot.settings import Settings, SettingsError


def test_defaults() -> None:
    settings = Settings.from_env({})
    assert settings.discord_token is None and settings.dev_guild is None
    assert settings.db_path == Path("./arkbot.sqlite3")
    assert settings.pace == "normal"


def test_values_from_the_environment() -> None:
    settings = Settings.from_env(
        {
            "DISCORD_TOKEN": " abc ",
            "ARKBOT_DB": "/tmp/x.db",
            "ARKBOT_DEV_GUILD": "42",
            "ARKBOT_PACE": " Fast ",
        }
    )
    assert settings.discord_token == "abc" and settings.db_path == Path("/tmp/x.db")
    assert settings.dev_guild == 42 and settings.pace == "fast"
    with pytest.raises(AttributeError):
        settings.dev_guild = 1  # type: ignore[misc]


def test_bot_process_settings_from_the_environment() -> None:
    settings = Settings.from_env(
        {
            "ARKBOT_POLL_SECONDS": "2.5",
            "ARKBOT_RENDER_WORKERS": "0",
            "ARKBOT_LOG_LEVEL": "debug",
            "ARKBOT_DISCORD_API": "http://127.0.0.1:9/api/v10",
        }
    )
    assert (settings.poll_seconds, settings.render_workers, settings.log_level) == (
        2.5,
        0,
        "DEBUG",
    )
    assert settings.discord_api == "http://127.0.0.1:9/api/v10"
    assert settings.discord_gateway is None
    assert Settings.from_env({}).render_workers == 1


def test_the_time_to_take_a_turn_back_from_the_environment() -> None:
    assert Settings.from_env({}).take_back == timedelta(seconds=30)
    assert Settings.from_env({"ARKBOT_TAKE_BACK_SECONDS": "45"}).take_back.total_seconds() == 45
    assert not Settings.from_env({"ARKBOT_TAKE_BACK_SECONDS": "0"}).take_back  # posted at once
    with pytest.raises(SettingsError, match="ARKBOT_TAKE_BACK_SECONDS"):
        Settings.from_env({"ARKBOT_TAKE_BACK_SECONDS": "half a minute"})


@pytest.mark.parametrize(
    "env",
    [
        {"ARKBOT_DEV_GUILD": "guild"},
        {"ARKBOT_PACE": "glacial"},
        {"ARKBOT_POLL_SECONDS": "0"},
        {"ARKBOT_RENDER_WORKERS": "two"},
        {"ARKBOT_RENDER_WORKERS": "-1"},
        {"ARKBOT_AI_SECONDS": "0"},
        {"ARKBOT_AI_WORKERS": "many"},
    ],
)
def test_bad_values_are_refused(env: dict[str, str]) -> None:
    with pytest.raises(SettingsError):
        Settings.from_env(env)


def test_registry_drives_the_covenant_engine() -> None:
    kind = plugin("covenant").rules
    game = kind.new(3, 7, kind.check_options({}))
    action = kind.computer_action(game, "normal", 7, 1.0, 16)
    assert action == kind.computer_action(game, "normal", 7, 1.0, 16)  # the same every time
    assert kind.parse_action(kind.dump_action(action)) == action
    game.apply(action)
    assert kind.timeout_action(game, move_rng(7, 1)).type == "pass"
    assert move_rng(7, 1).next_u64() == move_rng(7, 1).next_u64() != move_rng(7, 2).next_u64()


def test_a_postgres_url_and_shards_from_the_environment() -> None:
    url = "postgresql://arkbot@db:5432/arkbot"
    settings = Settings.from_env(
        {
            "ARKBOT_DB": url,
            "ARKBOT_SHARD_COUNT": "6",
            "ARKBOT_SHARD_IDS": "4, 0-1",
            "ARKBOT_CLAIM_SECONDS": "30",
        }
    )
    assert settings.db_path == url  # a string: a Path would fold the "//"
    assert (settings.shard_count, settings.shard_ids) == (6, (0, 1, 4))
    assert settings.claim_lease == timedelta(seconds=30)
    # A count alone: every shard in this process; nothing: Discord's recommended count.
    assert Settings.from_env({"ARKBOT_SHARD_COUNT": "3"}).shard_ids == (0, 1, 2)
    assert Settings.from_env({}).shard_count is None
    assert Settings.from_env({}).claim_lease == timedelta(minutes=10)


@pytest.mark.parametrize(
    ("env", "says"),
    [
        ({"ARKBOT_SHARD_IDS": "0"}, "needs ARKBOT_SHARD_COUNT"),
        ({"ARKBOT_SHARD_COUNT": "0"}, "from 1 to"),
        ({"ARKBOT_SHARD_COUNT": "two"}, "whole number"),
        ({"ARKBOT_SHARD_COUNT": "2", "ARKBOT_SHARD_IDS": "2"}, "numbered 0 to 1"),
        ({"ARKBOT_SHARD_COUNT": "4", "ARKBOT_SHARD_IDS": "1,1"}, "twice"),
        ({"ARKBOT_SHARD_COUNT": "4", "ARKBOT_SHARD_IDS": "3-1"}, "backwards"),
        ({"ARKBOT_SHARD_COUNT": "4", "ARKBOT_SHARD_IDS": "one"}, "like 0,1 or 0-3"),
        ({"ARKBOT_CLAIM_SECONDS": "0"}, "more than 0"),
    ],
)
def test_bad_shard_settings_say_what_is_wrong(env: dict[str, str], says: str) -> None:
    with pytest.raises(SettingsError, match=says):
        Settings.from_env(env)
