"""Both backends: the same schema, the right backend for ``ARKBOT_DB``, and what several bot
processes on one database rely on (each ``GameService`` here stands for one process: its own
connections, cache and claims)."""

from __future__ import annotations

import asyncio
from datetime import timedelta
from pathlib import Path

import pytest

from bot.service import FakeClock, GameService
from bot.service.storage import StorageError, open_storage, postgres_schema, sqlite_schema
from bot.settings import Settings
from tests.service.conftest import (
    ALICE,
    BOB,
    CAROL,
    DAVE,
    GUILD,
    SCRIPTED_DECK,
    Opener,
    play_one,
)
from tests.support.databases import RawDb, database, fresh_schema

#: Guilds on shard 1 and shard 0 of two (Discord: shard = (guild_id >> 22) % count).
ODD_GUILD, EVEN_GUILD = 1 << 22, 2 << 22


def sharded(ids: tuple[int, ...], count: int = 2) -> Settings:
    return Settings(shard_count=count, shard_ids=ids)


# ---------------------------------------------------------------- the schema


def test_both_backends_number_their_migrations_alike() -> None:
    assert postgres_schema.SCHEMA_VERSION == sqlite_schema.SCHEMA_VERSION


async def _sqlite_schema(path: Path) -> tuple[dict[str, dict[str, bool]], set[str]]:
    raw = RawDb(path)
    tables: dict[str, dict[str, bool]] = {}
    names = "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
    for (table,) in await raw.rows(names):
        columns = await raw.rows(f"PRAGMA table_info({table})")
        # A primary key column is NOT NULL in PostgreSQL whatever it says; in SQLite too
        # for INTEGER PRIMARY KEY and WITHOUT ROWID tables, which are all the keys here.
        tables[table] = {c[1]: bool(c[3] or c[5]) for c in columns}
    indexes = await raw.rows(
        "SELECT name FROM sqlite_master WHERE type = 'index' AND name NOT LIKE 'sqlite_%'"
    )
    return tables, {i[0] for i in indexes}


async def _postgres_schema(url: str) -> tuple[dict[str, dict[str, bool]], set[str]]:
    raw = RawDb(url)
    tables: dict[str, dict[str, bool]] = {}
    columns = await raw.rows(
        "SELECT table_name, column_name, is_nullable FROM information_schema.columns "
        "WHERE table_schema = current_schema() AND table_name <> 'arkbot_schema'"
    )
    for table, column, nullable in columns:
        tables.setdefault(table, {})[column] = nullable == "NO"
    indexes = await raw.rows(
        "SELECT indexname FROM pg_indexes WHERE schemaname = current_schema() "
        "AND indexname NOT LIKE '%_pkey'"
    )
    return tables, {i[0] for i in indexes}


async def test_the_two_schemas_are_the_same(tmp_path: Path) -> None:
    """Same tables, columns (and which may be NULL) and indexes: a migration added to one
    backend only is caught here."""
    async with fresh_schema() as url:
        for target in (tmp_path / "schema.sqlite3", url):
            await (await open_storage(target)).close()
        sqlite_tables, sqlite_indexes = await _sqlite_schema(tmp_path / "schema.sqlite3")
        postgres_tables, postgres_indexes = await _postgres_schema(url)
    assert postgres_tables == sqlite_tables
    assert postgres_indexes == sqlite_indexes
    assert "lease_until" in sqlite_tables["games"]


# ---------------------------------------------------------------- choosing and opening


async def test_arkbot_db_chooses_the_backend(tmp_path: Path) -> None:
    from bot.service.storage.postgres import PostgresStorage
    from bot.service.storage.sqlite import SqliteStorage

    file = await open_storage(tmp_path / "x.sqlite3")
    assert isinstance(file, SqliteStorage)
    await file.close()
    async with fresh_schema() as url:
        server = await open_storage(url)
        assert isinstance(server, PostgresStorage)
        await server.close()
        assert server.closed


async def test_an_unreachable_server_is_named_without_its_password() -> None:
    with pytest.raises(StorageError, match=r"cannot connect .*ARKBOT_DB") as error:
        await open_storage("postgresql://arkbot:secret@127.0.0.1:1/arkbot")
    assert "secret" not in str(error.value) and "arkbot:***@127.0.0.1:1" in str(error.value)


async def test_a_schema_that_does_not_exist_is_named() -> None:
    async with fresh_schema() as url:
        missing = url.replace("search_path=", "search_path=nowhere_")
        with pytest.raises(StorageError, match="names no schema"):
            await open_storage(missing)


