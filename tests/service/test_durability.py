"""Restarts, crashes, races and damage: the log stays whole and each game stays itself."""

from __future__ import annotations

import asyncio
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from bot.service import SCHEMA_VERSION, FakeClock, GameService, ServiceError
from engine.common import Rng
from engine.covenant import PlaceTile
from tests.service.conftest import (
    ALICE,
    BOB,
    GUILD,
    MOD,
    SCRIPTED_DECK,
    Opener,
    play_one,
    play_to_end,
    started_game,
)
from tests.support.databases import RawDb

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.sqlite_only("the pragmas are SQLite's")
async def test_sqlite_pragmas(service: GameService) -> None:
    db = service.storage.statements
    assert await db.scalar("PRAGMA journal_mode") == "wal"
    assert await db.scalar("PRAGMA foreign_keys") == 1


async def test_migrations(service: GameService, open_service: Opener, raw: RawDb) -> None:
    assert await raw.schema_version() == SCHEMA_VERSION
    game = await started_game(service, deck=SCRIPTED_DECK)
    await service.close()
    again = await open_service()  # migrating an up-to-date database is a no-op
    assert await raw.schema_version() == SCHEMA_VERSION
    assert (await again.play.get_game(game.id)).status == "active"


async def test_newer_schema_is_refused(
    db_target: str | Path, service: GameService, raw: RawDb
) -> None:
    await service.close()
    await raw.set_schema_version(SCHEMA_VERSION + 1)
    with pytest.raises(RuntimeError, match="newer"):
        await GameService.open(db_target)


async def test_restart_in_the_middle_continues_identically(open_service: Opener) -> None:
    # One uninterrupted game ...
    straight = await open_service()
    game = await started_game(straight, channel=1, seed=33)
    rng = Rng(4)
    reference = await play_to_end(straight, game.id, policy="sensible", rng=rng)
    reference_log = [(a.seat, a.action) for a in await straight.history.actions(game.id)]
    # ... and the same game with the service closed and reopened after 40 actions.
    first = await open_service()
    other = await started_game(first, channel=2, seed=33)
    rng = Rng(4)
    for _ in range(40):
        await play_one(first, other.id, policy="sensible", rng=rng)
    await first.close()
    second = await open_service()
    resumed = await second.play.get_game(other.id)
    assert resumed.version == 40 and resumed.status == "active"
    final = await play_to_end(second, other.id, policy="sensible", rng=rng)
    assert final.scores == reference.scores
    assert [(a.seat, a.action) for a in await second.history.actions(other.id)] == reference_log


async def test_snapshots_speed_up_but_are_only_a_cache(open_service: Opener, raw: RawDb) -> None:
    service = await open_service(snapshot_every=8)
    game = await started_game(service, seed=2)
    for _ in range(20):
        await play_one(service, game.id, policy="sensible")
    versions = [r[0] for r in await raw.rows("SELECT version FROM snapshots")]
    assert versions and all(v % 8 in (0, 1) for v in versions)  # bots may add one action
    _, expected = await service.play.state(game.id)
    await raw.execute("UPDATE snapshots SET state = '{broken'")
    service.forget()
    record, replayed = await service.play.state(game.id)
    assert record.status == "active" and replayed.to_json() == expected.to_json()


async def test_crash_before_commit_writes_nothing(service: GameService) -> None:
    game = await started_game(service, deck=SCRIPTED_DECK)
    await service.play.act(game.id, ALICE, PlaceTile(-1, 0))

    def crash() -> None:
        raise KeyboardInterrupt("the power went out")

    service.storage.before_commit = crash
    _, engine = await service.play.state(game.id)
    with pytest.raises(KeyboardInterrupt):
        await service.play.act(game.id, ALICE, engine.legal_actions()[0], expected_version=1)
    service.storage.before_commit = None
    record = await service.play.get_game(game.id)
    assert record.version == 1 and len(await service.history.actions(game.id)) == 1
    # The in-memory game did not run ahead of the database: the same move plays now.
    result = await service.play.act(game.id, ALICE, engine.legal_actions()[0], expected_version=1)
    assert result.record.version == 2


