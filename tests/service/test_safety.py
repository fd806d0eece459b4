"""What an attack on the running bot found, at the service and storage layer (issue 18):
lobby floods, direct messages, damage that went unnoticed, storage faults, quiet settings."""

from __future__ import annotations

import asyncio
import json
import sqlite3
from datetime import timedelta
from pathlib import Path

import aiosqlite
import pytest

from bot.service import FakeClock, GameService, ServiceError
from bot.service.storage import StorageError
from tests.service.conftest import (
    ALICE,
    BOB,
    CHANNEL,
    GUILD,
    MOD,
    SCRIPTED_DECK,
    Opener,
    play_one,
    started_game,
)
from tests.support.databases import RawDb


async def refused(code: str, call: object) -> ServiceError:
    with pytest.raises(ServiceError) as error:
        await call  # type: ignore[misc]
    assert error.value.code == code
    return error.value


# ---------------------------------------------------------------- lobbies


async def test_a_user_cannot_flood_a_server_with_lobbies(
    service: GameService, clock: FakeClock
) -> None:
    await service.lobby.create_game(GUILD, 1, ALICE, "Alice", "covenant")
    # A second table right away: a cool-down first.
    error = await refused(
        "cooldown", service.lobby.create_game(GUILD, 2, ALICE, "Alice", "covenant")
    )
    assert error.params["seconds"] == 20
    clock.advance(seconds=21)
    await service.lobby.create_game(GUILD, 2, ALICE, "Alice", "covenant")
    clock.advance(seconds=21)
    await service.lobby.create_game(GUILD, 3, ALICE, "Alice", "covenant")
    clock.advance(seconds=21)
    # Three tables waiting for players is the most one user may have.
    error = await refused(
        "too_many_lobbies", service.lobby.create_game(GUILD, 4, ALICE, "Alice", "covenant")
    )
    assert error.params["count"] == 3
    assert len(await service.moderation.games(GUILD, ("lobby",))) == 3
    # Someone else still may. Starting one of hers frees a lobby place, but three games
    # going and none finished is all anyone may have (issue 15).
    await service.lobby.create_game(GUILD, 4, BOB, "Bob", "covenant")
    await service.lobby.join(1, BOB, "Bob")
    await service.lobby.start(1, ALICE)
    await refused("too_many_games", service.lobby.create_game(GUILD, 5, ALICE, "Alice", "covenant"))


async def test_leaving_a_new_table_does_not_skip_the_cool_down(
    service: GameService, clock: FakeClock
) -> None:
    # Issue 31: the cool-down counted only lobbies still open, so "new" then "leave" (which
    # closes a lobby its creator leaves alone) opened table after table, each one posted.
    await service.lobby.create_game(GUILD, 1, ALICE, "Alice", "covenant")
    await service.lobby.leave(1, ALICE)
    assert await service.moderation.games(GUILD, ("lobby",)) == []
    error = await refused(
        "cooldown", service.lobby.create_game(GUILD, 2, ALICE, "Alice", "covenant")
    )
    assert error.params["seconds"] == 20
    # Left later, a table still counts from when it was opened.
    clock.advance(seconds=21)
    await service.lobby.create_game(GUILD, 2, ALICE, "Alice", "covenant")
    clock.advance(seconds=5)
    await service.lobby.leave(2, ALICE)
    error = await refused(
        "cooldown", service.lobby.create_game(GUILD, 3, ALICE, "Alice", "covenant")
    )
    assert error.params["seconds"] == 15
    await service.lobby.create_game(GUILD, 3, BOB, "Bob", "covenant")  # others are not held
    clock.advance(seconds=16)
    await service.lobby.create_game(GUILD, 4, ALICE, "Alice", "covenant")


async def test_lobbies_nobody_starts_expire_after_the_servers_time(
    service: GameService, clock: FakeClock
) -> None:
    old = await service.lobby.create_game(GUILD, 1, ALICE, "Alice", "covenant")
    clock.advance(hours=20)
    fresh = await service.lobby.create_game(GUILD, 2, BOB, "Bob", "covenant")
    clock.advance(hours=5)  # the first lobby is 25 hours old, the second 5
    expired = await service.lobby.expire_lobbies()
    assert [r.id for r in expired] == [old.id]
    assert (await service.play.get_game(old.id)).status == "ended"
    assert (await service.play.get_game(fresh.id)).status == "lobby"
    # A server may keep its lobbies longer.
    await service.set_guild_settings(GUILD, MOD, moderator=True, lobby_expiry=timedelta(days=3))
    clock.advance(hours=30)
    assert await service.lobby.expire_lobbies() == []
    assert (await service.guild_settings(GUILD)).lobby_expiry == timedelta(days=3)


async def test_games_are_only_opened_in_a_server(service: GameService) -> None:
    await refused("guild_only", service.lobby.create_game(0, CHANNEL, ALICE, "Alice", "covenant"))
    assert await service.play.game_in(CHANNEL) is None