async def test_processes_starting_at_once_migrate_once(backend: str, tmp_path: Path) -> None:
    async with database(backend, tmp_path) as target:
        opened = await asyncio.gather(*(GameService.open(target) for _ in range(3)))
        try:
            games = [
                await service.lobby.create_game(GUILD, 10 + i, ALICE + i, "P", "covenant", seed=i)
                for i, service in enumerate(opened)
            ]
            assert len({g.id for g in games}) == 3
        finally:
            for service in opened:
                await service.close()


# ---------------------------------------------------------------- several processes


async def test_joins_from_two_processes_at_once_all_land(open_service: Opener) -> None:
    """Two lobby writes to one game never interleave: every join keeps the others'."""
    one, two = await open_service(), await open_service()
    lobby = await one.lobby.create_game(GUILD, 1, ALICE, "Alice", "covenant", seed=1)
    joins = [(one, BOB, "Bob"), (two, CAROL, "Carol"), (two, DAVE, "Dave")]
    await asyncio.gather(*(service.lobby.join(1, user, name) for service, user, name in joins))
    seats = (await two.play.get_game(lobby.id)).seats
    assert sorted(s.user_id for s in seats) == [ALICE, BOB, CAROL, DAVE]
    assert [s.index for s in seats] == [0, 1, 2, 3]


async def test_a_channel_gets_one_game_when_two_processes_open_one(open_service: Opener) -> None:
    one, two = await open_service(), await open_service()
    outcomes = await asyncio.gather(
        one.lobby.create_game(GUILD, 7, ALICE, "Alice", "covenant"),
        two.lobby.create_game(GUILD, 7, BOB, "Bob", "covenant"),
        return_exceptions=True,
    )
    refused = [o for o in outcomes if isinstance(o, Exception)]
    assert len(refused) == 1 and getattr(refused[0], "code", None) == "channel_busy"
    assert (await one.play.game_in(7)) is not None


async def _unannounced_games(service: GameService, clock: FakeClock, count: int) -> list[int]:
    ids = []
    for channel in range(count):
        await service.lobby.create_game(
            GUILD, 100 + channel, ALICE + channel, "P", "covenant", options={"deck": SCRIPTED_DECK}
        )
        await service.lobby.join(100 + channel, BOB + 10 * channel + 100, "Q")
        ids.append((await service.lobby.start(100 + channel, ALICE + channel)).id)
        clock.advance(seconds=21)  # past the cool-down between tables
    clock.advance(minutes=3)  # past the grace: nobody has seen these boards
    return ids


async def test_a_missed_post_is_claimed_by_one_process(
    open_service: Opener, clock: FakeClock
) -> None:
    lease = timedelta(seconds=30)
    one = await open_service(settings=Settings(claim_lease=lease))
    two = await open_service(settings=Settings(claim_lease=lease))
    games = await _unannounced_games(one, clock, 4)
    first, second = await asyncio.gather(one.posts.claim_missed(), two.posts.claim_missed())
    mine, theirs = {r.id for r in first}, {r.id for r in second}
    assert mine | theirs == set(games) and not mine & theirs
    # Claimed: nobody else gets them while the lease holds (and nothing is lost: after it
    # runs out, a process that died with them has them posted by another).
    assert await two.posts.claim_missed() == [] and await one.posts.claim_missed() == []
    await one.posts.mark_announced(games[0], 0)
    clock.advance(seconds=31)
    assert sorted(r.id for r in await two.posts.claim_missed()) == games[1:]


async def test_expired_lobbies_are_closed_once(open_service: Opener, clock: FakeClock) -> None:
    one, two = await open_service(), await open_service()
    for channel in range(5):
        await one.lobby.create_game(GUILD, 200 + channel, ALICE + channel, "P", "covenant")
    clock.advance(hours=25)
    first, second = await asyncio.gather(one.lobby.expire_lobbies(), two.lobby.expire_lobbies())
    closed = [r.id for r in first] + [r.id for r in second]
    assert len(closed) == 5 == len(set(closed))
    assert await one.lobby.expire_lobbies() == [] and await two.lobby.expire_lobbies() == []