async def test_process_killed_between_write_and_commit(
    db_target: str | Path, service: GameService
) -> None:
    """A real crash: another process writes an action and dies before COMMIT."""
    game = await started_game(service, deck=SCRIPTED_DECK)
    await service.close()
    script = textwrap.dedent(
        f"""
        import asyncio, os
        from bot.service import GameService
        from engine.covenant import PlaceTile

        async def main():
            service = await GameService.open({str(db_target)!r})
            service.storage.before_commit = lambda: os._exit(17)
            await service.play.act({game.id}, {ALICE}, PlaceTile(-1, 0), expected_version=0)

        asyncio.run(main())
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 17, done.stderr
    reopened = await GameService.open(db_target)
    try:
        assert (await reopened.play.get_game(game.id)).version == 0
        assert await reopened.history.actions(game.id) == []
        result = await reopened.play.act(game.id, ALICE, PlaceTile(-1, 0), expected_version=0)
        assert result.record.version == 1
    finally:
        await reopened.close()


async def test_two_clicks_on_the_same_turn(service: GameService) -> None:
    game = await started_game(service, deck=SCRIPTED_DECK)
    outcomes = await asyncio.gather(
        service.play.act(game.id, ALICE, PlaceTile(-1, 0), expected_version=0),
        service.play.act(game.id, ALICE, PlaceTile(-1, 0), expected_version=0),
        return_exceptions=True,
    )
    wins = [o for o in outcomes if not isinstance(o, BaseException)]
    losses = [o for o in outcomes if isinstance(o, ServiceError)]
    assert len(wins) == 1 and len(losses) == 1 and losses[0].code == "stale"
    assert (await service.play.get_game(wins[0].record.id)).version == 1


async def test_two_service_instances_on_one_file(open_service: Opener) -> None:
    one = await open_service()
    two = await open_service()
    game = await started_game(one, deck=SCRIPTED_DECK)
    await two.play.state(game.id)  # two caches the game at version 0
    first, second = await asyncio.gather(
        one.play.act(game.id, ALICE, PlaceTile(-1, 0), expected_version=0),
        two.play.act(game.id, ALICE, PlaceTile(-1, 0), expected_version=0),
        return_exceptions=True,
    )
    outcomes = [first, second]
    assert sum(isinstance(o, ServiceError) and o.code == "stale" for o in outcomes) == 1
    assert sum(not isinstance(o, BaseException) for o in outcomes) == 1
    # Each instance continues from the other's writes (its cache is checked, not trusted).
    _, engine = await two.play.state(game.id)
    await two.play.act(game.id, ALICE, engine.legal_actions()[0], expected_version=1)
    _, engine = await one.play.state(game.id)
    assert engine.current_player == 1
    result = await one.play.act(game.id, BOB, engine.legal_actions()[0], expected_version=2)
    assert result.record.version == 3
    assert len(await two.history.actions(game.id)) == 3


@pytest.mark.parametrize(
    "damage",
    [
        "UPDATE actions SET action = '{not json' WHERE game_id = ? AND seq = 2",
        """UPDATE actions SET action = '{"type": "place_tile", "x": 40, "y": 40}'
           WHERE game_id = ? AND seq = 3""",
        "DELETE FROM actions WHERE game_id = ? AND seq = 2",
        "UPDATE games SET options = 'oops' WHERE id = ?",
    ],
    ids=["bad-json", "refused-on-replay", "missing-row", "bad-options"],
)
async def test_a_damaged_game_stops_alone(open_service: Opener, raw: RawDb, damage: str) -> None:
    service = await open_service()
    broken = await started_game(service, channel=1, seed=1)
    healthy = await started_game(service, channel=2, seed=2)
    for _ in range(4):
        await play_one(service, broken.id, policy="sensible")
        await play_one(service, healthy.id, policy="sensible")
    await service.close()
    await raw.execute(damage, broken.id)
    service = await open_service()
    with pytest.raises(ServiceError) as error:
        await play_one(service, broken.id)
    assert error.value.code == "game_damaged" and error.value.params["reason"]
    record = await service.play.get_game(broken.id)
    assert record.status == "error" and record.error
    assert [g.id for g in await service.moderation.damaged_games(GUILD)] == [broken.id]
    with pytest.raises(ServiceError) as error:
        await service.play.act(1, ALICE, {"type": "pass"})
    assert error.value.code == "game_damaged"
    # The other game goes on.
    for _ in range(4):
        await play_one(service, healthy.id, policy="sensible")
    assert (await service.play.get_game(healthy.id)).version >= 8
    # A moderator ends the damaged game, which frees its channel.
    ended = await service.moderation.end_game(1, MOD, moderator=True, reason="damaged")
    assert ended.status == "ended"
    assert (await service.lobby.create_game(GUILD, 1, BOB, "Bob", "covenant")).status == "lobby"


async def test_foreign_keys_are_enforced(service: GameService, raw: RawDb) -> None:
    with pytest.raises(raw.integrity_errors):
        await raw.execute(
            "INSERT INTO actions (game_id, seq, seat, source, action, created_at) "
            "VALUES (12345, 1, 0, 'player', '{}', 0)"
        )


async def test_a_finished_game_keeps_its_log_but_drops_its_caches(
    open_service: Opener, clock: FakeClock, raw: RawDb
) -> None:
    service = await open_service(snapshot_every=4)
    game = await started_game(service, deck=SCRIPTED_DECK)
    for _ in range(4):
        await play_one(service, game.id)
    # A reminder goes out for the waiting player: one notice row.
    clock.advance(hours=37)  # half the three days of the bank
    (due,) = await service.notices.due()
    assert await service.notices.claim(due)
    await service.notices.mark_sent(due)
    for table in ("snapshots", "notices"):
        count = await raw.scalar(f"SELECT COUNT(*) FROM {table} WHERE game_id = ?", game.id)
        assert count >= 1, table
    final = await play_to_end(service, game.id)
    for table in ("snapshots", "notices"):
        count = await raw.scalar(f"SELECT COUNT(*) FROM {table} WHERE game_id = ?", game.id)
        assert count == 0, table
    assert len(await service.history.actions(game.id)) == final.record.version
    # The log still rebuilds the finished game exactly.
    service.forget()
    _, replayed = await service.play.state(game.id)
    assert replayed.scores == final.scores


async def test_message_ids_posted_before_a_move_are_written_with_it(
    open_service: Opener,
) -> None:
    # The lobby's message and the first board are known in memory only (no write of their
    # own); the first move writes them, and a restart still finds both.
    first = await open_service()
    game = await started_game(first, channel=3, seed=5)
    first.posts.posted(game.id, lobby_message_id=777)
    first.posts.posted(game.id, 0, board=(3, 888))
    await play_one(first, game.id, policy="sensible", rng=Rng(1))
    shown = first.posts.shown(await first.play.get_game(game.id))
    assert (shown.lobby_message_id, shown.board_message_id, shown.board_channel_id) == (777, 888, 3)
    await first.close()
    second = await open_service()
    again = await second.play.get_game(game.id)
    assert (again.lobby_message_id, again.board_message_id) == (777, 888)