async def test_a_setting_that_changes_nothing_is_not_logged(service: GameService) -> None:
    await service.set_guild_settings(GUILD, MOD, moderator=True, pace="fast")
    await service.set_guild_settings(GUILD, MOD, moderator=True, pace="fast")
    await service.set_guild_settings(GUILD, MOD, moderator=True)
    assert [e.act for e in await service.moderation.log(GUILD)] == ["settings"]


# ---------------------------------------------------------------- damage


async def test_a_current_seat_outside_the_seats_marks_the_game_damaged(
    service: GameService, raw: RawDb
) -> None:
    game = await started_game(service, deck=SCRIPTED_DECK)
    await play_one(service, game.id)
    await raw.execute("UPDATE games SET current_seat = 7 WHERE id = ?", game.id)
    error = await refused("game_damaged", service.play.state(game.id))
    assert "seat 7" in error.params["reason"]
    assert [g.id for g in await service.moderation.damaged_games(GUILD)] == [game.id]


async def test_a_snapshot_that_disagrees_with_its_digest_is_passed_over(
    open_service: Opener, raw: RawDb
) -> None:
    service = await open_service(snapshot_every=2)
    game = await started_game(service, deck=SCRIPTED_DECK)
    for _ in range(6):
        await play_one(service, game.id)
    _, honest = await service.play.state(game.id)
    rows = await raw.rows("SELECT version, state FROM snapshots")
    assert rows
    for version, state in rows:
        forged = json.loads(state)
        forged["scores"] = [999] * len(forged["scores"])
        await raw.execute(
            "UPDATE snapshots SET state = ? WHERE game_id = ? AND version = ?",
            json.dumps(forged),
            game.id,
            version,
        )
    service.forget()
    record, replayed = await service.play.state(game.id)
    assert record.status == "active"
    assert replayed.scores == honest.scores and 999 not in replayed.scores


# ---------------------------------------------------------------- storage faults


@pytest.mark.sqlite_only("a full disk is simulated with SQLite's max_page_count")
async def test_a_full_disk_reports_the_full_disk(service: GameService) -> None:
    game = await started_game(service, seed=3)
    pages = await service.storage.statements.scalar("PRAGMA page_count")
    await service.storage.statements.execute(f"PRAGMA max_page_count = {pages}")
    # The log outgrows the pages left; the error says so (not "cannot rollback").
    with pytest.raises(sqlite3.OperationalError, match="full"):
        for _ in range(500):
            await play_one(service, game.id, policy="sensible")
    await service.storage.statements.execute("PRAGMA max_page_count = 1073741823")
    # Nothing half-written: the game goes on from where the log stands.
    service.forget()
    record, _ = await service.play.state(game.id)
    assert record.version == len(await service.history.actions(game.id))


async def test_an_unusable_database_file_is_named_with_what_to_do(tmp_path: Path) -> None:
    # A SQLite file's own faults (no database fixture: runs once).
    empty = tmp_path / "empty.sqlite3"
    empty.write_bytes(b"")
    with pytest.raises(StorageError, match=r"empty \(0 bytes\).*backup"):
        await GameService.open(empty)
    junk = tmp_path / "junk.sqlite3"
    junk.write_bytes(b"these are not the pages of a database" * 200)
    with pytest.raises(StorageError, match=r"junk\.sqlite3 cannot be used"):
        await GameService.open(junk)
    with pytest.raises(StorageError, match=r"folder .* does not exist"):
        await GameService.open(tmp_path / "nowhere" / "db.sqlite3")
    # A new file is fine, and then it is not empty any more.
    fresh = await GameService.open(tmp_path / "new.sqlite3")
    await fresh.close()
    assert (tmp_path / "new.sqlite3").stat().st_size > 0
    async with aiosqlite.connect(tmp_path / "new.sqlite3") as raw:
        assert (await (await raw.execute("PRAGMA user_version")).fetchone())[0] > 0


# ---------------------------------------------------------------- practice games (issue 41)


async def test_a_learner_begins_one_practice_game_at_once_and_then_after_the_cool_down(
    service: GameService, clock: FakeClock
) -> None:
    """Five ``/table learn`` of one learner at the same moment: one begins, the others are
    told to wait, decided before any thread is made; then the cool-down of opening a table."""
    began = await asyncio.gather(
        *(service.learning.begin(ALICE) for _ in range(5)), return_exceptions=True
    )
    assert began.count(None) == 1, began
    waits = [(e.code, e.params) for e in began if isinstance(e, ServiceError)]
    assert waits == [("practice_cooldown", {"seconds": 20})] * 4
    clock.advance(seconds=19)
    error = await refused("practice_cooldown", service.learning.begin(ALICE))
    assert error.params == {"seconds": 1}
    await service.learning.begin(BOB)  # another learner is not held back
    clock.advance(seconds=1)
    await service.learning.begin(ALICE)
    await service.learning.open(GUILD, CHANNEL, ALICE, "Alice", "covenant", {}, language="en")
    clock.advance(minutes=5)
    await refused("practice_going", service.learning.begin(ALICE))