async def test_background_work_stays_on_the_processes_shards(
    open_service: Opener, clock: FakeClock
) -> None:
    even = await open_service(settings=sharded((0,)))
    odd = await open_service(settings=sharded((1,)))
    both = await open_service(settings=sharded((0, 1)))
    games = {}
    for guild, channel in ((EVEN_GUILD, 301), (ODD_GUILD, 302)):
        await even.lobby.create_game(
            guild, channel, ALICE, "Alice", "covenant", options={"deck": SCRIPTED_DECK}
        )
        await even.lobby.join(channel, BOB, "Bob")
        games[guild] = (await even.lobby.start(channel, ALICE)).id
        clock.advance(seconds=21)
    lobby = await even.lobby.create_game(ODD_GUILD, 303, CAROL, "Carol", "covenant")
    even.posts.posted(lobby.id, lobby_message_id=3030)  # its message went out
    await even.posts.flush_posted()
    clock.advance(hours=37)  # reminders due (half of 3 days), boards missed, lobby expired
    assert [d.record.id for d in await even.notices.due()] == [games[EVEN_GUILD]]
    assert [d.record.id for d in await odd.notices.due()] == [games[ODD_GUILD]]
    assert len(await both.notices.due()) == 2  # all shards in one process: every guild
    assert [r.id for r in await odd.posts.unannounced()] == [games[ODD_GUILD]]
    assert [r.id for r in await even.posts.claim_missed()] == [games[EVEN_GUILD]]
    assert await even.lobby.expire_lobbies() == []
    assert [r.channel_id for r in await odd.lobby.expire_lobbies()] == [303]


async def test_a_claim_ends_with_its_post_or_the_next_move(
    open_service: Opener, clock: FakeClock
) -> None:
    """A lease keeps others off the one post it was taken for: once that post is recorded,
    or the game moves on, the next missed post is anyone's at once, not after the lease."""
    one, two = await open_service(), await open_service()
    first, second = await _unannounced_games(one, clock, 2)
    assert {r.id for r in await one.posts.claim_missed()} == {first, second}
    one.posts.posted(first, 0)  # the first board went out
    await one.posts.flush_posted()
    for game in (first, second):  # a whole turn in each, stored but not shown
        seat = (await two.play.get_game(game)).current_seat
        while (await two.play.get_game(game)).current_seat == seat:
            await play_one(two, game)
    clock.advance(minutes=3)
    assert {r.id for r in await two.posts.claim_missed()} == {first, second}


async def test_a_read_sees_one_moment_while_another_process_moves(open_service: Opener) -> None:
    """A game and its log read together agree, even when another process stores a move in
    between: on SQLite the reads once ran one by one, and a move landing between them made
    the reader take the game for damaged and stop it."""
    one, two = await open_service(), await open_service()
    lobby = await one.lobby.create_game(GUILD, 1, ALICE, "Alice", "covenant", seed=1)
    await one.lobby.join(1, BOB, "Bob")
    await one.lobby.start(1, ALICE)
    await play_one(two, lobby.id)
    async with one.storage.read() as tx:
        before = await tx.games.get(lobby.id)
        await play_one(two, lobby.id)  # another process moves; its write commits
        assert before == await tx.games.get(lobby.id)
        assert len(await tx.log.actions(lobby.id)) == 1
    async with one.storage.read() as tx:
        after = await tx.games.get(lobby.id)
        assert len(await tx.log.actions(lobby.id)) == 2
    assert before is not None and after is not None and after.version > before.version
    record, _game = await one.play.state(lobby.id)  # and nothing took the game for damaged
    assert record.status == "active"


async def test_a_process_knows_whether_any_game_of_its_shards_is_open(
    open_service: Opener,
) -> None:
    """What decides whether the picture workers warm up as the bot starts."""
    even = await open_service(settings=sharded((0,)))
    odd = await open_service(settings=sharded((1,)))
    assert not await even.any_game_open() and not await odd.any_game_open()
    await even.lobby.create_game(
        EVEN_GUILD, 311, ALICE, "Alice", "covenant", options={"deck": SCRIPTED_DECK}
    )
    assert await even.any_game_open()  # a lobby
    assert not await odd.any_game_open()  # another shard's
    await even.lobby.join(311, BOB, "Bob")
    await even.lobby.start(311, ALICE)
    assert await even.any_game_open()  # under way
    await even.lobby.create_game(ODD_GUILD, 312, CAROL, "Carol", "covenant")
    assert await odd.any_game_open()
    await odd.lobby.leave(312, CAROL)  # the last one out: the lobby closes
    assert not await odd.any_game_open()
